import type { Kysely, Transaction } from 'kysely';
import type { CallLogTable, Database } from '../db/schema.js';

type Conn = Kysely<Database> | Transaction<Database>;

/** The team's copies of these businesses (All Prospects), by id. */
export async function teamCopies(
  db: Conn,
  ids: readonly string[],
): Promise<{ business_id: string; prospect: string }[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('team_prospects')
    .select(['business_id', 'prospect'])
    .where('business_id', 'in', [...ids])
    .execute();
}

/** Which of these businesses the user has logged a call or visit on. */
export async function loggedBusinessIds(
  db: Conn,
  userId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('call_logs')
    .select('prospect_id')
    .distinct()
    .where('user_id', '=', userId)
    .where('prospect_id', 'in', [...ids])
    .execute();
  return new Set(rows.map((r) => r.prospect_id));
}

/** A user's "Visited" entries from `fromIso` (inclusive) to `toIso` (exclusive), oldest first. */
export async function visitsBetween(
  db: Conn,
  userId: string,
  fromIso: string,
  toIso: string,
): Promise<CallLogTable[]> {
  return db
    .selectFrom('call_logs')
    .selectAll()
    .where('user_id', '=', userId)
    .where('outcome', '=', 'Visited')
    .where('created_at', '>=', fromIso)
    .where('created_at', '<', toIso)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
}
