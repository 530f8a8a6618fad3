import type { Kysely } from 'kysely';

// The application's own tables. better-auth's tables ("user", "session", "account",
// "verification") are created before this by better-auth's migration API (see migrate.ts).

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('user_profiles')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('user.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('user'))
    .addColumn('is_super_admin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('hide_instructions', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('install_prompt_dismissed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('search_settings', 'text')
    .addColumn('suspended_at', 'text')
    .addColumn('last_sign_in_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by', 'text', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('invited_by_name', 'text', (c) => c.notNull())
    .addColumn('invited_email', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('used_by', 'text', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('used_by_email', 'text')
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('invitations_created_at').on('invitations').column('created_at').execute();

  await db.schema
    .createTable('searches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('lat', 'double precision', (c) => c.notNull())
    .addColumn('lng', 'double precision', (c) => c.notNull())
    .addColumn('radius_miles', 'double precision', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('categories', 'text', (c) => c.notNull())
    .addColumn('location_label', 'text')
    .addColumn('query', 'text')
    .addColumn('total', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('searches_user_created')
    .on('searches')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('latest_scans')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('user.id').onDelete('cascade'))
    .addColumn('search_id', 'text')
    .addColumn('prospects', 'text', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('call_logs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('prospect_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('website', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('call_logs_user_created')
    .on('call_logs')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('saved_prospects')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('prospect_id', 'text', (c) => c.notNull())
    .addColumn('prospect', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('saved_prospects_user_prospect', ['user_id', 'prospect_id'])
    .execute();

  await db.schema
    .createTable('blocklist')
    .addColumn('business_id', 'text', (c) => c.primaryKey())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('blocked_by', 'text', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('current_advertisers')
    .addColumn('business_id', 'text', (c) => c.primaryKey())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('marked_by', 'text', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('marked_by_name', 'text', (c) => c.notNull())
    .addColumn('marked_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('business_cache')
    .addColumn('business_id', 'text', (c) => c.primaryKey())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('model_version', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('analysis_cache')
    .addColumn('business_id', 'text', (c) => c.primaryKey())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('model_version', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('app_settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'app_settings',
    'analysis_cache',
    'business_cache',
    'current_advertisers',
    'blocklist',
    'saved_prospects',
    'call_logs',
    'latest_scans',
    'searches',
    'invitations',
    'user_profiles',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
