// The Admin Panel's view of the website checks: the queue (waiting, done, failed, the latest checks) and a
// re-check of one business.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { HttpError, notFound } from '../http/errors.js';
import { errors } from '../http/contract.js';
import { websiteChecksSchema, websiteRecheckBody, websiteRecheckQueued } from '../../core/api/websites.js';
import { websiteQueue } from './repository.js';
import { recheckBusiness } from './service.js';

export const WEBSITE_CHECKS_OFF = 'Website checks are switched off on this server (WEBSITE_CHECKS=off).';
export const NOT_CHECKED_YET =
  'That business has not been checked yet: its website is checked after a scan finds it.';

export const websiteRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const deps = { db: ctx.db, queue: ctx.websites.queue };

  app.get(
    '/api/admin/website-checks',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'Website checks: waiting, done and failed, and the latest 50',
        response: { 200: websiteChecksSchema },
      },
    },
    async () => ({ enabled: ctx.websites.queue !== null, ...(await websiteQueue(ctx.db.kysely)) }),
  );

  app.post(
    '/api/admin/website-checks',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'Check one business website again (a business checked before, by its cache key)',
        body: websiteRecheckBody,
        response: { 202: websiteRecheckQueued, ...errors(404, 409) },
      },
    },
    async (request, reply) => {
      const outcome = await recheckBusiness(deps, currentUser(request).id, request.body.businessKey);
      if (outcome === 'off') throw new HttpError(409, WEBSITE_CHECKS_OFF);
      if (outcome === 'unknown') throw notFound(NOT_CHECKED_YET);
      return reply.status(202).send({ queued: true as const });
    },
  );
};
