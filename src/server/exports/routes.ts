import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { route } from '../http/route.js';
import { exportTimeZone, sendCsv, timeZoneParam } from './send.js';
import { errors } from '../http/contract.js';
import { csvFile } from '../../core/api/common.js';
import { allProspectsSummaryCsv, prospectsCsv, teamProspectsPage } from './service.js';

export const exportRoutes: FastifyPluginCallbackZod<{ ctx: AppContext }> = (app, { ctx }, done) => {
  const { db } = ctx;

  route(app, 'GET /api/admin/all-prospects', async (request) =>
    teamProspectsPage(db, request.query.offset, request.query.limit),
  );

  app.get(
    '/api/exports/all-prospects.csv',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['exports'],
        summary: 'Export All: all_prospects_summary_{date}.csv ({date} in the given IANA time zone, tz)',
        querystring: z.object({ tz: timeZoneParam }),
        response: { 200: csvFile, ...errors(404) },
      },
    },
    async (request, reply) => {
      const { fileName, csv } = await allProspectsSummaryCsv(
        db,
        currentUser(request),
        new Date(),
        exportTimeZone(request.query.tz),
      );
      return sendCsv(reply, fileName, csv);
    },
  );

  app.get(
    '/api/exports/prospects.csv',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['exports'],
        summary: 'Export Prospects: prospects_{date}.csv (scope=current: own latest scan, SuperAdmins)',
        querystring: z.object({ scope: z.enum(['team', 'current']).default('team'), tz: timeZoneParam }),
        response: { 200: csvFile, ...errors(404) },
      },
    },
    async (request, reply) => {
      const { fileName, csv } = await prospectsCsv(
        db,
        currentUser(request),
        request.query.scope,
        new Date(),
        exportTimeZone(request.query.tz),
      );
      return sendCsv(reply, fileName, csv);
    },
  );

  done();
};
