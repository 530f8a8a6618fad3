import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { idempotentWrite } from '../http/idempotency.js';
import { route } from '../http/route.js';
import { saveProspect, savedProspects, setSavedCategory, unsaveProspect } from './service.js';

export const savedRoutes: FastifyPluginCallbackZod<{ ctx: AppContext }> = (app, { ctx }, done) => {
  const { db } = ctx;

  route(app, 'GET /api/saved', async (request) => ({
    saved: await savedProspects(db, currentUser(request).id),
  }));

  route(app, 'POST /api/saved', async (request, reply) => {
    const { prospect, note } = request.body;
    const userId = currentUser(request).id;
    return idempotentWrite(ctx, request, reply, userId, async (scope) => {
      const { saved, created } = await saveProspect(scope.db, userId, prospect, note);
      return { status: created ? 201 : 200, body: { saved, created } };
    });
  });

  route(app, 'PATCH /api/saved/:prospectId/category', async (request) => ({
    prospect: await setSavedCategory(
      db,
      currentUser(request).id,
      request.params.prospectId,
      request.body.category,
    ),
  }));

  route(app, 'DELETE /api/saved/:prospectId', async (request, reply) => {
    const userId = currentUser(request).id;
    return idempotentWrite(ctx, request, reply, userId, async (scope) => {
      await unsaveProspect(scope.db, userId, request.params.prospectId);
      return { status: 204, body: null };
    });
  });
  done();
};
