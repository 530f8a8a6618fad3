// How the outbox is sent, shared by the page (outbox.ts) and the service worker's Background Sync
// (sw-outbox.ts, bundled into sw-outbox.js by vite.config.ts), so the two never disagree. No window, no React.
// The queue in the rep's IndexedDB is the truth: each step reads the oldest waiting write from it, sends it
// under its Idempotency-Key, and deletes it when the server applied it (or, answered before, says so again);
// a refusal (4xx other than 401/408/429) is kept on the write with the server's reason until the rep dismisses
// it; a 401 (the session ended), 408/429/5xx or no answer stop the round, keeping the write for later.
import type { OfflineDb, QueuedWrite } from './db';

export const SEND_TIMEOUT_MS = 15_000;

export type Refusal = NonNullable<QueuedWrite['refused']>;
export type SendOutcome = { kind: 'sent' } | { kind: 'stop' } | { kind: 'refused'; refused: Refusal };

/** Sends one queued write; what became of it. */
export async function sendWrite(write: QueuedWrite): Promise<SendOutcome> {
  let response: Response;
  try {
    response = await fetch(write.path, {
      method: write.method,
      credentials: 'same-origin',
      headers: {
        accept: 'application/json',
        'idempotency-key': write.id,
        ...(write.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: write.body === undefined ? null : JSON.stringify(write.body),
      // A connection that hangs (one bar of signal) must not hold the queue: the same key goes again later.
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
  } catch {
    return { kind: 'stop' }; // no connection (or the answer was lost): the same key goes again next time
  }
  if (response.ok) return { kind: 'sent' };
  // 401: the session ended; kept for when this rep signs in again. 408/429/5xx: try again later.
  if (
    response.status === 401 ||
    response.status === 408 ||
    response.status === 429 ||
    response.status >= 500
  ) {
    return { kind: 'stop' };
  }
  let reason = `The server refused this change (${response.status}).`;
  try {
    const body = (await response.json()) as { error?: unknown };
    if (typeof body.error === 'string' && body.error) reason = body.error;
  } catch {
    // not JSON: the status says it
  }
  return { kind: 'refused', refused: { status: response.status, reason, at: new Date().toISOString() } };
}

export interface SendHooks {
  /** False to stop before the next write (the rep signed out, another signed in). */
  active(): boolean;
  sent(write: QueuedWrite, at: string): void;
  refused(write: QueuedWrite, refused: Refusal): void;
}

/**
 * Sends the waiting writes of `db` in order, one at a time. `changed`: something was sent or refused;
 * `stopped`: a write could not be sent now (it waits for the next round).
 */
export async function sendWaiting(
  db: OfflineDb,
  hooks: SendHooks,
): Promise<{ changed: boolean; stopped: boolean }> {
  let changed = false;
  for (;;) {
    if (!hooks.active()) return { changed, stopped: false };
    const next = (await db.getAll('outbox')).find((w) => !w.refused);
    if (!next || next.seq === undefined) return { changed, stopped: false };
    const outcome = await sendWrite(next);
    if (outcome.kind === 'stop') return { changed, stopped: true };
    changed = true;
    if (outcome.kind === 'sent') {
      const at = new Date().toISOString();
      await db.delete('outbox', next.seq);
      await db.put('meta', at, 'lastSynced');
      hooks.sent(next, at);
    } else {
      // Kept (unless the rep dismissed it meanwhile) with the server's reason.
      if (await db.get('outbox', next.seq)) await db.put('outbox', { ...next, refused: outcome.refused });
      hooks.refused(next, outcome.refused);
    }
  }
}
