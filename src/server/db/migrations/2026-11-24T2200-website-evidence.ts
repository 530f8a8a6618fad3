import type { Kysely } from 'kysely';

// Website evidence: the latest check of each business's website, kept with the business under its cache key
// (the analysis cache's 7-day freshness; a failed check is fresh for an hour). `business` is the business as
// last scanned (JSON), so its prospects can be scored again when the evidence arrives and an admin can check
// it again.

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('website_evidence')
    .addColumn('business_key', 'text', (c) => c.primaryKey())
    .addColumn('website', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('rules', 'text', (c) => c.notNull())
    .addColumn('checked_at', 'text', (c) => c.notNull())
    .addColumn('evidence', 'text', (c) => c.notNull())
    .addColumn('business', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('website_evidence_checked')
    .on('website_evidence')
    .column('checked_at')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('website_evidence').execute();
}
