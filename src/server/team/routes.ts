import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.js';
import {
  CATEGORY_LIMIT,
  PERIOD_HELP,
  periodQuery,
  teamFunnelSchema,
  teamWinRatesSchema,
} from '../../core/api/dashboard.js';
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

  // The funnel and the win rates are registered by hand: each documents its counting in a description, which a
  // contract entry has no field for.
  app.get(
    '/api/team/funnel',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['team'],
        summary:
          'The pipeline funnel New → Contacted → Meeting set → Proposal → Won, with conversion between stages',
        description:
          'Counts the businesses moved in the pipeline in the period (any stage change; with userId, a change that ' +
          'left the business with that rep). Each is counted at the furthest stage it reached in the period and at ' +
          'every earlier stage too: a business set to Proposal counts as New, Contacted, Meeting set and Proposal. ' +
          'Lost counts as New. conversion = reached of the next stage / reached of this one (null for Won, or when ' +
          `none reached this one). ${PERIOD_HELP}`,
        querystring: periodQuery,
        response: { 200: teamFunnelSchema },
      },
    },
    async (request) => teamFunnel(db, request.query),
  );

  app.get(
    '/api/team/win-rates',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['team'],
        summary: 'Win rate by score band and by category: does the score predict, which categories convert?',
        description:
          'Of the businesses first called or visited in the period (their first call-log entry; with userId, ' +
          'made by that rep), per band of ten points of the score they were first logged with (then Unscored), ' +
          `and per category (the ${CATEGORY_LIMIT} with the most such businesses): ` +
          'how many reached Meeting set (or Proposal, or Won) and how many reached Won by the end of the period, ' +
          'by anyone; meetingRate and ' +
          `winRate divide them by the businesses. ${PERIOD_HELP}`,
        querystring: periodQuery,
        response: { 200: teamWinRatesSchema },
      },
    },
    async (request) => teamWinRates(db, request.query),
  );

  route(app, 'GET /api/team/inactive', async (request) => teamInactive(db, request.query.days));

  route(app, 'GET /api/team/map', async (request) => teamMap(db, request.query));

  route(app, 'GET /api/team/reps/:userId', async (request) =>
    repPage(db, request.params.userId, request.query),
  );

  route(app, 'GET /api/team/reps/:userId/pipeline', async (request) =>
    repPipeline(db, request.params.userId, request.query),
  );

  route(app, 'GET /api/team/reps/:userId/route', async (request) =>
    repRoute(db, request.params.userId, request.query),
  );

  done();
};
