import type { Kysely } from 'kysely';

// How many follow-ups and call-log entries each rep wrote on each day (UTC), for the per-day caps
// (FOLLOW_UPS_PER_DAY, CALL_LOGS_PER_DAY): one row per rep, kind and day, raised by one conditional upsert.

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('daily_writes')
    .addColumn('user_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('daily_writes_pk', ['user_id', 'kind', 'day'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('daily_writes').execute();
}
