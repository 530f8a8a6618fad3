import type { Kysely, Transaction } from 'kysely';
import type { CurrentAdvertiserTable, Database } from '../db/schema.js';

type Conn = Kysely<Database> | Transaction<Database>;

/** Newest mark first. */
export async function listAdvertisers(db: Conn): Promise<CurrentAdvertiserTable[]> {
  return db
    .selectFrom('current_advertisers')
    .selectAll()
    .orderBy('marked_at', 'desc')
    .orderBy('business_id', 'asc')
    .execute();
}

export async function findAdvertiser(
  db: Conn,
  businessId: string,
): Promise<CurrentAdvertiserTable | undefined> {
  return db
    .selectFrom('current_advertisers')
    .selectAll()
    .where('business_id', '=', businessId)
    .executeTakeFirst();
}

/** Inserts the mark unless the business is already marked; true when this call made the mark. */
export async function insertAdvertiserIfAbsent(db: Conn, row: CurrentAdvertiserTable): Promise<boolean> {
  const result = await db
    .insertInto('current_advertisers')
    .values(row)
    .onConflict((oc) => oc.column('business_id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function deleteAdvertiser(
  db: Conn,
  businessId: string,
): Promise<CurrentAdvertiserTable | undefined> {
  const found = await findAdvertiser(db, businessId);
  if (!found) return undefined;
  await db.deleteFrom('current_advertisers').where('business_id', '=', businessId).execute();
  return found;
}
