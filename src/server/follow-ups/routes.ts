import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { errors } from '../http/contract.js';
import { idempotentWrite } from '../http/idempotency.js';
import { notFound } from '../http/errors.js';
import { requiredText } from '../../core/api/common.js';
import {
  calendarFeedAnswer,
  calendarSettingsBody,
  calendarSettingsSchema,
  followUpAnswer,
  followUpListSchema,
  icsFile,
  rescheduleBody,
} from '../../core/api/follow-ups.js';
import { isTimeZone } from '../../core/csv.js';
import { followUpsCalendar } from './calendar.js';
import {
  calendarSettings,
  changeCalendarSettings,
  completeFollowUp,
  feedOwner,
  getOwnFollowUp,
  listOwnFollowUps,
  regenerateFeed,
  rememberTimeZone,
  rescheduleFollowUp,
} from './service.js';

export const CALENDAR_FEED_NOT_FOUND = 'Calendar feed not found';

const idParam = z.object({ id: requiredText(100) });

export const followUpRoutes: FastifyPluginCallbackZod<{ ctx: AppContext }> = (app, { ctx }, done) => {
  const { db, config } = ctx;

  app.get(
    '/api/follow-ups',
    {
      config: { access: 'user' },
      schema: {
        tags: ['follow-ups'],
        summary:
          "Own open follow-ups with their business's card facts; tz (the browser's zone) is kept for the digest",
        querystring: z.object({ tz: z.string().max(64).optional() }),
        response: { 200: followUpListSchema },
      },
    },
    async (request) => {
      const userId = currentUser(request).id;
      const { tz } = request.query;
      if (tz && isTimeZone(tz)) await rememberTimeZone(db, userId, tz);
      return { followUps: await listOwnFollowUps(db, userId) };
    },
  );

  app.post(
    '/api/follow-ups/:id/done',
    {
      config: { access: 'user' },
      schema: {
        tags: ['follow-ups'],
        summary: 'Mark an own follow-up done; replayable with an Idempotency-Key',
        params: idParam,
        response: { 200: followUpAnswer, ...errors(404, 422) },
      },
    },
    async (request, reply) => {
      const userId = currentUser(request).id;
      return idempotentWrite(ctx, request, reply, userId, async (scope) => ({
        status: 200,
        body: { followUp: await completeFollowUp(scope.db, userId, request.params.id) },
      }));
    },
  );

  app.patch(
    '/api/follow-ups/:id',
    {
      config: { access: 'user' },
      schema: {
        tags: ['follow-ups'],
        summary:
          'Reschedule an own follow-up (date, and time when given); a done one opens again; replayable with an Idempotency-Key',
        params: idParam,
        body: rescheduleBody,
        response: { 200: followUpAnswer, ...errors(404, 422) },
      },
    },
    async (request, reply) => {
      const userId = currentUser(request).id;
      return idempotentWrite(ctx, request, reply, userId, async (scope) => ({
        status: 200,
        body: { followUp: await rescheduleFollowUp(scope.db, userId, request.params.id, request.body) },
      }));
    },
  );

  app.get(
    '/api/follow-ups/:id.ics',
    {
      config: { access: 'user' },
      schema: {
        tags: ['follow-ups'],
        summary: 'One own follow-up as an iCalendar file to add to a calendar',
        params: idParam,
        response: { 200: icsFile, ...errors(404) },
      },
    },
    async (request, reply) => {
      const followUp = await getOwnFollowUp(db, currentUser(request).id, request.params.id);
      return reply
        .header('content-type', 'text/calendar; charset=utf-8')
        .header('content-disposition', `attachment; filename="follow-up-${followUp.id}.ics"`)
        .header('cache-control', 'no-store')
        .send(followUpsCalendar([followUp], config.publicUrl, `Follow up: ${followUp.name}`));
    },
  );

  app.get(
    '/api/calendar/settings',
    {
      config: { access: 'user' },
      schema: {
        tags: ['follow-ups'],
        summary: 'Own calendar feed state and morning digest switch',
        response: { 200: calendarSettingsSchema },
      },
    },
    async (request) => calendarSettings(db, currentUser(request).id),
  );

  app.patch(
    '/api/calendar/settings',
    {
      config: { access: 'user' },
      schema: {
        tags: ['follow-ups'],
        summary: 'Turn the morning digest on or off; set the zone it is timed in',
        body: calendarSettingsBody,
        response: { 200: calendarSettingsSchema },
      },
    },
    async (request) => changeCalendarSettings(db, currentUser(request).id, request.body),
  );

  app.post(
    '/api/calendar/feed',
    {
      config: { access: 'user' },
      schema: {
        tags: ['follow-ups'],
        summary: 'A new private calendar feed link (shown once); the old link stops working',
        response: { 200: calendarFeedAnswer },
      },
    },
    async (request) => regenerateFeed(db, currentUser(request).id, config.publicUrl),
  );

  app.get(
    '/api/calendar/:token.ics',
    {
      // Calendar apps subscribe without a session: the secret token in the link is the credential.
      config: { access: 'public' },
      schema: {
        tags: ['follow-ups'],
        summary: "A rep's follow-ups and meetings as an iCalendar feed (the link's secret token)",
        params: z.object({ token: z.string().max(100) }),
        response: { 200: icsFile, ...errors(404) },
      },
    },
    async (request, reply) => {
      const userId = await feedOwner(db, request.params.token);
      if (!userId) throw notFound(CALENDAR_FEED_NOT_FOUND);
      const followUps = await listOwnFollowUps(db, userId);
      return reply
        .header('content-type', 'text/calendar; charset=utf-8')
        .header('cache-control', 'private, no-store')
        .header('referrer-policy', 'no-referrer')
        .send(followUpsCalendar(followUps, config.publicUrl));
    },
  );
  done();
};
