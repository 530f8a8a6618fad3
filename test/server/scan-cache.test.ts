// The scan's business and analysis caches on a real database (SQLite, or PostgreSQL with
// TEST_DATABASE=postgres): one row per business, the rules for when a stored analysis is reused
// (docs/PRODUCT.md, "Caches and freshness"), and what it gives the scan.
import { MODEL_VERSION } from '../../src/core/scoring/constants.js';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Business, Prospect, ProspectAnalysis } from '../../src/core/types.js';
import { readCaches, writeAnalysisCache, writeBusinessCache } from '../../src/server/scans/cache.js';
import { rankBusinesses, type ScanLog } from '../../src/server/scans/service.js';
import { createScoreFn, type ScoreFn } from '../../src/server/scans/analysis.js';
import { createTestContext, type TestContext } from '../helpers/app.js';
import { afterAnswer, settleAfterAnswer, type CacheWrites } from '../../src/server/scans/after-answer.js';
import type { Db } from '../../src/server/db/database.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ SCAN_COOLDOWN_MS: '0', PLACE_PROVIDERS: 'demo' });
});
afterAll(() => t.close());

const CENTER = { lat: 37.7879, lng: -122.4066 };
const score = createScoreFn(() => undefined);

/** What a scan does with the caches: rank, then (after its answer) save the entries the ranking decided to write. */
async function rank(businesses: Business[], center: { lat: number; lng: number }, log?: ScanLog) {
  const ranking = await rankBusinesses({ db: t.db, score, log }, businesses, center);
  await saveCacheWrites(t.db, ranking.cacheWrites);
  return ranking.prospects;
}

async function saveCacheWrites(db: Db, writes: CacheWrites) {
  afterAnswer(db).schedule(writes);
  await settleAfterAnswer(db);
}

/** A business of the OSM import: a provider id, no place id. */
function osmBusiness(id: string, over: Partial<Business> = {}): Business {
  return {
    id: `osm:node/${id}`,
    name: 'Wells Fargo',
    lat: CENTER.lat + 0.001,
    lng: CENTER.lng,
    types: ['bank'],
    category: 'Financial',
    address: '',
    reviews: 0,
    openNow: null,
    source: 'local',
    ...over,
  };
}

/** A stored analysis row as the table holds it (the scan's read returns only what a scan uses). */
async function storedAnalysis(key: string) {
  const row = await t.db.kysely
    .selectFrom('analysis_cache')
    .selectAll()
    .where('business_id', '=', key)
    .executeTakeFirstOrThrow();
  return { ...row, data: JSON.parse(row.data) as ProspectAnalysis };
}

async function cacheRowCount(table: 'business_cache' | 'analysis_cache', keys: string[]) {
  const rows = await t.db.kysely
    .selectFrom(table)
    .select('business_id')
    .where('business_id', 'in', keys)
    .execute();
  return rows.map((r) => r.business_id).sort();
}

const BASIS = { reviewCount: 0, rating: null, website: '', phone: '' };

describe('cache keys and writes', () => {
  it('writes a batch that names one key twice (the last entry wins), on both databases', async () => {
    const a = osmBusiness('1');
    const analysis = score([a], CENTER)[0]!.analysis();
    const data = (name: string) => ({
      name,
      address: '',
      normalizedCategory: 'Financial',
      website: '',
      phone: '',
      rating: null,
      reviewCount: 0,
      businessStatus: 'Open' as const,
      types: ['bank'],
    });
    await writeBusinessCache(t.db.kysely, [
      { key: 'dup-key', data: data('first') },
      { key: 'dup-key', data: data('second') },
    ]);
    await writeAnalysisCache(t.db.kysely, [
      { key: 'dup-key', data: { ...analysis, reasoning: 'first' }, basis: BASIS },
      { key: 'dup-key', data: { ...analysis, reasoning: 'second' }, basis: BASIS },
    ]);
    const rows = await readCaches(t.db, ['dup-key']);
    expect(rows.business.get('dup-key')?.data.name).toBe('second');
    expect((await storedAnalysis('dup-key')).data.reasoning).toBe('second');
  });

  it('reads of an analysis only its age, version, basis and AI-written words, whatever its texts say', async () => {
    const plain = score([osmBusiness('201')], CENTER)[0]!.analysis();
    // A text that is the marker itself makes the row send its JSON; the parsed JSON still says "no AI words".
    const named = { ...plain, reasoning: 'reasoningModel' };
    expect(JSON.stringify(named)).toContain('"reasoningModel"');
    await writeAnalysisCache(t.db.kysely, [
      { key: 'read-plain', data: plain, basis: BASIS },
      { key: 'read-named', data: named, basis: BASIS },
      {
        key: 'read-ai',
        data: { ...plain, reasoning: 'AI words.', reasoningModel: 'test-model-1' },
        basis: BASIS,
      },
    ]);
    const rows = await readCaches(t.db, ['read-plain', 'read-named', 'read-ai', 'read-absent']);
    const entry = { updated_at: expect.any(String), model_version: MODEL_VERSION, basis: BASIS };
    expect(rows.analysis.get('read-plain')).toEqual(entry);
    expect(rows.analysis.get('read-named')).toEqual(entry);
    expect(rows.analysis.get('read-ai')).toEqual({
      ...entry,
      ai: { reasoning: 'AI words.', reasoningModel: 'test-model-1' },
    });
    expect(rows.analysis.has('read-absent')).toBe(false);
  });

  it('gives two same-name branches with empty addresses their own cache rows', async () => {
    const one = osmBusiness('101');
    const two = osmBusiness('102', { lat: CENTER.lat - 0.004 });
    const warnings: unknown[] = [];
    const log = { warn: (obj: object, msg?: string) => void warnings.push({ obj, msg }) };
    const prospects = await rank([one, two], CENTER, log);
    expect(warnings).toEqual([]);
    expect(prospects).toHaveLength(2);
    const keys = ['place_osm:node/101', 'place_osm:node/102'];
    expect(prospects.map((p) => p.aiAnalysis?.businessHash).sort()).toEqual(keys);
    // Businesses of the imported table are their own source: no business-cache copy.
    expect(await cacheRowCount('business_cache', keys)).toEqual([]);
    expect(await cacheRowCount('analysis_cache', keys)).toEqual(keys);
    // Each branch keeps its own analysis: the distances differ, so do the stored reasonings.
    const [first, second] = await Promise.all(keys.map(storedAnalysis));
    expect(first!.data.reasoning).not.toBe(second!.data.reasoning);
    // A row keeps the analysis a card shows and what the reasoning job matches on, not the breakdown (a scan
    // re-scores).
    expect(Object.keys(first!.data).sort()).toEqual(
      [
        'analyzedAt',
        'businessHash',
        'confidence',
        'modelVersion',
        'reasoning',
        'recommendations',
        'score',
      ].sort(),
    );
  });
});

describe('a scan writes only what changed', () => {
  const google = (id: string, over: Partial<Business> = {}) =>
    dentist({ id: `g-${id}`, placeId: `ChIJ-${id}`, source: 'google', ...over });

  it('writes nothing when the same businesses come again unchanged, from any provider', async () => {
    const local = [dentist(), dentist({ name: 'Sutter Street Dental' })];
    const remote = [google('a'), google('b', { name: 'Union Square Dental' })];
    const first = await rankBusinesses({ db: t.db, score }, [...local, ...remote], CENTER);
    expect(first.cacheWrites.analysis).toHaveLength(4);
    // Only the other provider's businesses get a copy in the business cache.
    expect(first.cacheWrites.business.map((w) => w.key).sort()).toEqual(['place_ChIJ-a', 'place_ChIJ-b']);
    await saveCacheWrites(t.db, first.cacheWrites);
    const elsewhere = { lat: CENTER.lat + 0.002, lng: CENTER.lng - 0.002 };
    const again = await rankBusinesses({ db: t.db, score }, [...local, ...remote], elsewhere);
    expect(again.cacheWrites).toEqual({ business: [], analysis: [] });
  });

  it('rewrites the analysis of a business that changed past the change thresholds, and only that one', async () => {
    const same = dentist({ name: 'Kearny Dental' });
    const grows = google('grows');
    const moves = dentist({ name: 'Geary Dental' });
    const first = await rankBusinesses({ db: t.db, score }, [same, grows, moves], CENTER);
    await saveCacheWrites(t.db, first.cacheWrites);
    const keyOf = (name: string) => first.prospects.find((p) => p.name === name)!.aiAnalysis!.businessHash;
    const again = await rankBusinesses(
      { db: t.db, score },
      [same, { ...grows, reviews: grows.reviews + 9 }, { ...moves, phone: '(415) 555-0199' }],
      CENTER,
    );
    // 9 more reviews is under the threshold; a new phone number is a change.
    expect(again.cacheWrites.analysis.map((w) => w.key)).toEqual([keyOf('Geary Dental')]);
    const ten = await rankBusinesses(
      { db: t.db, score },
      [{ ...grows, reviews: grows.reviews + 10 }],
      CENTER,
    );
    expect(ten.cacheWrites.analysis.map((w) => w.key)).toEqual([keyOf(grows.name)]);
    expect(ten.cacheWrites.analysis[0]!.basis.reviewCount).toBe(grows.reviews + 10);
  });

  it('judges a row written before the basis existed by its business-cache copy (the migration copies it)', async () => {
    const b = google('legacy');
    const first = await rankBusinesses({ db: t.db, score }, [b], CENTER);
    await saveCacheWrites(t.db, first.cacheWrites);
    const key = first.cacheWrites.analysis[0]!.key;
    await t.db.kysely
      .updateTable('analysis_cache')
      .set({ basis: null })
      .where('business_id', '=', key)
      .execute();
    // Without a basis the row cannot show it still holds: it is rewritten once, with one.
    const again = await rankBusinesses({ db: t.db, score }, [b], CENTER);
    expect(again.cacheWrites.analysis.map((w) => w.key)).toEqual([key]);
    // The migration's backfill: the business copy holds the basis's fields.
    const { data } = await t.db.kysely
      .selectFrom('business_cache')
      .select('data')
      .where('business_id', '=', key)
      .executeTakeFirstOrThrow();
    await t.db.kysely
      .updateTable('analysis_cache')
      .set({ basis: data })
      .where('business_id', '=', key)
      .execute();
    const after = await rankBusinesses({ db: t.db, score }, [b], CENTER);
    expect(after.cacheWrites.analysis).toEqual([]);
  });
});

/** A model-scored business (a dentist with a website and phone), its data overridable. */
function dentist(over: Partial<Business> = {}): Business {
  return {
    id: `osm:node/${Math.floor(Math.random() * 1e12)}`,
    name: 'Bright Smiles Dental',
    lat: CENTER.lat + 0.003,
    lng: CENTER.lng,
    types: ['dentist'],
    category: 'Dental',
    address: '450 Sutter St, San Francisco, CA 94108',
    website: 'https://brightsmiles.example',
    phone: '(415) 555-0100',
    rating: 4.5,
    reviews: 100,
    openNow: true,
    source: 'local',
    ...over,
  };
}

const AI = { reasoning: 'Written by the AI: a strong dental practice.', reasoningModel: 'test-model-1' };

/** Scan once (writing the caches), then give the stored analysis AI-written words, as the AI job does. */
async function seedAiEntry(b: Business, row: { ageMs?: number; modelVersion?: string } = {}) {
  const [first] = await rank([b], CENTER);
  const key = first!.aiAnalysis!.businessHash;
  await t.db.kysely
    .updateTable('analysis_cache')
    .set({
      data: JSON.stringify({ ...first!.aiAnalysis!, ...AI }),
      updated_at: new Date(Date.now() - (row.ageMs ?? 0)).toISOString(),
      model_version: row.modelVersion ?? MODEL_VERSION,
    })
    .where('business_id', '=', key)
    .execute();
  return key;
}

const DAY = 86_400_000;
const miles = (reasoning: string) => Number(/ (\d+\.\d) mi away\./.exec(reasoning)?.[1]);

describe('what a ranking explains', () => {
  it('scores every business and explains only the shown ones, the best first', async () => {
    let explained = 0;
    const counting: ScoreFn = (businesses, center) =>
      score(businesses, center).map((r) => ({
        score: r.score,
        exact: r.exact,
        rule: r.rule,
        analysis: () => {
          explained++;
          return r.analysis();
        },
      }));
    // 150 businesses of different sizes and distances: every score is the model's, some tie.
    const businesses = Array.from({ length: 150 }, (_, i) =>
      osmBusiness(String(5000 + i), {
        name: `Dental Office ${i}`,
        types: ['dentist'],
        category: 'Dental',
        lat: CENTER.lat + (i % 17) * 0.0007,
        ...(i % 3 === 0 && { website: `https://dental${i}.example` }),
        ...(i % 4 === 0 && { phone: `(415) 555-${String(1000 + i)}` }),
      }),
    );
    const ranking = await rankBusinesses({ db: t.db, score: counting }, businesses, CENTER, { shown: 100 });
    expect(ranking.total).toBe(150);
    expect(ranking.prospects).toHaveLength(100);
    expect(explained).toBe(100);
    // The shown are the first 100 of all 150 in score order, each with its whole analysis.
    const all = score(businesses, CENTER)
      .map((r) => r.score)
      .sort((a, b) => b - a);
    expect(ranking.prospects.map((p) => p.aiAnalysis!.score)).toEqual(all.slice(0, 100));
    for (const p of ranking.prospects) {
      expect(p.aiAnalysis!.reasoning).toContain(`(${p.aiAnalysis!.score}/100)`);
      expect(p.aiAnalysis!.breakdown.points).not.toBeNull();
      expect(ranking.businesses[ranking.prospects.indexOf(p)]!.id).toBe(p.id);
    }
  });
});

describe('what a stored analysis gives a scan', () => {
  it('scores every business fresh: the reasoning and distance follow the scan centre', async () => {
    const b = dentist();
    const near = { lat: b.lat - 0.0029, lng: b.lng };
    const far = { lat: b.lat - 0.012, lng: b.lng };
    for (const center of [near, far, near]) {
      const [p] = await rank([b], center);
      const fresh = score([b], center)[0]!.analysis();
      expect(Math.abs(miles(p!.aiAnalysis!.reasoning) - p!.distance)).toBeLessThanOrEqual(0.051);
      expect(p!.aiAnalysis!.breakdown).toEqual(fresh.breakdown);
      expect(p!.aiAnalysis!.score).toBe(fresh.score);
      expect(p!.aiAnalysis!.reasoningModel).toBeUndefined();
    }
  });

  it('gives a fresh, unchanged entry its AI-written reasoning, with the fresh score and breakdown', async () => {
    const b = dentist();
    const key = await seedAiEntry(b);
    const elsewhere = { lat: b.lat + 0.01, lng: b.lng + 0.01 };
    const [p] = await rank([{ ...b, reviews: 109 }], elsewhere);
    const fresh = score([{ ...b, reviews: 109 }], elsewhere)[0]!.analysis();
    expect(p!.aiAnalysis).toMatchObject({ ...AI, score: fresh.score, businessHash: key });
    expect(p!.aiAnalysis!.breakdown).toEqual(fresh.breakdown);
    // The entry is kept as it was (not rewritten over the AI words).
    expect((await storedAnalysis(key)).data.reasoningModel).toBe(AI.reasoningModel);
  });

  const stale: [string, { ageMs?: number; modelVersion?: string }, Partial<Business>][] = [
    ['older than 7 days', { ageMs: 7 * DAY + 60_000 }, {}],
    ['of another model version', { modelVersion: 'v0' }, {}],
    ['10 more reviews', {}, { reviews: 110 }],
    ['a rating 0.1 higher', {}, { rating: 4.6 }],
    ['another website', {}, { website: 'https://other.example' }],
    ['no phone any more', {}, { phone: undefined }],
  ];
  it.each(stale)('drops the AI words and rewrites the entry when it is %s', async (_, row, change) => {
    const b = dentist();
    const key = await seedAiEntry(b, row);
    const changed = { ...b, ...change };
    const [p] = await rank([changed], CENTER);
    expect(p!.aiAnalysis!.reasoningModel).toBeUndefined();
    expect(p!.aiAnalysis!.reasoning).toBe(score([changed], CENTER)[0]!.analysis().reasoning);
    const stored = await storedAnalysis(key);
    expect(stored.data.reasoningModel).toBeUndefined();
    expect(stored.data.reasoning).toBe(p!.aiAnalysis!.reasoning);
    expect(stored.model_version).toBe(MODEL_VERSION);
    expect(Date.now() - Date.parse(stored.updated_at)).toBeLessThan(60_000);
  });

  it('still reuses the entry just inside the expiry', async () => {
    const b = dentist();
    await seedAiEntry(b, { ageMs: 7 * DAY - 60_000 });
    const [p] = await rank([b], CENTER);
    expect(p!.aiAnalysis).toMatchObject(AI);
  });
});

describe('when the scorer fails', () => {
  it('answers 200 with the category fallback score for every prospect, and caches none of it', async () => {
    const failing = await createTestContext(
      { SCAN_COOLDOWN_MS: '0', PLACE_PROVIDERS: 'demo' },
      {
        score: () => {
          throw new Error('scorer down');
        },
      },
    );
    try {
      const rep = await failing.newUser('user');
      const res = await failing.request({
        method: 'POST',
        url: '/api/scans',
        payload: { ...CENTER, radiusMiles: 1, count: 20 },
        as: rep,
      });
      expect(res.statusCode).toBe(200);
      const { prospects } = res.json<{ prospects: Prospect[] }>();
      expect(prospects.length).toBeGreaterThan(5);
      for (const p of prospects) {
        expect(p.aiAnalysis?.breakdown.rule).toBe('fallback');
        expect(p.score).toBe(p.aiAnalysis!.score / 100);
        expect(p.aiAnalysis!.score).toBeGreaterThanOrEqual(40);
      }
      const cached = await failing.db.kysely
        .selectFrom('analysis_cache')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(cached.n)).toBe(0);
    } finally {
      await failing.close();
    }
  });
});

describe('when the caches fail', () => {
  it('ranks without them, says so in the log, and keeps the scan going', async () => {
    const broken = await createTestContext({ SCAN_COOLDOWN_MS: '0', PLACE_PROVIDERS: 'demo' });
    try {
      await sql`ALTER TABLE analysis_cache RENAME TO analysis_cache_gone`.execute(broken.db.kysely);
      const warnings: string[] = [];
      const log = { warn: (_: object, msg?: string) => void warnings.push(msg ?? '') };
      const businesses = [
        dentist({ source: 'google', placeId: 'ChIJ-broken' }),
        osmBusiness('301', { source: 'osm' }),
      ];
      const ranking = await rankBusinesses({ db: broken.db, score, log }, businesses, CENTER);
      expect(ranking.prospects.map((p) => p.aiAnalysis?.score)).toEqual(
        score(businesses, CENTER)
          .map((r) => r.score)
          .sort((a, b) => b - a),
      );
      afterAnswer(broken.db).log = log;
      await saveCacheWrites(broken.db, ranking.cacheWrites);
      expect(warnings).toEqual([
        'analysis cache read failed; scanning without it',
        'cache write failed; the scan goes on',
      ]);
      // The business cache, a table of its own, was still written.
      const kept = await broken.db.kysely.selectFrom('business_cache').select('business_id').execute();
      expect(kept).toHaveLength(2);
    } finally {
      await broken.close();
    }
  });
});

describe('blocked businesses are removed before scoring', () => {
  it('never scores, caches or counts a blocked business in a scan or a quick search', async () => {
    const scored: string[][] = [];
    const model = createScoreFn(() => undefined);
    const ctx = await createTestContext(
      { SCAN_COOLDOWN_MS: '0', PLACE_PROVIDERS: 'demo' },
      {
        score: (businesses, center) => {
          scored.push(businesses.map((b) => b.id));
          return model(businesses, center);
        },
      },
    );
    try {
      const [rep, admin] = [await ctx.newUser('user'), await ctx.newUser('admin')];
      const body = { ...CENTER, radiusMiles: 1, count: 20 };
      const first = await ctx.request({ method: 'POST', url: '/api/scans', payload: body, as: rep });
      const [byId, byKey] = first.json<{ prospects: Prospect[] }>().prospects;
      for (const [businessId, label] of [
        [byId!.id, byId!.name],
        [byKey!.aiAnalysis!.businessHash, byKey!.name],
      ]) {
        const res = await ctx.request({
          method: 'POST',
          url: '/api/blocklist',
          payload: { businessId, label },
          as: admin,
        });
        expect(res.statusCode).toBe(201);
      }
      await ctx.db.kysely.deleteFrom('analysis_cache').execute();
      scored.length = 0;

      const again = await ctx.request({ method: 'POST', url: '/api/scans', payload: body, as: rep });
      expect(again.statusCode).toBe(200);
      const quick = await ctx.request({
        method: 'POST',
        url: '/api/quick-search',
        payload: { mode: 'business', text: byId!.name, ...CENTER, radiusMiles: 1 },
        as: rep,
      });
      expect(quick.statusCode).toBe(404);
      expect(scored.length).toBe(1);
      for (const ids of scored) {
        expect(ids.length).toBeGreaterThan(10);
        expect(ids).not.toContain(byId!.id);
        expect(ids).not.toContain(byKey!.id);
      }
      await settleAfterAnswer(ctx.db); // the cache entries are written after the answer
      const cached = await ctx.db.kysely.selectFrom('analysis_cache').select('business_id').execute();
      // The analyses of the businesses kept (shown) are cached; none of a blocked one.
      expect(cached.length).toBe(Math.min(100, again.json<{ total: number }>().total));
      expect(cached.map((r) => r.business_id)).not.toContain(byKey!.aiAnalysis!.businessHash);
      expect(cached.map((r) => r.business_id)).not.toContain(`place_${byId!.id}`);
    } finally {
      await ctx.close();
    }
  });
});
