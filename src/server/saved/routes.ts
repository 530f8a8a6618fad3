import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { errors } from '../http/contract.js';
import { idempotentWrite } from '../http/idempotency.js';
import { noContent, requiredText, text } from '../../core/api/common.js';
import { saveBody, savedItemSchema } from '../../core/api/lists.js';
import { prospectAnswer } from '../../core/api/scans.js';
import { saveProspect, savedProspects, setSavedCategory, unsaveProspect } from './service.js';

const savedAnswer = z.object({ saved: savedItemSchema, created: z.boolean() });

export const savedRoutes: FastifyPluginCallbackZod<{ ctx: AppContext }> = (app, { ctx }, done) => {
  const { db } = ctx;

  app.get(
    '/api/saved',
    {
      config: { access: 'user' },
      schema: {
        tags: ['saved'],
        summary: 'Own saved prospects, newest first',
        response: { 200: z.object({ saved: z.array(savedItemSchema) }) },
      },
    },
    async (request) => ({ saved: await savedProspects(db, currentUser(request).id) }),
  );

  app.post(
    '/api/saved',
    {
      config: { access: 'user' },
      schema: {
        tags: ['saved'],
        summary:
          'Save a prospect for later with an optional note (max 30; saving one already saved only updates a note); replayable with an Idempotency-Key',
        body: saveBody,
        response: {
          200: savedAnswer.describe('Already saved: its note updated'),
          201: savedAnswer.describe('Saved'),
          ...errors(409, 422),
        },
      },
    },
    async (request, reply) => {
      const { prospect, note } = request.body;
      const userId = currentUser(request).id;
      return idempotentWrite(ctx, request, reply, userId, async (scope) => {
        const { saved, created } = await saveProspect(scope.db, userId, prospect, note);
        return { status: created ? 201 : 200, body: { saved, created } };
      });
    },
  );

  app.patch(
    '/api/saved/:prospectId/category',
    {
      config: { access: 'user' },
      schema: {
        tags: ['saved'],
        summary: 'Set a missing category on a saved prospect',
        params: z.object({ prospectId: requiredText(300) }),
        body: z.object({ category: text(100) }),
        response: { 200: prospectAnswer, ...errors(404) },
      },
    },
    async (request) => ({
      prospect: await setSavedCategory(
        db,
        currentUser(request).id,
        request.params.prospectId,
        request.body.category,
      ),
    }),
  );

  app.delete(
    '/api/saved/:prospectId',
    {
      config: { access: 'user' },
      schema: {
        tags: ['saved'],
        summary: 'Remove a saved prospect; replayable with an Idempotency-Key',
        params: z.object({ prospectId: requiredText(300) }),
        response: { 204: noContent, ...errors(404, 422) },
      },
    },
    async (request, reply) => {
      const userId = currentUser(request).id;
      return idempotentWrite(ctx, request, reply, userId, async (scope) => {
        await unsaveProspect(scope.db, userId, request.params.prospectId);
        return { status: 204, body: null };
      });
    },
  );
  done();
};
