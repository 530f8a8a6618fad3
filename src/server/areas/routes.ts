// The Admin Panel's Business Data section: the areas with imported data, refreshing a region, and importing an
// Overture places file from the server or an upload (jobs).
// Admins, not only SuperAdmins: like the cache stats an admin views, this is the team's shared data, and a
// refresh only adds or updates businesses -- nothing is deleted, unlike clearing a cache (SuperAdmins only).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  areasAnswerSchema,
  refreshStartedSchema,
  refreshStatusSchema,
  overturePathBody,
  regionRefreshBody,
} from '../../core/api/areas.js';
import { errors } from '../http/contract.js';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { notFound, unsupportedMediaType } from '../http/errors.js';
import { Readable } from 'node:stream';
import { OVERTURE_JOB, startOverturePathImport, startOvertureUploadImport } from './overture.js';
import { listAreasView, presentRefresh, REGION_JOB, REGION_POLL_MS, startRegionRefresh } from './service.js';

/** The media types an upload may be sent as. */
const UPLOAD_TYPES = ['application/octet-stream', 'application/vnd.apache.parquet'];

const startedAnswer = (started: { jobId: string; region: string }) => ({
  jobId: started.jobId,
  region: started.region,
  status: 'pending' as const,
  retryAfterMs: REGION_POLL_MS,
});

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
      return reply.status(202).send(startedAnswer(started));
    },
  );

  app.post(
    '/api/admin/areas/overture-file',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['admin'],
        summary:
          'Import an Overture places file on the server, by its absolute path (a job): 202 with its id',
        body: overturePathBody,
        response: { 202: refreshStartedSchema, ...errors(400, 409) },
      },
    },
    async (request, reply) => {
      const started = await startOverturePathImport(ctx, currentUser(request), request.body.path);
      return reply.status(202).send(startedAnswer(started));
    },
  );

  // The file itself as the body: an upload streamed to disk, never held in memory. No cross-site form can send
  // these types (and fetch() from another origin needs a preflight the server never grants).
  for (const type of UPLOAD_TYPES) {
    app.addContentTypeParser(type, (_request, payload, done) => done(null, payload));
  }
  app.post(
    '/api/admin/areas/overture-upload',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['admin'],
        summary:
          'Upload an Overture places file (the .parquet file as the body, application/octet-stream; ?name= its ' +
          'file name) and import it (a job): 202 with its id',
        querystring: z.object({ name: z.string().max(300).optional() }),
        response: { 202: refreshStartedSchema, ...errors(400, 409, 415) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      if (!(body instanceof Readable)) {
        throw unsupportedMediaType('Send the .parquet file itself as the body, as application/octet-stream.');
      }
      const started = await startOvertureUploadImport(ctx, currentUser(request), body, request.query.name);
      return reply.status(202).send(startedAnswer(started));
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
      if (!job || (job.kind !== REGION_JOB && job.kind !== OVERTURE_JOB))
        throw notFound('Region refresh not found');
      return { ...presentRefresh(job), retryAfterMs: REGION_POLL_MS };
    },
  );
};
