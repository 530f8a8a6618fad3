// Route for the day: POST /api/route (straight lines, OSRM road distances from a local fake, fallback) and
// visits that count (POST /api/call-logs with the phone's position, GET /api/visits). Runs on SQLite and
// PostgreSQL.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haversineMiles } from '../../src/core/geo.js';
import type { RouteAnswer, VisitsAnswer } from '../../src/core/api/route.js';
import type { CallLog } from '../../src/core/api/lists.js';
import { recordTeamProspects } from '../../src/server/scans/team-list.js';
import { BLOCKED_REASON, NOT_FOUND_REASON } from '../../src/server/route/positions.js';
import { NOTHING_TO_ROUTE } from '../../src/server/route/service.js';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';

const START = { lat: 33.5, lng: -86.8 };
/** A degree of latitude in miles on the product's sphere (3959 mi). */
const MILES_PER_LAT_DEGREE = (3959 * Math.PI) / 180;

/** A business `miles` north of START (positions on one line make the optimum obvious). */
const business = (id: string, milesNorth: number, over: Record<string, unknown> = {}) => ({
  id,
  name: `Stop ${id}`,
  category: 'Dental',
  address: `${id} Main St`,
  city: 'Birmingham',
  state: 'AL',
  zip: '35203',
  lat: START.lat + milesNorth / MILES_PER_LAT_DEGREE,
  lng: START.lng,
  openNow: true,
  reviews: 0,
  source: 'local',
  distance: 0,
  score: 0.5,
  types: ['dentist'],
  ...over,
});

const save = async (t: TestContext, as: TestUser, p: Record<string, unknown>) => {
  const res = await t.request({ method: 'POST', url: '/api/saved', payload: { prospect: p }, as });
  expect(res.statusCode).toBeLessThan(300);
};
const route = (t: TestContext, as: TestUser, payload: unknown) =>
  t.request({ method: 'POST', url: '/api/route', payload: payload as Record<string, unknown>, as });

describe('POST /api/route: straight lines', () => {
  let t: TestContext;
  let rep: TestUser;
  let other: TestUser;
  let admin: TestUser;
  beforeAll(async () => {
    t = await createTestContext({ PLACE_PROVIDERS: 'demo', SCAN_COOLDOWN_MS: '0' });
    [rep, other, admin] = [await t.newUser(), await t.newUser(), await t.newUser('admin')];
    // Eight saved businesses 1..8 miles north, saved in a shuffled order.
    for (const m of [5, 2, 8, 1, 7, 3, 6, 4]) await save(t, rep, business(`s${m}`, m));
  });
  afterAll(() => t.close());

  it('orders 8 saved stops nearest first, with leg and total miles and the map links', async () => {
    const res = await route(t, rep, {
      start: START,
      prospectIds: ['s5', 's2', 's8', 's1', 's7', 's3', 's6', 's4'],
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<RouteAnswer>();
    expect(body.source).toBe('straight');
    expect(body.note).toBeUndefined();
    expect(body.stops.map((s) => s.prospectId)).toEqual(['s1', 's2', 's3', 's4', 's5', 's6', 's7', 's8']);
    for (const s of body.stops) expect(s.legMiles).toBeCloseTo(1, 2);
    expect(body.totalMiles).toBeCloseTo(8, 1);
    expect(body.stops[0]).toMatchObject({
      name: 'Stop s1',
      address: 's1 Main St, Birmingham, AL 35203',
      legMinutes: null,
    });
    expect(body.totalMinutes).toBeNull();
    expect(body.dropped).toEqual([]);
    expect(body.links.filter((l) => l.service === 'google')).toHaveLength(1);
    expect(body.links.filter((l) => l.service === 'apple')).toHaveLength(8);
    expect(body.links.filter((l) => l.service === 'waze')).toHaveLength(8);
    const google = new URL(body.links[0]!.url);
    expect(google.searchParams.get('origin')).toBe('33.500000,-86.800000');
    expect(google.searchParams.get('waypoints')!.split('|')).toHaveLength(7);
  });

  it('routes the rep latest results (a demo scan) and drops what the rep cannot see', async () => {
    const scan = await t.request({
      method: 'POST',
      url: '/api/scans',
      payload: { ...START, radiusMiles: 1, count: 10, categories: [] },
      as: rep,
    });
    expect(scan.statusCode).toBe(200);
    const ids = scan
      .json<{ prospects: { id: string; lat: number; lng: number }[] }>()
      .prospects.map((p) => p.id);
    expect(ids.length).toBeGreaterThanOrEqual(5);
    const res = await route(t, rep, { start: START, prospectIds: [...ids.slice(0, 5), 'nowhere'] });
    expect(res.statusCode).toBe(200);
    const body = res.json<RouteAnswer>();
    expect(new Set(body.stops.map((s) => s.prospectId))).toEqual(new Set(ids.slice(0, 5)));
    expect(body.dropped).toEqual([{ prospectId: 'nowhere', reason: NOT_FOUND_REASON }]);
    // The legs add up to the total, and each leg is the straight line between its ends.
    let at = START;
    let sum = 0;
    for (const s of body.stops) {
      expect(s.legMiles).toBeCloseTo(haversineMiles(at, s), 2);
      sum += s.legMiles;
      at = s;
    }
    expect(body.totalMiles).toBeCloseTo(sum, 1);
  });

  it("another rep's saved business is not theirs to route: refused when nothing is left", async () => {
    const res = await route(t, other, { start: START, prospectIds: ['s1', 's2'] });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: string }>().error).toBe(
      `${NOTHING_TO_ROUTE} s1: ${NOT_FOUND_REASON}; s2: ${NOT_FOUND_REASON}`,
    );
  });

  it('a blocked business is dropped with its reason', async () => {
    const blocked = await t.request({
      method: 'POST',
      url: '/api/blocklist',
      payload: { businessId: 's8', label: 'Stop s8' },
      as: admin,
    });
    expect(blocked.statusCode).toBe(201);
    const body = (await route(t, rep, { start: START, prospectIds: ['s7', 's8'] })).json<RouteAnswer>();
    expect(body.stops.map((s) => s.prospectId)).toEqual(['s7']);
    expect(body.dropped).toEqual([{ prospectId: 's8', reason: BLOCKED_REASON }]);
    await t.request({ method: 'DELETE', url: '/api/blocklist/s8', as: admin });
  });

  it("a business of the team's copy: routable by a rep who logged a call on it, and by admins", async () => {
    await recordTeamProspects(t.db.kysely, admin.id, [business('team1', 2.5) as never]);
    const before = await route(t, other, { start: START, prospectIds: ['team1'] });
    expect(before.statusCode).toBe(400);
    const logged = await t.request({
      method: 'POST',
      url: '/api/call-logs',
      payload: { prospectId: 'team1', name: 'Stop team1', outcome: 'Called' },
      as: other,
    });
    expect(logged.statusCode).toBe(201);
    const after = await route(t, other, { start: START, prospectIds: ['team1'] });
    expect(after.statusCode).toBe(200);
    expect(after.json<RouteAnswer>().stops[0]!.legMiles).toBeCloseTo(2.5, 2);
    expect((await route(t, admin, { start: START, prospectIds: ['team1'] })).statusCode).toBe(200);
  });

  it('validates the body: 1 to 50 ids, a start on the globe', async () => {
    const cases: [unknown, RegExp][] = [
      [{ start: START, prospectIds: [] }, /prospectIds/],
      [{ start: START, prospectIds: Array.from({ length: 51 }, (_, i) => `x${i}`) }, /prospectIds/],
      [{ start: { lat: 91, lng: 0 }, prospectIds: ['s1'] }, /start\.lat/],
      [{ start: { lat: 0, lng: -181 }, prospectIds: ['s1'] }, /start\.lng/],
      [{ start: { lat: '33', lng: 0 }, prospectIds: ['s1'] }, /start\.lat/],
      [{ prospectIds: ['s1'] }, /start/],
      [{ start: START, prospectIds: ['  '] }, /prospectIds/],
      [{ start: START, prospectIds: 's1' }, /prospectIds/],
    ];
    for (const [payload, message] of cases) {
      const res = await route(t, rep, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json<{ error: string }>().error).toMatch(message);
    }
    expect((await route(t, null as never, { start: START, prospectIds: ['s1'] })).statusCode).toBe(401);
  });

  it('takes 50 stops, and duplicates count once', async () => {
    for (let i = 9; i <= 30; i++) await save(t, rep, business(`s${i}`, i / 3));
    const ids = Array.from({ length: 30 }, (_, i) => `s${i + 1}`);
    const res = await route(t, rep, { start: START, prospectIds: [...ids, ...ids.slice(0, 20)] });
    expect(res.statusCode).toBe(200);
    const body = res.json<RouteAnswer>();
    expect(body.stops).toHaveLength(30);
    expect(body.links.filter((l) => l.service === 'google').map((l) => l.label)).toEqual([
      'Google Maps: stops 1–10',
      'Google Maps: stops 11–20',
      'Google Maps: stops 21–30',
    ]);
  });

  describe('visits that count', () => {
    // s1 is 1 mile north of START.
    const s1 = business('s1', 1);
    const logVisit = (as: TestUser, payload: Record<string, unknown>) =>
      t.request({
        method: 'POST',
        url: '/api/call-logs',
        payload: { prospectId: 's1', name: 'Stop s1', outcome: 'Visited', ...payload },
        as,
      });
    const north = (miles: number) => ({ lat: s1.lat + miles / MILES_PER_LAT_DEGREE, lng: s1.lng });

    it('verifies a visit logged within 0.1 mile with a good fix, and not outside or with a poor fix', async () => {
      const visitor = await t.newUser();
      await save(t, visitor, s1);
      const inside = await logVisit(visitor, {
        position: { ...north(0.08), accuracyM: 25 },
        timestamp: '2026-11-20T15:00:00.000Z',
      });
      expect(inside.statusCode).toBe(201);
      expect(inside.json<{ callLog: CallLog }>().callLog.verified).toBe(true);
      const outside = await logVisit(visitor, {
        position: { ...north(0.12), accuracyM: 25 },
        timestamp: '2026-11-20T17:00:00.000Z',
      });
      expect(outside.json<{ callLog: CallLog }>().callLog.verified).toBe(false);
      const poorFix = await logVisit(visitor, {
        position: { ...north(0), accuracyM: 500 },
        timestamp: '2026-11-20T16:00:00.000Z',
      });
      expect(poorFix.json<{ callLog: CallLog }>().callLog.verified).toBe(false);
      const noPosition = await logVisit(visitor, { timestamp: '2026-11-21T04:00:00.000Z' });
      expect(noPosition.statusCode).toBe(201);
      expect(noPosition.json<{ callLog: CallLog }>().callLog.verified).toBe(false);
      // A call is not a visit: a position sent with it verifies nothing.
      const call = await logVisit(visitor, { outcome: 'Called', position: { ...north(0), accuracyM: 5 } });
      expect(call.json<{ callLog: CallLog }>().callLog.verified).toBe(false);
      // The log keeps the flag.
      const logs = (await t.request({ method: 'GET', url: '/api/call-logs', as: visitor })).json<{
        callLogs: CallLog[];
      }>().callLogs;
      expect(logs.filter((l) => l.verified)).toHaveLength(1);

      // The day's visits, in the order they were logged (UTC day; 04:00 UTC on the 21st is the 20th in Chicago).
      const utc = await t.request({ method: 'GET', url: '/api/visits?date=2026-11-20', as: visitor });
      expect(utc.statusCode).toBe(200);
      const day = utc.json<VisitsAnswer>();
      expect(day.timeZone).toBe('UTC');
      expect(day.visits.map((v) => [v.visitedAt, v.verified])).toEqual([
        ['2026-11-20T15:00:00.000Z', true],
        ['2026-11-20T16:00:00.000Z', false],
        ['2026-11-20T17:00:00.000Z', false],
      ]);
      expect(day.visits[0]!.distanceMiles).toBeCloseTo(0.08, 3);
      expect(day.visits[2]!.distanceMiles).toBeCloseTo(0.12, 3);
      const chicago = (
        await t.request({
          method: 'GET',
          url: '/api/visits?date=2026-11-20&tz=America/Chicago',
          as: visitor,
        })
      ).json<VisitsAnswer>();
      expect(chicago.visits.map((v) => v.visitedAt)).toEqual([
        '2026-11-20T15:00:00.000Z',
        '2026-11-20T16:00:00.000Z',
        '2026-11-20T17:00:00.000Z',
        '2026-11-21T04:00:00.000Z',
      ]);
      expect(chicago.visits[3]!.distanceMiles).toBeNull();
      // Only one's own visits.
      const theirs = (
        await t.request({ method: 'GET', url: '/api/visits?date=2026-11-20', as: other })
      ).json<VisitsAnswer>();
      expect(theirs.visits).toEqual([]);
    });

    it('refuses a bad date or position', async () => {
      for (const url of ['/api/visits', '/api/visits?date=2026-02-30', '/api/visits?date=tomorrow']) {
        const res = await t.request({ method: 'GET', url, as: rep });
        expect(res.statusCode, url).toBe(400);
        expect(res.json<{ error: string }>().error).toMatch(/date/);
      }
      const res = await logVisit(rep, { position: { lat: 100, lng: 0, accuracyM: 5 } });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ error: string }>().error).toMatch(/position\.lat/);
    });
  });
});

/** A local server speaking OSRM's table service: distances (m) and durations (s) from a cost function. */
function fakeOsrm() {
  const state = {
    mode: 'ok' as 'ok' | 'error' | 'hang' | 'no-road' | 'garbage',
    requests: [] as string[],
    /** metres from point a to point b (asymmetric on purpose). */
    metres: (a: { lat: number; lng: number }, b: { lat: number; lng: number }) =>
      haversineMiles(a, b) * 1609.34 * (b.lat > a.lat ? 1 : 3),
  };
  const server: Server = createServer((req: IncomingMessage, res) => {
    state.requests.push(req.url ?? '');
    if (state.mode === 'hang') return; // never answers: the client's timeout must end it
    const match = /^\/table\/v1\/driving\/([^?]+)\?annotations=distance,duration$/.exec(req.url ?? '');
    res.setHeader('content-type', 'application/json');
    if (state.mode === 'error') {
      res.statusCode = 500;
      return res.end('{"message":"boom"}');
    }
    if (state.mode === 'garbage') return res.end('not json');
    if (!match) {
      res.statusCode = 400;
      return res.end(JSON.stringify({ code: 'InvalidUrl', message: 'bad url' }));
    }
    const points = match[1]!.split(';').map((c) => {
      const [lng, lat] = c.split(',').map(Number) as [number, number];
      return { lat, lng };
    });
    const distances = points.map((a, i) =>
      points.map((b, j) => (state.mode === 'no-road' && i === 0 && j === 1 ? null : state.metres(a, b))),
    );
    const durations = distances.map((row) => row.map((m) => (m === null ? null : m / 10)));
    res.end(JSON.stringify({ code: 'Ok', distances, durations, sources: [], destinations: [] }));
  });
  return { state, server };
}

describe('POST /api/route: road distances from an OSRM table service', () => {
  const osrm = fakeOsrm();
  let t: TestContext;
  let rep: TestUser;
  beforeAll(async () => {
    await new Promise<void>((resolve) => osrm.server.listen(0, '127.0.0.1', resolve));
    const { port } = osrm.server.address() as AddressInfo;
    t = await createTestContext({ ROUTING_URL: `http://127.0.0.1:${port}/`, ROUTING_TIMEOUT_MS: '300' });
    rep = await t.newUser();
    for (const m of [3, 1, 2]) await save(t, rep, business(`r${m}`, m));
  });
  afterAll(async () => {
    await t.close();
    osrm.server.closeAllConnections();
    await new Promise((resolve) => osrm.server.close(resolve));
  });

  it('asks the table service for every point as lng,lat and uses its distances and times', async () => {
    osrm.state.mode = 'ok';
    osrm.state.requests.length = 0;
    const res = await route(t, rep, { start: START, prospectIds: ['r3', 'r1', 'r2'] });
    expect(res.statusCode).toBe(200);
    const body = res.json<RouteAnswer>();
    expect(osrm.state.requests).toHaveLength(1);
    const coords = /driving\/([^?]+)/.exec(osrm.state.requests[0]!)![1]!.split(';');
    expect(coords[0]).toBe('-86.800000,33.500000');
    expect(coords).toHaveLength(4);
    expect(body.source).toBe('roads');
    expect(body.note).toBeUndefined();
    expect(body.stops.map((s) => s.prospectId)).toEqual(['r1', 'r2', 'r3']);
    for (const s of body.stops) {
      expect(s.legMiles).toBeCloseTo(1, 2);
      // 1 mile = 1609.34 m, at 10 m/s = 160.9 s = 2.68 min
      expect(s.legMinutes).toBeCloseTo(2.68, 1);
    }
    expect(body.totalMinutes).toBeCloseTo(8.0, 1); // 482.8 s, to a tenth of a minute
  });

  it('follows asymmetric road costs: going south costs three times as much', async () => {
    osrm.state.mode = 'ok';
    // From the middle (r2), straight lines would say r1 or r3 first is a tie; roads make north-first dearer in
    // total (north to r3, then 2 miles south at 3×) than south first (r1 at 3×, then north to r3).
    const middle = { lat: START.lat + 2 / MILES_PER_LAT_DEGREE, lng: START.lng };
    const body = (await route(t, rep, { start: middle, prospectIds: ['r1', 'r3'] })).json<RouteAnswer>();
    expect(body.stops.map((s) => s.prospectId)).toEqual(['r1', 'r3']);
    expect(body.totalMiles).toBeCloseTo(3 + 2, 1);
  });

  for (const [mode, why] of [
    ['error', /HTTP 500/],
    ['hang', /did not answer within 300 ms/],
    ['no-road', /no road/],
    ['garbage', /not a table/],
  ] as const) {
    it(`falls back to straight lines and says so when the routing server ${mode === 'hang' ? 'hangs' : `answers ${mode}`}`, async () => {
      osrm.state.mode = mode;
      const started = Date.now();
      const res = await route(t, rep, { start: START, prospectIds: ['r3', 'r1', 'r2'] });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(res.statusCode).toBe(200);
      const body = res.json<RouteAnswer>();
      expect(body.source).toBe('straight');
      expect(body.note).toMatch(why);
      expect(body.note).toMatch(/straight lines/);
      expect(body.stops.map((s) => s.prospectId)).toEqual(['r1', 'r2', 'r3']);
      expect(body.stops.every((s) => s.legMinutes === null)).toBe(true);
      expect(body.totalMiles).toBeCloseTo(3, 2);
    });
  }
});
