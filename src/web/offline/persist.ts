// Offline reading. The TanStack Query cache of what a rep works with (the latest scan, Saved, the
// Log, Today, strategies, the team's pipeline and advertiser marks, the businesses' details the rep opened,
// the profile and app config) is kept in the rep's own IndexedDB (dehydrate/hydrate from @tanstack/react-query;
// a small persister of our own rather than @tanstack/query-persist-client-core, which pins its own query-core)
// and put back on app start, so a reload without a connection shows the same lists.
import { dehydrate, hydrate, type DehydratedState, type QueryClient } from '@tanstack/react-query';
import { lastUserId, openUserDb } from './db';

/** First parts of the query keys kept on the device. */
const PERSISTED = new Set([
  'me',
  'config',
  'prospects',
  'saved',
  'callLogs',
  'followUps',
  'visits',
  'strategy',
  'pipeline',
  'advertisers',
  'placeDetails',
]);
const CACHE_KEY = 'queryCache';
const MAX_AGE_MS = 14 * 24 * 60 * 60 * 1000;

interface Stored {
  at: number;
  state: DehydratedState;
}

/**
 * Offline at start: puts the last signed-in user's cached lists back (before the first render); false when there
 * were none. Online the server's answers are fresher (the profile, say, changed since the cache was written).
 */
export async function restoreQueryCache(client: QueryClient): Promise<boolean> {
  const userId = lastUserId();
  if (navigator.onLine || !userId || typeof indexedDB === 'undefined') return false;
  try {
    const db = await openUserDb(userId);
    const stored = (await db.get('meta', CACHE_KEY)) as Stored | undefined;
    db.close();
    if (!stored || Date.now() - stored.at > MAX_AGE_MS) return false;
    hydrate(client, stored.state);
    return true;
  } catch {
    return false;
  }
}

/**
 * Keeps the user's cache in their IndexedDB (at most every half second, and at once when the page is hidden or
 * left); returns the unsubscribe.
 */
export function persistQueryCache(client: QueryClient, userId: string): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  const save = async () => {
    timer = null;
    if (stopped) return;
    const state = dehydrate(client, {
      // What the screens hold (a refetch that failed offline keeps the data it had).
      shouldDehydrateQuery: (q) => q.state.data !== undefined && PERSISTED.has(String(q.queryKey[0])),
    });
    try {
      const db = await openUserDb(userId);
      await db.put('meta', { at: Date.now(), state } satisfies Stored, CACHE_KEY);
      db.close();
    } catch {
      // No IndexedDB: the app works online only.
    }
  };
  const unsubscribe = client.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' && event.type !== 'removed') return;
    timer ??= setTimeout(() => void save(), 500);
  });
  // A reload, a closed tab or a phone putting the app away within that half second: save what is waiting now.
  const flush = () => {
    if (!timer) return;
    clearTimeout(timer);
    void save();
  };
  const onVisibility = () => {
    if (document.visibilityState === 'hidden') flush();
  };
  window.addEventListener('pagehide', flush);
  document.addEventListener('visibilitychange', onVisibility);
  void save();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    window.removeEventListener('pagehide', flush);
    document.removeEventListener('visibilitychange', onVisibility);
    unsubscribe();
  };
}
