// Before the server opens its PostgreSQL pool: make sure the database is there and the server answers.
//  - not up yet (connection refused or reset, host not resolvable yet, socket missing, "the database system is
//    starting up", connect timeout): wait and try again with backoff for DATABASE_WAIT_MS, one line per attempt;
//  - the database does not exist: create it when the role may, else say in one line how (`createdb ...`);
//  - anything else (bad password, unknown role, TLS...): one line naming host, port, database and the cause.
// The process manager or compose file often starts the app before its database; this turns a raw `pg` stack
// into a wait or a sentence.
import pg from 'pg';

/** A start-up failure whose message is the whole story: print it, no stack. */
export class DatabaseStartError extends Error {
  override name = 'DatabaseStartError';
}

export interface PostgresTarget {
  url: string;
  connectTimeoutMs?: number;
  /** How long to keep trying while the server is not up yet (0: one attempt). */
  waitMs: number;
}

export interface ReadyOptions {
  log?: (line: string) => void;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** First pause between attempts; doubles up to maxDelayMs. */
  firstDelayMs?: number;
  maxDelayMs?: number;
}

interface Where {
  host: string;
  port: number;
  database: string;
  user: string;
}

/** Host, port, database and role the URL names, as pg reads them. */
export function describeTarget(url: string): Where {
  const c = new pg.Client({ connectionString: url });
  return { host: String(c.host), port: Number(c.port), database: String(c.database), user: String(c.user) };
}

const TRANSIENT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
  'ENOENT', // a Unix socket not created yet
  'EPIPE',
  '57P03', // cannot_connect_now: the database system is starting up
  '57P01', // admin_shutdown: restarting
]);

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function cause(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return cause(error.errors[0]);
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s+/g, ' ').trim() || (errorCode(error) ?? 'unknown error');
}

function notUpYet(error: unknown): boolean {
  const code = errorCode(error);
  if (code && TRANSIENT_CODES.has(code)) return true;
  if (error instanceof AggregateError) return error.errors.some(notUpYet);
  // pg's own connect timeout, and a server that closed the connection while starting.
  return /timeout|Connection terminated unexpectedly/i.test(cause(error));
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(database)}`;
  return u.toString();
}

async function tryConnect(url: string, connectTimeoutMs: number): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
const shellWord = (s: string) => (/^[\w./:@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** CREATE DATABASE through the maintenance database; throws DatabaseStartError when the role may not. */
async function createDatabase(
  target: PostgresTarget,
  where: Where,
  log: (line: string) => void,
): Promise<void> {
  const at = `${where.host}:${where.port}`;
  let lastError: unknown;
  for (const maintenance of ['postgres', 'template1']) {
    const client = new pg.Client({
      connectionString: withDatabase(target.url, maintenance),
      connectionTimeoutMillis: target.connectTimeoutMs ?? 5000,
    });
    client.on('error', () => {});
    try {
      await client.connect();
    } catch (error) {
      lastError = error;
      await client.end().catch(() => undefined);
      if (errorCode(error) === '3D000') continue; // no such maintenance database: try the next one
      break;
    }
    try {
      await client.query(`CREATE DATABASE ${quoteIdent(where.database)}`);
      log(`Created the database "${where.database}" on PostgreSQL at ${at}.`);
      return;
    } catch (error) {
      if (errorCode(error) === '42P04') return; // created meanwhile by another instance
      lastError = error;
      break;
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  const how =
    `createdb -h ${shellWord(where.host)} -p ${where.port} -U ${shellWord(where.user)} ` +
    shellWord(where.database);
  throw new DatabaseStartError(
    `PostgreSQL at ${at}: the database "${where.database}" does not exist and the role "${where.user}" ` +
      `could not create it (${cause(lastError)}). Create it with: ${how}`,
  );
}

/**
 * Resolve once the database answers (creating it if needed); throw DatabaseStartError with one line otherwise.
 */
export async function ensurePostgresReady(target: PostgresTarget, options: ReadyOptions = {}): Promise<void> {
  const log = options.log ?? ((line: string) => console.error(line));
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const now = options.now ?? Date.now;
  const maxDelay = options.maxDelayMs ?? 5000;
  const where = describeTarget(target.url);
  const at = `${where.host}:${where.port}`;
  const named = `PostgreSQL at ${at}, database "${where.database}"`;
  const started = now();
  let delay = options.firstDelayMs ?? 500;
  let created = false;
  for (let attempt = 1; ; attempt++) {
    try {
      await tryConnect(target.url, target.connectTimeoutMs ?? 5000);
      return;
    } catch (error) {
      if (errorCode(error) === '3D000' && !created) {
        await createDatabase(target, where, log);
        created = true;
        attempt--;
        continue;
      }
      if (!notUpYet(error)) throw new DatabaseStartError(`Cannot connect to ${named}: ${cause(error)}`);
      const elapsed = now() - started;
      const left = target.waitMs - elapsed;
      if (left <= 0) {
        throw new DatabaseStartError(
          `Cannot connect to ${named}: ${cause(error)} (still not up after ${(elapsed / 1000).toFixed(1)} s; ` +
            `DATABASE_WAIT_MS=${target.waitMs})`,
        );
      }
      const pause = Math.min(delay, left);
      log(
        `${named} is not up yet (${cause(error)}); attempt ${attempt}, trying again in ` +
          `${(pause / 1000).toFixed(1)} s (waiting up to ${Math.round(target.waitMs / 1000)} s in all)`,
      );
      await sleep(pause);
      delay = Math.min(delay * 2, maxDelay);
    }
  }
}
