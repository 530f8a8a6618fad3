// The outbox of writes made without a connection. Each write is stored with its client-generated UUID
// (the Idempotency-Key) in the signed-in user's IndexedDB and sent in order when the connection returns (the
// `online` event, app start, a Background Sync message from the service worker). The server applies a key
// once, so a write whose answer was lost is simply sent again. A refusal (4xx other than 401/408/429) is kept
// with the server's reason until the rep dismisses it; a 401 (session expired) keeps the queue for when that
// same rep signs in again; 408/429/5xx and network failures stop the round and retry later.
import { useSyncExternalStore } from 'react';
import { openUserDb, type OfflineDb, type QueuedWrite } from './db';
import { sendWaiting } from './send';

export type { QueuedWrite, WriteKind } from './db';

export interface OutboxState {
  userId: string | null;
  /** Waiting and refused writes, oldest first. */
  items: QueuedWrite[];
  lastSynced: string | null;
  sending: boolean;
}

let state: OutboxState = { userId: null, items: [], lastSynced: null, sending: false };
let db: OfflineDb | null = null;
const listeners = new Set<() => void>();
let afterSync: (() => void) | null = null;

function set(patch: Partial<OutboxState>) {
  state = { ...state, ...patch };
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export const outboxState = () => state;
export const useOutbox = () => useSyncExternalStore(subscribe, outboxState, outboxState);
export const waitingWrites = (s: OutboxState = state) => s.items.filter((w) => !w.refused);

/** Called after a round sent something: the screens reload their lists from the server. */
export function setAfterSync(handler: (() => void) | null) {
  afterSync = handler;
}

/** The opening of the outbox in progress: a write made meanwhile waits for it rather than failing offline. */
let opening: Promise<unknown> | null = null;
export const outboxOpened = () => opening ?? Promise.resolve();

/** Opens the signed-in user's outbox (and only theirs) and sends what waits. */
export async function openOutbox(userId: string): Promise<void> {
  if (state.userId === userId && db) return;
  db?.close();
  db = null;
  set({ userId, items: [], lastSynced: null });
  const open = openUserDb(userId);
  const current = open.catch(() => undefined);
  opening = current;
  void current.finally(() => {
    if (opening === current) opening = null;
  });
  try {
    const opened = await open;
    if (state.userId !== userId) {
      opened.close();
      return;
    }
    db = opened;
    const items = await opened.getAll('outbox');
    const stored = (await opened.get('meta', 'lastSynced')) as string | undefined;
    // A list that loaded while the database opened counts too.
    const lastSynced =
      [stored, state.lastSynced]
        .filter((t): t is string => !!t)
        .sort()
        .pop() ?? null;
    set({ items, lastSynced });
    if (lastSynced && lastSynced !== stored) await opened.put('meta', lastSynced, 'lastSynced');
  } catch {
    // No IndexedDB (private mode): writes are sent directly, nothing is queued.
    return;
  }
  if (navigator.onLine) void flushOutbox();
}

/** The user signed out (or another signs in): their queue stays on the device, unread. */
export function closeOutbox() {
  opening = null;
  db?.close();
  db = null;
  set({ userId: null, items: [], lastSynced: null, sending: false });
}

/** True when a write can be queued for this user. */
export const canQueue = () => db !== null && state.userId !== null;

export async function enqueue(write: Omit<QueuedWrite, 'userId' | 'queuedAt' | 'seq'>): Promise<void> {
  if (!db || !state.userId) throw new Error('No outbox is open');
  const item: QueuedWrite = { ...write, userId: state.userId, queuedAt: new Date().toISOString() };
  const seq = await db.add('outbox', item);
  set({ items: [...state.items, { ...item, seq }] });
  if (navigator.onLine) void flushOutbox();
}

/** Removes a refused write the rep has read. */
export async function dismiss(seq: number): Promise<void> {
  await db?.delete('outbox', seq);
  set({ items: state.items.filter((w) => w.seq !== seq) });
}

/** Sign-out without sending: every queued write of this user is dropped. */
export async function discardAll(): Promise<void> {
  await db?.clear('outbox');
  set({ items: [] });
}

async function markSynced() {
  const at = new Date().toISOString();
  await db?.put('meta', at, 'lastSynced');
  set({ lastSynced: at });
}

/** Every successful read of the lists counts as a sync too (the banner's "Last synced"). */
export function noteSynced() {
  if (!state.userId || !navigator.onLine) return;
  if (db) void markSynced();
  else set({ lastSynced: new Date().toISOString() });
}

let running: Promise<void> | null = null;
/** While online but the server cannot be reached, another round after a growing pause (2 s up to 1 min). */
let retryMs = 2_000;
let retryTimer: ReturnType<typeof setTimeout> | null = null;
function retryLater() {
  if (retryTimer || !navigator.onLine) return;
  retryTimer = setTimeout(() => {
    retryTimer = null;
    void flushOutbox();
  }, retryMs);
  retryMs = Math.min(retryMs * 2, 60_000);
}

/** Sends the waiting writes in order, one at a time; one round at a time. */
export function flushOutbox(): Promise<void> {
  // Cleared in a `finally` callback, which always runs after the assignment (a round with nothing to send
  // finishes synchronously).
  running ??= sendRound().finally(() => {
    running = null;
  });
  return running;
}

async function sendRound(): Promise<void> {
  // A device that knows it is offline sends nothing (app start included): such a request is not always refused
  // at once, so it could reach the server while the screens still say the write waits.
  if (!navigator.onLine) return;
  const userId = state.userId;
  const opened = db;
  if (!opened || !userId) return;
  set({ sending: true });
  let changed = false;
  try {
    const round = await sendWaiting(opened, {
      active: () => db === opened && state.userId === userId,
      sent: (write, at) => set({ items: state.items.filter((w) => w.seq !== write.seq), lastSynced: at }),
      refused: (write, refused) =>
        set({ items: state.items.map((w) => (w.seq === write.seq ? { ...w, refused } : w)) }),
    });
    changed = round.changed;
    if (round.stopped) retryLater();
    else retryMs = 2_000;
  } finally {
    set({ sending: false });
  }
  if (changed) afterSync?.();
}

if (typeof window !== 'undefined') {
  window.addEventListener('online', () => void flushOutbox());
  // The service worker sent (or found refused) writes of the queue by Background Sync: read it again.
  navigator.serviceWorker?.addEventListener('message', (event: MessageEvent<unknown>) => {
    if ((event.data as { type?: string } | null)?.type === 'outbox-changed') void reloadOutbox();
  });
}

/** The queue as the database has it now (the service worker may have sent part of it). */
async function reloadOutbox() {
  const opened = db;
  if (!opened) return;
  const items = await opened.getAll('outbox');
  const lastSynced = ((await opened.get('meta', 'lastSynced')) as string | undefined) ?? state.lastSynced;
  if (db !== opened) return;
  set({ items, lastSynced });
  afterSync?.();
}

/** Asks the browser for a Background Sync when the connection returns, where it has one. */
export async function requestBackgroundSync(): Promise<void> {
  try {
    const registration = (await navigator.serviceWorker?.ready) as
      (ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }) | undefined;
    await registration?.sync?.register('outbox');
  } catch {
    // No Background Sync here: the online event and app start send the queue.
  }
}
