import type { Kysely } from 'kysely';

// The rest of the team dashboard: the pipeline funnel, win rate by score band, a rep's pipeline and route
// history, and follow-ups per rep. Indexes only, so every new aggregate reads one index range:
// - pipeline_history_period (at, business_id, to_stage, to_owner_id): the stages businesses reached in a
//   period (funnel), read from the index alone; also the stage changes of a period on a rep's page.
// - pipeline_history_business_stage (business_id, to_stage, at): the furthest stage each business called in
//   the period reached by its end (win rate by score band), one index probe per business.
// - call_logs_created_prospect (created_at, prospect_id, score, user_id): the businesses called in a period and
//   their score, read from the index alone.
// - follow_ups_created_user / follow_ups_user_created: follow-ups set in a period, the team's or one rep's.

const INDEXES: [string, string, string[]][] = [
  ['pipeline_history_period', 'pipeline_history', ['at', 'business_id', 'to_stage', 'to_owner_id']],
  ['pipeline_history_business_stage', 'pipeline_history', ['business_id', 'to_stage', 'at']],
  ['call_logs_created_prospect', 'call_logs', ['created_at', 'prospect_id', 'score', 'user_id']],
  ['follow_ups_created_user', 'follow_ups', ['created_at', 'user_id']],
  ['follow_ups_user_created', 'follow_ups', ['user_id', 'created_at']],
];

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type */
export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, table, columns] of INDEXES) {
    await db.schema.createIndex(name).on(table).columns(columns).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [name] of [...INDEXES].reverse()) await db.schema.dropIndex(name).execute();
}
