import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { route } from '../http/route.js';
import { sendCsv } from '../exports/send.js';
import { auditPage, exportAudit } from './service.js';

export const auditRoutes: FastifyPluginCallbackZod<{ ctx: AppContext }> = (app, { ctx }, done) => {
  const { db } = ctx;

  route(app, 'GET /api/audit', async (request) => auditPage(db, request.query.page, request.query.pageSize));

  route(app, 'GET /api/audit/export.csv', async (request, reply) => {
    const { fileName, csv } = await exportAudit(db, currentUser(request));
    return sendCsv(reply, fileName, csv);
  });

  done();
};
