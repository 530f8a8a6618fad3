// The persisted query cache saves at most every half second; a page hidden or left within that half second
// saves at once, or a reload right after new data came would lose it from the device (the map's config, for
// one, whose tile URL the offline map needs).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, type DehydratedState } from '@tanstack/react-query';

const puts: DehydratedState[] = [];
vi.mock('./db', () => ({
  lastUserId: () => 'rep-1',
  openUserDb: () =>
    Promise.resolve({
      put: (_store: string, value: { state: DehydratedState }) => {
        puts.push(value.state);
        return Promise.resolve();
      },
      close: () => undefined,
    }),
}));
const { persistQueryCache } = await import('./persist');

/** The browser globals the persister listens on: a window, and a document whose visibility a test sets. */
class FakeDocument extends EventTarget {
  visibilityState: 'visible' | 'hidden' = 'visible';
}
let doc: FakeDocument;
let win: EventTarget;

const keysSaved = () => (puts.at(-1)?.queries ?? []).map((q) => JSON.stringify(q.queryKey));
const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
  puts.length = 0;
  doc = new FakeDocument();
  win = new EventTarget();
  vi.stubGlobal('document', doc);
  vi.stubGlobal('window', win);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('persistQueryCache', () => {
  it('saves half a second after a change, and at once when the page is left or hidden', async () => {
    const client = new QueryClient();
    const stop = persistQueryCache(client, 'rep-1');
    await settle();
    expect(keysSaved()).toEqual([]);

    client.setQueryData(['config'], { map: { tileUrl: 'https://tiles.example/{z}/{x}/{y}.png' } });
    await settle();
    expect(keysSaved()).toEqual([]); // not yet: within the half second
    win.dispatchEvent(new Event('pagehide'));
    await settle();
    expect(keysSaved()).toEqual(['["config"]']);

    client.setQueryData(['saved'], []);
    await settle();
    doc.visibilityState = 'hidden';
    doc.dispatchEvent(new Event('visibilitychange'));
    await settle();
    expect(keysSaved()).toEqual(['["config"]', '["saved"]']);

    // Nothing waiting: leaving saves nothing more.
    const saves = puts.length;
    win.dispatchEvent(new Event('pagehide'));
    await settle();
    expect(puts.length).toBe(saves);

    // And the half-second save still comes on its own.
    client.setQueryData(['callLogs'], []);
    await vi.advanceTimersByTimeAsync(500);
    expect(keysSaved()).toContain('["callLogs"]');

    stop();
    client.setQueryData(['followUps'], []);
    win.dispatchEvent(new Event('pagehide'));
    await vi.advanceTimersByTimeAsync(1000);
    expect(keysSaved()).not.toContain('["followUps"]');
  });
});
