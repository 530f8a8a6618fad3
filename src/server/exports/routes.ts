import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { sendCsv } from './send.js';
import { allProspectsSummaryCsv, prospectsCsv, teamProspects } from './service.js';

export const exportRoutes: FastifyPluginCallbackZod<{ ctx: AppContext }> = (app, { ctx }, done) => {
  const { db } = ctx;

  app.get(
    '/api/admin/all-prospects',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['exports'],
        summary:
          'All Prospects tab: every scanned prospect across the team, de-duplicated, without blocked ones',
      },
    },
    async () => {
      const prospects = await teamProspects(db);
      return { prospects, total: prospects.length };
    },
  );

  app.get(
    '/api/exports/all-prospects.csv',
    {
      config: { access: 'admin' },
      schema: { tags: ['exports'], summary: 'Export All: all_prospects_summary_{date}.csv' },
    },
    async (request, reply) => {
      const { fileName, csv } = await allProspectsSummaryCsv(db, currentUser(request));
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
        querystring: z.object({ scope: z.enum(['team', 'current']).default('team') }),
      },
    },
    async (request, reply) => {
      const { fileName, csv } = await prospectsCsv(db, currentUser(request), request.query.scope);
      return sendCsv(reply, fileName, csv);
    },
  );

  done();
};
