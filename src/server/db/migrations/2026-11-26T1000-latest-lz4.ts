import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Every scan rewrites its rep's latest results, about 150 KB of JSON that PostgreSQL compresses when it
// stores them. With pglz, the default, that compression was about 1.8 ms of the scan's ~3 ms store; lz4 takes
// about 0.9 ms and stores a smaller value (docs/PERFORMANCE.md). Only on PostgreSQL 14 or later built with
// lz4 (as Debian's packages and the official images are); elsewhere nothing changes. Values are compressed
// the new way as they are written, and every scan writes its rep's row.

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type */
async function lz4Available(db: Kysely<any>): Promise<boolean> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return false;
  const { rows } = await sql<{ lz4: boolean }>`
    SELECT EXISTS (
      SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)
    ) AS lz4`.execute(db);
  return rows[0]?.lz4 === true;
}

export async function up(db: Kysely<any>): Promise<void> {
  if (await lz4Available(db)) {
    await sql`ALTER TABLE latest_scans ALTER COLUMN prospects SET COMPRESSION lz4`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (await lz4Available(db)) {
    await sql`ALTER TABLE latest_scans ALTER COLUMN prospects SET COMPRESSION default`.execute(db);
  }
}
