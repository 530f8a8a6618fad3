import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.js';
import { currentUser, isAdmin } from '../http/access.js';
import { zoneOrUtc } from '../../core/time-zone.js';
import { route } from '../http/route.js';
import { planRoute, visitsOfDay } from './service.js';

// Route for the day and the day's visits (docs/PRODUCT.md, "Follow-ups, routes and the pipeline").
export const routeRoutes: FastifyPluginCallbackZod<{ ctx: AppContext }> = (app, { ctx }, done) => {
  route(app, 'POST /api/route', async (request) => {
    const user = currentUser(request);
    return planRoute(
      ctx.db,
      ctx.config.routing,
      { id: user.id, admin: isAdmin(user) },
      request.body,
      request.log,
    );
  });

  route(app, 'GET /api/visits', async (request) =>
    visitsOfDay(ctx.db, currentUser(request).id, request.query.date, zoneOrUtc(request.query.tz)),
  );
  done();
};
