import type { Kysely } from 'kysely';

// Suspension belongs to the account, not to its profile. It was a column of user_profiles, so an admin's
// profile delete (allowed on any non-SuperAdmin) dropped it, and the profile recreated at the next sign-in
// came back active: an admin could undo a suspension, which only a SuperAdmin may do. One row per suspended
// account; it goes with the account (hard delete), never with the profile.

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('account_suspensions')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('user.id').onDelete('cascade'))
    .addColumn('suspended_at', 'text', (c) => c.notNull())
    .execute();
  // Read, then written row by row: an INSERT ... SELECT would need the "user" table even with nothing to copy.
  const suspended = await db
    .selectFrom('user_profiles')
    .select(['user_id', 'suspended_at'])
    .where('suspended_at', 'is not', null)
    .execute();
  if (suspended.length) await db.insertInto('account_suspensions').values(suspended).execute();
  await db.schema.alterTable('user_profiles').dropColumn('suspended_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('user_profiles').addColumn('suspended_at', 'text').execute();
  const rows = await db.selectFrom('account_suspensions').select(['user_id', 'suspended_at']).execute();
  for (const row of rows as { user_id: string; suspended_at: string }[]) {
    await db
      .updateTable('user_profiles')
      .set({ suspended_at: row.suspended_at })
      .where('user_id', '=', row.user_id)
      .execute();
  }
  await db.schema.dropTable('account_suspensions').ifExists().execute();
}
