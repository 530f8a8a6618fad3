import type { Kysely, Transaction } from 'kysely';
import type { CallLogTable, Database } from '../db/schema.js';

type Conn = Kysely<Database> | Transaction<Database>;

export async function insertCallLog(db: Conn, row: CallLogTable): Promise<void> {
  await db.insertInto('call_logs').values(row).execute();
}

/** One user's entries, newest first. */
export async function listCallLogs(db: Conn, userId: string): Promise<CallLogTable[]> {
  return db
    .selectFrom('call_logs')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

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
