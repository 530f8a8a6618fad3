import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { errors } from '../http/contract.js';
import { idempotentWrite } from '../http/idempotency.js';
import {
  pipelineAnswerSchema,
  pipelineHistorySchema,
  pipelineListSchema,
  pipelineParams,
  pipelineQuery,
  pipelineReassignBody,
  pipelineStageBody,
} from '../../core/api/pipeline.js';
import { adminRelease, pipelineEntries, pipelineHistory, reassign, setStage } from './service.js';

// The team pipeline. Reps claim and move businesses; admins reassign and release.
export const pipelineRoutes: FastifyPluginCallbackZod<{ ctx: AppContext }> = (app, { ctx }, done) => {
  const { db, events } = ctx;

  app.get(
    '/api/pipeline',
    {
      config: { access: 'user' },
      schema: {
        tags: ['pipeline'],
        summary:
          'Pipeline entries (owner, stage, since) of the given businesses (businessIds, comma-separated), or of every business someone is working',
        querystring: pipelineQuery,
        response: { 200: pipelineListSchema },
      },
    },
    async (request) => ({ entries: await pipelineEntries(db, request.query.businessIds) }),
  );

  app.put(
    '/api/pipeline/:businessId',
    {
      config: { access: 'user' },
      schema: {
        tags: ['pipeline'],
        summary:
          "Set a business's stage: claims an unclaimed business, moves your own, New releases it; 409 when another rep works it; replayable with an Idempotency-Key",
        params: pipelineParams,
        body: pipelineStageBody,
        response: { 200: pipelineAnswerSchema, ...errors(409, 422) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      return idempotentWrite(ctx, request, reply, user.id, async (scope) => ({
        status: 200,
        body: {
          entry: await setStage(
            scope.db,
            scope.events,
            user,
            request.params.businessId,
            request.body.stage,
            request.body.name,
          ),
        },
      }));
    },
  );

  app.get(
    '/api/pipeline/:businessId/history',
    {
      config: { access: 'user' },
      schema: {
        tags: ['pipeline'],
        summary: "A business's pipeline history (stage and owner changes), newest first",
        params: pipelineParams,
        response: { 200: pipelineHistorySchema },
      },
    },
    async (request) => ({ history: await pipelineHistory(db, request.params.businessId) }),
  );

  app.post(
    '/api/admin/pipeline/:businessId/reassign',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['pipeline'],
        summary: 'Hand a business to another rep, keeping its stage (admins)',
        params: pipelineParams,
        body: pipelineReassignBody,
        response: { 200: pipelineAnswerSchema, ...errors(409) },
      },
    },
    async (request) => ({
      entry: await reassign(db, events, currentUser(request), request.params.businessId, request.body.userId),
    }),
  );

  app.post(
    '/api/admin/pipeline/:businessId/release',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['pipeline'],
        summary: 'Release a business: nobody works it, stage New (admins)',
        params: pipelineParams,
        response: { 200: pipelineAnswerSchema, ...errors(404, 409) },
      },
    },
    async (request) => ({
      entry: await adminRelease(db, events, currentUser(request), request.params.businessId),
    }),
  );

  done();
};
