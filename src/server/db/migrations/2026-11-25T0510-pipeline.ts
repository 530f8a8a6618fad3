import type { Kysely } from 'kysely';

// The team pipeline: one row per business with its stage and owner, shared by every rep, and the history of
// every change. A business without a row is New and unclaimed. `updated_at` is the last activity on the claim
// (a stage change, the owner's call log): claims untouched for PIPELINE_RELEASE_DAYS are released.

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('pipeline')
    .addColumn('business_id', 'text', (c) => c.primaryKey())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'text')
    .addColumn('owner_name', 'text')
    .addColumn('stage', 'text', (c) => c.notNull())
    .addColumn('since', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // The release sweep reads owned claims by age.
  await db.schema
    .createIndex('pipeline_owned_updated')
    .on('pipeline')
    .columns(['owner_id', 'updated_at'])
    .execute();
  await db.schema
    .createTable('pipeline_history')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('business_id', 'text', (c) => c.notNull())
    .addColumn('from_stage', 'text')
    .addColumn('to_stage', 'text', (c) => c.notNull())
    .addColumn('from_owner_id', 'text')
    .addColumn('from_owner_name', 'text')
    .addColumn('to_owner_id', 'text')
    .addColumn('to_owner_name', 'text')
    .addColumn('by_id', 'text')
    .addColumn('by_name', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('pipeline_history_business')
    .on('pipeline_history')
    .columns(['business_id', 'at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('pipeline_history').execute();
  await db.schema.dropTable('pipeline').execute();
}
