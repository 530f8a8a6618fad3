import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { errors } from '../http/contract.js';
import { noContent, requiredText, text } from '../../core/api/common.js';
import { blockAnswer, blockCheckSchema, blockedSchema } from '../../core/api/lists.js';
import { blockBusiness, blocklist, checkBlocked, clearBlocklist, unblockBusiness } from './service.js';

const businessIdParams = z.object({ businessId: requiredText(300) });

export const blocklistRoutes: FastifyPluginCallbackZod<{ ctx: AppContext }> = (app, { ctx }, done) => {
  const { db, events } = ctx;

  app.get(
    '/api/blocklist',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['blocklist'],
        summary: 'The shared blocklist (Blocked tab), newest first',
        response: { 200: z.object({ blocklist: z.array(blockedSchema) }) },
      },
    },
    async () => ({ blocklist: await blocklist(db) }),
  );

  app.post(
    '/api/blocklist',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['blocklist'],
        summary: 'Block a business for every user; a business without a stable id cannot be blocked',
        body: z.object({ businessId: text(300).nullish(), label: text(300).default('') }),
        response: {
          200: blockAnswer.describe('Already blocked: the existing entry'),
          201: blockAnswer.describe('Newly blocked'),
        },
      },
    },
    async (request, reply) => {
      const result = await blockBusiness(db, events, currentUser(request), request.body);
      return reply.status(result.created ? 201 : 200).send(result);
    },
  );

  app.delete(
    '/api/blocklist/:businessId',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['blocklist'],
        summary: 'Unblock a business',
        params: businessIdParams,
        response: { 204: noContent, ...errors(404) },
      },
    },
    async (request, reply) => {
      await unblockBusiness(db, events, currentUser(request), request.params.businessId);
      return reply.status(204).send();
    },
  );

  app.delete(
    '/api/blocklist',
    {
      config: { access: 'superadmin' },
      schema: {
        tags: ['blocklist'],
        summary: 'Clear the whole blocklist (SuperAdmins)',
        response: { 200: z.object({ cleared: z.number().int() }) },
      },
    },
    async (request) => ({ cleared: await clearBlocklist(db, events, currentUser(request)) }),
  );

  app.get(
    '/api/blocklist/check/:businessId',
    {
      config: { access: 'superadmin' },
      schema: {
        tags: ['blocklist'],
        summary: 'Universal Blocklist Debug: is this business id blocked',
        params: businessIdParams,
        response: { 200: blockCheckSchema },
      },
    },
    async (request) => checkBlocked(db, currentUser(request), request.params.businessId),
  );

  done();
};
