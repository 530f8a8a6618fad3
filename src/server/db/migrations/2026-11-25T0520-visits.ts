import type { Kysely } from 'kysely';

// Visits that count: a "Visited" log keeps the phone's position when it was logged (latitude, longitude,
// accuracy in metres; null when the phone gave none) and whether it was verified: within 0.1 mile of the
// business's stored position with a usable accuracy (src/core/route/visits.ts). Earlier entries: unverified.
// A day's visits are read through the existing index call_logs_user_outcome_created (user, outcome, time).

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type */
export async function up(db: Kysely<any>): Promise<void> {
  for (const column of ['visit_lat', 'visit_lng', 'visit_accuracy_m']) {
    await db.schema.alterTable('call_logs').addColumn(column, 'double precision').execute();
  }
  await db.schema
    .alterTable('call_logs')
    .addColumn('verified', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['verified', 'visit_accuracy_m', 'visit_lng', 'visit_lat']) {
    await db.schema.alterTable('call_logs').dropColumn(column).execute();
  }
}
