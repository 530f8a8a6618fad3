import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { idempotentWrite } from '../http/idempotency.js';
import { route } from '../http/route.js';
import { acceptCsvBodies } from '../http/csv-body.js';
import { ONLY_ADMINS_REMOVE_ADVERTISERS } from '../../core/messages.js';
import { currentAdvertisers, importAdvertisers, markAdvertiser, unmarkAdvertiser } from './service.js';

/** Largest customer-list upload (about 10,000 rows of 500 bytes). */
const IMPORT_BODY_LIMIT = 5 * 1024 * 1024;

export const advertiserRoutes: FastifyPluginCallbackZod<{ ctx: AppContext }> = (app, { ctx }, done) => {
  const { db, events } = ctx;

  route(app, 'GET /api/current-advertisers', async () => ({ advertisers: await currentAdvertisers(db) }));

  route(app, 'POST /api/current-advertisers', async (request, reply) => {
    const user = currentUser(request);
    return idempotentWrite(ctx, request, reply, user.id, async (scope) => {
      const { advertiser, created } = await markAdvertiser(scope.db, scope.events, user, request.body);
      return { status: created ? 201 : 200, body: { advertiser, created } };
    });
  });

  route(
    app,
    'DELETE /api/current-advertisers/:businessId',
    { config: { deniedMessage: ONLY_ADMINS_REMOVE_ADVERTISERS } },
    async (request, reply) => {
      const user = currentUser(request);
      return idempotentWrite(ctx, request, reply, user.id, async (scope) => {
        await unmarkAdvertiser(scope.db, scope.events, user, request.params.businessId);
        return { status: 204, body: null };
      });
    },
  );

  acceptCsvBodies(app);

  route(
    app,
    'POST /api/current-advertisers/import',
    // A customer list of up to MAX_IMPORT_ROWS rows may exceed the general body limit.
    { bodyLimit: Math.max(ctx.config.bodyLimit, IMPORT_BODY_LIMIT) },
    async (request) => {
      const csv = typeof request.body === 'string' ? request.body : request.body.csv;
      return importAdvertisers(db, events, currentUser(request), csv);
    },
  );

  done();
};
