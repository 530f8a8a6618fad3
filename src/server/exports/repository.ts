import type { ExpressionBuilder, Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { unpackResults } from '../scans/stored-results.js';

type Conn = Kysely<Database> | Transaction<Database>;

export interface LatestScanRow {
  user_id: string;
  user_name: string | null;
  /** The stored results, their place rows read back (scans/stored-results.ts); checked by the caller. */
  prospects: unknown[];
  created_at: string;
}

export interface TeamProspectRow {
  business_id: string;
  /** JSON of the prospect, as the scan service wrote it. */
  prospect: string;
  scanned_by: string | null;
  scanned_by_name: string | null;
  scanned_at: string;
}

/** Not blocked under any id filterBlocked (core/blocklist.ts) would check: the id, analysis hash or cache key. */
const notBlocked = (eb: ExpressionBuilder<Database, 'team_prospects'>) =>
  eb.not(
    eb.exists(
      eb
        .selectFrom('blocklist')
        .select('blocklist.business_id')
        .where((b) =>
          b.or([
            b('blocklist.business_id', '=', b.ref('team_prospects.business_id')),
            b('blocklist.business_id', '=', b.ref('team_prospects.analysis_hash')),
            b('blocklist.business_id', '=', b.ref('team_prospects.business_hash')),
          ]),
        ),
    ),
  );

/**
 * The team's prospects without blocked ones, by score (then name and id, so pages do not overlap), with the name
 * of the rep who scanned each. Without `page`, all of them.
 */
export async function listTeamProspects(
  db: Conn,
  page?: { offset: number; limit: number },
): Promise<TeamProspectRow[]> {
  let query = db
    .selectFrom('team_prospects')
    .leftJoin('user_profiles', 'user_profiles.user_id', 'team_prospects.scanned_by')
    .select([
      'team_prospects.business_id',
      'team_prospects.prospect',
      'team_prospects.scanned_by',
      'user_profiles.name as scanned_by_name',
      'team_prospects.scanned_at',
    ])
    .where(notBlocked)
    .orderBy('team_prospects.score', 'desc')
    .orderBy('team_prospects.name', 'asc')
    .orderBy('team_prospects.business_id', 'asc');
  if (page) query = query.limit(page.limit).offset(page.offset);
  return query.execute();
}

/** How many team prospects are not blocked. */
export async function countTeamProspects(db: Conn): Promise<number> {
  const row = await db
    .selectFrom('team_prospects')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where(notBlocked)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findLatestScan(db: Conn, userId: string): Promise<LatestScanRow | undefined> {
  const row = await db
    .selectFrom('latest_scans')
    .leftJoin('user_profiles', 'user_profiles.user_id', 'latest_scans.user_id')
    .select([
      'latest_scans.user_id',
      'user_profiles.name as user_name',
      'latest_scans.prospects',
      'latest_scans.created_at',
    ])
    .where('latest_scans.user_id', '=', userId)
    .executeTakeFirst();
  if (!row) return undefined;
  return { ...row, prospects: (await unpackResults(db, row.prospects)).prospects };
}
