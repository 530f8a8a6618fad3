import type { Kysely } from 'kysely';

// Offline writes: a phone queues writes while it has no signal and replays them later, each with the
// client-generated UUID it was queued under as the Idempotency-Key header. One row per (user, key): the route
// it was sent to, a hash of its parameters and body, and the answer it got (status and JSON), written in the
// same transaction as the write itself, so a retried write is applied once and answered the same again. Rows
// older than IDEMPOTENCY_KEY_DAYS are swept (server/http/idempotency.ts).

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('user_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('route', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer', (c) => c.notNull())
    .addColumn('answer', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['user_id', 'key'])
    .execute();
  await db.schema
    .createIndex('idempotency_keys_created')
    .on('idempotency_keys')
    .column('created_at')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').execute();
}
