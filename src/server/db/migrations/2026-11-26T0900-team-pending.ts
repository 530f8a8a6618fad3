import type { Kysely } from 'kysely';

// The team list (team_prospects) is copied from a rep's stored results after the scan has answered
// (scans/team-list.ts). A scan's transaction records here, in one small row per rep, that the first `count`
// prospects of the results it stored under `search_id` are owed to the team list; the copy deletes the row.

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('team_pending')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('user.id').onDelete('cascade'))
    .addColumn('search_id', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('scanned_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('team_pending').execute();
}
