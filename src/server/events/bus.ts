import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import { CompiledQuery } from 'kysely';
import { ownClientConfig, type Db } from '../db/database.js';
import type { AppEvent, AppEventType, ScanPhase } from '../../core/api/events.js';

// Live updates of shared state (the blocklist, current advertisers, the pipeline, prospects, sessions, a
// scan's progress). Services publish a small change notice; the SSE route forwards every notice to its
// screens, which refetch or patch their list. Two transports:
//   memory   - one process (SQLite, or tests): listeners are called directly;
//   postgres - LISTEN/NOTIFY on one channel, so a notice published on any instance reaches the screens of
//              every instance on the same database. A dedicated client listens and reconnects when dropped.

export type { AppEvent, AppEventType, ScanPhase };

export type AppEventListener = (event: AppEvent) => void;

export interface EventBus {
  readonly transport: 'memory' | 'postgres';
  /** Sends the notice to every subscriber on every instance. Never throws for a delivery problem. */
  publish(event: AppEvent): Promise<void>;
  /** Returns the unsubscribe function. */
  subscribe(listener: AppEventListener): () => void;
  /** Resolves after the first attempt to listen across instances (on failure it keeps retrying in the
   * background); at once in memory. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** The PostgreSQL channel. NOTIFY payloads must stay under 8000 bytes; notices are kept far below that. */
export const EVENTS_CHANNEL = 'pf_events';
const MAX_PAYLOAD = 7000;

class Fanout {
  private readonly listeners = new Set<AppEventListener>();
  constructor(private readonly log: FastifyBaseLogger) {}

  add(listener: AppEventListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  deliver(event: AppEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (err) {
        this.log.warn({ err }, 'event listener failed');
      }
    }
  }
}

export function createMemoryBus(log: FastifyBaseLogger): EventBus {
  const fanout = new Fanout(log);
  return {
    transport: 'memory',
    publish: (event) => {
      fanout.deliver(event);
      return Promise.resolve();
    },
    subscribe: (listener) => fanout.add(listener),
    ready: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}

/** Trims a notice until it fits a NOTIFY payload: the item goes first, then the business id. */
export function encodeEvent(origin: string, event: AppEvent): string {
  let payload = JSON.stringify({ origin, event });
  if (Buffer.byteLength(payload) <= MAX_PAYLOAD) return payload;
  const { item: _item, ...rest } = event;
  payload = JSON.stringify({ origin, event: rest });
  if (Buffer.byteLength(payload) <= MAX_PAYLOAD) return payload;
  // The audience and the scan id are never dropped: without them a private notice would reach everyone.
  const { type, action, at, userId, scanId, sessionId } = event;
  return JSON.stringify({ origin, event: { type, action, at, userId, scanId, sessionId } });
}

const EVENT_TYPES: readonly string[] = [
  'advertisers',
  'blocklist',
  'scan',
  'prospects',
  'sessions',
  'pipeline',
  'territories',
] satisfies AppEventType[];

function decodeEvent(payload: string | undefined): { origin: string; event: AppEvent } | null {
  if (!payload) return null;
  try {
    const parsed = JSON.parse(payload) as { origin?: unknown; event?: Partial<AppEvent> };
    const e = parsed.event;
    if (typeof parsed.origin !== 'string' || !e) return null;
    if (!EVENT_TYPES.includes(e.type ?? '') || typeof e.action !== 'string') return null;
    if (e.userId !== undefined && typeof e.userId !== 'string') return null;
    if (e.sessionId !== undefined && typeof e.sessionId !== 'string') return null;
    return { origin: parsed.origin, event: e as AppEvent };
  } catch {
    return null;
  }
}

export interface PostgresBusOptions {
  /** Connection settings of the listening client (the pool's, with a client-side read timeout). */
  connection: pg.ClientConfig;
  /** Publishes through this: the app's queries (under their timeouts), or a pool. */
  pool: { query(text: string, values: unknown[]): Promise<unknown> };
  log: FastifyBaseLogger;
  /** First reconnect delay; doubles up to maxDelayMs. */
  minDelayMs?: number;
  maxDelayMs?: number;
}

/**
 * LISTEN/NOTIFY transport. Local subscribers get a notice at once (no round trip, and no loss while the
 * listener is reconnecting); the NOTIFY carries this instance's id so its own echo is ignored. When the
 * listening connection drops, it reconnects with exponential backoff and then tells local subscribers to
 * resync both lists, since notices sent meanwhile were missed.
 */
export function createPostgresBus(options: PostgresBusOptions): EventBus {
  const { pool, log } = options;
  const minDelay = options.minDelayMs ?? 250;
  const maxDelay = options.maxDelayMs ?? 5000;
  const origin = randomUUID();
  const fanout = new Fanout(log);
  let client: pg.Client | null = null;
  let closed = false;
  let delay = minDelay;
  let timer: NodeJS.Timeout | null = null;
  let everConnected = false;
  let firstAttempt: Promise<void> | null = null;

  const resync = () => {
    const at = new Date().toISOString();
    fanout.deliver({ type: 'advertisers', action: 'resync', at });
    fanout.deliver({ type: 'blocklist', action: 'resync', at });
    fanout.deliver({ type: 'pipeline', action: 'resync', at });
  };

  const scheduleReconnect = () => {
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = null;
      void connect();
    }, delay);
    timer.unref();
    delay = Math.min(delay * 2, maxDelay);
  };

  const connect = async (): Promise<void> => {
    if (closed) return;
    const c = new pg.Client({ connectionTimeoutMillis: 5000, ...options.connection });
    let dropped = false;
    const onDrop = (err?: Error) => {
      if (dropped) return;
      dropped = true;
      if (client === c) client = null;
      c.removeAllListeners('notification');
      c.end().catch(() => {});
      if (!closed) {
        log.warn({ err }, 'event listener connection lost; reconnecting');
        scheduleReconnect();
      }
    };
    c.on('error', onDrop);
    c.on('end', () => onDrop());
    c.on('notification', (msg) => {
      if (msg.channel !== EVENTS_CHANNEL) return;
      const decoded = decodeEvent(msg.payload);
      if (decoded && decoded.origin !== origin) fanout.deliver(decoded.event);
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${EVENTS_CHANNEL}`);
    } catch (err) {
      onDrop(err as Error);
      return;
    }
    if (closed || dropped) {
      await c.end().catch(() => {});
      return;
    }
    client = c;
    delay = minDelay;
    if (everConnected) resync();
    everConnected = true;
  };

  return {
    transport: 'postgres',
    async publish(event) {
      fanout.deliver(event);
      try {
        await pool.query('select pg_notify($1, $2)', [EVENTS_CHANNEL, encodeEvent(origin, event)]);
      } catch (err) {
        log.warn({ err }, 'could not publish a live update to other instances');
      }
    },
    subscribe: (listener) => fanout.add(listener),
    ready() {
      firstAttempt ??= connect();
      return firstAttempt;
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      const c = client;
      client = null;
      if (c) await c.end().catch(() => {});
    },
  };
}

/** The bus for this database: LISTEN/NOTIFY on PostgreSQL, in memory on SQLite (one instance). */
export function createEventBus(db: Db, log: FastifyBaseLogger): EventBus {
  if (db.kind === 'postgres' && db.pool) {
    // Published through Kysely: under the client-side read timeout every query of the app has (database.ts).
    const publisher = {
      query: (text: string, values: unknown[]) => db.kysely.executeQuery(CompiledQuery.raw(text, values)),
    };
    return createPostgresBus({ connection: ownClientConfig(db.pool), pool: publisher, log });
  }
  return createMemoryBus(log);
}
