import type { Kysely } from 'kysely';

// Follow-ups: the next step a rep set when logging a call or visit, due on the rep's local date (YYYY-MM-DD,
// optional HH:MM, the IANA zone it was set in), with a copy of the business's card facts so the Today tab,
// the calendar feed and the morning digest need no scan. follow_up_settings holds each rep's calendar feed
// (only the SHA-256 of its secret token), the digest switch, the zone the browser reports and the local day
// the last digest went out (the compare-and-set that keeps it to one a day across instances).

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('follow_ups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('prospect_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('address', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('phone', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('website', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('score', 'double precision')
    .addColumn('lat', 'double precision')
    .addColumn('lng', 'double precision')
    .addColumn('due_date', 'text', (c) => c.notNull())
    .addColumn('due_time', 'text')
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .addColumn('next_step', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('is_meeting', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('done_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('call_log_id', 'text')
    .execute();
  await db.schema
    .createIndex('follow_ups_user_open')
    .on('follow_ups')
    .columns(['user_id', 'done_at', 'due_date'])
    .execute();
  await db.schema
    .createTable('follow_up_settings')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('user.id').onDelete('cascade'))
    .addColumn('feed_token_hash', 'text', (c) => c.unique())
    .addColumn('feed_created_at', 'text')
    .addColumn('digest_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('time_zone', 'text')
    .addColumn('digest_sent_for', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('follow_up_settings').execute();
  await db.schema.dropTable('follow_ups').execute();
}
