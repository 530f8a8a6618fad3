// The Admin Panel's view of the website checks: the queue (waiting, done, failed, the latest checks) and a
// re-check of one business.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { HttpError, notFound } from '../http/errors.js';
import { route } from '../http/route.js';
import { websiteQueue } from './repository.js';
import { recheckBusiness } from './service.js';

export const WEBSITE_CHECKS_OFF = 'Website checks are switched off on this server (WEBSITE_CHECKS=off).';
export const NOT_CHECKED_YET =
  'That business has not been checked yet: its website is checked after a scan finds it.';

export const websiteRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const deps = { db: ctx.db, queue: ctx.websites.queue };

  route(app, 'GET /api/admin/website-checks', async () => ({
    enabled: ctx.websites.queue !== null,
    ...(await websiteQueue(ctx.db.kysely)),
  }));

  route(app, 'POST /api/admin/website-checks', async (request, reply) => {
    const outcome = await recheckBusiness(deps, currentUser(request).id, request.body.businessKey);
    if (outcome === 'off') throw new HttpError(409, WEBSITE_CHECKS_OFF);
    if (outcome === 'unknown') throw notFound(NOT_CHECKED_YET);
    return reply.status(202).send({ queued: true as const });
  });
};
