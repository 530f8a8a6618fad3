// Background Sync without an open page. Bundled on its own into sw-outbox.js (vite.config.ts), which
// the generated service worker loads with importScripts. The page registers the 'outbox' sync tag when it
// queues a write; when the browser sees the connection return it wakes the worker with a `sync` event, even
// with no page of the app open. The worker asks the server whose session this is, opens that rep's queue (and
// only theirs: IndexedDB `prospect-finder-offline-<userId>`) and sends it with the page's own code (send.ts):
// in order, the same Idempotency-Keys, refusals kept with their reason. Signed out, nothing is sent. A round
// that could not send everything fails the event, so the browser tries the sync again later.
import { openUserDb } from './db';
import { sendWaiting } from './send';

interface SyncEvent extends Event {
  readonly tag: string;
  waitUntil(done: Promise<unknown>): void;
}
interface WorkerScope {
  addEventListener(type: 'sync', listener: (event: SyncEvent) => void): void;
  clients: { matchAll(options: { type: 'window' }): Promise<{ postMessage(message: unknown): void }[]> };
}

const worker = self as unknown as WorkerScope;

/** The signed-in user's id for this browser's session cookie; null when signed out or unreachable. */
async function sessionUserId(): Promise<string | null> {
  try {
    const response = await fetch('/api/session', {
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
    });
    if (!response.ok) return null;
    const body = (await response.json()) as { user?: { id?: unknown } | null };
    return typeof body.user?.id === 'string' ? body.user.id : null;
  } catch {
    return null;
  }
}

/** Whether this user has a queue on the device (opening one would create an empty database). */
async function hasQueue(userId: string): Promise<boolean> {
  const name = `prospect-finder-offline-${userId}`;
  if (typeof indexedDB.databases !== 'function') return true;
  return (await indexedDB.databases()).some((d) => d.name === name);
}

export async function syncOutbox(): Promise<void> {
  const userId = await sessionUserId();
  if (!userId || !(await hasQueue(userId))) return;
  const db = await openUserDb(userId);
  let round: { changed: boolean; stopped: boolean };
  try {
    round = await sendWaiting(db, { active: () => true, sent: () => undefined, refused: () => undefined });
  } finally {
    db.close();
  }
  if (round.changed) {
    for (const client of await worker.clients.matchAll({ type: 'window' })) {
      client.postMessage({ type: 'outbox-changed' });
    }
  }
  if (round.stopped) throw new Error('The outbox could not be sent yet; the browser retries the sync later.');
}

worker.addEventListener('sync', (event) => {
  if (event.tag === 'outbox') event.waitUntil(syncOutbox());
});
