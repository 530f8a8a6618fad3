// Issue 21, "write only what changed", end to end: scans through the API over the repository's own extract
// (the imported place table), on SQLite, or PostgreSQL with TEST_DATABASE=postgres.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importOsmFile } from '../../src/server/places/osm-import.js';
import type { Prospect } from '../../src/core/types.js';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';
import { fixtureExtract } from '../helpers/osm-data.js';
import { CENTER } from '../fixtures/osm/prairie-junction.js';
import { SCAN_STEPS } from '../../src/server/scans/service.js';
import { scanSlotWait, takeScanSlot } from '../../src/server/scans/repository.js';
import { settleAfterAnswer } from '../../src/server/scans/after-answer.js';

let t: TestContext;
let rep: TestUser;
let other: TestUser;
beforeAll(async () => {
  t = await createTestContext({ SCAN_COOLDOWN_MS: '0', PLACE_PROVIDERS: 'local' });
  await importOsmFile(t.db, fixtureExtract());
  rep = await t.newUser('user');
  other = await t.newUser('user');
}, 60_000);
afterAll(() => t.close());

const scan = async (as: TestUser) => {
  const res = await t.request({
    method: 'POST',
    url: '/api/scans',
    payload: { ...CENTER, radiusMiles: 1, count: 20 },
    as,
  });
  expect(res.statusCode).toBe(200);
  await settleAfterAnswer(t.db); // the cache entries are written after the answer
  return res.json<{ prospects: Prospect[]; total: number }>();
};

/** Every analysis-cache row as stored: any write shows in updated_at or the data. */
const analysisRows = async () =>
  new Map(
    (
      await t.db.kysely
        .selectFrom('analysis_cache')
        .select(['business_id', 'updated_at', 'data', 'basis'])
        .execute()
    ).map((r) => [r.business_id, r]),
  );
const businessCopies = async () =>
  Number(
    (
      await t.db.kysely
        .selectFrom('business_cache')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('a repeated scan of an unchanged area (issue 21)', () => {
  it('writes no cache row, and copies no business of the imported table', async () => {
    const first = await scan(rep);
    expect(first.total).toBeGreaterThan(20);
    const before = await analysisRows();
    // Each business the rep can see (the top 100 kept) has its row, and no other: the rest of the businesses
    // scored are never shown, and their analyses would only be written to be overwritten.
    const latest = await t.request({
      method: 'GET',
      url: '/api/scans/latest?offset=0&limit=100',
      as: rep,
    });
    const kept = latest.json<{ prospects: Prospect[] }>().prospects;
    expect(kept.length).toBe(Math.min(100, first.total));
    expect([...before.keys()].sort()).toEqual(kept.map((p) => p.aiAnalysis!.businessHash).sort());
    expect(await businessCopies()).toBe(0);
    // Later, by the same rep and by another: nothing in either cache changes.
    await new Promise((r) => setTimeout(r, 20));
    await scan(rep);
    await scan(other);
    expect(await analysisRows()).toEqual(before);
    expect(await businessCopies()).toBe(0);
  });

  it('rewrites the analysis of a business whose data changed by SPEC §5, and no other', async () => {
    const first = await scan(rep);
    const target = first.prospects.find((p) => p.phone)!;
    const key = target.aiAnalysis!.businessHash;
    const before = await analysisRows();
    await new Promise((r) => setTimeout(r, 20));
    // A re-import gave the business a new phone number.
    await t.db.kysely
      .updateTable('places')
      .set({ phone: '+1 308 555 0999' })
      .where('id', '=', target.id)
      .execute();
    await scan(rep);
    const after = await analysisRows();
    expect(after.get(key)!.updated_at > before.get(key)!.updated_at).toBe(true);
    expect(JSON.parse(after.get(key)!.basis!)).toMatchObject({ phone: '+1 308 555 0999' });
    after.delete(key);
    before.delete(key);
    expect(after).toEqual(before);
  });
});

describe('the scan cooldown (issue 21)', () => {
  const at = (seconds: number) => new Date(Date.UTC(2026, 10, 27, 8, 0, seconds)).toISOString();
  const minute = (startedAt: string) => ({ startedAt, cooldownMs: 60_000 });

  it('is read before the work and taken with the results: of two scans within it only one stores', async () => {
    const user = await t.newUser('user');
    const db = t.db.kysely;
    expect(await scanSlotWait(db, user.id, minute(at(0)))).toBe(0);
    expect(await takeScanSlot(db, user.id, minute(at(0)))).toBe(true);
    // 10 s later: 50 s still to wait, and a scan that went ahead anyway (another tab) cannot take the slot.
    expect(await scanSlotWait(db, user.id, minute(at(10)))).toBe(50_000);
    expect(await takeScanSlot(db, user.id, minute(at(10)))).toBe(false);
    // A scan that started later but stored first holds the slot against one that started before it.
    expect(await takeScanSlot(db, user.id, minute(at(61)))).toBe(true);
    expect(await takeScanSlot(db, user.id, minute(at(30)))).toBe(false);
    // One that started a whole cooldown before the later claim takes it, and the later claim is kept.
    expect(await takeScanSlot(db, user.id, minute(at(0)))).toBe(true);
    const slot = await db
      .selectFrom('scan_slots')
      .select('claimed_at')
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(slot.claimed_at).toBe(at(61));
    // Off: nothing read, nothing taken, every scan goes on.
    expect(await scanSlotWait(db, user.id, { startedAt: at(62), cooldownMs: 0 })).toBe(0);
    expect(await takeScanSlot(db, user.id, { startedAt: at(62), cooldownMs: 0 })).toBe(true);
  });

  it('refuses the second of two scans at once, which stores nothing', async () => {
    const c = await createTestContext({ SCAN_COOLDOWN_MS: '60000', PLACE_PROVIDERS: 'local' });
    try {
      await importOsmFile(c.db, fixtureExtract());
      const user = await c.newUser('user');
      const post = () =>
        c.request({
          method: 'POST',
          url: '/api/scans',
          payload: { ...CENTER, radiusMiles: 1, count: 20 },
          as: user,
        });
      const answers = await Promise.all([post(), post()]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 429]);
      const refused = answers.find((a) => a.statusCode === 429)!;
      expect(refused.json()).toMatchObject({ error: 'Please wait a moment before scanning again.' });
      await settleAfterAnswer(c.db);
      const searches = await c.db.kysely
        .selectFrom('searches')
        .select('id')
        .where('user_id', '=', user.id)
        .execute();
      expect(searches).toHaveLength(1);
      const latest = await c.db.kysely
        .selectFrom('latest_scans')
        .select('search_id')
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(latest.search_id).toBe(searches[0]!.id);
      // And a third, moments later, is refused before any work.
      expect((await post()).statusCode).toBe(429);
    } finally {
      await c.close();
    }
  }, 60_000);
});

describe("a scan's steps in /metrics (issue 21)", () => {
  it('times every step of every scan', async () => {
    const admin = await t.newUser('admin');
    const count = async () => {
      const text = (await t.request({ method: 'GET', url: '/metrics', as: admin })).body;
      return Object.fromEntries(
        SCAN_STEPS.map((step) => {
          const m = new RegExp(`^scan_step_duration_seconds_count\\{step="${step}"\\} (\\d+)$`, 'm').exec(
            text,
          );
          return [step, Number(m?.[1] ?? 0)];
        }),
      );
    };
    const before = await count();
    await scan(rep);
    await scan(rep);
    const after = await count();
    for (const step of SCAN_STEPS) expect(after[step]! - before[step]!, step).toBe(2);
  });
});

describe('a cache write that fails (SPEC §8)', () => {
  it('still answers and keeps the results, on both databases', async () => {
    const broken = await createTestContext({ SCAN_COOLDOWN_MS: '0', PLACE_PROVIDERS: 'local' });
    try {
      await importOsmFile(broken.db, fixtureExtract());
      const user = await broken.newUser('user');
      // The analysis cache is gone: its read and its writes fail.
      await sql`DROP TABLE analysis_cache`.execute(broken.db.kysely);
      const res = await broken.request({
        method: 'POST',
        url: '/api/scans',
        payload: { ...CENTER, radiusMiles: 1, count: 20 },
        as: user,
      });
      expect(res.statusCode).toBe(200);
      const first = res.json<{ prospects: Prospect[] }>().prospects;
      expect(first.length).toBe(20);
      const latest = await broken.request({
        method: 'GET',
        url: '/api/scans/latest?offset=0&limit=20',
        as: user,
      });
      expect(latest.statusCode).toBe(200);
      expect(latest.json<{ prospects: Prospect[] }>().prospects.map((p) => p.id)).toEqual(
        first.map((p) => p.id),
      );
    } finally {
      await broken.close();
    }
  });
});
