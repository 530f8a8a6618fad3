import Fastify, { type FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import swagger from '@fastify/swagger';
import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { relative, sep } from 'node:path';
import { jsonSchemaTransform, validatorCompiler } from 'fastify-type-provider-zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import { ping } from './db/database.js';
import { setPasswordHashConcurrency } from './auth/passwords.js';
import { createAuth, migrateAuthTables } from './auth/auth.js';
import { resolveAuthSecret } from './auth/secret.js';
import { migrateToLatest } from './db/migrate.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import { registerErrorHandling } from './http/errors.js';
import { registerTextGuard } from './http/text-guard.js';
import { contractSerializerCompiler, registerContract } from './http/contract.js';
import { route } from './http/route.js';
import { registerAccessControl, nodeHeaders, type CurrentUser } from './http/access.js';
import { registerCrossSiteGuard } from './http/cross-site.js';
import type { AppContext } from './context.js';
import { authRoutes } from './auth/routes.js';
import { userRoutes } from './users/routes.js';
import { anyAuthUser } from './users/repository.js';
import { invitationRoutes } from './invitations/routes.js';
import { callLogRoutes } from './call-logs/routes.js';
import { followUpRoutes } from './follow-ups/routes.js';
import { registerDigestWorker, startDigestScheduler, type DigestDeps } from './follow-ups/digest.js';
import { savedRoutes } from './saved/routes.js';
import { createEventBus } from './events/bus.js';
import { eventRoutes, publishSessionsEnded } from './events/routes.js';
import { advertiserRoutes } from './advertisers/routes.js';
import { blocklistRoutes } from './blocklist/routes.js';
import { auditRoutes } from './audit/routes.js';
import { exportRoutes } from './exports/routes.js';
import { JobQueue } from './jobs/queue.js';
import { settingsRoutes } from './settings/routes.js';
import { createPlaceChain } from './places/index.js';
import { createRescoreFn, createScoreFn, type ScoreFn } from './scans/analysis.js';
import { registerWebsiteWorker } from './websites/service.js';
import { websiteRoutes } from './websites/routes.js';
import { routeRoutes } from './route/routes.js';
import type { Resolver } from './websites/address.js';
import { scanRoutes } from './scans/routes.js';
import { getBrandIndex } from '../core/scoring/nsi.js';
import { createMarketKeeper } from './places/market.js';
import { dataAttribution } from './places/areas.js';
import { raisePlaceRank } from './places/ranks.js';
import { Metrics } from './metrics/metrics.js';
import { strategyRoutes } from './strategies/routes.js';
import { teamRoutes } from './team/routes.js';
import { registerStrategyWorker } from './strategies/service.js';
import { createAiClient, generateStrategy } from './ai/index.js';
import { ensureProfile } from './users/accounts.js';
import { registerReasoningWorker } from './reasoning/service.js';
import { areaRoutes } from './areas/routes.js';
import { pipelineRoutes } from './pipeline/routes.js';
import { createReleaseSweeper } from './pipeline/service.js';
import { createIdempotencySweeper } from './http/idempotency.js';
import { tileSources } from './http/csp.js';
import { createRegionWorker } from './areas/service.js';
import { afterAnswer } from './scans/after-answer.js';

export interface BuildOptions {
  config: Config;
  db: Db;
  mailer?: Mailer;
  /** Serve the built web app from dist/web (default: when it exists). */
  serveWeb?: boolean;
  /** For tests: the scan's scorer instead of the scoring model (e.g. one that fails). */
  score?: ScoreFn;
  /** Where the JSON log lines go (default: stdout); tests read them. */
  logStream?: { write(line: string): void };
  /**
   * An answer holding a field its response schema does not declare fails (500) instead of losing the field
   * (default: under test, NODE_ENV=test): see http/contract.ts.
   */
  strictResponses?: boolean;
  /** For tests: how website checks resolve host names (default: DNS). */
  websiteResolver?: Resolver;
}

// This module runs from src/server (tsx, tests) or bundled into dist/server/main.js (npm start): dist/web either way.
const WEB_ROOT = fileURLToPath(
  new URL(import.meta.url.includes('/dist/server/') ? '../web' : '../../dist/web', import.meta.url),
);

/**
 * Cache-Control of a file of the built web app (path relative to dist/web). Everything under assets/ has a
 * content hash in its name, so a changed file is a new URL: a year, `immutable`. The rest keeps its name from
 * build to build (index.html, the service worker sw.js and its workbox-*.js, registerSW.js, the manifest,
 * icons): browsers keep a copy but ask again each time (`no-cache`, answered 304 while unchanged), so a new
 * release reaches everyone on the next load.
 */
export function webCacheControl(relativePath: string): string {
  const path = relativePath.split(sep).join('/');
  return path.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/** How often each instance looks for stale pipeline claims. */
const PIPELINE_SWEEP_MS = 60 * 60 * 1000;

/** Build the HTTP application: migrations applied, every route registered, nothing listening yet. */
export async function buildApp({
  config,
  db,
  mailer,
  serveWeb,
  score,
  logStream,
  strictResponses = process.env.NODE_ENV === 'test',
  websiteResolver,
}: BuildOptions): Promise<FastifyInstance> {
  // TRUST_PROXY as a hop count: believe X-Forwarded-* for that many proxies in front of the app.
  const hops = config.trustProxy;
  const trustProxy = typeof hops === 'number' ? (_address: string, hop: number) => hop < hops : hops;
  const app = Fastify({
    logger: { level: config.logLevel, ...(logStream && { stream: logStream }) },
    trustProxy,
    bodyLimit: config.bodyLimit,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    routerOptions: { maxParamLength: 200 },
  }).withTypeProvider<ZodTypeProvider>();

  // Every answer names its request id (the caller's X-Request-Id when it gave a usable one), the reqId of
  // every log line about it, so a user's report or a proxy's log leads straight to the server's lines. Set on
  // the raw response so the answers of routes that write it themselves (the event stream) carry it too.
  app.addHook('onRequest', (request, reply, done) => {
    reply.raw.setHeader('x-request-id', request.id);
    done();
  });

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(contractSerializerCompiler(strictResponses));
  registerContract(app);
  registerErrorHandling(app);
  registerTextGuard(app);

  const secret = resolveAuthSecret(config.authSecret, config.dataDir);
  const market = createMarketKeeper(db, () => getBrandIndex(), app.log);
  const ctx: AppContext = {
    config,
    db,
    mailer: mailer ?? createMailer(config.mail, app.log),
    auth: undefined as never,
    log: app.log,
    events: createEventBus(db, app.log),
    jobs: new JobQueue(db, app.log, {
      leaseMs: config.jobs.leaseMs,
      concurrency: config.jobs.concurrency,
      maxAttempts: config.jobs.maxAttempts,
      retentionMs: config.jobs.retentionMs,
    }),
    places: createPlaceChain(config, db, app.log),
    score: score ?? createScoreFn(() => getBrandIndex()),
    market,
    metrics: new Metrics(),
    ai: createAiClient(config.ai),
    // Website checks work in a queue of their own, so they never hold up a rep's strategy or reasoning job.
    websites: {
      queue: config.websites.enabled
        ? new JobQueue(db, app.log, {
            workerId: `websites-${randomUUID().slice(0, 8)}`,
            leaseMs: config.jobs.leaseMs,
            concurrency: config.websites.concurrency,
            maxAttempts: config.jobs.maxAttempts,
            retentionMs: config.jobs.retentionMs,
          })
        : null,
    },
  };
  ctx.metrics.instrument(app);
  // A session that ends closes its live-update streams on every instance at once.
  const events = ctx.events;
  if (config.passwordHashConcurrency !== null) setPasswordHashConcurrency(config.passwordHashConcurrency);
  ctx.auth = createAuth({
    db,
    config,
    secret,
    mailer: ctx.mailer,
    onSessionEnded: (session) => void publishSessionsEnded(events, session.userId, session.id),
  });
  await migrateAuthTables({ db, config, secret, mailer: ctx.mailer });
  await migrateToLatest(db);
  market.start();
  // A rebuild under way finishes before the database closes.
  app.addHook('onClose', () => market.settled().then(() => undefined));
  await ctx.events.ready();
  app.addHook('onClose', () => ctx.events.close());
  // The job worker starts once the app is ready and, on close, stops claiming and finishes the jobs in hand.
  app.addHook('onReady', () => {
    ctx.jobs.start();
    ctx.websites.queue?.start();
    return Promise.resolve();
  });
  if (ctx.websites.queue) {
    registerWebsiteWorker(ctx.websites.queue, {
      db,
      events: ctx.events,
      log: app.log,
      settings: config.websites,
      rescore: createRescoreFn(() => getBrandIndex()),
      rankPlace: (placeId, evidence) => raisePlaceRank(db, placeId, evidence, getBrandIndex()),
      ...(websiteResolver ? { resolve: websiteResolver } : {}),
    });
    const websiteQueue = ctx.websites.queue;
    app.addHook('preClose', () => websiteQueue.stop());
  }
  const aiClient = ctx.ai;
  registerStrategyWorker(
    ctx.jobs,
    db,
    async (input, { deadlineMs }) => {
      const result = await generateStrategy(input, aiClient, {
        deadlineMs,
        onError: (stage, error) => app.log.warn({ stage, error }, 'AI strategy fell back'),
      });
      return { strategy: result.strategy, source: result.source, model: result.model };
    },
    { jobDeadlineMs: config.ai.jobDeadlineMs },
  );
  if (aiClient) {
    registerReasoningWorker(ctx.jobs, {
      db,
      events: ctx.events,
      client: aiClient,
      log: app.log,
      jobDeadlineMs: config.ai.jobDeadlineMs,
    });
  }
  // The morning digest: a tick on every instance enqueues each rep's day once; the job sends it.
  const digestDeps: DigestDeps = {
    db,
    mailer: ctx.mailer,
    log: app.log,
    publicUrl: config.publicUrl,
    digestHour: config.digestHour,
  };
  registerDigestWorker(ctx.jobs, digestDeps);
  let digestScheduler: { stop(): void } | undefined;
  app.addHook('onReady', () => {
    digestScheduler = startDigestScheduler(digestDeps, ctx.jobs);
    return Promise.resolve();
  });
  app.addHook('preClose', () => {
    digestScheduler?.stop();
    return Promise.resolve();
  });
  app.addHook('preClose', () => ctx.jobs.stop());
  // Region refreshes (download + import, minutes for a state) work on a queue of their own, one at a time.
  const regionWorker = createRegionWorker(ctx);
  app.addHook('onReady', () => {
    regionWorker.start();
    return Promise.resolve();
  });
  app.addHook('preClose', () => regionWorker.stop());
  // Stale pipeline claims are released hourly on every instance; each release is a conditional UPDATE, so
  // instances sweeping at once release each claim once.
  const releaseSweeper = createReleaseSweeper({
    db,
    events: ctx.events,
    log: app.log,
    days: config.pipeline.releaseDays,
    intervalMs: PIPELINE_SWEEP_MS,
  });
  app.addHook('onReady', () => {
    releaseSweeper.start();
    return Promise.resolve();
  });
  app.addHook('preClose', () => releaseSweeper.stop());
  // A scan's team list copies and cache entries are written after its answer (scans/after-answer.ts).
  // At start the copies a stopped process still owed are made; at close the writes under way finish.
  const writer = afterAnswer(db);
  writer.log = app.log;
  app.addHook('onReady', () => {
    writer.schedule();
    return Promise.resolve();
  });
  app.addHook('preClose', () => writer.drain());
  // Idempotency-Keys of replayed offline writes are kept IDEMPOTENCY_KEY_DAYS, swept hourly.
  const idempotencySweeper = createIdempotencySweeper({ db, log: app.log, intervalMs: PIPELINE_SWEEP_MS });
  app.addHook('onReady', () => {
    idempotencySweeper.start();
    return Promise.resolve();
  });
  app.addHook('preClose', () => idempotencySweeper.stop());

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
  await app.register(rateLimit, {
    global: false,
    ...(redis && {
      redis,
      nameSpace: config.rateLimits.redisNamespace,
      // Redis gone: let requests through (logged) rather than lock every user out of signing in.
      skipOnError: true,
    }),
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'Prospect Finder API', version: '1.0.0' },
    },
    transform: jsonSchemaTransform,
  });

  // Before access control: a state-changing request from another site's page is refused before its
  // session is even read.
  registerCrossSiteGuard(app, { publicUrl: config.publicUrl, allowedOrigins: config.allowedOrigins });
  registerAccessControl(app, async (request): Promise<CurrentUser | null> => {
    if (!request.headers.cookie) return null;
    const found = await ctx.auth.api.getSession({ headers: nodeHeaders(request) });
    if (!found) return null;
    const profile = await ensureProfile(db, found.user);
    if (profile.suspended) return null;
    return {
      id: found.user.id,
      email: found.user.email,
      name: profile.name,
      role: profile.role,
      isSuperAdmin: profile.isSuperAdmin,
      sessionId: found.session.id,
    };
  });

  app.get('/healthz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await ping(db);
      return { status: 'ok' };
    } catch {
      return reply.status(503).send({ status: 'unavailable', error: 'The database is unavailable.' });
    }
  });

  app.get('/metrics', { config: { access: 'admin' }, schema: { hide: true } }, async (_request, reply) => {
    ctx.metrics.jobQueueDepth.set(await ctx.jobs.depth());
    return reply
      .header('content-type', ctx.metrics.registry.contentType)
      .send(await ctx.metrics.registry.metrics());
  });

  app.get('/api/openapi.json', { config: { access: 'public' }, schema: { hide: true } }, () => app.swagger());

  route(app, 'GET /api/config', async () => ({
    passwordMinLength: config.passwordMinLength,
    map: { ...config.map, dataAttribution: await dataAttribution(db.kysely) },
    radiusMaxMiles: config.discovery.radiusMaxMiles,
    /** Registration needs an invitation code once any account exists (the first one becomes SuperAdmin). */
    invitationRequired: await anyAuthUser(db.kysely),
  }));

  await app.register(authRoutes, { ctx });
  await app.register(userRoutes, { ctx });
  await app.register(invitationRoutes, { ctx });
  await app.register(callLogRoutes, { ctx });
  await app.register(followUpRoutes, { ctx });
  await app.register(savedRoutes, { ctx });
  await app.register(eventRoutes, { ctx, limits: config.eventStreams });
  await app.register(advertiserRoutes, { ctx });
  await app.register(blocklistRoutes, { ctx });
  await app.register(auditRoutes, { ctx });
  await app.register(exportRoutes, { ctx });
  await app.register(settingsRoutes, { ctx });
  await app.register(scanRoutes, { ctx });
  await app.register(strategyRoutes, { ctx });
  await app.register(areaRoutes, { ctx });
  await app.register(teamRoutes, { ctx });
  await app.register(websiteRoutes, { ctx });
  await app.register(pipelineRoutes, { ctx });
  await app.register(routeRoutes, { ctx });

  const webAvailable = serveWeb ?? existsSync(WEB_ROOT);
  if (webAvailable) {
    await app.register(fastifyStatic, {
      root: WEB_ROOT,
      wildcard: false,
      index: ['index.html'],
      // The build writes x.br and x.gz beside each text asset (vite.config.ts): send the one the browser
      // accepts, with `Vary: Accept-Encoding`.
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, filePath) => {
        reply.header('cache-control', webCacheControl(relative(WEB_ROOT, filePath)));
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (webAvailable && request.method === 'GET' && !path.startsWith('/api/') && !path.includes('.')) {
      return reply.sendFile('index.html');
    }
    return reply.status(404).send({ error: 'Not found' });
  });

  return app;
}
