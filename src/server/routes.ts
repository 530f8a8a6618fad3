// Every route of the app: the feature slices' /api routes, and the health check, metrics, the OpenAPI document
// and the browser's start-up settings.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from './context.js';
import { ping } from './db/database.js';
import { route } from './http/route.js';
import { authRoutes } from './auth/routes.js';
import { userRoutes } from './users/routes.js';
import { anyAuthUser } from './users/repository.js';
import { invitationRoutes } from './invitations/routes.js';
import { callLogRoutes } from './call-logs/routes.js';
import { followUpRoutes } from './follow-ups/routes.js';
import { savedRoutes } from './saved/routes.js';
import { eventRoutes } from './events/routes.js';
import { advertiserRoutes } from './advertisers/routes.js';
import { billingRoutes } from './billing/routes.js';
import { blocklistRoutes } from './blocklist/routes.js';
import { auditRoutes } from './audit/routes.js';
import { exportRoutes } from './exports/routes.js';
import { settingsRoutes } from './settings/routes.js';
import { scanRoutes } from './scans/routes.js';
import { strategyRoutes } from './strategies/routes.js';
import { areaRoutes } from './areas/routes.js';
import { teamRoutes } from './team/routes.js';
import { websiteRoutes } from './websites/routes.js';
import { pipelineRoutes } from './pipeline/routes.js';
import { routeRoutes } from './route/routes.js';
import { photoRoutes } from './photos/routes.js';
import { territoryRoutes } from './territories/routes.js';
import { dataAttribution } from './places/areas.js';

async function routes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { config, db } = ctx;
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
  await app.register(billingRoutes, { ctx });
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
  await app.register(photoRoutes, { ctx });
  await app.register(territoryRoutes, { ctx });
}

/** The app's routes, registered on the app itself so its hooks (access control, the contract) apply to them. */
export const appRoutes = fp(routes, { name: 'routes' });
