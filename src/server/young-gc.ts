import { getHeapSpaceStatistics } from 'node:v8';

// Out-of-band collection of V8's young generation, after the pattern of Unicorn's OobGC. A scan allocates about
// 7 MB (a territory's ranking pass alone 4.5) and V8 starts its own collection when about 12 MB of the 16 MB young
// generation is taken, at the next wait of the event loop: on PostgreSQL inside a scan (while it waits on a
// query), with that scan's rows, businesses and analyses still live, 3-5 ms copying them. After the answers (the
// after-answer writer's round) the answered scans' data is garbage, so a collection there copies little (1-2 ms)
// and falls between scans. It runs once a tenth is taken, so that every scan starts with room for the whole of
// itself: collecting only past half let the next scan begin 7 MB in, and every second scan paid V8's collection.
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
export function collectYoungIfFilled(fill = 0.1): boolean {
  if (!gc) return false;
  const young = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  if (!young) return false;
  const capacity = young.space_used_size + young.space_available_size;
  if (capacity === 0 || young.space_used_size < fill * capacity) return false;
  gc({ type: 'minor' });
  return true;
}
