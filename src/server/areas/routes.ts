// The Admin Panel's Business Data section: the areas with imported data, and refreshing a region (a job).
// Admins (SPEC §6's spirit: like the cache stats an admin views, this is the team's shared data, and a refresh
// only adds or updates businesses -- nothing is deleted, unlike clearing a cache, which is SuperAdmin's).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  areasAnswerSchema,
  refreshStartedSchema,
  refreshStatusSchema,
  regionRefreshBody,
} from '../../core/api/areas.js';
import { errors } from '../http/contract.js';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { notFound } from '../http/errors.js';
import { listAreasView, presentRefresh, REGION_JOB, REGION_POLL_MS, startRegionRefresh } from './service.js';

export const areaRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/admin/areas',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'The areas with imported business data, the businesses stored, and the refreshes under way',
        response: { 200: areasAnswerSchema },
      },
    },
    async () => listAreasView(ctx),
  );

  app.post(
    '/api/admin/areas/refresh',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'Download and import a region of the mirror (a job): 202 with its id, 409 while one runs',
        body: regionRefreshBody,
        response: { 202: refreshStartedSchema, ...errors(409) },
      },
    },
    async (request, reply) => {
      const started = await startRegionRefresh(ctx, currentUser(request), request.body.region);
      return reply.status(202).send({
        jobId: started.jobId,
        region: started.region,
        status: 'pending' as const,
        retryAfterMs: REGION_POLL_MS,
      });
    },
  );

  app.get(
    '/api/admin/areas/jobs/:jobId',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['admin'],
        summary: "A region refresh: its progress while it runs, then the counts or the failure's reason",
        params: z.object({ jobId: z.string().min(1).max(100) }),
        response: { 200: refreshStatusSchema, ...errors(404) },
      },
    },
    async (request) => {
      const job = await ctx.jobs.get(request.params.jobId);
      if (!job || job.kind !== REGION_JOB) throw notFound('Region refresh not found');
      return { ...presentRefresh(job), retryAfterMs: REGION_POLL_MS };
    },
  );
};
