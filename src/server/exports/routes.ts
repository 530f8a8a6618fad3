import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { route } from '../http/route.js';
import { sendCsv } from './send.js';
import { zoneOrUtc } from '../../core/time-zone.js';
import { allProspectsSummaryCsv, prospectsCsv, teamProspectsPage } from './service.js';

export const exportRoutes: FastifyPluginCallbackZod<{ ctx: AppContext }> = (app, { ctx }, done) => {
  const { db } = ctx;

  route(app, 'GET /api/admin/all-prospects', async (request) =>
    teamProspectsPage(db, currentUser(request), request.query.offset, request.query.limit),
  );

  route(app, 'GET /api/exports/all-prospects.csv', async (request, reply) => {
    const { fileName, csv } = await allProspectsSummaryCsv(
      db,
      currentUser(request),
      new Date(),
      zoneOrUtc(request.query.tz),
    );
    return sendCsv(reply, fileName, csv);
  });

  route(app, 'GET /api/exports/prospects.csv', async (request, reply) => {
    const { fileName, csv } = await prospectsCsv(
      db,
      currentUser(request),
      request.query.scope,
      new Date(),
      zoneOrUtc(request.query.tz),
    );
    return sendCsv(reply, fileName, csv);
  });

  done();
};
