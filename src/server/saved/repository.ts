import { sql, type Kysely, type Transaction } from 'kysely';
import type { DatabaseKind } from '../db/database.js';
import type { Database, SavedProspectTable } from '../db/schema.js';

type Conn = Kysely<Database> | Transaction<Database>;

export async function listSaved(db: Conn, userId: string): Promise<SavedProspectTable[]> {
  return db
    .selectFrom('saved_prospects')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function findSaved(
  db: Conn,
  userId: string,
  prospectId: string,
): Promise<SavedProspectTable | undefined> {
  return db
    .selectFrom('saved_prospects')
    .selectAll()
    .where('user_id', '=', userId)
    .where('prospect_id', '=', prospectId)
    .executeTakeFirst();
}

export async function countSaved(db: Conn, userId: string): Promise<number> {
  const row = await db
    .selectFrom('saved_prospects')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Serialises one user's saves until the transaction ends. PostgreSQL: a transaction-scoped advisory lock on
 * the user id, so a concurrent save waits and then sees this one's row. SQLite needs nothing: the single
 * connection runs one transaction at a time.
 */
export async function lockUserSaves(trx: Transaction<Database>, kind: DatabaseKind, userId: string) {
  if (kind === 'postgres') {
    await sql`select pg_advisory_xact_lock(hashtext(${`saved_prospects:${userId}`}))`.execute(trx);
  }
}

export async function insertSaved(db: Conn, row: SavedProspectTable): Promise<void> {
  await db
    .insertInto('saved_prospects')
    .values(row)
    .onConflict((oc) => oc.columns(['user_id', 'prospect_id']).doNothing())
    .execute();
}

export async function setSavedNote(
  db: Conn,
  userId: string,
  prospectId: string,
  note: string,
): Promise<void> {
  await db
    .updateTable('saved_prospects')
    .set({ note })
    .where('user_id', '=', userId)
    .where('prospect_id', '=', prospectId)
    .execute();
}

/** Replace the stored prospect JSON of one save, only if it is still `before` (compare-and-set). */
export async function replaceSavedProspect(
  db: Conn,
  userId: string,
  prospectId: string,
  before: string,
  after: string,
): Promise<boolean> {
  const result = await db
    .updateTable('saved_prospects')
    .set({ prospect: after })
    .where('user_id', '=', userId)
    .where('prospect_id', '=', prospectId)
    .where('prospect', '=', before)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteSaved(db: Conn, userId: string, prospectId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('saved_prospects')
    .where('user_id', '=', userId)
    .where('prospect_id', '=', prospectId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
