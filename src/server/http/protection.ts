// Response headers and request limits for every route: helmet's security headers with the app's Content
// Security Policy, and the rate limiter the sign-in, invitation and scan routes turn on for themselves.
import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { tileSources } from './csp.js';
import { memoryCounters, redisCounters } from './rate-limit.js';

async function protection(app: FastifyInstance, { config }: { config: Config }) {
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:', 'http:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        // The service worker fetches (and keeps) the map tiles: http/csp.ts.
        connectSrc: ["'self'", ...tileSources(config.map.tileUrl)],
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    // HSTS only where the app is really served over HTTPS.
    strictTransportSecurity: config.publicUrl.startsWith('https://'),
  });
  // Rate limits are per instance in memory, or shared by every instance through Redis when configured.
  let redis: Redis | undefined;
  if (config.rateLimits.redisUrl) {
    redis = new Redis(config.rateLimits.redisUrl, {
      connectTimeout: 500,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: true,
    });
    redis.on('error', (err: Error) => app.log.warn({ err }, 'rate-limit Redis unavailable'));
    const client = redis;
    app.addHook('onClose', async () => {
      await client.quit().catch(() => client.disconnect());
    });
  }
  // The same store for the limits routes build with createLimiter (http/rate-limit.ts), in the same prefix.
  app.decorate(
    'limitCounters',
    redis ? redisCounters(redis, `${config.rateLimits.redisNamespace}limit-`, app.log) : memoryCounters(),
  );
  await app.register(rateLimit, {
    global: false,
    ...(redis && {
      redis,
      nameSpace: config.rateLimits.redisNamespace,
      // Redis gone: let requests through (logged) rather than lock every user out of signing in.
      skipOnError: true,
    }),
  });
}

export const protectionPlugin = fp(protection, { name: 'protection' });
