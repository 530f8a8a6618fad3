import Fastify, { type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import { randomUUID } from 'node:crypto';
import { jsonSchemaTransform, validatorCompiler } from 'fastify-type-provider-zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import { setPasswordHashConcurrency } from './auth/passwords.js';
import { createAuth, migrateAuthTables } from './auth/auth.js';
import { resolveAuthSecret } from './auth/secret.js';
import { migrateToLatest } from './db/migrate.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import { registerErrorHandling } from './http/errors.js';
import { registerTextGuard } from './http/text-guard.js';
import { contractSerializerCompiler, registerContract } from './http/contract.js';
import { registerAccessControl, nodeHeaders, type CurrentUser } from './http/access.js';
import { registerCrossSiteGuard } from './http/cross-site.js';
import type { AppContext } from './context.js';
import { createEventBus } from './events/bus.js';
import { publishSessionsEnded } from './events/routes.js';
import { JobQueue } from './jobs/queue.js';
import { createPlaceChain } from './places/index.js';
import { createScoreFn, type ScoreFn } from './scans/analysis.js';
import type { Resolver } from './websites/address.js';
import { getBrandIndex } from '../core/scoring/nsi.js';
import { createMarketKeeper } from './places/market.js';
import { Metrics } from './metrics/metrics.js';
import { createAiClient } from './ai/index.js';
import { ensureProfile } from './users/accounts.js';
import { backgroundWork } from './background.js';
import { protectionPlugin } from './http/protection.js';
import { webAppPlugin } from './http/web-app.js';
import { appRoutes } from './routes.js';

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

/**
 * What every feature slice gets (context.ts), made for one app: its adapters and queues, and the database
 * migrated, better-auth's tables first.
 */
async function openContext(
  app: FastifyInstance,
  { config, db, mailer, score }: Pick<BuildOptions, 'config' | 'db' | 'mailer' | 'score'>,
): Promise<AppContext> {
  const log = app.log;
  const secret = resolveAuthSecret(config.authSecret, config.dataDir);
  const queueOptions = {
    leaseMs: config.jobs.leaseMs,
    maxAttempts: config.jobs.maxAttempts,
    retentionMs: config.jobs.retentionMs,
  };
  const mail = mailer ?? createMailer(config.mail, log);
  const events = createEventBus(db, log);
  if (config.passwordHashConcurrency !== null) setPasswordHashConcurrency(config.passwordHashConcurrency);
  const auth = createAuth({
    db,
    config,
    secret,
    mailer: mail,
    // A session that ends closes its live-update streams on every instance at once.
    onSessionEnded: (session) => void publishSessionsEnded(events, session.userId, session.id),
  });
  await migrateAuthTables({ db, config, secret, mailer: mail });
  await migrateToLatest(db);
  const ctx: AppContext = {
    config,
    db,
    auth,
    mailer: mail,
    log,
    events,
    jobs: new JobQueue(db, log, { ...queueOptions, concurrency: config.jobs.concurrency }),
    places: createPlaceChain(config, db, log),
    score: score ?? createScoreFn(() => getBrandIndex()),
    market: createMarketKeeper(db, () => getBrandIndex(), log),
    metrics: new Metrics(),
    ai: createAiClient(config.ai),
    // Website checks work in a queue of their own, so they never hold up a rep's strategy or reasoning job.
    websites: {
      queue: config.websites.enabled
        ? new JobQueue(db, log, {
            ...queueOptions,
            workerId: `websites-${randomUUID().slice(0, 8)}`,
            concurrency: config.websites.concurrency,
          })
        : null,
    },
  };
  ctx.metrics.instrument(app);
  return ctx;
}

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

  const ctx = await openContext(app, { config, db, mailer, score });
  await app.register(backgroundWork, { ctx, ...(websiteResolver && { websiteResolver }) });

  await app.register(protectionPlugin, { config });
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'Prospect Finder API', version: '1.0.0' },
    },
    transform: jsonSchemaTransform,
  });

  // Before access control: a request sent to a name the app does not answer to, and a state-changing
  // request from another site's page, are refused before the session is even read.
  registerCrossSiteGuard(app, {
    publicUrl: config.publicUrl,
    allowedOrigins: config.allowedOrigins,
    checkHost: config.checkHost,
  });
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

  await app.register(appRoutes, { ctx });
  await app.register(webAppPlugin, { serve: serveWeb });
  return app;
}
