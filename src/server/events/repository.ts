import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';

type Conn = Kysely<Database> | Transaction<Database>;

/** True while the session row exists (sign-out, suspension and deletion remove it). */
export async function sessionExists(db: Conn, sessionId: string): Promise<boolean> {
  const row = await db.selectFrom('session').select('id').where('id', '=', sessionId).executeTakeFirst();
  return row !== undefined;
}
