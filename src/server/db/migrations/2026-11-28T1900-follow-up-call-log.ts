import type { Kysely } from 'kysely';

// The Log reads each entry's follow-up by follow_ups.call_log_id (a left join): without an index every entry
// of a page scanned the rep's follow-ups.

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('follow_ups_call_log').on('follow_ups').column('call_log_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('follow_ups_call_log').execute();
}
