// Business Data in the Admin Panel: the areas that have business data (per import: region or file, the box
// it covers, its businesses, the date of its data, when it was imported), and refreshing a region from the panel
// as a background job -- against a local mirror serving the repository's small fixture town.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';
import { fixtureExtract } from '../helpers/osm-data.js';
import { startOsmMirror, type OsmMirror } from '../helpers/osm-mirror.js';
import { ALL_NODES, BUSINESS_NODES, CENTER, WAYS } from '../fixtures/osm/prairie-junction.js';
import { writePbf } from '../fixtures/osm/pbf-writer.js';
import { importOsmFile } from '../../src/server/places/osm-import.js';
import { readPbfHeader, type OsmPoi } from '../../src/server/places/pbf-reader.js';
import { countPlaces, placeRow } from '../../src/server/places/local-store.js';
import * as placeAreas from '../../src/server/db/migrations/2026-11-24T2200-place-areas.js';
import type { AreasAnswer, RegionRefresh } from '../../src/core/api/areas.js';

const IMPORTED = BUSINESS_NODES.length + WAYS.length - 1; // every business but the way missing a node
const PATH = '/north-america/us/prairie-latest.osm.pbf';
const BBOX = { minLat: 40.1, minLng: -100.8, maxLat: 40.3, maxLng: -100.5 };
const TAKEN = '2026-11-20T21:14:02.000Z';
const TAKEN_LATER = '2026-11-23T20:00:00.000Z';
/** The town as a real extract carries it: with a bounding box and the data's timestamp in the header. */
const withHeader = (timestamp: string, drop = 0) =>
  writePbf(
    ALL_NODES.filter((n) => !BUSINESS_NODES.slice(0, drop).some((b) => b.id === n.id)),
    WAYS,
    'areas-test',
    { bbox: BBOX, timestamp },
  );

const DENTIST = {
  id: 'osm:node/1',
  name: 'Cottonwood Dental Care',
  category: 'Dental',
  address: '88 Court Street, Prairie Junction, NE',
  lat: CENTER.lat,
  lng: CENTER.lng,
  score: 0.74,
  reviews: 0,
  types: ['dentist'],
  aiAnalysis: {
    score: 74,
    reasoning: 'Good fit.',
    breakdown: { vertical: 'dental', fit: 0.83, presence: 0.3 },
  },
};

let t: TestContext;
let mirror: OsmMirror;
let admin: TestUser;
let superAdmin: TestUser;
let user: TestUser;

beforeAll(async () => {
  mirror = await startOsmMirror();
  // One job slot: a region refresh must not take the one strategies and reasoning use.
  t = await createTestContext({ OSM_MIRROR_URL: mirror.url, JOB_CONCURRENCY: '1' });
  admin = await t.newUser('admin');
  superAdmin = await t.newUser('SuperAdmin');
  user = await t.newUser('user');
  await t.app.ready();
});
afterAll(async () => {
  await t.close();
  await mirror.close();
});

async function areas(as: TestUser = admin) {
  const res = await t.request({ method: 'GET', url: '/api/admin/areas', as });
  expect(res.statusCode).toBe(200);
  return res.json<AreasAnswer>();
}

const refresh = (region: string, as: TestUser = admin) =>
  t.request({ method: 'POST', url: '/api/admin/areas/refresh', payload: { region }, as });

/** Poll the job until `until` holds (default: it finished). */
async function poll(
  jobId: string,
  until = (j: RegionRefresh) => j.status === 'complete' || j.status === 'error',
) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await t.request({ method: 'GET', url: `/api/admin/areas/jobs/${jobId}`, as: admin });
    expect(res.statusCode).toBe(200);
    const job = res.json<RegionRefresh>();
    if (until(job)) return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${JSON.stringify(job)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the extract header', () => {
  it("gives the area's box and the date of its data, or nothing when it has neither", async () => {
    const file = join(t.testDb.dataDir, 'header.osm.pbf');
    writeFileSync(file, withHeader(TAKEN));
    const header = await readPbfHeader(file);
    expect(header.timestamp).toBe(TAKEN);
    for (const k of ['minLat', 'minLng', 'maxLat', 'maxLng'] as const) {
      expect(header.bbox?.[k]).toBeCloseTo(BBOX[k], 6);
    }
    expect(await readPbfHeader(fixtureExtract())).toEqual({ bbox: null, timestamp: null });
  });
});

describe('GET /api/admin/areas', () => {
  it('lists no area before any import', async () => {
    expect(await areas()).toEqual({ areas: [], businesses: 0, refreshes: [] });
  });

  it('lists a file imported by the CLI with the box of its businesses, its count and the import date', async () => {
    const r = await importOsmFile(t.db, fixtureExtract());
    const list = await areas();
    expect(list.businesses).toBe(IMPORTED);
    expect(list.areas).toHaveLength(1);
    const [area] = list.areas;
    expect(area).toMatchObject({
      key: 'file:prairie-junction.osm.pbf',
      name: 'prairie-junction.osm.pbf',
      region: null,
      source: 'prairie-junction.osm.pbf', // the file's name, never the server's path
      businesses: IMPORTED,
      dataDateFrom: 'import',
      dataDate: r.area.importedAt,
      importedAt: r.area.importedAt,
    });
    const lats = [...BUSINESS_NODES.map((n) => n.lat)];
    expect(area?.bbox?.minLat).toBeLessThanOrEqual(CENTER.lat);
    expect(area?.bbox?.maxLat).toBeGreaterThanOrEqual(CENTER.lat);
    expect(area?.bbox?.minLat).toBeCloseTo(Math.min(...lats), 6);
    expect(area?.bbox?.maxLat).toBeCloseTo(Math.max(...lats), 6);
  });
});

describe('POST /api/admin/areas/refresh', () => {
  it('downloads and imports a region as a job: progress, then the counts; the area gets its box and date', async () => {
    mirror.set(PATH, withHeader(TAKEN));
    mirror.hold(PATH, 1000);
    const res = await refresh(' us/prairie ');
    expect(res.statusCode).toBe(202);
    const { jobId, region, status } = res.json<{ jobId: string; region: string; status: string }>();
    expect(region).toBe('us/prairie');
    expect(status).toBe('pending');

    // Caught mid-download: the job says how far it is, the list shows it, and a second refresh is refused.
    const running = await poll(jobId, (j) => j.progress?.stage === 'downloading' && j.progress.bytes >= 1000);
    expect(running.status).toBe('running');
    expect(running.progress).toMatchObject({ stage: 'downloading', total: withHeader(TAKEN).length });
    const during = await areas();
    expect(during.refreshes).toEqual([
      expect.objectContaining({ jobId, region: 'us/prairie', status: 'running' }),
    ]);
    const again = await refresh('us/prairie');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      error: 'us/prairie is already being refreshed; wait for that refresh to finish.',
    });
    // The same region spelled as its path on the mirror is the same refresh.
    expect((await refresh('north-america/us/prairie-latest.osm.pbf')).statusCode).toBe(409);
    // The held refresh holds up no other job: a strategy is written meanwhile, in the one slot jobs have.
    const strategy = await t.request({
      method: 'POST',
      url: '/api/strategies',
      payload: { prospect: DENTIST },
      as: user,
    });
    expect(strategy.statusCode).toBe(202);
    const strategyJob = strategy.json<{ jobId: string }>().jobId;
    await expect
      .poll(
        async () =>
          (await t.request({ method: 'GET', url: `/api/strategies/jobs/${strategyJob}`, as: user }))
            .statusCode,
        { timeout: 10_000, interval: 50 },
      )
      .toBe(200);
    expect((await poll(jobId, () => true)).status).toBe('running');
    mirror.release();

    const done = await poll(jobId);
    expect(done).toMatchObject({
      status: 'complete',
      error: null,
      result: { region: 'us/prairie', businesses: IMPORTED, total: IMPORTED },
    });
    const list = await areas();
    expect(list.refreshes).toEqual([]);
    const area = list.areas.find((a) => a.region === 'us/prairie');
    expect(area).toMatchObject({
      key: 'north-america/us/prairie-latest.osm.pbf',
      name: 'us/prairie',
      source: `${mirror.url}${PATH}`,
      businesses: IMPORTED,
      dataDate: TAKEN,
      dataDateFrom: 'extract',
    });
    expect(area?.bbox?.minLng).toBeCloseTo(BBOX.minLng, 6);
    expect(area?.bbox?.maxLat).toBeCloseTo(BBOX.maxLat, 6);
    expect(Date.parse(area?.importedAt ?? '')).toBeGreaterThan(Date.now() - 60_000);
    // The most recent import first.
    expect(list.areas.map((a) => a.name)).toEqual(['us/prairie', 'prairie-junction.osm.pbf']);
    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'places.region_refresh')
      .execute();
    expect(audit).toEqual([expect.objectContaining({ actor_id: admin.id, target_label: 'us/prairie' })]);
  });

  it('refreshing the area again updates its date and count (a SuperAdmin may too)', async () => {
    const before = (await areas()).areas.find((a) => a.region === 'us/prairie');
    mirror.set(PATH, withHeader(TAKEN_LATER, 5));
    const res = await refresh(before?.region ?? '', superAdmin);
    expect(res.statusCode).toBe(202);
    const done = await poll(res.json<{ jobId: string }>().jobId);
    expect(done.status).toBe('complete');
    expect(done.result?.businesses).toBe(IMPORTED - 5);
    const after = (await areas()).areas.find((a) => a.region === 'us/prairie');
    expect(after).toMatchObject({ businesses: IMPORTED - 5, dataDate: TAKEN_LATER, dataDateFrom: 'extract' });
    expect(after!.importedAt > before!.importedAt).toBe(true);
    // The businesses no longer in the extract are kept (an import adds and updates; it never deletes).
    expect(await countPlaces(t.db.kysely)).toBe(IMPORTED);
  });

  it('fails a refresh whose download fails with a readable reason, and keeps the data as it was', async () => {
    const before = await areas();
    const res = await refresh('us/missing');
    expect(res.statusCode).toBe(202);
    const done = await poll(res.json<{ jobId: string }>().jobId);
    expect(done.status).toBe('error');
    expect(done.error).toBe(
      `Download failed: HTTP 404 Not Found from ${mirror.url}/north-america/us/missing-latest.osm.pbf. ` +
        'The businesses imported before are unchanged.',
    );
    expect(done.result).toBeNull();
    const after = await areas();
    expect(after.areas).toEqual(before.areas);
    expect(after.businesses).toBe(before.businesses);
    expect(await countPlaces(t.db.kysely)).toBe(IMPORTED);
  });

  it('fails a refresh whose file is not an extract, and keeps the data as it was', async () => {
    mirror.set('/europe/garbage-latest.osm.pbf', Buffer.from('<html>not an extract</html>'));
    const before = await areas();
    const res = await refresh('europe/garbage');
    const done = await poll(res.json<{ jobId: string }>().jobId);
    expect(done.status).toBe('error');
    expect(done.error).toMatch(/^Download failed: garbage-latest\.osm\.pbf is not a usable extract: /);
    expect(done.error).toMatch(/The businesses imported before are unchanged\.$/);
    expect((await areas()).areas).toEqual(before.areas);
  });

  it('refuses names that are not regions with a clear 400, starting nothing', async () => {
    const cases: [string, RegExp][] = [
      ['', /^Enter a region name like us\/alabama/],
      ['   ', /^Enter a region name like us\/alabama/],
      ['alabama', /^Unknown region "alabama": start with us\/, canada\/ or one of africa/],
      ['us/../../etc/passwd', /^Not a region name: "us\/..\/..\/etc\/passwd"/],
      ['us/ala bama', /^Not a region name/],
      [
        'https://example.com/x-latest.osm.pbf',
        /not an address: extracts are downloaded from the configured mirror/,
      ],
      ['file:/etc/passwd', /not an address/],
    ];
    for (const [region, message] of cases) {
      const res = await refresh(region);
      expect(res.statusCode, region).toBe(400);
      expect(res.json<{ error: string }>().error, region).toMatch(message);
    }
    const tooLong = await refresh(`us/${'a'.repeat(300)}`);
    expect(tooLong.statusCode).toBe(400);
    const noBody = await t.request({
      method: 'POST',
      url: '/api/admin/areas/refresh',
      payload: {},
      as: admin,
    });
    expect(noBody.statusCode).toBe(400);
    expect((await areas()).refreshes).toEqual([]);
  });

  it('is for admins: 403 for a user on every route, 401 signed out', async () => {
    const job = (await refresh('us/missing')).json<{ jobId: string }>().jobId;
    for (const [method, url] of [
      ['GET', '/api/admin/areas'],
      ['POST', '/api/admin/areas/refresh'],
      ['GET', `/api/admin/areas/jobs/${job}`],
    ] as const) {
      const payload = method === 'POST' ? { region: 'us/prairie' } : undefined;
      const denied = await t.request({ method, url, as: user, ...(payload && { payload }) });
      expect(denied.statusCode, url).toBe(403);
      expect(denied.json<{ error: string }>().error).toEqual(expect.any(String));
      expect((await t.request({ method, url, ...(payload && { payload }) })).statusCode).toBe(401);
    }
    await poll(job);
  });

  it('answers 404 for a job that is not a region refresh', async () => {
    const res = await t.request({ method: 'GET', url: '/api/admin/areas/jobs/no-such-job', as: admin });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Region refresh not found' });
  });
});

describe('an install that imported data before areas were recorded', () => {
  // The migration run again on a database that already holds businesses: down() takes the install back to how
  // it was before areas were recorded, up() is what such an install runs on its next start.
  it('gets one area derived from the stored businesses (their box, count, newest import); an empty one none', async () => {
    const other = await createTestContext();
    try {
      const db = other.db.kysely;
      await placeAreas.down(db);
      await placeAreas.up(db);
      expect(await db.selectFrom('place_areas').selectAll().execute()).toEqual([]);

      await placeAreas.down(db);
      const pois: OsmPoi[] = [
        { id: 'osm:node/1', lat: 40.1, lng: -100.7, tags: { name: 'A Shop', shop: 'florist' } },
        { id: 'osm:node/2', lat: 40.3, lng: -100.5, tags: { name: 'B Shop', shop: 'books' } },
        { id: 'osm:node/3', lat: 40.2, lng: -100.6, tags: { name: 'C Cafe', amenity: 'cafe' } },
      ];
      await db
        .insertInto('places')
        .values(pois.map((p, i) => ({ ...placeRow(p, `2026-11-0${i + 1}T10:00:00.000Z`), locations: 1 })))
        .execute();
      await placeAreas.up(db);
      expect(await db.selectFrom('place_areas').selectAll().execute()).toEqual([
        {
          key: 'earlier-imports',
          name: 'Imported before areas were recorded',
          region: null,
          source: 'places table',
          min_lat: 40.1,
          min_lng: -100.7,
          max_lat: 40.3,
          max_lng: -100.5,
          businesses: 3,
          data_date: null,
          imported_at: '2026-11-03T10:00:00.000Z',
        },
      ]);
      // The panel lists it, not "no data".
      const admin2 = await other.newUser('admin');
      const res = await other.request({ method: 'GET', url: '/api/admin/areas', as: admin2 });
      expect(res.json()).toMatchObject({
        businesses: 3,
        areas: [
          {
            name: 'Imported before areas were recorded',
            region: null,
            businesses: 3,
            dataDateFrom: 'import',
          },
        ],
      });
    } finally {
      await other.close();
    }
  });
});
