import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { errors } from '../http/contract.js';
import { idempotentWrite } from '../http/idempotency.js';
import { requiredText, text, noContent } from '../../core/api/common.js';
import { advertiserSchema, importReportSchema } from '../../core/api/lists.js';
import { ONLY_ADMINS_REMOVE_ADVERTISERS } from '../../core/messages.js';
import { currentAdvertisers, importAdvertisers, markAdvertiser, unmarkAdvertiser } from './service.js';

const businessIdParams = z.object({ businessId: requiredText(300) });
const markedAnswer = z.object({ advertiser: advertiserSchema, created: z.boolean() });

/** Largest customer-list upload (about 10,000 rows of 500 bytes). */
const IMPORT_BODY_LIMIT = 5 * 1024 * 1024;

export const advertiserRoutes: FastifyPluginCallbackZod<{ ctx: AppContext }> = (app, { ctx }, done) => {
  const { db, events } = ctx;

  app.get(
    '/api/current-advertisers',
    {
      config: { access: 'user' },
      schema: {
        tags: ['advertisers'],
        summary: 'Businesses marked as current advertisers, newest first',
        response: { 200: z.object({ advertisers: z.array(advertiserSchema) }) },
      },
    },
    async () => ({ advertisers: await currentAdvertisers(db) }),
  );

  app.post(
    '/api/current-advertisers',
    {
      config: { access: 'user' },
      schema: {
        tags: ['advertisers'],
        summary:
          'Mark a current advertiser (any user); a second mark answers the existing one; replayable with an Idempotency-Key',
        body: z.object({ businessId: text(300), label: text(300).default('') }),
        response: {
          200: markedAnswer.describe('Already marked: the existing mark'),
          201: markedAnswer.describe('Newly marked'),
          ...errors(422),
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      return idempotentWrite(ctx, request, reply, user.id, async (scope) => {
        const { advertiser, created } = await markAdvertiser(scope.db, scope.events, user, request.body);
        return { status: created ? 201 : 200, body: { advertiser, created } };
      });
    },
  );

  app.delete(
    '/api/current-advertisers/:businessId',
    {
      config: { access: 'admin', deniedMessage: ONLY_ADMINS_REMOVE_ADVERTISERS },
      schema: {
        tags: ['advertisers'],
        summary: 'Unmark a current advertiser (admins); replayable with an Idempotency-Key',
        params: businessIdParams,
        response: { 204: noContent, ...errors(404, 422) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      return idempotentWrite(ctx, request, reply, user.id, async (scope) => {
        await unmarkAdvertiser(scope.db, scope.events, user, request.params.businessId);
        return { status: 204, body: null };
      });
    },
  );

  // A customer list may be posted as the CSV file itself, as text/csv: unlike text/plain, no cross-site form
  // can send that type (and fetch() from another origin needs a preflight the server never grants).
  app.addContentTypeParser('text/csv', { parseAs: 'string' }, (_request, body, parsed) => {
    parsed(null, body);
  });

  app.post(
    '/api/current-advertisers/import',
    {
      config: { access: 'admin' },
      // A customer list of up to MAX_IMPORT_ROWS rows may exceed the general body limit.
      bodyLimit: Math.max(ctx.config.bodyLimit, IMPORT_BODY_LIMIT),
      schema: {
        tags: ['advertisers'],
        summary:
          'Import a customer list (CSV with name, address, phone or website columns; text/csv or JSON {csv}): ' +
          'matches are marked as current advertisers; answers {matched, unmatched, newlyMarked}',
        body: z.union([z.string(), z.object({ csv: z.string() })]),
        response: { 200: importReportSchema },
      },
    },
    async (request) => {
      const csv = typeof request.body === 'string' ? request.body : request.body.csv;
      return importAdvertisers(db, events, currentUser(request), csv);
    },
  );

  done();
};
