import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './errors.js';

export interface Limiter {
  /** Count this request; 429 with the limiter's message once the limit is passed. */
  hit(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** 429 if the limit is already used up, without counting (for limits that count only failures). */
  check(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** Count one more (a failure), never refusing. */
  count(request: FastifyRequest): Promise<void>;
}

/**
 * A counter in the app's rate-limit store: in memory per instance, or in the Redis every instance shares
 * when RATE_LIMIT_REDIS_URL is set (with its skip-on-error: Redis down lets requests through). For limits
 * a route's `config.rateLimit` cannot express: several keys on one route (IP and e-mail), or counting only
 * failures. Keys are prefixed with `name`, so limiters never share a count.
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
  const limit = app.createRateLimit({
    max: options.max,
    timeWindow: options.timeWindow,
    keyGenerator: (request) => `${options.name}|${options.key(request)}`,
  });
  const refuse = (reply: FastifyReply, ttlInSeconds: number): never => {
    void reply.header('retry-after', String(ttlInSeconds));
    // The wait in the body too, so the screen can say how long it is.
    throw new HttpError(429, options.message, { retryAfterMs: ttlInSeconds * 1000 });
  };
  return {
    async hit(request, reply) {
      const state = await limit(request);
      if (!state.isAllowed && state.isExceeded) refuse(reply, state.ttlInSeconds);
    },
    async check(request, reply) {
      const state = await limit(request, { increment: false });
      if (!state.isAllowed && state.remaining <= 0) refuse(reply, state.ttlInSeconds);
    },
    async count(request) {
      await limit(request);
    },
  };
}
