import type { Kysely } from 'kysely';

// The market rebuild that last made every place's profile current records the profile version it made them
// under, beside the reference population it built. A server starting reads that one row to know whether the
// profiles are current, instead of reading every place (a quarter of a second of SQLite's one thread at 1M).
// Null (a market built before): the next start rebuilds it.

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('score_references').addColumn('profile_version', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('score_references').dropColumn('profile_version').execute();
}
