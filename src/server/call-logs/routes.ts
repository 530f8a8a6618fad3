import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { exportTimeZone, sendCsv, timeZoneParam } from '../exports/send.js';
import { errors } from '../http/contract.js';
import { idempotentWrite } from '../http/idempotency.js';
import { csvFile, noContent, requiredText } from '../../core/api/common.js';
import { callLogAnswer, callLogBody, callLogSchema } from '../../core/api/lists.js';
import {
  addCallLog,
  CALL_HISTORY_CLEARED,
  clearCallLogs,
  exportCallLogs,
  ownCallLogs,
  removeCallLog,
} from './service.js';

export const callLogRoutes: FastifyPluginCallbackZod<{ ctx: AppContext }> = (app, { ctx }, done) => {
  const { db } = ctx;

  app.get(
    '/api/call-logs',
    {
      config: { access: 'user' },
      schema: {
        tags: ['call-logs'],
        summary: 'Own call history, newest first',
        response: { 200: z.object({ callLogs: z.array(callLogSchema) }) },
      },
    },
    async (request) => ({ callLogs: await ownCallLogs(db, currentUser(request).id) }),
  );

  app.post(
    '/api/call-logs',
    {
      config: { access: 'user' },
      schema: {
        tags: ['call-logs'],
        summary:
          'Log a call or visit, with a follow-up in the same transaction; replayable with an Idempotency-Key',
        body: callLogBody,
        response: { 201: callLogAnswer, ...errors(422) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      return idempotentWrite(ctx, request, reply, user.id, async (scope) => ({
        status: 201,
        body: await addCallLog(scope.db, user, request.body, scope.events),
      }));
    },
  );

  app.delete(
    '/api/call-logs/:id',
    {
      config: { access: 'user' },
      schema: {
        tags: ['call-logs'],
        summary: 'Delete one own entry',
        params: z.object({ id: requiredText(100) }),
        response: { 204: noContent, ...errors(404) },
      },
    },
    async (request, reply) => {
      await removeCallLog(db, currentUser(request).id, request.params.id);
      return reply.status(204).send();
    },
  );

  app.delete(
    '/api/call-logs',
    {
      config: { access: 'user' },
      schema: {
        tags: ['call-logs'],
        summary: 'Clear all own entries; answers how many went',
        response: { 200: z.object({ deleted: z.number().int(), message: z.string() }), ...errors(404) },
      },
    },
    async (request) => {
      const deleted = await clearCallLogs(db, currentUser(request).id);
      return { deleted, message: CALL_HISTORY_CLEARED };
    },
  );

  app.get(
    '/api/call-logs/export.csv',
    {
      config: { access: 'user' },
      schema: {
        tags: ['call-logs'],
        summary: 'Own call history as call_log_{user}_{date}.csv, dates in the given IANA time zone (tz)',
        querystring: z.object({ tz: timeZoneParam }),
        response: { 200: csvFile, ...errors(404) },
      },
    },
    async (request, reply) => {
      const { fileName, csv } = await exportCallLogs(
        db,
        currentUser(request),
        new Date(),
        exportTimeZone(request.query.tz),
      );
      return sendCsv(reply, fileName, csv);
    },
  );
  done();
};
