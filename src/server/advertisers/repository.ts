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

export interface PlaceKeyRow {
  id: string;
  name: string;
  address: string;
  city: string | null;
  state: string | null;
  zip: string | null;
  phone: string | null;
  website: string | null;
}

/** How many imported places a file's matching reads at a time. */
const PLACES_BATCH = 5000;

/** Hands every imported place to `visit`, a batch at a time in id order, so memory stays bounded on big extracts. */
export async function forEachPlace(db: Conn, visit: (place: PlaceKeyRow) => void): Promise<void> {
  let after: string | null = null;
  for (;;) {
    const batch = await placesAfter(db, after, PLACES_BATCH);
    for (const place of batch) visit(place);
    if (batch.length < PLACES_BATCH) return;
    after = batch[batch.length - 1]!.id;
  }
}

/** One batch of imported places in id order (keyset paging). */
async function placesAfter(db: Conn, afterId: string | null, limit: number): Promise<PlaceKeyRow[]> {
  let query = db
    .selectFrom('places')
    .select(['id', 'name', 'address', 'city', 'state', 'zip', 'phone', 'website'])
    .orderBy('id', 'asc')
    .limit(limit);
  if (afterId !== null) query = query.where('id', '>', afterId);
  return query.execute();
}

/** Marks many businesses in one statement each; answers the ids this call newly marked. */
export async function insertAdvertisersIfAbsent(db: Conn, rows: CurrentAdvertiserTable[]): Promise<string[]> {
  const created: string[] = [];
  for (const row of rows) {
    if (await insertAdvertiserIfAbsent(db, row)) created.push(row.business_id);
  }
  return created;
}
