import type { Kysely } from 'kysely';

// The per-user strategy rate limit counts a user's jobs of the last minute (user_id = ? and created_at > ?);
// without this index that count scans every job row, and the table grows with every strategy asked for.

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('jobs_user_created').on('jobs').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('jobs_user_created').ifExists().execute();
}
