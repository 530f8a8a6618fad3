// Password hashing off the request path's critical resources. One better-auth scrypt (N 16384, r 16) takes
// about 240 ms of CPU and 32 MB here. A burst of sign-ins (a team at 8 a.m.) would otherwise take both cores
// of a small server from the scans and every other request. Here at most PASSWORD_HASH_CONCURRENCY run at
// once per process (default: as many as the cores); the rest wait their turn in arrival order. Each runs on a
// hashing thread of its own at the lowest CPU priority (hash-threads.ts), so the event loop and the database
// come first and the hashes take the CPU they leave idle, on any core. (One less than the cores would leave a
// burst queued on one core while the other idles between scans: on PostgreSQL, 100 sign-ins in 15 s waited a
// median of 0.3-0.8 s that way, against 0.14 s with both.) The hashes are better-auth's own, so nothing
// stored changes.
import { availableParallelism } from 'node:os';
import pLimit from 'p-limit';
import { hashOnThread, verifyOnThread } from './hash-threads.js';

export interface Limiter {
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Tasks running now and tasks waiting for a turn. */
  readonly active: number;
  readonly waiting: number;
}

/** At most `limit` tasks at once; the others start in arrival order as running ones settle (p-limit). */
export function createLimiter(limit: number): Limiter {
  if (!Number.isInteger(limit) || limit < 1)
    throw new Error(`limit must be a positive integer, not ${limit}`);
  const queue = pLimit(limit);
  return {
    run: (task) => queue(task),
    get active() {
      return queue.activeCount;
    },
    get waiting() {
      return queue.pendingCount;
    },
  };
}

export const defaultHashConcurrency = (): number => Math.max(1, availableParallelism());

let concurrency = defaultHashConcurrency();
let limiter = createLimiter(concurrency);

/** Sets how many hashes may run at once in this process (from PASSWORD_HASH_CONCURRENCY, at start). */
export function setPasswordHashConcurrency(limit: number): void {
  concurrency = limit;
  limiter = createLimiter(limit);
}

/** The queue's current state (for /metrics and tests). */
export const passwordHashQueue = (): Pick<Limiter, 'active' | 'waiting'> => limiter;

/** better-auth's scrypt hash of a password, waiting for a turn. */
export const hashPassword = (password: string): Promise<string> =>
  limiter.run(() => hashOnThread(password, concurrency));

/** Whether a password matches a stored hash, waiting for a turn. */
export const verifyPassword = (data: { hash: string; password: string }): Promise<boolean> =>
  limiter.run(() => verifyOnThread(data.hash, data.password, concurrency));
