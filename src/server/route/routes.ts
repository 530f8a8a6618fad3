import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.js';
import { currentUser, isAdmin } from '../http/access.js';
import { exportTimeZone } from '../exports/send.js';
import { routeAnswer, routeBody, visitsAnswer, visitsQuery } from '../../core/api/route.js';
import { planRoute, visitsOfDay } from './service.js';

// Route for the day and the day's visits (docs/PRODUCT.md, "Follow-ups, routes and the pipeline").
export const routeRoutes: FastifyPluginCallbackZod<{ ctx: AppContext }> = (app, { ctx }, done) => {
  app.post(
    '/api/route',
    {
      config: { access: 'user' },
      schema: {
        tags: ['route'],
        summary:
          'Order businesses the rep may see into the shortest open route from a start (straight lines, or roads via ROUTING_URL), with map-app links',
        body: routeBody,
        response: { 200: routeAnswer },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return planRoute(
        ctx.db,
        ctx.config.routing,
        { id: user.id, admin: isAdmin(user) },
        request.body,
        request.log,
      );
    },
  );

  app.get(
    '/api/visits',
    {
      config: { access: 'user' },
      schema: {
        tags: ['route'],
        summary:
          "The rep's own visits of one day (date, in the IANA time zone tz, UTC by default), in the order logged",
        querystring: visitsQuery,
        response: { 200: visitsAnswer },
      },
    },
    async (request) =>
      visitsOfDay(ctx.db, currentUser(request).id, request.query.date, exportTimeZone(request.query.tz)),
  );
  done();
};
