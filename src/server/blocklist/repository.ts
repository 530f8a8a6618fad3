import type { Kysely, Transaction } from 'kysely';
import type { BlocklistTable, Database } from '../db/schema.js';

type Conn = Kysely<Database> | Transaction<Database>;

export interface BlocklistRow extends BlocklistTable {
  blocked_by_name: string | null;
  /** The team's stored copy of the business (All Prospects), when it was ever scanned: JSON of the prospect. */
  team_prospect?: string | null;
}

/** Newest block first, with the blocking admin's current name and the team's copy of the business. */
export async function listBlocklist(db: Conn): Promise<BlocklistRow[]> {
  return db
    .selectFrom('blocklist')
    .leftJoin('user_profiles', 'user_profiles.user_id', 'blocklist.blocked_by')
    .leftJoin('team_prospects', 'team_prospects.business_id', 'blocklist.business_id')
    .select([
      'blocklist.business_id',
      'blocklist.label',
      'blocklist.blocked_by',
      'blocklist.created_at',
      'user_profiles.name as blocked_by_name',
      'team_prospects.prospect as team_prospect',
    ])
    .orderBy('blocklist.created_at', 'desc')
    .orderBy('blocklist.business_id', 'asc')
    .execute();
}

export async function listBlockedIds(db: Conn): Promise<string[]> {
  const rows = await db.selectFrom('blocklist').select('business_id').execute();
  return rows.map((r) => r.business_id);
}

export async function findBlocked(db: Conn, businessId: string): Promise<BlocklistTable | undefined> {
  return db.selectFrom('blocklist').selectAll().where('business_id', '=', businessId).executeTakeFirst();
}

/** True when this call added the entry (false: it was already blocked). */
export async function insertBlockedIfAbsent(db: Conn, row: BlocklistTable): Promise<boolean> {
  const result = await db
    .insertInto('blocklist')
    .values(row)
    .onConflict((oc) => oc.column('business_id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function deleteBlocked(db: Conn, businessId: string): Promise<BlocklistTable | undefined> {
  const found = await findBlocked(db, businessId);
  if (!found) return undefined;
  await db.deleteFrom('blocklist').where('business_id', '=', businessId).execute();
  return found;
}

export async function deleteAllBlocked(db: Conn): Promise<number> {
  const result = await db.deleteFrom('blocklist').executeTakeFirst();
  return Number(result.numDeletedRows);
}
