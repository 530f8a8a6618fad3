import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import {
  CATEGORY_LIMIT,
  inactiveQuery,
  periodQuery,
  repPageSchema,
  teamActivitySchema,
  teamDailySchema,
  teamInactiveSchema,
  teamMapSchema,
  teamOutcomesSchema,
  teamFunnelSchema,
  teamWinRatesSchema,
  repPipelineSchema,
  repRouteSchema,
} from '../../core/api/dashboard.js';
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

// The team dashboard: admins only. Every route takes the period (this-week, last-week, this-month, or custom
// from/to), the browser's IANA time zone (tz) whose calendar days are counted, and optionally one rep.
const PERIOD_HELP =
  'period=this-week|last-week|this-month|custom (from, to: YYYY-MM-DD), tz: IANA time zone of the days, userId: one rep';

export const teamRoutes: FastifyPluginCallbackZod<{ ctx: AppContext }> = (app, { ctx }, done) => {
  const { db } = ctx;

  app.get(
    '/api/team/activity',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['team'],
        summary: `Calls, visits, saves, strategy requests and follow-ups set per rep. ${PERIOD_HELP}`,
        querystring: periodQuery,
        response: { 200: teamActivitySchema },
      },
    },
    async (request) => teamActivity(db, request.query),
  );

  app.get(
    '/api/team/daily',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['team'],
        summary: `The same counts per day of the period, on the calendar of tz. ${PERIOD_HELP}`,
        querystring: periodQuery,
        response: { 200: teamDailySchema },
      },
    },
    async (request) => teamDaily(db, request.query),
  );

  app.get(
    '/api/team/outcomes',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['team'],
        summary: `Entries per outcome; calls, visits and saves by score band and by category. ${PERIOD_HELP}`,
        querystring: periodQuery,
        response: { 200: teamOutcomesSchema },
      },
    },
    async (request) => teamOutcomes(db, request.query),
  );

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

  app.get(
    '/api/team/inactive',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['team'],
        summary: 'Reps with no call, visit, save or strategy request in the last `days` days (default 7)',
        querystring: inactiveQuery,
        response: { 200: teamInactiveSchema },
      },
    },
    async (request) => teamInactive(db, request.query.days),
  );

  app.get(
    '/api/team/map',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['team'],
        summary: `The period's calls and visits on a grid of about 110 m, and the areas scanned. ${PERIOD_HELP}`,
        querystring: periodQuery,
        response: { 200: teamMapSchema },
      },
    },
    async (request) => teamMap(db, request.query),
  );

  app.get(
    '/api/team/reps/:userId',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['team'],
        summary:
          "One rep's counts and log (calls, visits, saves, strategy requests) for the period, newest first",
        params: z.object({ userId: z.string().min(1).max(100) }),
        querystring: periodQuery.omit({ userId: true }),
        response: { 200: repPageSchema },
      },
    },
    async (request) => repPage(db, request.params.userId, request.query),
  );

  app.get(
    '/api/team/reps/:userId/pipeline',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['team'],
        summary:
          "One rep's pipeline: the businesses they own now (stage, since) and the period's changes that involve them",
        params: z.object({ userId: z.string().min(1).max(100) }),
        querystring: periodQuery.omit({ userId: true }),
        response: { 200: repPipelineSchema },
      },
    },
    async (request) => repPipeline(db, request.params.userId, request.query),
  );

  app.get(
    '/api/team/reps/:userId/route',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['team'],
        summary:
          "One rep's route history: their visits in the period in order, with the phone's position and whether verified",
        params: z.object({ userId: z.string().min(1).max(100) }),
        querystring: periodQuery.omit({ userId: true }),
        response: { 200: repRouteSchema },
      },
    },
    async (request) => repRoute(db, request.params.userId, request.query),
  );

  done();
};
