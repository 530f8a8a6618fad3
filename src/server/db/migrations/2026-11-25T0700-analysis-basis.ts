import { sql, type Kysely } from 'kysely';

// A scan writes only what changed: a business of the imported place table is not copied into business_cache
// (the table is its source). The analysis cache's rule "rewrite when the business changed by 10+ reviews,
// 0.1+ rating, or another website or phone" therefore keeps its own basis: the review count, rating, website
// and phone the stored analysis was made from (JSON, the fields of business_cache.data that the thresholds
// read). Existing rows get theirs from the business cache copy, so an upgrade keeps every fresh analysis and
// its AI-written words.

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('analysis_cache').addColumn('basis', 'text').execute();
  await sql`UPDATE analysis_cache SET basis = (
    SELECT b.data FROM business_cache b WHERE b.business_id = analysis_cache.business_id
  )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('analysis_cache').dropColumn('basis').execute();
}
