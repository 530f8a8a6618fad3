import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { sendCsv } from '../exports/send.js';
import { zoneOrUtc } from '../../core/time-zone.js';
import { idempotentWrite } from '../http/idempotency.js';
import { route } from '../http/route.js';
import {
  addCallLog,
  CALL_HISTORY_CLEARED,
  clearCallLogs,
  exportCallLogs,
  ownCallLogPage,
  removeCallLog,
} from './service.js';

export const callLogRoutes: FastifyPluginCallbackZod<{ ctx: AppContext }> = (app, { ctx }, done) => {
  const { db } = ctx;

  route(app, 'GET /api/call-logs', async (request) =>
    ownCallLogPage(db, currentUser(request).id, request.query),
  );

  route(app, 'POST /api/call-logs', async (request, reply) => {
    const user = currentUser(request);
    return idempotentWrite(ctx, request, reply, user.id, async (scope) => ({
      status: 201,
      body: await addCallLog(scope.db, user, request.body, ctx.config.perDay, scope.events),
    }));
  });

  route(app, 'DELETE /api/call-logs/:id', async (request, reply) => {
    await removeCallLog(db, currentUser(request).id, request.params.id);
    return reply.status(204).send();
  });

  route(app, 'DELETE /api/call-logs', async (request) => {
    const deleted = await clearCallLogs(db, currentUser(request).id);
    return { deleted, message: CALL_HISTORY_CLEARED };
  });

  route(app, 'GET /api/call-logs/export.csv', async (request, reply) => {
    const { fileName, csv } = await exportCallLogs(
      db,
      currentUser(request),
      new Date(),
      zoneOrUtc(request.query.tz),
    );
    return sendCsv(reply, fileName, csv);
  });
  done();
};
