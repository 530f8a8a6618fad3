import type { Kysely } from 'kysely';

// Background jobs (strategy generation) as rows, so a restart loses none and several instances can
// share the work: a worker claims a row, runs it, and writes the result back.

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    /** Jobs with the same kind and key are the same work: a second request joins the running one. */
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('result', 'text')
    .addColumn('error', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('jobs_status_created').on('jobs').columns(['status', 'created_at']).execute();
  await db.schema.createIndex('jobs_kind_key').on('jobs').columns(['kind', 'key', 'status']).execute();

  // Finished strategies per business, so reopening one is instant.
  await db.schema
    .createTable('strategies')
    .addColumn('business_id', 'text', (c) => c.primaryKey())
    .addColumn('strategy', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('model', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('strategies').ifExists().execute();
  await db.schema.dropTable('jobs').ifExists().execute();
}
