import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import type { PostgresPool, PostgresPoolClient, RawBuilder, SqliteDatabase, Transaction } from 'kysely';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_STATEMENT_TIMEOUT_MS, type Config } from '../config.js';
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
 * Runs `work` in a transaction: a new one, or `db` itself when it is one already, so the work commits or rolls back
 * with the caller's (a write under an Idempotency-Key runs inside the key's transaction). The one way this code
 * opens a transaction: Kysely refuses `transaction()` on a transaction.
 */
export function inTransaction<T>(
  db: Kysely<Database>,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return db.isTransaction ? work(db as Transaction<Database>) : db.transaction().execute(work);
}

/** How many prepared statements the SQLite connection keeps, most recently used first. */
const STATEMENT_CACHE_SIZE = 256;

/**
 * The connection as Kysely sees it, with its prepared statements kept and reused by SQL text. Kysely prepares
 * every query anew, and better-sqlite3's prepare (parse and plan) cost a scan's dozen statements about as much
 * as running them. A statement runs once at a time: Kysely gives the one connection to one query (or
 * transaction, or stream) at a time. SQLite re-plans a kept statement itself after a schema change.
 */
export function withStatementCache(handle: SQLite.Database): SqliteDatabase {
  return { close: () => handle.close(), prepare: keptStatements((text) => handle.prepare(text)) };
}

/**
 * `make` with its statements kept by SQL text: at most STATEMENT_CACHE_SIZE, the least recently used dropped
 * first.
 */
function keptStatements(make: (text: string) => SQLite.Statement): (text: string) => SQLite.Statement {
  const cache = new Map<string, SQLite.Statement>();
  return (text) => {
    let statement = cache.get(text);
    if (statement) {
      cache.delete(text);
    } else {
      statement = make(text);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    }
    cache.set(text, statement);
    return statement;
  };
}

/** Where the database is: the config's `database`, or a PostgreSQL URL with the default timeouts. */
export type DatabaseTarget =
  | Config['database']
  | { kind: 'postgres'; url: string; connectTimeoutMs?: number; statementTimeoutMs?: number };

/** How much longer than statement_timeout the client waits before deciding the server cannot answer. */
const CLIENT_GRACE_MS = 1_000;

/**
 * Open the configured database. SQLite runs in WAL mode with foreign keys on; the synchronous
 * setting (FULL by default) makes every committed write durable before the HTTP answer goes out.
 *
 * PostgreSQL is bounded so a database that hangs (rather than refusing connections) turns into a 503
 * instead of requests that never end: connecting, or waiting for a free pooled connection, gives up after
 * connectTimeoutMs; the server cancels a statement after statementTimeoutMs; and should even that answer
 * not arrive (the network or the server is stalled) the client gives up a second later and drops the
 * connection, so the pool only keeps connections that still answer.
 */
export function openDatabase(config: { database: DatabaseTarget }): Db {
  const target = config.database;
  if (target.kind === 'sqlite') {
    if (target.file !== ':memory:') mkdirSync(dirname(target.file), { recursive: true });
    const handle = new SQLite(target.file);
    handle.pragma('journal_mode = WAL');
    handle.pragma(`synchronous = ${target.synchronous}`);
    handle.pragma('foreign_keys = ON');
    handle.pragma('busy_timeout = 5000');
    const kysely = new Kysely<Database>({
      dialect: new SqliteDialect({ database: withStatementCache(handle) }),
    });
    return { kysely, kind: 'sqlite', sqlite: handle, destroy: () => kysely.destroy() };
  }
  const statementTimeout = target.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  const pool = new pg.Pool({
    connectionString: target.url,
    max: 10,
    connectionTimeoutMillis: target.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    keepAlive: true,
    ...(statementTimeout > 0 && { statement_timeout: statementTimeout }),
  });
  // An idle client that loses its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  // A client checked out of the pool when its server goes away emits 'error' with no pool listener
  // attached, which would crash the process; the query in hand fails anyway (the caller answers 503) and
  // the pool drops the broken client on release.
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  const kysely = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: droppingTimedOut(pool, readTimeoutOf(pool)) }),
  });
  return { kysely, kind: 'postgres', pool, destroy: () => kysely.destroy() };
}

/** How long the client waits for an answer before deciding the server cannot give one: 0 for no limit. */
function readTimeoutOf(pool: pg.Pool): number {
  const statementTimeout = Number(pool.options.statement_timeout ?? 0);
  return statementTimeout > 0 ? statementTimeout + CLIENT_GRACE_MS : 0;
}

/**
 * The settings of a client of its own (the event bus's listening connection), with the pool's read timeout as
 * pg's `query_timeout`: the pool's queries run under a timer of ours (droppingTimedOut), a client of its own
 * needs pg's. Its few queries (LISTEN) are not a scan's.
 */
export function ownClientConfig(pool: pg.Pool): pg.ClientConfig {
  const readTimeout = readTimeoutOf(pool);
  return { ...pool.options, ...(readTimeout > 0 && { query_timeout: readTimeout }) };
}

/** The message of a query the server never answered (as pg's own client-side timeout words it). */
const QUERY_READ_TIMEOUT = 'Query read timeout';

/**
 * The pool as Kysely sees it: each query under a client-side read timeout (`readTimeoutMs`, 0 for none), and a
 * connection whose query timed out destroyed on release instead of going back to the pool: its query is still
 * outstanding, so every later query on it would wait behind it and time out too.
 *
 * The timeout is ours, and pg is called with a callback: with either of pg's own ways (its `query_timeout`
 * option, or the promise its `query` answers without a callback) every young-generation collection promoted to
 * the old generation the rows the collection before it had kept (a promotion rate of about 100 %, 2.5 MB a scan)
 * and took 5-10 ms instead of about 1 ms; with a callback and a timer of our own it does not. Measured with the scan
 * benchmark; the cause inside pg not traced further.
 */
function droppingTimedOut(pool: pg.Pool, readTimeoutMs: number): PostgresPool {
  return {
    connect: async (): Promise<PostgresPoolClient> => {
      const client = await pool.connect();
      let broken: Error | undefined;
      const query = (text: string, parameters: readonly unknown[]) =>
        new Promise<pg.QueryResult>((resolve, reject) => {
          const timer =
            readTimeoutMs > 0
              ? setTimeout(() => {
                  broken = new Error(QUERY_READ_TIMEOUT);
                  reject(broken);
                }, readTimeoutMs)
              : undefined;
          client.query(text, parameters as unknown[], (error: Error | undefined, result: pg.QueryResult) => {
            clearTimeout(timer);
            if (error) reject(error);
            else resolve(result);
          });
        });
      return {
        query: query as unknown as PostgresPoolClient['query'],
        release: () => client.release(broken),
      };
    },
    end: () => pool.end(),
  };
}

/**
 * The same database without the statement and query timeouts, for work that may rightly take longer than
 * a request (migrations, OSM imports): a one-connection pool of its own on PostgreSQL, the same handle on
 * SQLite. Close it when done.
 */
export function withoutTimeouts(db: Db): { kysely: Kysely<Database>; close(): Promise<void> } {
  if (db.kind !== 'postgres' || !db.pool) return { kysely: db.kysely, close: () => Promise.resolve() };
  const { statement_timeout: _statement, ...options } = db.pool.options;
  const pool = new pg.Pool({ ...options, max: 1 });
  pool.on('error', () => {});
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { kysely, close: () => kysely.destroy() };
}

/**
 * `column IN (values)` for a list of text values; on PostgreSQL `column = ANY($1)`, one array parameter instead of
 * one parameter a value: a scan's 500 ids bind and parse in one piece (about 0.7 ms less per 500-row read).
 */
export function inTexts(kind: DatabaseKind, column: string, values: readonly string[]): RawBuilder<boolean> {
  return kind === 'postgres'
    ? sql<boolean>`${sql.ref(column)} = ANY(${[...values]}::text[])`
    : sql<boolean>`${sql.ref(column)} IN (${sql.join(values)})`;
}

/** The statements `withSqliteConnection` prepared, per handle (apart from Kysely's: they answer arrays). */
const arrayStatements = new WeakMap<SQLite.Database, (text: string) => SQLite.Statement>();

/**
 * Runs `read` on SQLite's one connection, held the way Kysely holds it for a query (so never inside another
 * flow's transaction or between its statements), with `prepare` giving kept statements that answer each row as
 * an array of its columns: better-sqlite3 builds an object a row about twice as slowly as it reads the row (500
 * places by id: 5.6 ms as objects, 3.5 ms as arrays). For the hot reads of a scan only.
 */
export async function withSqliteConnection<T>(
  db: Db,
  read: (prepare: (text: string) => SQLite.Statement) => T,
): Promise<T> {
  const handle = db.sqlite;
  if (!handle) throw new Error('withSqliteConnection needs SQLite');
  const prepare = arrayStatements.get(handle) ?? keptStatements((text) => handle.prepare(text).raw(true));
  arrayStatements.set(handle, prepare);
  return db.kysely.connection().execute(() => Promise.resolve(read(prepare)));
}

/** Current time as the ISO-8601 text every table stores. */
export function nowIso(): string {
  return new Date().toISOString();
}

/** Throws when the database cannot answer; used by /healthz. */
export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db.kysely);
}
