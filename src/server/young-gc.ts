import { getHeapSpaceStatistics } from 'node:v8';

// Out-of-band collection of V8's young generation, after the pattern of Unicorn's OobGC: a scan allocates
// about 6 MB of a 16 MB young generation, so every second or third one fills it, and V8 then collects it at
// the next wait of the event loop, which on PostgreSQL falls inside a scan (while it waits on a query) with
// that scan's rows, businesses and analyses still live: 3-5 ms, copying them. Collected once more than half
// is taken, after the answers (the after-answer writer's round), the answered scans' data is garbage: the
// collection copies little (1-2 ms here) and falls between scans rather than inside one.
//
// V8 offers the call only to a process started with `--expose-gc` (`npm start`, the benchmark and the load test's
// server start it so); in any other process this does nothing and V8 collects as it would.

type Gc = (options: { type: 'minor' }) => void;

const exposed = (globalThis as { gc?: unknown }).gc;
const gc = typeof exposed === 'function' ? (exposed as Gc) : undefined;

/** Whether this process can collect out of band (it was started with `--expose-gc`). */
export const canCollectYoung = gc !== undefined;

/**
 * Collects the young generation now when more than `fill` (a fraction) of it is taken; answers whether it did.
 * Call it where little is live: after an answer has gone, between requests' work.
 */
export function collectYoungIfFilled(fill = 0.5): boolean {
  if (!gc) return false;
  const young = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  if (!young) return false;
  const capacity = young.space_used_size + young.space_available_size;
  if (capacity === 0 || young.space_used_size < fill * capacity) return false;
  gc({ type: 'minor' });
  return true;
}
