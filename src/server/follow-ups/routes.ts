import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { idempotentWrite } from '../http/idempotency.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, notFound } from '../http/errors.js';
import { createLimiter } from '../http/rate-limit.js';
import { calendarFeed, FeedCache } from './feed.js';
import { route } from '../http/route.js';
import { followUpsCalendar } from './calendar.js';
import {
  calendarSettings,
  changeCalendarSettings,
  completeFollowUp,
  feedOwner,
  getOwnFollowUp,
  ownFollowUpPage,
  regenerateFeed,
  rescheduleFollowUp,
} from './service.js';

export const CALENDAR_FEED_NOT_FOUND = 'Calendar feed not found';
export const CALENDAR_FEED_TOO_MANY = 'Too many calendar feed requests. Please wait a minute and try again.';

/** The feed's bytes as kept (follow-ups/feed.ts), sent without encoding them again. */
function sendFeed(reply: FastifyReply, bytes: Buffer): FastifyReply {
  return reply
    .header('content-type', 'text/calendar; charset=utf-8')
    .header('cache-control', 'private, no-store')
    .header('referrer-policy', 'no-referrer')
    .send(bytes);
}

export const followUpRoutes: FastifyPluginCallbackZod<{ ctx: AppContext }> = (app, { ctx }, done) => {
  const { db, config } = ctx;

  // A read changes nothing: the digest's zone is kept by the writes that carry it (a logged follow-up, the
  // calendar settings), behind the cross-site guard.
  route(app, 'GET /api/follow-ups', async (request) =>
    ownFollowUpPage(db, currentUser(request).id, request.query),
  );

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

  route(app, 'GET /api/follow-ups/:id.ics', async (request, reply) => {
    const followUp = await getOwnFollowUp(db, currentUser(request).id, request.params.id);
    return reply
      .header('content-type', 'text/calendar; charset=utf-8')
      .header('content-disposition', `attachment; filename="follow-up-${followUp.id}.ics"`)
      .header('cache-control', 'no-store')
      .send(followUpsCalendar([followUp], config.publicUrl, `Follow up: ${followUp.name}`));
  });

  route(app, 'GET /api/calendar/settings', async (request) => calendarSettings(db, currentUser(request).id));

  route(app, 'PATCH /api/calendar/settings', async (request) =>
    changeCalendarSettings(db, currentUser(request).id, request.body),
  );

  route(app, 'POST /api/calendar/feed', async (request) =>
    regenerateFeed(db, currentUser(request).id, config.publicUrl),
  );

  // Anyone holding the link can read the feed without a session: limited per link and per IP, and kept
  // built per rep (follow-ups/feed.ts), so reading it in a loop cannot hold up everyone else.
  const feeds = new FeedCache();
  const feedsPerIp = createLimiter(app, {
    name: 'calendar-feed-ip',
    max: config.calendarFeed.perIp,
    timeWindow: '1 minute',
    key: (req) => req.ip,
    message: CALENDAR_FEED_TOO_MANY,
  });
  route(
    app,
    'GET /api/calendar/:token.ics',
    {
      config: {
        rateLimit: {
          max: config.calendarFeed.perToken,
          timeWindow: '1 minute',
          keyGenerator: (req: FastifyRequest) => `feed|${(req.params as { token?: string }).token ?? ''}`,
          errorResponseBuilder: (_request, context) =>
            new HttpError(429, CALENDAR_FEED_TOO_MANY, { retryAfterMs: context.ttl }),
        },
      },
      preHandler: async (request, reply) => feedsPerIp.hit(request, reply),
    },
    async (request, reply) => {
      const userId = await feedOwner(db, request.params.token);
      if (!userId) throw notFound(CALENDAR_FEED_NOT_FOUND);
      const bytes = await calendarFeed(db, feeds, userId, {
        ...config.calendarFeed,
        publicUrl: config.publicUrl,
      });
      return sendFeed(reply, bytes);
    },
  );
  done();
};
