import type { Kysely, Transaction } from 'kysely';
import type { BillingTable, Database } from '../db/schema.js';

type Conn = Kysely<Database> | Transaction<Database>;

/** Rows written per INSERT (well under SQLite's 32,766 bound parameters at 7 a row). */
const INSERT_BATCH = 500;

/** Every business's months from `since` ('YYYY-MM') on. */
export async function billingSince(
  db: Conn,
  since: string,
): Promise<Pick<BillingTable, 'business_id' | 'month' | 'amount_cents' | 'label'>[]> {
  return db
    .selectFrom('billing')
    .select(['business_id', 'month', 'amount_cents', 'label'])
    .where('month', '>=', since)
    .execute();
}

/** Replaces the billing of `months` with `rows` (all of those months). */
export async function replaceMonths(db: Conn, months: readonly string[], rows: readonly BillingTable[]) {
  for (let i = 0; i < months.length; i += INSERT_BATCH) {
    await db
      .deleteFrom('billing')
      .where('month', 'in', months.slice(i, i + INSERT_BATCH))
      .execute();
  }
  for (let i = 0; i < rows.length; i += INSERT_BATCH) {
    await db
      .insertInto('billing')
      .values(rows.slice(i, i + INSERT_BATCH))
      .execute();
  }
}

/** Names and addresses of imported places by id (lapsed advertisers' list). */
export async function placeNames(db: Conn, ids: readonly string[]) {
  const out = new Map<string, { name: string; address: string; lat: number; lng: number }>();
  for (let i = 0; i < ids.length; i += INSERT_BATCH) {
    const rows = await db
      .selectFrom('places')
      .select(['id', 'name', 'address', 'lat', 'lng'])
      .where('id', 'in', ids.slice(i, i + INSERT_BATCH))
      .execute();
    for (const r of rows) out.set(r.id, { name: r.name, address: r.address, lat: r.lat, lng: r.lng });
  }
  return out;
}
