import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Prospect } from '../../core/types.js';
import { blockKeys } from '../../core/blocklist.js';
import { lastPerKey } from './cache.js';
import { unpackMany } from './stored-results.js';

// The team's list (All Prospects, table team_prospects) is filled from the reps' stored results after a scan has
// answered, not inside the scan. Its 100 rows a scan land on about 100 random pages of the table and of
// each of its three indexes: about 300 pages, two thirds of what a scan wrote and half of its store step. So the
// scan's transaction records only that its kept prospects are owed to the team list (one small row in
// team_pending, beside its latest results), and the team list copies them from those stored results moments
// later, after the answer (after-answer.ts), a batch of scans in one transaction.
//
// Nothing is lost on a crash: the owed row commits with the results, and whatever is still owed is copied at the
// next start, by any instance's next copy, or by the rep's own next scan, New Search or deletion before those
// results are replaced.

type Conn = Kysely<Database> | Transaction<Database>;

/** Inside a scan's results transaction: the first `count` prospects of the rep's stored results are owed. */
export async function oweTeamCopies(
  trx: Conn,
  userId: string,
  searchId: string,
  count: number,
  at: string,
): Promise<void> {
  if (count <= 0) return;
  await trx
    .insertInto('team_pending')
    .values({ user_id: userId, search_id: searchId, count, scanned_at: at })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet((eb) => ({
        search_id: eb.ref('excluded.search_id'),
        count: eb.ref('excluded.count'),
        scanned_at: eb.ref('excluded.scanned_at'),
      })),
    )
    .execute();
}

/**
 * Copies owed prospects into the team list: those of one rep, or of up to `limit` reps. Run it inside a
 * transaction (the copies and the owed rows' removal commit together). Answers how many reps' copies were made.
 * An owed row whose results were replaced meanwhile (which `keepAndPage` and New Search prevent) is dropped.
 */
export async function copyOwed(trx: Conn, which: { userId: string } | { limit: number }): Promise<number> {
  let query = trx
    .selectFrom('team_pending')
    .leftJoin('latest_scans', (j) =>
      j
        .onRef('latest_scans.user_id', '=', 'team_pending.user_id')
        .onRef('latest_scans.search_id', '=', 'team_pending.search_id'),
    )
    .select([
      'team_pending.user_id',
      'team_pending.search_id',
      'team_pending.count',
      'team_pending.scanned_at',
      'latest_scans.prospects',
    ]);
  query =
    'userId' in which ? query.where('team_pending.user_id', '=', which.userId) : query.limit(which.limit);
  const owed = await query.execute();
  if (owed.length === 0) return 0;
  // Oldest first: where two scans kept the same business, the newer copy is written last and wins.
  owed.sort((a, b) => (a.scanned_at < b.scanned_at ? -1 : a.scanned_at > b.scanned_at ? 1 : 0));
  // Their place rows read at once for the batch (the stored results keep ids and per-scan fields: stored-results.ts).
  const lists = await unpackMany(
    trx,
    owed.map((row) => row.prospects),
  );
  for (const [i, row] of owed.entries()) {
    const prospects = lists[i]!.prospects.slice(0, row.count);
    await recordTeamProspects(trx, row.user_id, prospects, row.scanned_at);
    await trx
      .deleteFrom('team_pending')
      .where('user_id', '=', row.user_id)
      .where('search_id', '=', row.search_id)
      .execute();
  }
  return owed.length;
}

/** Rows per INSERT: 8 values a row stays far below SQLite's oldest variable limit (999). */
const TEAM_INSERT_CHUNK = 100;

/**
 * Record a scan's kept prospects in the team's list (All Prospects): one row per business id, this scan's copy
 * replacing any older one. One multi-row upsert (per 100), on the scan's hot path, through `lastPerKey` as the
 * cache writes: each id once per statement, the last copy winning, in key order so that two scans of the same
 * area cannot deadlock on PostgreSQL.
 */
export async function recordTeamProspects(
  db: Conn,
  userId: string,
  prospects: readonly Prospect[],
  at = new Date().toISOString(),
): Promise<void> {
  const entries = prospects.flatMap((p) => {
    const keys = blockKeys(p);
    if (!keys.id) return [];
    const row: Database['team_prospects'] = {
      business_id: keys.id,
      prospect: JSON.stringify(p),
      name: p.name,
      score: Number.isFinite(p.score) ? p.score : 0,
      analysis_hash: keys.analysisHash,
      business_hash: keys.businessHash,
      scanned_by: userId,
      scanned_at: at,
    };
    return [{ key: keys.id, row }];
  });
  const all = lastPerKey(entries).map((e) => e.row);
  for (let i = 0; i < all.length; i += TEAM_INSERT_CHUNK) {
    await db
      .insertInto('team_prospects')
      .values(all.slice(i, i + TEAM_INSERT_CHUNK))
      .onConflict((oc) =>
        oc
          .column('business_id')
          .doUpdateSet((eb) => ({
            prospect: eb.ref('excluded.prospect'),
            name: eb.ref('excluded.name'),
            score: eb.ref('excluded.score'),
            analysis_hash: eb.ref('excluded.analysis_hash'),
            business_hash: eb.ref('excluded.business_hash'),
            scanned_by: eb.ref('excluded.scanned_by'),
            scanned_at: eb.ref('excluded.scanned_at'),
          }))
          // A copy made later from an earlier scan (team-list.ts) never replaces a newer one.
          .where('excluded.scanned_at', '>=', (eb) => eb.ref('team_prospects.scanned_at')),
      )
      .execute();
  }
}
