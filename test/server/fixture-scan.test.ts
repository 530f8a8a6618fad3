// Import -> scan -> rank on the repository's own extract (test/fixtures/osm/prairie-junction.ts), so this path
// is tested on every machine, with or without the real extracts beside the clone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importOsmFile, type ImportResult } from '../../src/server/places/osm-import.js';
import { haversineMiles } from '../../src/core/geo.js';
import type { Prospect } from '../../src/core/types.js';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';
import { fixtureExtract } from '../helpers/osm-data.js';
import { startSecondInstance } from '../helpers/app.js';
import { decodeProfile, profileVersion } from '../../src/core/scoring/profile.js';
import { getBrandIndex } from '../../src/core/scoring/nsi.js';
import { BUSINESS_NODES, CENTER, OTHER_NODES, WAYS } from '../fixtures/osm/prairie-junction.js';

let t: TestContext;
let rep: TestUser;
let imported: ImportResult;
beforeAll(async () => {
  t = await createTestContext({ SCAN_COOLDOWN_MS: '0' });
  imported = await importOsmFile(t.db, fixtureExtract());
  rep = await t.newUser('user');
}, 60_000);
afterAll(() => t.close());

interface ScanAnswer {
  prospects: Prospect[];
  total: number;
  demo: boolean;
}
const scan = async (body: Record<string, unknown>) => {
  const res = await t.request({
    method: 'POST',
    url: '/api/scans',
    payload: { ...CENTER, ...body },
    as: rep,
  });
  expect(res.statusCode).toBe(200);
  return res.json<ScanAnswer>();
};
const byName = (list: Prospect[], name: string) => {
  const p = list.find((x) => x.name === name);
  if (!p) throw new Error(`${name} is not in the list`);
  return p;
};

const drawnWhole = WAYS.filter((w) => w.id !== 3003);
const within = (miles: number) =>
  [
    ...BUSINESS_NODES.filter((n) => haversineMiles(CENTER, { lat: n.lat, lng: n.lon }) < miles),
    ...drawnWhole,
  ].map((e) => e.tags!.name);

// Kinds the model ranks high (auto dealers, legal, home services, dental, furniture, insurance, fitness).
const PROSPECTS = [
  'Junction Motors',
  'Prairie Junction Ford',
  'Harlan & Voss Injury Law',
  'Cornbelt Heating & Air',
  'Prairie Plumbing & Drain',
  'Big Sky Roofing',
  'Bright Smile Family Dentistry',
  'Cottonwood Dental Care',
  'Homestead Furniture Gallery',
  'Plains Mutual Insurance Agency',
  'Iron Depot Fitness',
];
// Outside the scan's category groups: fast food, a bar, a bakery, a hardware store.
const OUTSIDE_GROUPS = ["McDonald's", 'Rusty Spur Saloon', 'Sunflower Bakery', 'Junction Hardware'];

describe('the Prairie Junction fixture: import, scan, rank', () => {
  it('imports every named business node and whole outline, and nothing else', async () => {
    expect(imported).toMatchObject({
      nodes: BUSINESS_NODES.length,
      ways: drawnWhole.length,
      skippedWays: 1,
      total: BUSINESS_NODES.length + drawnWhole.length,
    });
    const rows = await t.db.kysely.selectFrom('places').select(['id', 'name', 'lat', 'lng']).execute();
    const ids = new Set(rows.map((r) => r.id));
    for (const n of OTHER_NODES) expect(ids.has(`osm:node/${n.id}`)).toBe(false);
    expect(ids.has('osm:way/3003')).toBe(false);
    // A building outline is placed at its centroid: the middle of the square.
    const ford = rows.find((r) => r.id === 'osm:way/3001')!;
    expect(ford.lat).toBeCloseTo(CENTER.lat + 0.0035, 6);
    expect(ford.lng).toBeCloseTo(CENTER.lng - 0.0035, 6);
  });

  it('scans a mile around the centre: the prospects there and none further, best first, each explained', async () => {
    const body = await scan({ radiusMiles: 1, count: 50, categories: [] });
    expect(body.demo).toBe(false);
    const names = body.prospects.map((p) => p.name);
    expect(body.total).toBe(names.length);
    for (const name of names) expect(within(1)).toContain(name);
    expect(names).toEqual(expect.arrayContaining(PROSPECTS));
    for (const [i, p] of body.prospects.entries()) {
      expect(p.id).toMatch(/^osm:(node|way)\/\d+$/);
      expect(haversineMiles(CENTER, p)).toBeLessThan(1);
      if (i > 0) expect(p.score).toBeLessThanOrEqual(body.prospects[i - 1]!.score);
      expect(p.aiAnalysis!.reasoning.length).toBeGreaterThan(10);
      expect(p.aiAnalysis!.recommendations.length).toBeGreaterThan(0);
    }
    expect(byName(body.prospects, 'Junction Motors')).toMatchObject({
      address: expect.stringContaining('120 Main Street') as unknown,
      phone: '+1 308 555 0101',
      website: 'https://junction-motors.example',
    });
    for (const other of OUTSIDE_GROUPS) expect(names).not.toContain(other);
    // A national chain scores 0 and is left out unless the admin asks to see every business.
    expect(names).not.toContain('Wells Fargo');
  });

  it('ranks local dealers, an injury lawyer and HVAC above auto repair, and a national chain last', async () => {
    const owner = await t.newUser('SuperAdmin');
    const set = await t.request({
      method: 'PATCH',
      url: '/api/admin/settings',
      payload: { showAllProspects: true },
      as: owner,
    });
    expect(set.statusCode).toBe(200);
    const { prospects } = await scan({ radiusMiles: 1, count: 50, categories: [] });
    const score = (name: string) => byName(prospects, name).score;
    for (const strong of [
      'Junction Motors',
      'Prairie Junction Ford',
      'Harlan & Voss Injury Law',
      'Cornbelt Heating & Air',
    ]) {
      expect(score(strong), strong).toBeGreaterThan(score('Sandhill Auto Repair'));
    }
    expect(score('Sandhill Auto Repair')).toBeGreaterThan(score('Wells Fargo'));
    expect(prospects.at(-1)!.name).toBe('Wells Fargo');
  });

  it('reaches the businesses further out with a larger radius', async () => {
    const body = await scan({ radiusMiles: 5, count: 50, categories: [] });
    const names = body.prospects.map((p) => p.name);
    for (const name of names) expect(within(5)).toContain(name);
    expect(names).toEqual(
      expect.arrayContaining(['Northside Chevrolet', 'West Prairie Orthodontics', 'South Fork Law Office']),
    );
  });

  it('stores each place’s profile at import; a server remakes missing and stale ones at start', async () => {
    const version = profileVersion(getBrandIndex());
    const profiles = () => t.db.kysely.selectFrom('places').select(['id', 'profile']).orderBy('id').execute();
    const marker = async () =>
      (
        await t.db.kysely
          .selectFrom('market_state')
          .select('profile_version')
          .where('id', '=', 'local')
          .executeTakeFirst()
      )?.profile_version ?? null;
    const before = await profiles();
    expect(before.length).toBeGreaterThan(20);
    for (const r of before) expect(decodeProfile(r.profile, version)).toBeDefined();
    // The import's market rebuild says under which version it made them all: a start reads that one row.
    expect(await marker()).toBe(version);
    // As an older server left them: rows imported before profiles, rows made under other rules, no marker.
    const gone = before.slice(0, 5).map((r) => r.id);
    const stale = before.slice(5, 10).map((r) => r.id);
    await t.db.kysely.updateTable('places').set({ profile: null }).where('id', 'in', gone).execute();
    await t.db.kysely
      .updateTable('places')
      .set({ profile: '["older",""]' })
      .where('id', 'in', stale)
      .execute();
    await t.db.kysely.deleteFrom('market_state').execute();
    const second = await startSecondInstance(t);
    try {
      for (let i = 0; i < 100 && (await marker()) !== version; i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(await marker()).toBe(version);
      expect(await profiles()).toEqual(before);
    } finally {
      await second.close();
    }
    // And a scan goes on finding what it found (its profiles are the ones it would make).
    const body = await scan({ radiusMiles: 1, count: 50, categories: [] });
    expect(body.prospects.map((p) => p.name)).toContain('Junction Motors');
  });
});
