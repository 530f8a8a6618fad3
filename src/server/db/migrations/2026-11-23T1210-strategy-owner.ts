import { sql, type Kysely } from 'kysely';

// Kept strategies get an owner: '' for one written from the server's own facts about the business (every rep
// sees it), or the id of the user whose card supplied the facts (only that user sees it). So a rep cannot
// replace what the other reps see with a strategy built on made-up facts. SQLite cannot change a primary key,
// so the table is rebuilt; the strategies kept so far stay shared.

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('strategies_owned')
    .addColumn('business_id', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('strategy', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('model', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('strategies_business_owner_pk', ['business_id', 'owner_id'])
    .execute();
  await sql`insert into strategies_owned (business_id, owner_id, strategy, source, model, created_at)
    select business_id, '', strategy, source, model, created_at from strategies`.execute(db);
  await db.schema.dropTable('strategies').execute();
  await db.schema.alterTable('strategies_owned').renameTo('strategies').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('strategies_shared')
    .addColumn('business_id', 'text', (c) => c.primaryKey())
    .addColumn('strategy', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('model', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await sql`insert into strategies_shared (business_id, strategy, source, model, created_at)
    select business_id, strategy, source, model, created_at from strategies where owner_id = ''`.execute(db);
  await db.schema.dropTable('strategies').execute();
  await db.schema.alterTable('strategies_shared').renameTo('strategies').execute();
}
