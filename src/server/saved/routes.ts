import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { prospectSchema, requiredText } from './schema.js';
import { saveProspect, savedProspects, unsaveProspect } from './service.js';

export const savedRoutes: FastifyPluginCallbackZod<{ ctx: AppContext }> = (app, { ctx }, done) => {
  const { db } = ctx;

  app.get(
    '/api/saved',
    {
      config: { access: 'user' },
      schema: { tags: ['saved'], summary: 'Own saved prospects, newest first' },
    },
    async (request) => ({ saved: await savedProspects(db, currentUser(request).id) }),
  );

  app.post(
    '/api/saved',
    {
      config: { access: 'user' },
      schema: {
        tags: ['saved'],
        summary: 'Save a prospect for later (max 30; saving one already saved changes nothing)',
        body: z.object({ prospect: prospectSchema }),
      },
    },
    async (request, reply) => {
      const { saved, created } = await saveProspect(db, currentUser(request).id, request.body.prospect);
      return reply.status(created ? 201 : 200).send({ saved, created });
    },
  );

  app.delete(
    '/api/saved/:prospectId',
    {
      config: { access: 'user' },
      schema: {
        tags: ['saved'],
        summary: 'Remove a saved prospect',
        params: z.object({ prospectId: requiredText(300) }),
      },
    },
    async (request, reply) => {
      await unsaveProspect(db, currentUser(request).id, request.params.prospectId);
      return reply.status(204).send();
    },
  );
  done();
};
