import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { HttpError } from './errors.js';

/**
 * Counters of fixed windows, for the limits a route's `config.rateLimit` cannot express. Each `take` adds one
 * and refuses in the same step when the count already reached `max`, so requests sent at once cannot all read
 * the same count before any of them adds to it. @fastify/rate-limit's store can count, and read without
 * counting, but cannot give a count back, which a limit of failures only needs: a request takes its place
 * before it runs and gives it back when it did not fail.
 */
export interface CounterStore {
  /** One more for `key`, unless it already holds `max`: allowed or not, and the time left in its window. */
  take(key: string, max: number, windowMs: number): Promise<{ allowed: boolean; ttlMs: number }>;
  /** One less for `key` (a request that turned out not to count). */
  giveBack(key: string): Promise<void>;
}

/** At most this many keys in memory: past it, ended windows are dropped, then the oldest. */
const MEMORY_KEYS = 10_000;

/** In this process's memory: each step runs synchronously, so nothing else runs between count and check. */
export function memoryCounters(maxKeys = MEMORY_KEYS): CounterStore {
  const counts = new Map<string, { n: number; endsAt: number }>();
  const makeRoom = (now: number) => {
    for (const [key, c] of counts) if (c.endsAt <= now) counts.delete(key);
    while (counts.size >= maxKeys) counts.delete(counts.keys().next().value!);
  };
  return {
    take(key, max, windowMs) {
      const now = Date.now();
      let c = counts.get(key);
      if (!c || c.endsAt <= now) {
        if (!c && counts.size >= maxKeys) makeRoom(now);
        c = { n: 0, endsAt: now + windowMs };
        counts.set(key, c);
      }
      const allowed = c.n < max;
      if (allowed) c.n += 1;
      return Promise.resolve({ allowed, ttlMs: c.endsAt - now });
    },
    giveBack(key) {
      const c = counts.get(key);
      if (c && c.n > 0) c.n -= 1;
      return Promise.resolve();
    },
  };
}

// One script each, so Redis runs the count and the check as one step for every instance.
const TAKE = `
local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if n == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
if n > tonumber(ARGV[2]) then
  redis.call('DECR', KEYS[1])
  return {0, ttl}
end
return {1, ttl}`;
// Never below zero, and never on a key whose window ended (DECR would make one without an expiry).
const GIVE_BACK = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

/**
 * In the Redis every instance shares (RATE_LIMIT_REDIS_URL), keys under `prefix`. Redis down lets requests
 * through (logged), as the route limits do: a broken Redis must not lock every user out of signing in.
 */
export function redisCounters(redis: Redis, prefix: string, log: FastifyBaseLogger): CounterStore {
  return {
    async take(key, max, windowMs) {
      try {
        const [allowed, ttlMs] = (await redis.eval(TAKE, 1, prefix + key, windowMs, max)) as [number, number];
        return { allowed: allowed === 1, ttlMs };
      } catch (err) {
        log.warn({ err }, 'rate-limit Redis unavailable: request let through');
        return { allowed: true, ttlMs: 0 };
      }
    },
    async giveBack(key) {
      try {
        await redis.eval(GIVE_BACK, 1, prefix + key);
      } catch (err) {
        log.warn({ err }, 'rate-limit Redis unavailable: count not given back');
      }
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The counters of createLimiter's limits (http/protection.ts picks memory or Redis). */
    limitCounters: CounterStore;
  }
}

export interface Limiter {
  /** Count this request; 429 with the limiter's message once the limit is used up. */
  hit(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /**
   * For limits that count only failures: `work` runs with a place taken in the count (429 once the limit is
   * used up, before it runs), and the place is given back unless `work` throws through `fail`.
   */
  countFailures<T>(
    request: FastifyRequest,
    reply: FastifyReply,
    work: (fail: (error: Error) => never) => Promise<T>,
  ): Promise<T>;
}

const parseWindow = (text: string): number => {
  const match = /^(\d+) (second|minute|hour)s?$/.exec(text);
  if (!match) throw new Error(`A time window like "15 minutes", not "${text}"`);
  const unit = { second: 1_000, minute: 60_000, hour: 3_600_000 }[match[2] as 'second' | 'minute' | 'hour'];
  return Number(match[1]) * unit;
};

/**
 * A limit counted in the app's counters: in memory per instance, or in the Redis every instance shares when
 * RATE_LIMIT_REDIS_URL is set. For limits a route's `config.rateLimit` cannot express: several keys on one
 * route (IP and e-mail), or counting only failures. Keys are prefixed with `name`, so limiters never share a
 * count.
 */
export function createLimiter(
  app: FastifyInstance,
  options: {
    name: string;
    max: number;
    timeWindow: string;
    key: (request: FastifyRequest) => string;
    message: string;
  },
): Limiter {
  const windowMs = parseWindow(options.timeWindow);
  const counters = () => app.limitCounters;
  const take = async (request: FastifyRequest, reply: FastifyReply): Promise<string> => {
    const key = `${options.name}|${options.key(request)}`;
    const { allowed, ttlMs } = await counters().take(key, options.max, windowMs);
    if (!allowed) {
      void reply.header('retry-after', String(Math.max(1, Math.ceil(ttlMs / 1000))));
      // The wait in the body too, so the screen can say how long it is.
      throw new HttpError(429, options.message, { retryAfterMs: ttlMs });
    }
    return key;
  };
  return {
    async hit(request, reply) {
      await take(request, reply);
    },
    async countFailures(request, reply, work) {
      const key = await take(request, reply);
      let failed = false;
      try {
        return await work((error) => {
          failed = true;
          throw error;
        });
      } finally {
        if (!failed) await counters().giveBack(key);
      }
    },
  };
}
