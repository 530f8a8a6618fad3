// A scan writes only what changed, end to end: scans through the API over the repository's own extract
// (the imported place table), on SQLite, or PostgreSQL with TEST_DATABASE=postgres.
import { sql } from 'kysely';
import { parseCsv } from '../../src/core/csv.js';
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

describe('a repeated scan of an unchanged area', () => {
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

  it('rewrites the analysis of a business whose data changed past the change thresholds, and no other', async () => {
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

describe('the latest results, stored compactly', () => {
  /** The rep's results as stored, entry by entry. */
  const stored = async (as: TestUser) =>
    JSON.parse(
      (
        await t.db.kysely
          .selectFrom('latest_scans')
          .select('prospects')
          .where('user_id', '=', as.id)
          .executeTakeFirstOrThrow()
      ).prospects,
    ) as Record<string, unknown>[];
  const page = async (as: TestUser, offset: number, limit: number) => {
    const res = await t.request({
      method: 'GET',
      url: `/api/scans/latest?offset=${offset}&limit=${limit}`,
      as,
    });
    expect(res.statusCode).toBe(200);
    return res.json<{ prospects: Prospect[]; total: number }>();
  };

  it('keeps ids and per-scan fields, and pages whole prospects back from the place table', async () => {
    const user = await t.newUser('user');
    const answer = await scan(user);
    const entries = await stored(user);
    expect(entries).toHaveLength(Math.min(100, answer.total));
    for (const entry of entries) {
      for (const field of ['name', 'lat', 'lng', 'types', 'city', 'state', 'zip', 'reviews']) {
        expect(entry).not.toHaveProperty(field);
      }
      expect(Object.keys(entry)).toEqual(
        expect.arrayContaining(['id', 'distance', 'score', 'aiAnalysis', 'openNow', 'category', 'signals']),
      );
    }
    // Restored (a reload) it is the scan's answer, field for field; Load Next reads the next ones the same way.
    expect((await page(user, 0, 20)).prospects).toEqual(answer.prospects);
    const next = await page(user, 20, 20);
    expect(next.prospects.map((p) => p.id)).toEqual(entries.slice(20, 40).map((e) => e.id));
    const rows = await t.db.kysely
      .selectFrom('places')
      .select(['id', 'name', 'lat', 'lng'])
      .where(
        'id',
        'in',
        next.prospects.map((p) => p.id),
      )
      .execute();
    for (const p of next.prospects) {
      const row = rows.find((r) => r.id === p.id)!;
      expect(p).toMatchObject({ name: row.name, lat: row.lat, lng: row.lng, reviews: 0, source: 'local' });
    }
    // The team's list and the rep's current-scan export get whole prospects from it too.
    const team = await t.db.kysely
      .selectFrom('team_prospects')
      .select('prospect')
      .where('business_id', '=', answer.prospects[0]!.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(team.prospect)).toMatchObject({
      name: answer.prospects[0]!.name,
      lat: answer.prospects[0]!.lat,
    });
    const boss = await t.newUser('SuperAdmin');
    await scan(boss);
    const csv = await t.request({ method: 'GET', url: '/api/exports/prospects.csv?scope=current', as: boss });
    expect(csv.statusCode).toBe(200);
    const names = parseCsv(csv.body)
      .records.slice(1)
      .map((r) => r[0]);
    expect(names.slice(0, 20)).toEqual(answer.prospects.map((p) => p.name));
  });

  it('leaves out, and out of the total, a prospect whose place an import removed', async () => {
    const user = await t.newUser('user');
    const answer = await scan(user);
    const before = await page(user, 0, 100);
    const gone = before.prospects[3]!;
    const row = await t.db.kysely
      .selectFrom('places')
      .selectAll()
      .where('id', '=', gone.id)
      .executeTakeFirstOrThrow();
    await t.db.kysely.deleteFrom('places').where('id', '=', gone.id).execute();
    try {
      const after = await page(user, 0, 100);
      expect(after.total).toBe(answer.total - 1);
      expect(after.prospects.map((p) => p.id)).toEqual(
        before.prospects.filter((p) => p.id !== gone.id).map((p) => p.id),
      );
    } finally {
      await t.db.kysely.insertInto('places').values(row).execute();
    }
  });

  it('keeps the category a rep named, and reads results stored whole before this change', async () => {
    const admin = await t.newUser('admin');
    const answer = await scan(admin);
    const target = answer.prospects[1]!;
    const res = await t.request({
      method: 'PATCH',
      url: `/api/scans/latest/prospects/${encodeURIComponent(target.id)}/category`,
      payload: { category: 'Plumbing' },
      as: admin,
    });
    expect(res.statusCode).toBe(200);
    expect((await page(admin, 0, 20)).prospects[1]).toEqual({ ...target, category: 'Plumbing' });
    // Whole entries (as stored before): read as they are.
    await t.db.kysely
      .updateTable('latest_scans')
      .set({ prospects: JSON.stringify(answer.prospects) })
      .where('user_id', '=', admin.id)
      .execute();
    expect((await page(admin, 0, 20)).prospects).toEqual(answer.prospects);
  });
});

describe('the scan cooldown', () => {
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

describe("a scan's steps in /metrics", () => {
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

describe('a cache write that fails', () => {
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
