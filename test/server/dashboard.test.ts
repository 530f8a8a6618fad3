import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';
import { resolvePeriod } from '../../src/server/team/service.js';
import type { TeamActivity, TeamDaily, TeamOutcomes } from '../../src/core/api/dashboard.js';

// The team dashboard against hand-counted fixtures. The week of Monday 2 to Sunday 8 November 2026,
// counted in Chicago (UTC-6 then) and in UTC: entries near midnight land on different days, or outside the
// period, depending on the zone. Every number below was counted by hand from the fixtures.

let t: TestContext;
let admin: TestUser;
let ann: TestUser;
let bob: TestUser;
let cat: TestUser;
let dan: TestUser;
let eve: TestUser;

const CHICAGO = 'period=custom&from=2026-11-02&to=2026-11-08&tz=America%2FChicago';
const UTC = 'period=custom&from=2026-11-02&to=2026-11-08&tz=UTC';

interface LogFixture {
  id: string;
  user: () => TestUser;
  outcome: string;
  at: string;
  score: number | null;
  category: string;
  lat: number | null;
  lng: number | null;
}

const LOGS: LogFixture[] = [
  // Ann
  {
    id: 'a1',
    user: () => ann,
    outcome: 'Called',
    at: '2026-11-02T15:00:00.000Z',
    score: 0.85,
    category: 'Dentist',
    lat: 41.88,
    lng: -87.63,
  },
  // 23:30 on Monday the 2nd in Chicago, Tuesday in UTC
  {
    id: 'a2',
    user: () => ann,
    outcome: 'Visited',
    at: '2026-11-03T05:30:00.000Z',
    score: 0.85,
    category: 'Dentist',
    lat: 41.8801,
    lng: -87.6299,
  },
  {
    id: 'a3',
    user: () => ann,
    outcome: 'Called',
    at: '2026-11-04T18:00:00.000Z',
    score: 0.42,
    category: 'Auto Dealer',
    lat: 41.9,
    lng: -87.7,
  },
  // 23:59 on Sunday the 1st in Chicago (before the week), Monday the 2nd in UTC
  {
    id: 'a4',
    user: () => ann,
    outcome: 'Called',
    at: '2026-11-02T05:59:00.000Z',
    score: 0.1,
    category: 'Florist',
    lat: 41.7,
    lng: -87.6,
  },
  // Bob
  {
    id: 'b1',
    user: () => bob,
    outcome: 'Called',
    at: '2026-11-08T23:00:00.000Z',
    score: null,
    category: 'Dentist',
    lat: null,
    lng: null,
  },
  // 23:30 on Sunday the 8th in Chicago (in the week), Monday the 9th in UTC (after it)
  {
    id: 'b2',
    user: () => bob,
    outcome: 'Called',
    at: '2026-11-09T05:30:00.000Z',
    score: 0.95,
    category: 'Dentist',
    lat: 41.88,
    lng: -87.63,
  },
  // Midnight starting Monday the 9th in Chicago: after the week in both zones
  {
    id: 'b3',
    user: () => bob,
    outcome: 'Visited',
    at: '2026-11-09T06:00:00.000Z',
    score: 0.95,
    category: 'Dentist',
    lat: 41.88,
    lng: -87.63,
  },
  // Cat, long ago
  {
    id: 'c1',
    user: () => cat,
    outcome: 'Called',
    at: '2026-10-01T15:00:00.000Z',
    score: 0.5,
    category: 'Florist',
    lat: 41.7,
    lng: -87.6,
  },
];

async function insertLog(f: Omit<LogFixture, 'user'> & { userId: string }) {
  await t.db.kysely
    .insertInto('call_logs')
    .values({
      id: f.id,
      user_id: f.userId,
      prospect_id: `p-${f.id}`,
      name: `Business ${f.id}`,
      category: f.category,
      phone: '',
      website: '',
      address: `${f.id} Main St`,
      outcome: f.outcome,
      note: `note ${f.id}`,
      created_at: f.at,
      score: f.score,
      lat: f.lat,
      lng: f.lng,
    })
    .execute();
}

async function insertSave(id: string, userId: string, at: string, prospect: Record<string, unknown>) {
  await t.db.kysely
    .insertInto('saved_prospects')
    .values({
      id,
      user_id: userId,
      prospect_id: `p-${id}`,
      prospect: JSON.stringify({ id: `p-${id}`, name: `Saved ${id}`, ...prospect }),
      note: null,
      created_at: at,
    })
    .execute();
}

async function insertStrategyRequest(id: string, userId: string, at: string) {
  await t.db.kysely
    .insertInto('strategy_requests')
    .values({
      id,
      user_id: userId,
      business_id: `p-${id}`,
      name: `Asked ${id}`,
      category: 'Dentist',
      created_at: at,
    })
    .execute();
}

async function insertSearch(
  id: string,
  userId: string,
  at: string,
  lat: number,
  lng: number,
  radius: number,
) {
  await t.db.kysely
    .insertInto('searches')
    .values({
      id,
      user_id: userId,
      created_at: at,
      kind: 'scan',
      lat,
      lng,
      radius_miles: radius,
      count: 10,
      categories: '[]',
      location_label: null,
      query: null,
      total: 0,
    })
    .execute();
}

const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();

beforeAll(async () => {
  t = await createTestContext();
  admin = await t.newUser('admin', { name: 'Admin Alice' });
  ann = await t.newUser('user', { name: 'Ann Rep' });
  bob = await t.newUser('user', { name: 'Bob Rep' });
  cat = await t.newUser('user', { name: 'Cat Rep' });
  dan = await t.newUser('user', { name: 'Dan Rep' });
  eve = await t.newUser('user', { name: 'Eve Rep' });
  for (const { user, ...f } of LOGS) await insertLog({ ...f, userId: user().id });
  await insertSave('s1', ann.id, '2026-11-03T12:00:00.000Z', { score: 0.85, category: 'Dentist' });
  await insertSave('s2', bob.id, '2026-11-06T12:00:00.000Z', { score: 0.42, category: 'Auto Dealer' });
  await insertStrategyRequest('q1', ann.id, '2026-11-05T12:00:00.000Z');
  // 23:00 on Saturday the 7th in Chicago, Sunday the 8th in UTC
  await insertStrategyRequest('q2', ann.id, '2026-11-08T05:00:00.000Z');
  await insertSearch('r1', ann.id, '2026-11-02T16:00:00.000Z', 41.88, -87.63, 5);
  await insertSearch('r2', ann.id, '2026-11-04T16:00:00.000Z', 41.88, -87.63, 5);
  await insertSearch('r3', bob.id, '2026-11-06T16:00:00.000Z', 41.9, -87.7, 10);
  await insertSearch('r4', bob.id, '2026-11-01T16:00:00.000Z', 40, -80, 10);
  // Recent activity for the quiet-reps list (after the fixture week, so its counts are unchanged).
  await insertLog({
    id: 'a9',
    userId: ann.id,
    outcome: 'Called',
    at: hoursAgo(1),
    score: null,
    category: '',
    lat: null,
    lng: null,
  });
  await insertSave('s9', bob.id, hoursAgo(48), { score: 0.5, category: 'Dentist' });
  await insertLog({
    id: 'c9',
    userId: cat.id,
    outcome: 'Called',
    at: hoursAgo(24 * 10),
    score: null,
    category: '',
    lat: null,
    lng: null,
  });
  await t.db.kysely
    .insertInto('account_suspensions')
    .values({ user_id: eve.id, suspended_at: hoursAgo(1) })
    .execute();
});

afterAll(async () => {
  await t.close();
});

const get = async <T>(url: string, as: TestUser = admin): Promise<T> => {
  const res = await t.request({ method: 'GET', url, as });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<T>();
};

const countsOf = (body: TeamActivity, user: TestUser) => {
  const rep = body.reps.find((r) => r.userId === user.id);
  return rep && { calls: rep.calls, visits: rep.visits, saves: rep.saves, strategies: rep.strategies };
};

describe('team dashboard', () => {
  it('counts calls, visits, saves and strategy requests per rep, days in the browser time zone', async () => {
    const chicago = await get<TeamActivity>(`/api/team/activity?${CHICAGO}`);
    expect(chicago.period).toEqual({
      preset: 'custom',
      from: '2026-11-02',
      to: '2026-11-08',
      timeZone: 'America/Chicago',
      startsAt: '2026-11-02T06:00:00.000Z',
      endsAt: '2026-11-09T06:00:00.000Z',
    });
    expect(countsOf(chicago, ann)).toEqual({ calls: 2, visits: 1, saves: 1, strategies: 2 });
    expect(countsOf(chicago, bob)).toEqual({ calls: 2, visits: 0, saves: 1, strategies: 0 });
    expect(countsOf(chicago, cat)).toEqual({ calls: 0, visits: 0, saves: 0, strategies: 0 });
    expect(chicago.totals).toEqual({ calls: 4, visits: 1, saves: 2, strategies: 2, followUps: 0 });
    // Every account is listed by name, admins too (they may call).
    expect(chicago.reps.map((r) => r.name)).toEqual([
      'Admin Alice',
      'Ann Rep',
      'Bob Rep',
      'Cat Rep',
      'Dan Rep',
      'Eve Rep',
    ]);

    const utc = await get<TeamActivity>(`/api/team/activity?${UTC}`);
    expect(countsOf(utc, ann)).toEqual({ calls: 3, visits: 1, saves: 1, strategies: 2 });
    expect(countsOf(utc, bob)).toEqual({ calls: 1, visits: 0, saves: 1, strategies: 0 });
    expect(utc.totals).toEqual({ calls: 4, visits: 1, saves: 2, strategies: 2, followUps: 0 });

    const onlyBob = await get<TeamActivity>(`/api/team/activity?${CHICAGO}&userId=${bob.id}`);
    expect(onlyBob.reps).toHaveLength(1);
    expect(onlyBob.totals).toEqual({ calls: 2, visits: 0, saves: 1, strategies: 0, followUps: 0 });
  });

  it('counts each day of the period on the local calendar, zeros included', async () => {
    const z = { calls: 0, visits: 0, saves: 0, strategies: 0, followUps: 0 };
    const chicago = await get<TeamDaily>(`/api/team/daily?${CHICAGO}`);
    expect(chicago.days).toEqual([
      { date: '2026-11-02', ...z, calls: 1, visits: 1 }, // a1, and a2 at 23:30
      { date: '2026-11-03', ...z, saves: 1 },
      { date: '2026-11-04', ...z, calls: 1 },
      { date: '2026-11-05', ...z, strategies: 1 },
      { date: '2026-11-06', ...z, saves: 1 },
      { date: '2026-11-07', ...z, strategies: 1 }, // q2 at 23:00
      { date: '2026-11-08', ...z, calls: 2 }, // b1, and b2 at 23:30
    ]);
    const utc = await get<TeamDaily>(`/api/team/daily?${UTC}`);
    expect(utc.days).toEqual([
      { date: '2026-11-02', ...z, calls: 2 },
      { date: '2026-11-03', ...z, visits: 1, saves: 1 },
      { date: '2026-11-04', ...z, calls: 1 },
      { date: '2026-11-05', ...z, strategies: 1 },
      { date: '2026-11-06', ...z, saves: 1 },
      { date: '2026-11-07', ...z },
      { date: '2026-11-08', ...z, calls: 1, strategies: 1 },
    ]);
    const annOnly = await get<TeamDaily>(`/api/team/daily?${CHICAGO}&userId=${ann.id}`);
    expect(annOnly.days.map((d) => d.calls + d.visits + d.saves + d.strategies)).toEqual([
      2, 1, 1, 1, 0, 1, 0,
    ]);
  });

  it('counts outcomes, and calls, visits and saves by score band and by category', async () => {
    const body = await get<TeamOutcomes>(`/api/team/outcomes?${CHICAGO}`);
    expect(body.outcomes).toEqual([
      { outcome: 'Called', count: 4 },
      { outcome: 'Visited', count: 1 },
      { outcome: 'Saved for Later', count: 2 },
    ]);
    const band = (key: string) => body.scoreBands.find((b) => b.key === key);
    expect(body.scoreBands.map((b) => b.key)).toEqual([
      '0-9',
      '10-19',
      '20-29',
      '30-39',
      '40-49',
      '50-59',
      '60-69',
      '70-79',
      '80-89',
      '90-100',
      'Unscored',
    ]);
    expect(band('80-89')).toEqual({ key: '80-89', called: 1, visited: 1, saved: 1, perCall: 2 });
    expect(band('40-49')).toEqual({ key: '40-49', called: 1, visited: 0, saved: 1, perCall: 1 });
    expect(band('90-100')).toEqual({ key: '90-100', called: 1, visited: 0, saved: 0, perCall: 0 });
    expect(band('Unscored')).toEqual({ key: 'Unscored', called: 1, visited: 0, saved: 0, perCall: 0 });
    expect(band('10-19')).toEqual({ key: '10-19', called: 0, visited: 0, saved: 0, perCall: null });
    expect(body.categories).toEqual([
      { key: 'Dentist', called: 3, visited: 1, saved: 1, perCall: 0.667 },
      { key: 'Auto Dealer', called: 1, visited: 0, saved: 1, perCall: 1 },
    ]);
    // In UTC a4 (a florist, score 0.1) is in the week and b2 (90-100) is not.
    const utc = await get<TeamOutcomes>(`/api/team/outcomes?${UTC}`);
    expect(utc.scoreBands.find((b) => b.key === '10-19')).toMatchObject({ called: 1 });
    expect(utc.scoreBands.find((b) => b.key === '90-100')).toMatchObject({ called: 0 });
    expect(utc.categories.map((c) => c.key)).toEqual(['Dentist', 'Auto Dealer', 'Florist']);
    const bobOnly = await get<TeamOutcomes>(`/api/team/outcomes?${CHICAGO}&userId=${bob.id}`);
    expect(bobOnly.outcomes).toEqual([
      { outcome: 'Called', count: 2 },
      { outcome: 'Saved for Later', count: 1 },
    ]);
  });

  it('lists reps with no activity for N days by name, admins and suspended accounts left out', async () => {
    const week = await get<{ days: number; reps: { userId: string; lastActivityAt: string | null }[] }>(
      '/api/team/inactive?days=7',
    );
    expect(week.days).toBe(7);
    expect(week.reps.map((r) => r.userId)).toEqual([cat.id, dan.id]);
    expect(week.reps[1]!.lastActivityAt).toBeNull();
    const day = await get<{ reps: { userId: string }[] }>('/api/team/inactive?days=1');
    expect(day.reps.map((r) => r.userId)).toEqual([bob.id, cat.id, dan.id]);
    const month = await get<{ reps: { userId: string }[] }>('/api/team/inactive?days=30');
    expect(month.reps.map((r) => r.userId)).toEqual([dan.id]);
  });

  it('maps the period calls and visits on a grid, with the areas scanned', async () => {
    const body = await get<{
      cellDegrees: number;
      cells: { lat: number; lng: number; calls: number; visits: number }[];
      unplaced: number;
      areas: unknown[];
      truncated: boolean;
    }>(`/api/team/map?${CHICAGO}`);
    expect(body.cellDegrees).toBe(0.01);
    // a1, a2 and b2 share the cell of 0.01 degree [41.88, 41.89) x [-87.63, -87.62); a3 is alone. Cells by centre.
    expect(body.cells).toEqual([
      { lat: 41.885, lng: -87.625, calls: 2, visits: 1 },
      { lat: 41.905, lng: -87.695, calls: 1, visits: 0 },
    ]);
    expect(body.unplaced).toBe(1); // b1
    expect(body.areas).toEqual([
      { lat: 41.88, lng: -87.63, radiusMiles: 5, scans: 2 },
      { lat: 41.9, lng: -87.7, radiusMiles: 10, scans: 1 },
    ]);
    expect(body.truncated).toBe(false);
    const bobOnly = await get<typeof body>(`/api/team/map?${CHICAGO}&userId=${bob.id}`);
    expect(bobOnly.cells).toEqual([{ lat: 41.885, lng: -87.625, calls: 1, visits: 0 }]);
    expect(bobOnly.unplaced).toBe(1);
    expect(bobOnly.areas).toEqual([{ lat: 41.9, lng: -87.7, radiusMiles: 10, scans: 1 }]);
  });

  it("shows one rep's log for the period, newest first", async () => {
    const body = await get<{
      rep: Record<string, unknown>;
      entries: { kind: string; at: string; outcome: string; name: string; category: string; note: string }[];
      truncated: boolean;
    }>(`/api/team/reps/${ann.id}?${CHICAGO}`);
    expect(body.rep).toMatchObject({ name: 'Ann Rep', calls: 2, visits: 1, saves: 1, strategies: 2 });
    expect(body.rep.lastActivityAt).toBeTypeOf('string');
    expect(body.entries.map((e) => [e.kind, e.at, e.outcome])).toEqual([
      ['strategy', '2026-11-08T05:00:00.000Z', 'Strategy requested'],
      ['strategy', '2026-11-05T12:00:00.000Z', 'Strategy requested'],
      ['call', '2026-11-04T18:00:00.000Z', 'Called'],
      ['save', '2026-11-03T12:00:00.000Z', 'Saved for Later'],
      ['call', '2026-11-03T05:30:00.000Z', 'Visited'],
      ['call', '2026-11-02T15:00:00.000Z', 'Called'],
    ]);
    expect(body.entries[3]).toMatchObject({ name: 'Saved s1', category: 'Dentist' });
    expect(body.entries[5]).toMatchObject({ name: 'Business a1', note: 'note a1' });
    expect(body.truncated).toBe(false);
  });

  it('keeps the score and position of a logged prospect, and records strategy requests', async () => {
    await t.db.kysely
      .insertInto('team_prospects')
      .values({
        business_id: 'tp-1',
        prospect: JSON.stringify({ id: 'tp-1', name: 'Known', lat: 40.5, lng: -75.25 }),
        name: 'Known',
        score: 0.77,
        analysis_hash: '',
        business_hash: '',
        scanned_by: null,
        scanned_at: hoursAgo(2),
      })
      .execute();
    const logged = await t.request({
      method: 'POST',
      url: '/api/call-logs',
      payload: { prospectId: 'tp-1', name: 'Known', outcome: 'Visited' },
      as: dan,
    });
    expect(logged.statusCode).toBe(201);
    const row = await t.db.kysely
      .selectFrom('call_logs')
      .select(['score', 'lat', 'lng'])
      .where('user_id', '=', dan.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ score: 0.77, lat: 40.5, lng: -75.25 });

    const asked = await t.request({
      method: 'POST',
      url: '/api/strategies',
      payload: {
        prospect: {
          id: 'tp-2',
          name: 'Bright Smiles',
          category: 'Dental',
          address: '1 Main St',
          lat: 40,
          lng: -75,
          score: 0.6,
        },
      },
      as: dan,
    });
    expect(asked.statusCode).toBe(202);
    const requests = await t.db.kysely
      .selectFrom('strategy_requests')
      .select(['business_id', 'name', 'category'])
      .where('user_id', '=', dan.id)
      .execute();
    expect(requests).toEqual([{ business_id: 'tp-2', name: 'Bright Smiles', category: 'Dental' }]);
  });

  it('resolves the preset periods on the browser calendar', () => {
    const now = Date.parse('2026-11-24T03:00:00Z'); // Monday 23rd 21:00 in Chicago, Tuesday 24th in UTC
    const week = resolvePeriod({ period: 'this-week', tz: 'America/Chicago' }, now);
    expect(week.period).toMatchObject({
      from: '2026-11-23',
      to: '2026-11-29',
      startsAt: '2026-11-23T06:00:00.000Z',
    });
    expect(week.days).toHaveLength(7);
    expect(resolvePeriod({ period: 'last-week', tz: 'America/Chicago' }, now).period).toMatchObject({
      from: '2026-11-16',
      to: '2026-11-22',
    });
    expect(resolvePeriod({ period: 'this-month', tz: 'UTC' }, now).period).toMatchObject({
      from: '2026-11-01',
      to: '2026-11-30',
      endsAt: '2026-12-01T00:00:00.000Z',
    });
  });

  it('refuses bad input with a clear 400 or 404', async () => {
    const bad = async (url: string, status = 400) => {
      const res = await t.request({ method: 'GET', url, as: admin });
      expect(res.statusCode, url).toBe(status);
      return res.json<{ error: string }>().error;
    };
    expect(await bad('/api/team/activity?tz=Mars%2FOlympus')).toMatch(/tz.*IANA time zone/);
    expect(await bad('/api/team/activity?period=custom&from=2026-11-01')).toBe(
      'Invalid query: from and to are required with period=custom',
    );
    expect(await bad('/api/team/daily?period=custom&from=2026-11-10&to=2026-11-01')).toBe(
      'Invalid query: to must not be before from',
    );
    expect(await bad('/api/team/daily?period=custom&from=2024-01-01&to=2026-01-01')).toBe(
      'Invalid query: a period is at most 366 days',
    );
    expect(await bad('/api/team/outcomes?period=custom&from=2026-02-30&to=2026-03-01')).toMatch(
      /from.*YYYY-MM-DD/,
    );
    expect(await bad('/api/team/map?period=yesterday')).toMatch(/period/);
    expect(await bad('/api/team/inactive?days=0')).toMatch(/days/);
    expect(await bad(`/api/team/activity?userId=nobody`, 404)).toBe('Rep not found');
    expect(await bad(`/api/team/reps/nobody?${CHICAGO}`, 404)).toBe('Rep not found');
  });

  it('refuses reps: 403 on every dashboard route', async () => {
    for (const url of [
      `/api/team/activity?${CHICAGO}`,
      `/api/team/daily?${CHICAGO}`,
      `/api/team/outcomes?${CHICAGO}`,
      '/api/team/inactive',
      `/api/team/map?${CHICAGO}`,
      `/api/team/reps/${ann.id}?${CHICAGO}`,
    ]) {
      const res = await t.request({ method: 'GET', url, as: ann });
      expect(res.statusCode, url).toBe(403);
    }
  });
});
