import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { route } from '../http/route.js';
import { blockBusiness, blocklist, checkBlocked, clearBlocklist, unblockBusiness } from './service.js';

export const blocklistRoutes: FastifyPluginCallbackZod<{ ctx: AppContext }> = (app, { ctx }, done) => {
  const { db, events } = ctx;

  route(app, 'GET /api/blocklist', async () => ({ blocklist: await blocklist(db) }));

  route(app, 'POST /api/blocklist', async (request, reply) => {
    const result = await blockBusiness(db, events, currentUser(request), request.body);
    return reply.status(result.created ? 201 : 200).send(result);
  });

  route(app, 'DELETE /api/blocklist/:businessId', async (request, reply) => {
    await unblockBusiness(db, events, currentUser(request), request.params.businessId);
    return reply.status(204).send();
  });

  route(app, 'DELETE /api/blocklist', async (request) => ({
    cleared: await clearBlocklist(db, events, currentUser(request)),
  }));

  route(app, 'GET /api/blocklist/check/:businessId', async (request) =>
    checkBlocked(db, currentUser(request), request.params.businessId),
  );

  done();
};
