import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { sendCsv } from '../exports/send.js';
import { csvFile } from '../../core/api/common.js';
import { auditPageSchema } from '../../core/api/admin.js';
import { auditPage, exportAudit } from './service.js';

export const auditRoutes: FastifyPluginCallbackZod<{ ctx: AppContext }> = (app, { ctx }, done) => {
  const { db } = ctx;

  app.get(
    '/api/audit',
    {
      config: { access: 'superadmin' },
      schema: {
        tags: ['audit'],
        summary: 'The audit log of admin actions, newest first, one page at a time',
        querystring: z.object({
          page: z.coerce.number().int().min(1).max(1_000_000).default(1),
          pageSize: z.coerce.number().int().min(1).max(200).default(50),
        }),
        response: { 200: auditPageSchema },
      },
    },
    async (request) => auditPage(db, request.query.page, request.query.pageSize),
  );

  app.get(
    '/api/audit/export.csv',
    {
      config: { access: 'superadmin' },
      schema: {
        tags: ['audit'],
        summary: 'The audit log as audit_log_{date}.csv, newest first',
        response: { 200: csvFile },
      },
    },
    async (request, reply) => {
      const { fileName, csv } = await exportAudit(db, currentUser(request));
      return sendCsv(reply, fileName, csv);
    },
  );

  done();
};
