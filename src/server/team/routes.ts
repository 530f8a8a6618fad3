import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import {
  inactiveQuery,
  periodQuery,
  repPageSchema,
  teamActivitySchema,
  teamDailySchema,
  teamInactiveSchema,
  teamMapSchema,
  teamOutcomesSchema,
} from '../../core/api/dashboard.js';
import { repPage, teamActivity, teamDaily, teamInactive, teamMap, teamOutcomes } from './service.js';

// The team dashboard (issue 19): admins only. Every route takes the period (this-week, last-week, this-month,
// or custom from/to), the browser's IANA time zone (tz) whose calendar days are counted, and optionally one rep.
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
        summary: `Calls, visits, saves and strategy requests per rep. ${PERIOD_HELP}`,
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

  done();
};
