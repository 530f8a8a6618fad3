import { sql, type Kysely } from 'kysely';

// The scan cooldown's slot in a table of its own: kept in latest_scans.created_at, every scan would begin by
// rewriting the rep's whole stored results (about 165 KB of JSON) only to move a timestamp, and write them
// again at its end. One small row per rep; latest_scans.created_at is set when the results are stored.

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('scan_slots')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('user.id').onDelete('cascade'))
    .addColumn('claimed_at', 'text', (c) => c.notNull())
    .execute();
  // A rep who just scanned keeps their cooldown across the upgrade. Only when there is one: the insert checks
  // its foreign key, and a database migrated without better-auth's tables (unit tests) has no "user" table.
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from latest_scans`.execute(db);
  if (Number(rows[0]?.n ?? 0) > 0) {
    await sql`insert into scan_slots (user_id, claimed_at) select user_id, created_at from latest_scans`.execute(
      db,
    );
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('scan_slots').execute();
}
