import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { ServerResponse } from 'node:http';
import type { AppContext } from '../context.js';
import type { AppEvent, EventBus } from './bus.js';
import { sessionExists } from './repository.js';
import { HttpError } from '../http/errors.js';
import { route } from '../http/route.js';

/** A comment line keeps proxies and browsers from timing the stream out (SSE ignores comments). */
export const HEARTBEAT_MS = 25_000;
/** How long a browser waits before reconnecting a dropped stream. */
const RETRY_MS = 3000;

export function formatEvent(event: AppEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** How many streams may be open at once on one instance (EVENT_STREAMS_PER_SESSION / _PER_USER). */
export interface StreamLimits {
  perSession: number;
  perUser: number;
}
const DEFAULT_LIMITS: StreamLimits = { perSession: 10, perUser: 30 };

export const TOO_MANY_STREAMS =
  'Too many live-update connections are open for your account. Close some Prospect Finder tabs and reload.';

/**
 * Tells every instance that sessions of a user ended (sign-out, suspension, deletion, a password reset or
 * change): their event streams close at once instead of at the next heartbeat. Without `sessionId`, every
 * session of the user ended.
 */
export function publishSessionsEnded(events: EventBus, userId: string, sessionId?: string): Promise<void> {
  return events.publish({
    type: 'sessions',
    action: 'ended',
    userId,
    ...(sessionId !== undefined && { sessionId }),
    at: new Date().toISOString(),
  });
}

/**
 * GET /api/events: Server-Sent Events with the live-update notices of the shared lists (`advertisers`,
 * `blocklist`), the progress of the user's own scans (`scan`) and changes to the user's own latest results
 * (`prospects`), the last two sent only to that user's streams. Each stream subscribes to the bus; it is
 * unsubscribed and its heartbeat stopped when the
 * client goes away, its session ends, or the server closes.
 */
export const eventRoutes: FastifyPluginCallbackZod<{
  ctx: AppContext;
  heartbeatMs?: number;
  limits?: StreamLimits;
}> = (app, { ctx, heartbeatMs = HEARTBEAT_MS, limits = DEFAULT_LIMITS }, done) => {
  /** Every open stream with its clean-up and whose it is. */
  const open = new Map<ServerResponse, { cleanup: () => void; userId?: string; sessionId?: string }>();
  const count = (test: (s: { userId?: string; sessionId?: string }) => boolean) => {
    let n = 0;
    for (const stream of open.values()) if (test(stream)) n += 1;
    return n;
  };

  route(app, 'GET /api/events', (request, reply) => {
    const sessionId = request.user?.sessionId;
    const userId = request.user?.id;
    // A stream holds a connection and a subscription for as long as it is open: a few per session (one per
    // tab) and per user, counted on this instance.
    if (
      (sessionId !== undefined && count((s) => s.sessionId === sessionId) >= limits.perSession) ||
      (userId !== undefined && count((s) => s.userId === userId) >= limits.perUser)
    ) {
      throw new HttpError(429, TOO_MANY_STREAMS);
    }
    reply.hijack();
    const res = reply.raw;
    const headers: Record<string, string | string[] | number> = {};
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) headers[name] = value;
    }
    res.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write(`retry: ${RETRY_MS}\n: connected\n\n`);

    const unsubscribe = ctx.events.subscribe((event) => {
      // A notice meant for one user (scan progress, their own results) reaches only that user's streams.
      if (event.userId !== undefined && event.userId !== userId) return;
      if (event.type === 'sessions') {
        // This user's sessions ended (all of them, or this stream's): the stream ends now.
        const mine = event.sessionId === undefined || event.sessionId === sessionId;
        if (event.userId !== undefined && mine) cleanup();
        return;
      }
      if (!res.writableEnded) res.write(formatEvent(event));
    });
    // Each heartbeat also checks the session, so a stream whose session ended without a notice (expiry, a
    // row deleted by hand) stops receiving the shared lists within one interval.
    const beat = async () => {
      if (sessionId && !(await sessionExists(ctx.db.kysely, sessionId).catch(() => true))) {
        cleanup();
        return;
      }
      if (!res.writableEnded) res.write(': heartbeat\n\n');
    };
    const heartbeat = setInterval(() => void beat(), heartbeatMs);
    heartbeat.unref();

    let cleaned = false;
    const cleanup = () => {
      if (cleaned) return;
      cleaned = true;
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(res);
      if (!res.writableEnded) res.end();
    };
    open.set(res, { cleanup, userId, sessionId });
    // The response's 'close' fires when the client goes away (or the response ended).
    res.on('close', cleanup);
    res.on('error', cleanup);
  });

  // Open streams never end on their own; end them so the server can close.
  app.addHook('preClose', (hookDone) => {
    for (const { cleanup } of [...open.values()]) cleanup();
    hookDone();
  });

  done();
};
