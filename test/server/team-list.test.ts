// The team list (All Prospects) is copied from a rep's stored results after the scan answers
// (src/server/scans/team-list.ts). What must hold: every scan's kept prospects reach it, none are lost when the
// results are replaced or the process stops before the copy, and an older copy never replaces a newer one. On
// SQLite, or PostgreSQL with TEST_DATABASE=postgres.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql, type Transaction } from 'kysely';
import { importOsmFile } from '../../src/server/places/osm-import.js';
import type { Prospect } from '../../src/core/types.js';
import { buildSecondApp, createTestContext, type TestContext, type TestUser } from '../helpers/app.js';
import { fixtureExtract } from '../helpers/osm-data.js';
import { CENTER } from '../fixtures/osm/prairie-junction.js';
import { saveLatestScan } from '../../src/server/scans/repository.js';
import { testDatabaseKind } from '../helpers/db.js';
import { oweTeamCopies, recordTeamProspects } from '../../src/server/scans/team-list.js';
import { afterAnswer, settleAfterAnswer } from '../../src/server/scans/after-answer.js';
import type { Db } from '../../src/server/db/database.js';
import type { Database } from '../../src/server/db/schema.js';

let t: TestContext;
let rep: TestUser;
beforeAll(async () => {
  t = await createTestContext({ SCAN_COOLDOWN_MS: '0', PLACE_PROVIDERS: 'local' });
  await importOsmFile(t.db, fixtureExtract());
  rep = await t.newUser('user');
}, 60_000);
afterAll(() => t.close());
beforeEach(async () => {
  await settleAfterAnswer(t.db);
  await t.db.kysely.deleteFrom('team_prospects').execute();
  await t.db.kysely.deleteFrom('team_pending').execute();
});

const scan = async (payload: object = {}) => {
  const res = await t.request({
    method: 'POST',
    url: '/api/scans',
    payload: { ...CENTER, radiusMiles: 1, count: 20, ...payload },
    as: rep,
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ searchId: string; prospects: Prospect[]; total: number }>();
};

const teamIds = async () =>
  (await t.db.kysely.selectFrom('team_prospects').select('business_id').execute())
    .map((r) => r.business_id)
    .sort();
const owed = () => t.db.kysely.selectFrom('team_pending').selectAll().execute();
const keptIds = async () => {
  const res = await t.request({ method: 'GET', url: '/api/scans/latest?offset=0&limit=100', as: rep });
  return res
    .json<{ prospects: Prospect[] }>()
    .prospects.map((p) => p.id)
    .sort();
};

/** Results stored and owed as a scan stores them, with no copy made: a process that stopped right after. */
async function storedNotCopied(prospects: Prospect[], at: string) {
  await t.db.kysely.transaction().execute(async (trx) => {
    await saveLatestScan(trx, rep.id, `search-${at}`, prospects, prospects.length, at);
    await trx
      .insertInto('searches')
      .values({
        id: `search-${at}`,
        user_id: rep.id,
        created_at: at,
        kind: 'scan',
        lat: CENTER.lat,
        lng: CENTER.lng,
        radius_miles: 1,
        count: 20,
        categories: '[]',
        location_label: null,
        query: null,
        total: prospects.length,
      })
      .execute();
    await oweTeamCopies(trx, rep.id, `search-${at}`, prospects.length, at);
  });
}

const prospect = (id: string, score: number, name = `Business ${id}`) =>
  ({ id, name, score, aiAnalysis: { businessHash: `hash-${id}` } }) as unknown as Prospect;

describe('the team list after a scan', () => {
  it("holds the scan's kept prospects once the copy is made, and owes nothing after", async () => {
    await scan();
    await settleAfterAnswer(t.db);
    expect(await teamIds()).toEqual(await keptIds());
    expect(await owed()).toEqual([]);
    // The All Prospects view waits for the copy itself: a scan, then at once the view.
    await t.db.kysely.deleteFrom('team_prospects').execute();
    await scan({ radiusMiles: 2 });
    const admin = await t.newUser('admin');
    const res = await t.request({
      method: 'GET',
      url: '/api/admin/all-prospects?offset=0&limit=500',
      as: admin,
    });
    expect(res.statusCode).toBe(200);
    const shown = res.json<{ prospects: { id: string }[]; total: number }>();
    expect(shown.total).toBe((await keptIds()).length);
  });

  it('makes the copies a stopped process still owed when the app starts', async () => {
    await storedNotCopied([prospect('a', 70), prospect('b', 60)], new Date().toISOString());
    expect(await teamIds()).toEqual([]);
    const second = await buildSecondApp(t);
    await second.ready();
    await second.close(); // closing waits for the copy under way
    expect(await teamIds()).toEqual(['a', 'b']);
    expect(await owed()).toEqual([]);
  });

  it("copies a rep's owed results before their next scan or New Search replaces them", async () => {
    await storedNotCopied([prospect('old-1', 90)], '2026-01-01T00:00:00.000Z');
    await scan();
    await settleAfterAnswer(t.db);
    expect(await teamIds()).toEqual([...(await keptIds()), 'old-1'].sort());

    await storedNotCopied([prospect('old-2', 80)], '2026-01-02T00:00:00.000Z');
    const res = await t.request({ method: 'DELETE', url: '/api/scans/latest', as: rep });
    expect(res.statusCode).toBeLessThan(300);
    expect(await teamIds()).toContain('old-2');
    expect(await owed()).toEqual([]);
  });

  it.runIf(testDatabaseKind === 'postgres')(
    'PostgreSQL compresses the stored results with lz4 where the server has it',
    async () => {
      const { rows } = await sql<{ method: string; lz4: boolean }>`
        SELECT a.attcompression AS method,
          EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) AS lz4
        FROM pg_attribute a WHERE a.attrelid = 'latest_scans'::regclass AND a.attname = 'prospects'`.execute(
        t.db.kysely,
      );
      expect(rows[0]?.method).toBe(rows[0]?.lz4 ? 'l' : '');
    },
  );

  it('never lets a copy of an earlier scan replace a newer one', async () => {
    await recordTeamProspects(t.db.kysely, rep.id, [prospect('x', 80, 'Newer')], '2026-02-02T00:00:00.000Z');
    await recordTeamProspects(t.db.kysely, rep.id, [prospect('x', 20, 'Older')], '2026-02-01T00:00:00.000Z');
    const row = await t.db.kysely
      .selectFrom('team_prospects')
      .select(['name', 'score', 'scanned_at'])
      .where('business_id', '=', 'x')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ name: 'Newer', score: 80, scanned_at: '2026-02-02T00:00:00.000Z' });
    await recordTeamProspects(t.db.kysely, rep.id, [prospect('x', 50, 'Latest')], '2026-02-03T00:00:00.000Z');
    const latest = await t.db.kysely
      .selectFrom('team_prospects')
      .select('name')
      .where('business_id', '=', 'x')
      .executeTakeFirstOrThrow();
    expect(latest.name).toBe('Latest');
  });

  it("copies owed results before the rep's account is deleted", async () => {
    const gone = await t.newUser('user');
    const root = await t.newUser('SuperAdmin');
    await t.db.kysely.transaction().execute(async (trx) => {
      await saveLatestScan(trx, gone.id, 'search-gone', [prospect('kept', 55)], 1, new Date().toISOString());
      await oweTeamCopies(trx, gone.id, 'search-gone', 1, new Date().toISOString());
    });
    const res = await t.request({
      method: 'POST',
      url: `/api/users/${gone.id}/hard-delete`,
      payload: { password: root.password },
      as: root,
    });
    expect(res.statusCode).toBe(204);
    const row = await t.db.kysely
      .selectFrom('team_prospects')
      .select(['business_id', 'scanned_by'])
      .where('business_id', '=', 'kept')
      .executeTakeFirst();
    expect(row).toEqual({ business_id: 'kept', scanned_by: null });
  });

  it('is one writer per connection: a write inside an Idempotency-Key transaction settles the same one', () => {
    expect(afterAnswer({ ...t.db })).toBe(afterAnswer(t.db));
  });

  it('lets a reader wait for the scans scheduled before it, not for the rounds after them', async () => {
    // Under a steady stream of scans the writer is rarely idle: a reader that waited for idle (a call log's
    // score, All Prospects) waited on every round after its own. Each round here waits at a gate of its own.
    const gates: (() => void)[] = [];
    // A handle of its own (no shared connection object), so the writer made for it is a new one.
    const { kysely, sqlite: _sqlite, pool: _pool, ...handle } = t.db;
    const gated: Db = {
      ...handle,
      kysely: new Proxy(kysely, {
        get: (target, prop) =>
          prop === 'transaction'
            ? () => ({
                execute: async <T>(fn: (trx: Transaction<Database>) => Promise<T>) => {
                  await new Promise<void>((resolve) => gates.push(resolve));
                  return target.transaction().execute(fn);
                },
              })
            : Reflect.get(target, prop),
      }),
    };
    const turns = async (until: () => boolean) => {
      while (!until()) await new Promise((resolve) => setImmediate(resolve));
    };
    const writer = afterAnswer(gated);
    writer.schedule();
    let settled = false;
    void writer.settle().then(() => {
      settled = true;
    });
    await turns(() => gates.length === 1);
    // A scan answered while the first round is under way: its writes are the next round's.
    writer.schedule();
    gates.shift()!();
    await turns(() => gates.length === 1);
    const settledBeforeTheNextRound = settled;
    gates.shift()!();
    await writer.drain();
    expect(settledBeforeTheNextRound).toBe(true);
  });
});
