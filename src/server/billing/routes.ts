import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { route } from '../http/route.js';
import { acceptCsvBodies } from '../http/csv-body.js';
import { importBilling, lapsedFor } from './service.js';

/** Largest billing upload (about 50,000 lines of 200 bytes). */
const BILLING_BODY_LIMIT = 10 * 1024 * 1024;

export const billingRoutes: FastifyPluginCallbackZod<{ ctx: AppContext }> = (app, { ctx }, done) => {
  const clock = { currentMonths: ctx.config.billing.currentMonths };

  acceptCsvBodies(app);

  route(
    app,
    'POST /api/admin/billing',
    // A billing export of a year may exceed the general body limit.
    { bodyLimit: Math.max(ctx.config.bodyLimit, BILLING_BODY_LIMIT) },
    async (request) => {
      const csv = typeof request.body === 'string' ? request.body : request.body.csv;
      return importBilling(ctx.db, ctx.events, currentUser(request), csv, {
        ...clock,
        preview: request.query.preview,
      });
    },
  );

  route(app, 'GET /api/advertisers/lapsed', async (request) =>
    lapsedFor(ctx.db, currentUser(request), clock),
  );

  done();
};
