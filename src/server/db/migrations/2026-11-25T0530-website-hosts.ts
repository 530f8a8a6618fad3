import type { Kysely } from 'kysely';

// Website checks across instances:
// - website_hosts: which check holds a host (holder, a lease renewed while it fetches) and when the host may be
//   asked again (next_allowed_at, the pause after the last request). Claimed with one conditional upsert, so
//   every instance sharing the database sends at most one request at a time to a host.
// - jobs.run_after / jobs.deferrals: a job handed back to the queue (a busy host) waits until run_after without
//   holding a slot, and without using an attempt; deferrals counts how often, so it cannot loop for ever.
// - latest_scans.version: bumped by every write of a rep's latest results, so a background writer (website
//   evidence, model-written reasoning) writes with a compare-and-set on it and never puts back a list that
//   another writer (a quick search) changed in between.

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('website_hosts')
    .addColumn('host', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('next_allowed_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('jobs').addColumn('run_after', 'text').execute();
  await db.schema
    .alterTable('jobs')
    .addColumn('deferrals', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('latest_scans')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('latest_scans').dropColumn('version').execute();
  await db.schema.alterTable('jobs').dropColumn('deferrals').execute();
  await db.schema.alterTable('jobs').dropColumn('run_after').execute();
  await db.schema.dropTable('website_hosts').execute();
}
