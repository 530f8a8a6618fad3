import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { route } from '../http/route.js';
import {
  readAlgorithmSettings,
  readBillingSettings,
  writeAlgorithmSettings,
  writeBillingSettings,
} from './service.js';

export const settingsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  route(app, 'GET /api/admin/settings', async () => ({ settings: await readAlgorithmSettings(ctx.db) }));

  route(app, 'PATCH /api/admin/settings', async (request) => ({
    settings: await writeAlgorithmSettings(ctx.db, request.body, currentUser(request)),
  }));

  route(app, 'GET /api/admin/billing/settings', async () => ({
    settings: await readBillingSettings(ctx.db),
  }));

  route(app, 'PATCH /api/admin/billing/settings', async (request) => ({
    settings: await writeBillingSettings(ctx.db, request.body, currentUser(request)),
  }));
};
