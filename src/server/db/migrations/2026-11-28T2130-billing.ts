import type { Kysely } from 'kysely';

// Billing imported from a station's billing system: per business and month the amount billed (cents; several
// lines of one advertiser and month summed), the advertiser's name as the file wrote it, and who imported it.
// An import replaces the months it covers.

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('billing')
    .addColumn('business_id', 'text', (c) => c.notNull())
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('advertiser', 'text', (c) => c.notNull())
    .addColumn('imported_at', 'text', (c) => c.notNull())
    .addColumn('imported_by', 'text')
    .addPrimaryKeyConstraint('billing_pk', ['business_id', 'month'])
    .execute();
  await db.schema.createIndex('billing_month').on('billing').column('month').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('billing').execute();
}
