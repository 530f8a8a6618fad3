import type { Kysely, Transaction } from 'kysely';
import type { CallLogTable, Database } from '../db/schema.js';

type Conn = Kysely<Database> | Transaction<Database>;

export async function insertCallLog(db: Conn, row: CallLogTable): Promise<void> {
  await db.insertInto('call_logs').values(row).execute();
}

/**
 * The score and position of a business in the team's copy (team_prospects), kept on a call-log entry for the
 * team dashboard; undefined when the server never scanned it (a card from elsewhere).
 */
export async function teamProspectFacts(
  db: Conn,
  businessId: string,
): Promise<{ score: number; lat: number | null; lng: number | null } | undefined> {
  const row = await db
    .selectFrom('team_prospects')
    .select(['score', 'prospect'])
    .where('business_id', '=', businessId)
    .executeTakeFirst();
  if (!row) return undefined;
  let lat: number | null = null;
  let lng: number | null = null;
  try {
    const p = JSON.parse(row.prospect) as { lat?: unknown; lng?: unknown };
    if (typeof p.lat === 'number' && typeof p.lng === 'number') [lat, lng] = [p.lat, p.lng];
  } catch {
    // A copy that is not JSON has no position; the score still counts.
  }
  return { score: Number(row.score), lat, lng };
}

/**
 * A rep's entries, newest first, each with the follow-up set with it (due_date null when none was): all of
 * them, or `limit` of them after the entry `after` names (its created_at and id: keyset paging, so a page
 * costs the same however deep it is, and an entry logged meanwhile moves nothing).
 */
export async function listCallLogs(
  db: Conn,
  userId: string,
  page?: { limit: number; after?: readonly [createdAt: string, id: string] },
): Promise<CallLogWithFollowUp[]> {
  let query = db
    .selectFrom('call_logs')
    .leftJoin('follow_ups', 'follow_ups.call_log_id', 'call_logs.id')
    .selectAll('call_logs')
    .select(['follow_ups.due_date', 'follow_ups.due_time', 'follow_ups.is_meeting'])
    .where('call_logs.user_id', '=', userId);
  if (page?.after) {
    const [createdAt, id] = page.after;
    // The first condition alone bounds the walk of the index (user_id, created_at); the second drops the
    // entries of the cursor's own time up to and including its id.
    query = query
      .where('call_logs.created_at', '<=', createdAt)
      .where((eb) => eb.or([eb('call_logs.created_at', '<', createdAt), eb('call_logs.id', '<', id)]));
  }
  query = query.orderBy('call_logs.created_at', 'desc').orderBy('call_logs.id', 'desc');
  return (page ? query.limit(page.limit) : query).execute();
}

export type CallLogWithFollowUp = CallLogTable & {
  due_date: string | null;
  due_time: string | null;
  is_meeting: number | null;
};

/** Deletes the entry only when it belongs to the user; true when a row went. */
export async function deleteOwnCallLog(db: Conn, userId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('call_logs')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Deletes every entry of the user; returns how many went. */
export async function deleteAllCallLogs(db: Conn, userId: string): Promise<number> {
  const result = await db.deleteFrom('call_logs').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
