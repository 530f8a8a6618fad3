import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Config } from '../config.js';
import type { Database } from './schema.js';

export type DatabaseKind = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  kind: DatabaseKind;
  /** The raw better-sqlite3 handle (SQLite only), for the online backup API. */
  sqlite?: SQLite.Database;
  /** The pg pool (PostgreSQL only), for LISTEN/NOTIFY. */
  pool?: pg.Pool;
  destroy(): Promise<void>;
}

/**
 * Open the configured database. SQLite runs in WAL mode with foreign keys on; the synchronous
 * setting (FULL by default) makes every committed write durable before the HTTP answer goes out.
 */
export function openDatabase(config: Pick<Config, 'database'>): Db {
  const target = config.database;
  if (target.kind === 'sqlite') {
    if (target.file !== ':memory:') mkdirSync(dirname(target.file), { recursive: true });
    const handle = new SQLite(target.file);
    handle.pragma('journal_mode = WAL');
    handle.pragma(`synchronous = ${target.synchronous}`);
    handle.pragma('foreign_keys = ON');
    handle.pragma('busy_timeout = 5000');
    const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: handle }) });
    return { kysely, kind: 'sqlite', sqlite: handle, destroy: () => kysely.destroy() };
  }
  const pool = new pg.Pool({ connectionString: target.url, max: 10 });
  // An idle client that loses its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  // A client checked out of the pool when its server goes away emits 'error' with no pool listener
  // attached, which would crash the process; the query in hand fails anyway (the caller answers 503) and
  // the pool drops the broken client on release.
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { kysely, kind: 'postgres', pool, destroy: () => kysely.destroy() };
}

/** Current time as the ISO-8601 text every table stores. */
export function nowIso(): string {
  return new Date().toISOString();
}

/** Throws when the database cannot answer; used by /healthz. */
export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db.kysely);
}
