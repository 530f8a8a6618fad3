// A territory scan ranks every imported business inside the territory's outline, for a rep assigned to it (admins:
// any), none outside it; the results are the rep's latest, like a circle scan's, and a business another rep claimed
// shows as theirs through the pipeline as on any result.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importOsmFile } from '../../src/server/places/index.js';
import { placeRow } from '../../src/server/places/local-store.js';
import { refreshMarket } from '../../src/server/places/market.js';
import { getBrandIndex } from '../../src/core/scoring/nsi.js';
import type { Prospect } from '../../src/core/types.js';
import type { Territory, TerritoryArea } from '../../src/core/api/territories.js';
import { isInTerritory } from '../../src/core/territory.js';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';
import { describeWithOsm, osmExtract } from '../helpers/osm-data.js';

interface Page {
  total: number;
  prospects: Prospect[];
  radiusMiles: number;
  territoryId?: string;
}

const rect = (minLng: number, minLat: number, maxLng: number, maxLat: number): TerritoryArea => ({
  type: 'Polygon',
  coordinates: [
    [
      [minLng, minLat],
      [maxLng, minLat],
      [maxLng, maxLat],
      [minLng, maxLat],
      [minLng, minLat],
    ],
  ],
});

async function newTerritory(
  t: TestContext,
  admin: TestUser,
  name: string,
  area: TerritoryArea,
  repIds: string[],
) {
  const res = await t.request({
    method: 'POST',
    url: '/api/territories',
    payload: { name, area, repIds },
    as: admin,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ territory: Territory }>().territory;
}

describe('territory scan on made-up businesses', () => {
  const ORIGIN = { lat: 40.0, lng: -75.0 };
  const STEP = 0.002; // about 0.14 mile of latitude
  // Over a 12 x 12 grid of shops: the western half of the grid, with a thin strip along its north edge running east
  // that holds no shop. Its box covers the whole grid; the outline holds half of it.
  const area: TerritoryArea = {
    type: 'Polygon',
    coordinates: [
      [
        [-75.0 - 0.001, 40.0 - 0.001],
        [-75.0 + 0.0111, 40.0 - 0.001],
        [-75.0 + 0.0111, 40.0 + 0.0231],
        [-75.0 + 0.0231, 40.0 + 0.0231],
        [-75.0 + 0.0231, 40.0 + 0.0231 + 0.0001],
        [-75.0 - 0.001, 40.0 + 0.0231 + 0.0001],
        [-75.0 - 0.001, 40.0 - 0.001],
      ],
    ],
  };
  let t: TestContext;
  let admin: TestUser;
  let rep: TestUser;
  let stranger: TestUser;
  let territory: Territory;
  const inside = new Set<string>();

  beforeAll(async () => {
    t = await createTestContext({ SCAN_COOLDOWN_MS: '0' });
    admin = await t.newUser('admin');
    rep = await t.newUser('user', { name: 'Rita Rep' });
    stranger = await t.newUser('user', { name: 'Sam Stranger' });
    const at = new Date().toISOString();
    const rows = [];
    for (let i = 0; i < 12; i++) {
      for (let j = 0; j < 12; j++) {
        const id = `osm:node/${7000 + i * 12 + j}`;
        const point = { lat: ORIGIN.lat + i * STEP, lng: ORIGIN.lng + j * STEP };
        if (isInTerritory(area, point)) inside.add(id);
        rows.push(
          placeRow(
            {
              id,
              ...point,
              tags: {
                name: `Shop ${i}-${j}`,
                shop: j % 2 ? 'furniture' : 'hairdresser',
                phone: `+1 555 555 ${String(1000 + i * 12 + j)}`,
                'addr:housenumber': String(i * 12 + j + 1),
                'addr:street': 'Grid Street',
              },
            },
            at,
          ),
        );
      }
    }
    await t.db.kysely.insertInto('places').values(rows).execute();
    await refreshMarket(t.db, getBrandIndex());
    territory = await newTerritory(t, admin, 'The L', area, [rep.id]);
  }, 120_000);
  afterAll(() => t?.close());

  const scan = (as: TestUser, body: Record<string, unknown>) =>
    t.request({ method: 'POST', url: '/api/scans', payload: body, as });

  it('ranks every business inside the outline and none outside it', async () => {
    expect(inside.size).toBe(72);
    const res = await scan(rep, { territoryId: territory.id, count: 50 });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<Page>();
    expect(page.territoryId).toBe(territory.id);
    expect(page.total).toBe(inside.size);
    expect(page.prospects).toHaveLength(50);
    for (const p of page.prospects) expect(inside.has(p.id), p.name).toBe(true);
    // The bounding circle reaches every corner of the outline.
    expect(page.radiusMiles).toBeGreaterThan(1);
    // Scores descend, as in any scan.
    const scores = page.prospects.map((p) => p.aiAnalysis!.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);

    // The rep's latest results are the territory's: every one of them loadable, all inside.
    const latest = await t.request({ method: 'GET', url: '/api/scans/latest?offset=0&limit=100', as: rep });
    const kept = latest.json<{ prospects: Prospect[]; total: number }>();
    expect(kept.prospects).toHaveLength(Math.min(100, inside.size));
    for (const p of kept.prospects) expect(inside.has(p.id)).toBe(true);
    const search = await t.db.kysely
      .selectFrom('searches')
      .select(['kind', 'location_label', 'total'])
      .where('user_id', '=', rep.id)
      .execute();
    expect(search).toEqual([{ kind: 'scan', location_label: 'The L', total: inside.size }]);
  });

  it('a circle scan of the same area still answers the circle', async () => {
    const res = await scan(rep, { lat: 40.011, lng: -74.989, radiusMiles: 2, count: 10 });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<Page>();
    expect(page.territoryId).toBeUndefined();
    expect(page.total).toBe(144);
  });

  it('only a rep assigned to the territory may scan it (admins: any); an unknown one is a 404', async () => {
    const refused = await scan(stranger, { territoryId: territory.id, count: 10 });
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ error: string }>().error).toBe('You are not assigned to this territory.');
    const unknown = await scan(rep, { territoryId: 'no-such-territory', count: 10 });
    expect(unknown.statusCode).toBe(404);
    const byAdmin = await scan(admin, { territoryId: territory.id, count: 10 });
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.json<Page>().total).toBe(inside.size);
  });

  it('a wrong field is named, in whichever shape of scan the body comes closest to', async () => {
    const circle = await scan(rep, { lat: 'north', lng: -74.989, radiusMiles: 2, count: 10 });
    expect(circle.statusCode).toBe(400);
    expect(circle.json<{ error: string }>().error).toMatch(/^Invalid body: lat: /);
    const whole = await scan(rep, { territoryId: territory.id, count: 'all' });
    expect(whole.statusCode).toBe(400);
    expect(whole.json<{ error: string }>().error).toMatch(/^Invalid body: count: /);
  });

  it('categories narrow a territory scan as they narrow a circle', async () => {
    const res = await scan(rep, { territoryId: territory.id, count: 50, categories: ['Furniture'] });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<Page>();
    expect(page.total).toBeGreaterThan(0);
    expect(page.total).toBeLessThan(inside.size);
    for (const p of page.prospects) expect(inside.has(p.id)).toBe(true);
  });

  it('a business another rep claimed shows as theirs on the territory results', async () => {
    const first = (await scan(rep, { territoryId: territory.id, count: 10 })).json<Page>().prospects[0]!;
    // The other rep claims it (from a scan of their own).
    const other = await t.newUser('user', { name: 'Otto Other' });
    await scan(other, { lat: 40.011, lng: -74.989, radiusMiles: 2, count: 50 });
    const claim = await t.request({
      method: 'PUT',
      url: `/api/pipeline/${encodeURIComponent(first.id)}`,
      payload: { stage: 'Contacted' },
      as: other,
    });
    expect(claim.statusCode, claim.body).toBe(200);
    const again = (await scan(rep, { territoryId: territory.id, count: 10 })).json<Page>().prospects;
    expect(again.map((p) => p.id)).toContain(first.id);
    const entries = await t.request({
      method: 'GET',
      url: `/api/pipeline?businessIds=${encodeURIComponent(again.map((p) => p.id).join(','))}`,
      as: rep,
    });
    expect(
      entries.json<{ entries: { businessId: string; ownerId: string | null }[] }>().entries,
    ).toContainEqual(
      expect.objectContaining({ businessId: first.id, ownerId: other.id, ownerName: 'Otto Other' }),
    );
  });

  it("the Team view: each territory's reps, businesses, its best called or visited, meetings and wins", async () => {
    const work = async () =>
      (await t.request({ method: 'GET', url: '/api/team/territories?period=this-month', as: admin })).json<{
        territories: {
          name: string;
          reps: { id: string; name: string }[];
          businesses: number;
          bestContacted: number;
          bestCount: number;
          meetings: number;
          wins: number;
        }[];
      }>().territories;
    const before = (await work()).find((x) => x.name === 'The L')!;
    expect(before).toMatchObject({ reps: [{ id: rep.id, name: 'Rita Rep' }], businesses: 72, bestCount: 50 });

    const best = (await scan(rep, { territoryId: territory.id, count: 50 })).json<Page>().prospects;
    // Two of the best called; one of them called twice, by two reps: counted once.
    for (const p of [best[1]!, best[2]!, best[2]!]) {
      const res = await t.request({
        method: 'POST',
        url: '/api/call-logs',
        payload: { prospectId: p.id, name: p.name, outcome: 'Called' },
        as: rep,
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const stage = async (id: string, to: string) => {
      const res = await t.request({
        method: 'PUT',
        url: `/api/pipeline/${encodeURIComponent(id)}`,
        payload: { stage: to },
        as: rep,
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    await stage(best[3]!.id, 'Meeting set');
    await stage(best[4]!.id, 'Proposal');
    await stage(best[4]!.id, 'Won');
    // A business outside the territory reaching a meeting does not count for it.
    const outside = 'osm:node/' + String(7000 + 11);
    expect(inside.has(outside)).toBe(false);
    await stage(outside, 'Meeting set');

    const after = (await work()).find((x) => x.name === 'The L')!;
    expect(after.bestContacted - before.bestContacted).toBe(2);
    expect(after.meetings - before.meetings).toBe(2); // the meeting and the win
    expect(after.wins - before.wins).toBe(1);
    expect((await t.request({ method: 'GET', url: '/api/team/territories', as: rep })).statusCode).toBe(403);
  });
});

describeWithOsm('sf-downtown.osm.pbf', 'territory scan on the San Francisco extract', () => {
  let t: TestContext;
  let admin: TestUser;
  let rep: TestUser;
  const unionSquare = rect(-122.41, 37.786, -122.405, 37.79);

  beforeAll(async () => {
    t = await createTestContext({ SCAN_COOLDOWN_MS: '0' });
    admin = await t.newUser('admin');
    rep = await t.newUser('user');
    await importOsmFile(t.db, osmExtract('sf-downtown.osm.pbf'));
  }, 300_000);
  afterAll(() => t?.close());

  it("an admin draws Union Square and assigns a rep; the rep's scan ranks at least 10 businesses, all inside", async () => {
    const territory = await newTerritory(t, admin, 'Union Square', unionSquare, [rep.id]);
    const res = await t.request({
      method: 'POST',
      url: '/api/scans',
      payload: { territoryId: territory.id, count: 50 },
      as: rep,
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<Page>();
    expect(page.prospects.length).toBeGreaterThanOrEqual(10);
    for (const p of page.prospects) {
      expect(p.lng, p.name).toBeGreaterThanOrEqual(-122.41);
      expect(p.lng, p.name).toBeLessThanOrEqual(-122.405);
      expect(p.lat, p.name).toBeGreaterThanOrEqual(37.786);
      expect(p.lat, p.name).toBeLessThanOrEqual(37.79);
    }
    // Every business of the territory was ranked: a circle around it finds more, never fewer.
    const circle = await t.request({
      method: 'POST',
      url: '/api/scans',
      payload: { lat: 37.788, lng: -122.4075, radiusMiles: 0.5, count: 50 },
      as: rep,
    });
    expect(circle.json<Page>().total).toBeGreaterThan(page.total);
  });
});
