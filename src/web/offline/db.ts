// One IndexedDB database per signed-in user (through idb), so one rep's queue and cached lists are
// never read or sent as another's. Stores: `outbox` (writes waiting or refused, in the order they were made),
// `meta` (last synced time, the persisted TanStack Query cache).
import { deleteDB, openDB, type DBSchema, type IDBPDatabase } from 'idb';

export interface QueuedWrite {
  /** Order of the queue (IndexedDB auto-increment). */
  seq?: number;
  /** Client-generated UUID: the Idempotency-Key the server applies the write once under. */
  id: string;
  userId: string;
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  kind: WriteKind;
  /** What the rep did, in words ("Called Joe's Pizza"). */
  label: string;
  queuedAt: string;
  /** What the screens show meanwhile (a call-log entry, a saved item, a follow-up...). */
  optimistic?: unknown;
  /** The server's refusal on replay, kept until the rep dismisses it. */
  refused?: { status: number; reason: string; at: string };
}

export type WriteKind =
  | 'callLog'
  | 'save'
  | 'unsave'
  | 'followUpDone'
  | 'followUpReschedule'
  | 'markAdvertiser'
  | 'unmarkAdvertiser'
  | 'stage';

interface OfflineSchema extends DBSchema {
  outbox: { key: number; value: QueuedWrite };
  meta: { key: string; value: unknown };
}

export type OfflineDb = IDBPDatabase<OfflineSchema>;

const dbName = (userId: string) => `prospect-finder-offline-${userId}`;

export function openUserDb(userId: string): Promise<OfflineDb> {
  return openDB<OfflineSchema>(dbName(userId), 1, {
    upgrade(db) {
      db.createObjectStore('outbox', { keyPath: 'seq', autoIncrement: true });
      db.createObjectStore('meta');
    },
  });
}

export const deleteUserDb = (userId: string) => deleteDB(dbName(userId));

/** Who used this device last: their cached lists open the app offline. */
const LAST_USER = 'prospect-finder-last-user';
export const lastUserId = (): string | null => {
  try {
    return localStorage.getItem(LAST_USER);
  } catch {
    return null;
  }
};
export const setLastUserId = (userId: string | null) => {
  try {
    if (userId) localStorage.setItem(LAST_USER, userId);
    else localStorage.removeItem(LAST_USER);
  } catch {
    // Private mode without storage: the app still works online.
  }
};
