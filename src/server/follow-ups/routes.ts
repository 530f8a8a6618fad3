import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { errors } from '../http/contract.js';
import { idempotentWrite } from '../http/idempotency.js';
import { notFound } from '../http/errors.js';
import { route } from '../http/route.js';
import { followUpIdParams, icsFile } from '../../core/api/follow-ups.js';
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

export const followUpRoutes: FastifyPluginCallbackZod<{ ctx: AppContext }> = (app, { ctx }, done) => {
  const { db, config } = ctx;

  route(app, 'GET /api/follow-ups', async (request) => {
    const userId = currentUser(request).id;
    const { tz } = request.query;
    if (tz && isTimeZone(tz)) await rememberTimeZone(db, userId, tz);
    return { followUps: await listOwnFollowUps(db, userId) };
  });

  route(app, 'POST /api/follow-ups/:id/done', async (request, reply) => {
    const userId = currentUser(request).id;
    return idempotentWrite(ctx, request, reply, userId, async (scope) => ({
      status: 200,
      body: { followUp: await completeFollowUp(scope.db, userId, request.params.id) },
    }));
  });

  route(app, 'PATCH /api/follow-ups/:id', async (request, reply) => {
    const userId = currentUser(request).id;
    return idempotentWrite(ctx, request, reply, userId, async (scope) => ({
      status: 200,
      body: { followUp: await rescheduleFollowUp(scope.db, userId, request.params.id, request.body) },
    }));
  });

  // The two iCalendar downloads answer a file (icsFile), which is not a zod schema a contract entry can hold.
  app.get(
    '/api/follow-ups/:id.ics',
    {
      config: { access: 'user' },
      schema: {
        tags: ['follow-ups'],
        summary: 'One own follow-up as an iCalendar file to add to a calendar',
        params: followUpIdParams,
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

  route(app, 'GET /api/calendar/settings', async (request) => calendarSettings(db, currentUser(request).id));

  route(app, 'PATCH /api/calendar/settings', async (request) =>
    changeCalendarSettings(db, currentUser(request).id, request.body),
  );

  route(app, 'POST /api/calendar/feed', async (request) =>
    regenerateFeed(db, currentUser(request).id, config.publicUrl),
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
