import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { readAlgorithmSettings, writeAlgorithmSettings } from './service.js';
import { algorithmSettingsSchema, settingsAnswer } from '../../core/api/admin.js';

export const settingsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/admin/settings',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'Algorithm Settings (team-wide switches the scan honours)',
        response: { 200: settingsAnswer },
      },
    },
    async () => ({ settings: await readAlgorithmSettings(ctx.db) }),
  );

  app.patch(
    '/api/admin/settings',
    {
      config: { access: 'superadmin' },
      schema: {
        tags: ['admin'],
        summary: 'Change Algorithm Settings',
        body: algorithmSettingsSchema.partial().strict(),
        response: { 200: settingsAnswer },
      },
    },
    async (request) => ({
      settings: await writeAlgorithmSettings(ctx.db, request.body, currentUser(request)),
    }),
  );
};
