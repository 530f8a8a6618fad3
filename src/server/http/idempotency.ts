// Writes a phone may queue offline and replay carry an `Idempotency-Key` header (the UUID the write was
// queued under). The key's row in idempotency_keys is claimed first and the write runs in the same
// transaction, so the same key sent twice, even at once, applies the write once: the second request waits for
// the first's transaction (PostgreSQL: the unique key; SQLite: one connection runs one transaction) and
// answers the stored status and body. A write the service refuses (an HttpError below 500: the save limit, a
// blocked business, ...) is rolled back to a savepoint and its refusal stored, so a replay gets the same
// refusal. Events a write publishes are held back until its transaction committed.
import { createHash } from 'node:crypto';
import type { ControlledTransaction } from 'kysely';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import type { AppEvent, EventBus } from '../events/bus.js';
import { badRequest, HttpError } from './errors.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** How long a key is remembered: a phone that was offline longer than this replays as a new write. */
export const IDEMPOTENCY_KEY_DAYS = 7;
export const BAD_IDEMPOTENCY_KEY = 'Idempotency-Key must be a UUID (e.g. from crypto.randomUUID()).';
export const IDEMPOTENCY_KEY_REUSED =
  'This Idempotency-Key was already used for a different request. Send a new key for a new write.';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The request's key, lower case; undefined without the header; 400 when it is not one UUID. */
export function idempotencyKey(request: Pick<FastifyRequest, 'headers'>): string | undefined {
  const raw = request.headers[IDEMPOTENCY_HEADER];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !UUID.test(raw.trim())) throw badRequest(BAD_IDEMPOTENCY_KEY);
  return raw.trim().toLowerCase();
}

/** What a write answers: its status and body. */
export interface WriteAnswer<T = unknown> {
  status: number;
  body: T;
}

/** What a write runs against: the database joined to the key's transaction, and an event bus held until commit. */
export interface WriteScope {
  db: Db;
  events: EventBus;
}

/** An event bus that keeps what is published until `flush` (after commit), or drops it (`discard`). */
function heldEvents(bus: EventBus): EventBus & { flush(): Promise<void>; discard(): void } {
  let held: AppEvent[] = [];
  return {
    transport: bus.transport,
    publish(event) {
      held.push(event);
      return Promise.resolve();
    },
    subscribe: (listener) => bus.subscribe(listener),
    ready: () => bus.ready(),
    close: () => bus.close(),
    async flush() {
      const events = held;
      held = [];
      for (const event of events) await bus.publish(event);
    },
    discard() {
      held = [];
    },
  };
}

/** Method and route pattern, and the SHA-256 of the parameters and body (the key's content). */
function requestIdentity(request: FastifyRequest): { route: string; hash: string } {
  const route = `${request.method} ${request.routeOptions.url ?? request.url}`;
  const content = JSON.stringify({ params: request.params ?? null, body: request.body ?? null });
  return { route, hash: createHash('sha256').update(route).update('\n').update(content).digest('hex') };
}

const expiryCutoff = (now: Date) =>
  new Date(now.getTime() - IDEMPOTENCY_KEY_DAYS * 24 * 60 * 60 * 1000).toISOString();

function storedAnswer(
  row: { route: string; request_hash: string; status_code: number; answer: string },
  identity: { route: string; hash: string },
): WriteAnswer {
  if (row.route !== identity.route || row.request_hash !== identity.hash) {
    throw new HttpError(422, IDEMPOTENCY_KEY_REUSED);
  }
  return { status: row.status_code, body: JSON.parse(row.answer) as unknown };
}

/** The error body the error handler gives an HttpError (http/errors.ts), stored for a refused write. */
const refusal = (error: HttpError): WriteAnswer => ({
  status: error.statusCode,
  body: { error: error.message, ...error.extra },
});

/**
 * Runs `write` once per (user, key): the first request claims the key, runs the write in the same transaction
 * and stores its answer; any later one (or one waiting on it) answers the stored one. Without a key the write
 * simply runs. 422 when the key was used for other content or another route.
 */
export async function withIdempotency(
  ctx: { db: Db; events: EventBus },
  userId: string,
  key: string | undefined,
  request: FastifyRequest,
  write: (scope: WriteScope) => Promise<WriteAnswer>,
): Promise<WriteAnswer> {
  if (key === undefined) return write({ db: ctx.db, events: ctx.events });
  const { db } = ctx;
  const identity = requestIdentity(request);
  const now = new Date();
  const events = heldEvents(ctx.events);
  const trx: ControlledTransaction<Database> = await db.kysely.startTransaction().execute();
  let answer: WriteAnswer;
  try {
    const claimed = await trx
      .insertInto('idempotency_keys')
      .values({
        user_id: userId,
        key,
        route: identity.route,
        request_hash: identity.hash,
        status_code: 0,
        answer: '',
        created_at: now.toISOString(),
      })
      .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
      .returning('key')
      .executeTakeFirst();
    if (!claimed) {
      // Already written (and committed: a concurrent first request held the key until it committed).
      const row = await trx
        .selectFrom('idempotency_keys')
        .select(['route', 'request_hash', 'status_code', 'answer'])
        .where('user_id', '=', userId)
        .where('key', '=', key)
        .executeTakeFirstOrThrow();
      await trx.rollback().execute();
      return storedAnswer(row, identity);
    }
    const point = await trx.savepoint('idempotent_write').execute();
    try {
      // The write's queries, and any transaction it opens (inTransaction), run in the key's transaction.
      answer = await write({ db: { ...db, kysely: point }, events });
      await point.releaseSavepoint('idempotent_write').execute();
    } catch (error) {
      if (!(error instanceof HttpError) || error.statusCode >= 500) throw error;
      // Refused: nothing of the write is kept, but the refusal is, so the replay answers the same.
      await point.rollbackToSavepoint('idempotent_write').execute();
      events.discard();
      answer = refusal(error);
    }
    await trx
      .updateTable('idempotency_keys')
      .set({ status_code: answer.status, answer: JSON.stringify(answer.body ?? null) })
      .where('user_id', '=', userId)
      .where('key', '=', key)
      .execute();
    await trx.commit().execute();
  } catch (error) {
    if (!trx.isCommitted && !trx.isRolledBack)
      await trx
        .rollback()
        .execute()
        .catch(() => undefined);
    throw error;
  }
  await events.flush();
  return answer;
}

/**
 * The answer a write of this user got under `key` on `route` ("POST /api/call-logs"), when it succeeded
 * (2xx) and the key is still kept; undefined otherwise. A later queued write can so name what an earlier one
 * created before the phone heard the new row's id (follow-ups/service.ts `queued:<key>`).
 */
export async function answerUnderKey(db: Db, userId: string, key: string, route: string): Promise<unknown> {
  if (!UUID.test(key)) return undefined;
  const row = await db.kysely
    .selectFrom('idempotency_keys')
    .select(['status_code', 'answer'])
    .where('user_id', '=', userId)
    .where('key', '=', key.toLowerCase())
    .where('route', '=', route)
    .executeTakeFirst();
  if (!row || row.status_code < 200 || row.status_code >= 300) return undefined;
  return JSON.parse(row.answer) as unknown;
}

/** Deletes keys older than IDEMPOTENCY_KEY_DAYS; returns how many. */
export async function sweepIdempotencyKeys(db: Db, now = new Date()): Promise<number> {
  const result = await db.kysely
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', expiryCutoff(now))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Sweeps expired keys now and then every `intervalMs` (each instance; a DELETE twice is harmless). */
export function createIdempotencySweeper(options: { db: Db; log: FastifyBaseLogger; intervalMs: number }) {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  const runOnce = () => {
    running ??= sweepIdempotencyKeys(options.db)
      .catch((err: unknown) => options.log.warn({ err }, 'idempotency key sweep failed'))
      .finally(() => {
        running = null;
      });
    return running;
  };
  return {
    start() {
      if (timer) return;
      void runOnce();
      timer = setInterval(() => void runOnce(), options.intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}

/** The reply as a route handler has it (any status the route declares). */
interface Reply {
  status(code: number): { send(payload?: unknown): unknown };
}

/**
 * A route handler's body for an idempotent write: the key from the header, the signed-in user's id, the write
 * (or the stored answer) sent with its status.
 */
export async function idempotentWrite(
  ctx: { db: Db; events: EventBus },
  request: FastifyRequest,
  reply: Reply,
  userId: string,
  write: (scope: WriteScope) => Promise<WriteAnswer>,
): Promise<void> {
  const key = idempotencyKey(request);
  const answer = await withIdempotency(ctx, userId, key, request, write);
  // Sent here, so the handler returns nothing (Fastify then keeps this answer).
  if (answer.status === 204) reply.status(204).send();
  else reply.status(answer.status).send(answer.body);
}
