import type { Kysely } from 'kysely';

// Save for Later keeps the note the rep typed with it: a nullable column, empty for earlier saves.

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('saved_prospects').addColumn('note', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('saved_prospects').dropColumn('note').execute();
}
