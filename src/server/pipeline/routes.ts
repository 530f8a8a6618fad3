import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { idempotentWrite } from '../http/idempotency.js';
import { route } from '../http/route.js';
import { adminRelease, pipelineEntries, pipelineHistory, reassign, setStage } from './service.js';

// The team pipeline. Reps claim and move businesses; admins reassign and release.
export const pipelineRoutes: FastifyPluginCallbackZod<{ ctx: AppContext }> = (app, { ctx }, done) => {
  const { db, events } = ctx;

  route(app, 'GET /api/pipeline', async (request) => ({
    entries: await pipelineEntries(db, request.query.businessIds),
  }));

  route(app, 'PUT /api/pipeline/:businessId', async (request, reply) => {
    const user = currentUser(request);
    return idempotentWrite(ctx, request, reply, user.id, async (scope) => ({
      status: 200,
      body: {
        entry: await setStage(scope.db, scope.events, user, request.params.businessId, request.body.stage, {
          markAdvertiser: request.body.markAdvertiser ?? true,
        }),
      },
    }));
  });

  route(app, 'GET /api/pipeline/:businessId/history', async (request) => ({
    history: await pipelineHistory(db, request.params.businessId),
  }));

  route(app, 'POST /api/admin/pipeline/:businessId/reassign', async (request) => ({
    entry: await reassign(db, events, currentUser(request), request.params.businessId, request.body.userId),
  }));

  route(app, 'POST /api/admin/pipeline/:businessId/release', async (request) => ({
    entry: await adminRelease(db, events, currentUser(request), request.params.businessId),
  }));

  done();
};
