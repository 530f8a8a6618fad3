// A rep's latest results have several writers: the rep's own scans and quick searches, and background jobs
// (website evidence, model-written reasoning). Each background write changes only the prospects it concerns on
// the CURRENT stored list (compare-and-set on latest_scans.version), so when it interleaves with a quick search's
// merge, both survive: the business found stays on top, and the evidence stays on its business. The interleaving
// is forced: one writer's read of the row is held (a Kysely plugin on a second database handle) until the other
// writer has committed. On SQLite and PostgreSQL (TEST_DATABASE=postgres).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KyselyPlugin, QueryResult, UnknownRow } from 'kysely';
import { placeRow } from '../../src/server/places/local-store.js';
import type { Business, Prospect } from '../../src/core/types.js';
import type { WebsiteEvidence } from '../../src/core/websites/signals.js';
import { applyToLatestScans } from '../../src/server/websites/repository.js';
import { mergeLatestScan } from '../../src/server/scans/repository.js';
import type { Db } from '../../src/server/db/database.js';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';

const CENTRE = { lat: 43.0, lng: -72.0 };
let t: TestContext;
let rep: TestUser;
let other: Db;

/** Holds the result of the first read of a latest_scans row (a row with prospects and version) until released. */
function holdFirstRead() {
  let reached!: () => void;
  let release!: () => void;
  const wasReached = new Promise<void>((r) => (reached = r));
  const released = new Promise<void>((r) => (release = r));
  let held = false;
  const plugin: KyselyPlugin = {
    transformQuery: (args) => args.node,
    transformResult: async (args): Promise<QueryResult<UnknownRow>> => {
      const row = args.result.rows[0];
      if (!held && row && 'prospects' in row && 'version' in row) {
        held = true;
        reached();
        await released;
      }
      return args.result;
    },
  };
  return { kysely: other.kysely.withPlugin(plugin), wasReached, release };
}

const evidenceFor = (url: string): WebsiteEvidence => ({
  status: 'checked',
  reason: null,
  url,
  checkedAt: new Date().toISOString(),
  signals: [{ kind: 'google_ads', label: 'Runs Google Ads', url, seenAt: new Date().toISOString() }],
  facts: {},
  rules: 'test',
});

async function latest(): Promise<Prospect[]> {
  const res = await t.request({ method: 'GET', url: '/api/scans/latest?limit=50', as: rep });
  expect(res.statusCode).toBe(200);
  return res.json<{ prospects: Prospect[] }>().prospects;
}

async function quickSearch(name: string): Promise<Prospect[]> {
  const res = await t.request({
    method: 'POST',
    url: '/api/quick-search',
    payload: { mode: 'business', text: name, ...CENTRE, radiusMiles: 1 },
    as: rep,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ prospects: Prospect[] }>().prospects;
}

beforeAll(async () => {
  t = await createTestContext({ SCAN_COOLDOWN_MS: '0' });
  other = t.testDb.open();
  const at = new Date().toISOString();
  const place = (n: number, name: string, tags: Record<string, string>) =>
    placeRow(
      {
        id: `osm:node/${n}`,
        lat: CENTRE.lat + n * 0.0005,
        lng: CENTRE.lng,
        tags: { name, phone: `+1 555 555 03${String(n).padStart(2, '0')}`, ...tags },
      },
      at,
    );
  await t.db.kysely
    .insertInto('places')
    .values([
      place(1, 'Granite Heating & Air', { craft: 'hvac', website: 'https://granite-hvac.example/' }),
      place(2, 'Maple Street Dental', { amenity: 'dentist', website: 'https://maple-dental.example/' }),
      place(3, 'Riverbend Plumbing', { craft: 'plumber', website: 'https://riverbend.example/' }),
      place(4, 'Quillfeather Stationers', { shop: 'stationery' }),
    ])
    .execute();
  rep = await t.newUser('user');
});
afterAll(async () => {
  await other?.destroy();
  await t?.close();
});

async function freshScan(): Promise<Prospect[]> {
  const res = await t.request({
    method: 'POST',
    url: '/api/scans',
    payload: { ...CENTRE, radiusMiles: 1, count: 50 },
    as: rep,
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ prospects: Prospect[] }>().prospects;
}

const businessOf = (p: Prospect): Business => ({ ...p });

describe('background evidence and a quick search, interleaved', () => {
  it('evidence read before the quick search, written after it: both survive', async () => {
    const scanned = await freshScan();
    const target = scanned.find((p) => p.name === 'Maple Street Dental')!;
    const key = target.aiAnalysis!.businessHash;
    const hold = holdFirstRead();
    // The background writer reads the list and is held there...
    const applying = applyToLatestScans(
      hold.kysely,
      key,
      businessOf(target),
      evidenceFor('https://maple-dental.example/'),
      () => null,
    );
    await hold.wasReached;
    // ...while a quick search merges its find on top and commits.
    const found = await quickSearch('Quillfeather');
    expect(found[0]!.name).toBe('Quillfeather Stationers');
    hold.release();
    expect(await applying).toEqual([rep.id]);

    const list = await latest();
    expect(list[0]!.name).toBe('Quillfeather Stationers');
    expect(list.find((p) => p.id === target.id)!.signals!.map((s) => s.kind)).toEqual(['google_ads']);
    // The scan's list is all there below the find.
    expect(list.slice(1).map((p) => p.id)).toEqual(
      scanned.map((p) => p.id).filter((id) => id !== list[0]!.id),
    );
  });

  it('a quick-search merge read before the evidence, written after it: both survive', async () => {
    const scanned = await freshScan();
    const target = scanned.find((p) => p.name === 'Riverbend Plumbing')!;
    // A business lower in the list, as a lookup by name would find it again.
    const found = scanned.filter((p) => p.id !== target.id).at(-1)!;
    const hold = holdFirstRead();
    // The merge reads the list and is held there...
    const merging = mergeLatestScan(hold.kysely, rep.id, (await lastSearchId())!, [found], 1, 100);
    await hold.wasReached;
    // ...while the evidence is written.
    const changed = await applyToLatestScans(
      t.db.kysely,
      target.aiAnalysis!.businessHash,
      businessOf(target),
      evidenceFor('https://riverbend.example/'),
      () => null,
    );
    expect(changed).toEqual([rep.id]);
    hold.release();
    const merged = await merging;
    expect(merged.list[0]!.id).toBe(found.id);

    const list = await latest();
    expect(list[0]!.id).toBe(found.id);
    expect(list.find((p) => p.id === target.id)!.signals!.map((s) => s.kind)).toEqual(['google_ads']);
    expect(list).toHaveLength(scanned.length);
  });

  it('evidence on a business lookup keeps the found business on top; on a scan it re-sorts by score', async () => {
    await freshScan();
    const top = await quickSearch('Granite');
    const granite = top[0]!;
    expect(granite.name).toBe('Granite Heating & Air');
    // A rescore that drops the found business to the bottom of any ranking.
    const low = { ...granite.aiAnalysis!, score: 1 };
    await applyToLatestScans(
      t.db.kysely,
      granite.aiAnalysis!.businessHash,
      businessOf(granite),
      evidenceFor('https://granite-hvac.example/'),
      () => low,
    );
    const list = await latest();
    expect(list[0]!.name).toBe('Granite Heating & Air');
    expect(list[0]!.score).toBe(0.01);

    // The same on a plain scan's list: it goes to its place by score.
    const scanned = await freshScan();
    const g = scanned.find((p) => p.name === 'Granite Heating & Air')!;
    await applyToLatestScans(
      t.db.kysely,
      g.aiAnalysis!.businessHash,
      businessOf(g),
      evidenceFor('https://granite-hvac.example/'),
      () => ({ ...g.aiAnalysis!, score: 1 }),
    );
    const sorted = await latest();
    expect(sorted.at(-1)!.name).toBe('Granite Heating & Air');
  });
});

async function lastSearchId(): Promise<string | null> {
  const row = await t.db.kysely
    .selectFrom('latest_scans')
    .select('search_id')
    .where('user_id', '=', rep.id)
    .executeTakeFirst();
  return row?.search_id ?? null;
}
