import { PostgresAdapter, sql, type Kysely } from 'kysely';

// The team dashboard counts the team's activity in the database, period by period:
// - call_logs gain the score, latitude and longitude the prospect had when it was logged (from the team's copy,
//   team_prospects), so score bands and the map are grouped without reading every prospect's JSON; null when the
//   server never scanned that business. Existing entries are filled from team_prospects where it knows them.
// - strategy_requests records who asked for an appointment strategy and when (jobs are deleted after a week
//   and a kept strategy is shared, so neither says who asked). Strategy jobs still kept seed it (their key is
//   'shared:<business>' or 'user:<id>:<business>', strategies/service.ts strategyJobKey).
// - indexes on the time columns the dashboard's periods select by. call_logs_period holds every column the
//   dashboard groups call logs by (rep, outcome, category, score, position), so a period's counts are read from
//   the index alone on both databases, never from the table (5 million rows: docs/PERFORMANCE.md).

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const column of ['score', 'lat', 'lng']) {
    await db.schema.alterTable('call_logs').addColumn(column, 'double precision').execute();
  }
  if (postgres) {
    await sql`
      update call_logs c set score = t.score,
        lat = case when json_typeof(t.prospect::json->'lat') = 'number' then (t.prospect::json->>'lat')::float8 end,
        lng = case when json_typeof(t.prospect::json->'lng') = 'number' then (t.prospect::json->>'lng')::float8 end
      from team_prospects t where t.business_id = c.prospect_id`.execute(db);
  } else {
    await sql`
      update call_logs set
        score = (select t.score from team_prospects t where t.business_id = call_logs.prospect_id),
        lat = (select case when json_type(t.prospect, '$.lat') in ('real', 'integer')
                 then json_extract(t.prospect, '$.lat') end
               from team_prospects t where t.business_id = call_logs.prospect_id),
        lng = (select case when json_type(t.prospect, '$.lng') in ('real', 'integer')
                 then json_extract(t.prospect, '$.lng') end
               from team_prospects t where t.business_id = call_logs.prospect_id)
      where exists (select 1 from team_prospects t where t.business_id = call_logs.prospect_id)`.execute(db);
  }
  await db.schema
    .createIndex('call_logs_period')
    .on('call_logs')
    .columns(['created_at', 'user_id', 'outcome', 'category', 'score', 'lat', 'lng'])
    .execute();
  // A rep's calls or visits in a period: one index range.
  await db.schema
    .createIndex('call_logs_user_outcome_created')
    .on('call_logs')
    .columns(['user_id', 'outcome', 'created_at'])
    .execute();

  await db.schema
    .createTable('strategy_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('business_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('category', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('strategy_requests_created_user')
    .on('strategy_requests')
    .columns(['created_at', 'user_id'])
    .execute();
  await db.schema
    .createIndex('strategy_requests_user_created')
    .on('strategy_requests')
    .columns(['user_id', 'created_at'])
    .execute();
  // Only when there is something to copy: an INSERT into a table whose foreign key names better-auth's "user"
  // cannot even be prepared on SQLite where that table does not exist (databases migrated without better-auth).
  const strategyJobs = await sql<{ n: unknown }>`
    select count(*) as n from jobs where kind = 'strategy' and user_id is not null`.execute(db);
  if (Number(strategyJobs.rows[0]?.n ?? 0) > 0) {
    await sql`
      insert into strategy_requests (id, user_id, business_id, name, category, created_at)
      select j.id, j.user_id,
        case
          when j.key like 'shared:%' then substr(j.key, 8)
          when j.key like 'user:%' then substr(j.key, length('user:' || j.user_id || ':') + 1)
          else j.key
        end,
        '', '', j.created_at from jobs j
      where j.kind = 'strategy' and j.user_id is not null
        and exists (select 1 from user_profiles p where p.user_id = j.user_id)`.execute(db);
  }

  await db.schema
    .createIndex('saved_prospects_created_user')
    .on('saved_prospects')
    .columns(['created_at', 'user_id'])
    .execute();
  await db.schema
    .createIndex('saved_prospects_user_created')
    .on('saved_prospects')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema.createIndex('searches_created').on('searches').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('searches_created').execute();
  await db.schema.dropIndex('saved_prospects_user_created').execute();
  await db.schema.dropIndex('saved_prospects_created_user').execute();
  await db.schema.dropTable('strategy_requests').execute();
  await db.schema.dropIndex('call_logs_user_outcome_created').execute();
  await db.schema.dropIndex('call_logs_period').execute();
  for (const column of ['lng', 'lat', 'score']) {
    await db.schema.alterTable('call_logs').dropColumn(column).execute();
  }
}
