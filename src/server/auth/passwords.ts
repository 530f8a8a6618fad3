// Password hashing with a bound on how many run at once. One better-auth scrypt (N 16384, r 16) takes about
// 240 ms of CPU and 32 MB here, on libuv's thread pool. A burst of sign-ins (a team at 8 a.m.) would otherwise
// fill the pool and both cores of a small server. Here at most PASSWORD_HASH_CONCURRENCY run at once per process
// (default: as many as the cores); the rest wait their turn in arrival order. The hashes are better-auth's own.
import { availableParallelism } from 'node:os';
import pLimit from 'p-limit';
import { hashPassword as hash, verifyPassword as verify } from 'better-auth/crypto';

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

let limiter = createLimiter(defaultHashConcurrency());

/** Sets how many hashes may run at once in this process (from PASSWORD_HASH_CONCURRENCY, at start). */
export function setPasswordHashConcurrency(limit: number): void {
  limiter = createLimiter(limit);
}

/** The queue's current state (for /metrics and tests). */
export const passwordHashQueue = (): Pick<Limiter, 'active' | 'waiting'> => limiter;

/** better-auth's scrypt hash of a password, waiting for a turn. */
export const hashPassword = (password: string): Promise<string> => limiter.run(() => hash(password));

/** Whether a password matches a stored hash, waiting for a turn. */
export const verifyPassword = (data: { hash: string; password: string }): Promise<boolean> =>
  limiter.run(() => verify(data));
