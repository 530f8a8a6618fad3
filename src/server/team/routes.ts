import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { route } from '../http/route.js';
import {
  repPage,
  repPipeline,
  repRoute,
  teamActivity,
  teamDaily,
  teamFunnel,
  teamInactive,
  teamMap,
  teamOutcomes,
  teamWinRates,
} from './service.js';

export const teamRoutes: FastifyPluginCallbackZod<{ ctx: AppContext }> = (app, { ctx }, done) => {
  const { db } = ctx;

  route(app, 'GET /api/team/activity', async (request) => teamActivity(db, request.query));

  route(app, 'GET /api/team/daily', async (request) => teamDaily(db, request.query));

  route(app, 'GET /api/team/outcomes', async (request) => teamOutcomes(db, request.query));

  route(app, 'GET /api/team/funnel', async (request) => teamFunnel(db, request.query));

  route(app, 'GET /api/team/win-rates', async (request) => teamWinRates(db, request.query));

  route(app, 'GET /api/team/inactive', async (request) => teamInactive(db, request.query.days));

  route(app, 'GET /api/team/map', async (request) => teamMap(db, request.query));

  route(app, 'GET /api/team/reps/:userId', async (request) =>
    repPage(db, request.params.userId, request.query),
  );

  route(app, 'GET /api/team/reps/:userId/pipeline', async (request) =>
    repPipeline(db, request.params.userId, request.query),
  );

  route(app, 'GET /api/team/reps/:userId/route', async (request) =>
    repRoute(db, currentUser(request), request.params.userId, request.query),
  );

  done();
};
