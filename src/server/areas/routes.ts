// The Admin Panel's Business Data section: the areas with imported data, refreshing a region, and importing an
// Overture places file from the server or an upload (jobs).
// Admins, not only SuperAdmins: like the cache stats an admin views, this is the team's shared data, and a
// refresh only adds or updates businesses -- nothing is deleted, unlike clearing a cache (SuperAdmins only).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { notFound, unsupportedMediaType } from '../http/errors.js';
import { route } from '../http/route.js';
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
  route(app, 'GET /api/admin/areas', async () => listAreasView(ctx));

  route(app, 'POST /api/admin/areas/refresh', async (request, reply) => {
    const started = await startRegionRefresh(ctx, currentUser(request), request.body.region);
    return reply.status(202).send(startedAnswer(started));
  });

  route(app, 'POST /api/admin/areas/overture-file', async (request, reply) => {
    const started = await startOverturePathImport(ctx, currentUser(request), request.body.path);
    return reply.status(202).send(startedAnswer(started));
  });

  // The file itself as the body: an upload streamed to disk, never held in memory. No cross-site form can send
  // these types (and fetch() from another origin needs a preflight the server never grants).
  for (const type of UPLOAD_TYPES) {
    app.addContentTypeParser(type, (_request, payload, done) => done(null, payload));
  }
  route(app, 'POST /api/admin/areas/overture-upload', async (request, reply) => {
    const body = request.body;
    if (!(body instanceof Readable)) {
      throw unsupportedMediaType('Send the .parquet file itself as the body, as application/octet-stream.');
    }
    const started = await startOvertureUploadImport(ctx, currentUser(request), body, request.query.name);
    return reply.status(202).send(startedAnswer(started));
  });

  route(app, 'GET /api/admin/areas/jobs/:jobId', async (request) => {
    const job = await ctx.jobs.get(request.params.jobId);
    if (!job || (job.kind !== REGION_JOB && job.kind !== OVERTURE_JOB))
      throw notFound('Region refresh not found');
    return { ...presentRefresh(job), retryAfterMs: REGION_POLL_MS };
  });
};
