import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { listUsers, updateProfile } from './repository.js';
import { changeRole, hardDelete, removeProfile, rowPermissions, setSuspended, userData } from './service.js';
import { ensureProfile } from './accounts.js';
import { notFound } from '../http/errors.js';
import { createLimiter } from '../http/rate-limit.js';
import { TOO_MANY_ATTEMPTS } from '../../core/messages.js';
import { errors } from '../http/contract.js';
import { noContent } from '../../core/api/common.js';
import {
  profilePatch,
  roleSchema,
  userAnswer,
  userDataSchema,
  userProfileSchema,
  userRowSchema,
} from '../../core/api/accounts.js';
import { publishSessionsEnded } from '../events/routes.js';

const idParams = z.object({ id: z.string().min(1).max(100) });

export const userRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { db, config } = ctx;
  // The hard-delete password re-check, per acting SuperAdmin: a stolen session must not be able to guess
  // the password. Only wrong passwords count, so deleting many users in a row is never refused.
  const wrongPasswords = createLimiter(app, {
    name: 'hard-delete-password',
    max: config.rateLimits.signIn,
    timeWindow: '15 minutes',
    key: (req) => currentUser(req).id,
    message: TOO_MANY_ATTEMPTS,
  });

  app.get(
    '/api/me',
    {
      config: { access: 'user' },
      schema: {
        tags: ['profile'],
        summary: 'The signed-in user and their profile',
        response: { 200: userAnswer },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const profile = await ensureProfile(db, { id: me.id, name: me.name, email: me.email });
      return { user: profile };
    },
  );

  app.get(
    '/api/session',
    {
      config: { access: 'public' },
      schema: {
        tags: ['profile'],
        summary: 'The signed-in user and their profile, or null when signed out (the page load asks this)',
        response: { 200: z.object({ user: userProfileSchema.nullable() }) },
      },
    },
    async (request) => {
      // 200 either way: a signed-out page load is not an error (a 401 here would be logged by every browser).
      const me = request.user;
      if (!me) return { user: null };
      return { user: await ensureProfile(db, { id: me.id, name: me.name, email: me.email }) };
    },
  );

  app.patch(
    '/api/me',
    {
      config: { access: 'user' },
      schema: {
        tags: ['profile'],
        summary: 'Update own name, preferences and saved search settings',
        body: profilePatch(config.discovery.radiusMaxMiles),
        response: { 200: userAnswer },
      },
    },
    async (request) => {
      const me = currentUser(request);
      await updateProfile(db.kysely, me.id, request.body);
      return { user: await ensureProfile(db, { id: me.id, name: me.name, email: me.email }) };
    },
  );

  app.get(
    '/api/users',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['users'],
        summary: 'All users, with what the caller may do to each',
        response: { 200: z.object({ users: z.array(userRowSchema) }) },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const users = await listUsers(db.kysely);
      return { users: users.map((u) => ({ ...u, searchSettings: undefined, can: rowPermissions(me, u) })) };
    },
  );

  app.patch(
    '/api/users/:id/role',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['users'],
        summary: 'Change a role (admins: user/admin; SuperAdmins: any)',
        params: idParams,
        body: z.object({ role: roleSchema }),
        response: { 200: userAnswer, ...errors(404) },
      },
    },
    async (request) => ({
      user: await changeRole(db, currentUser(request), request.params.id, request.body.role),
    }),
  );

  app.delete(
    '/api/users/:id',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['users'],
        summary: 'Delete a user profile (not SuperAdmins)',
        params: idParams,
        response: { 204: noContent, ...errors(404) },
      },
    },
    async (request, reply) => {
      await removeProfile(db, currentUser(request), request.params.id);
      await publishSessionsEnded(ctx.events, request.params.id);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/users/:id/suspend',
    {
      config: { access: 'superadmin' },
      schema: {
        tags: ['users'],
        summary: 'Suspend a user and end their sessions',
        params: idParams,
        response: { 200: userAnswer, ...errors(404) },
      },
    },
    async (request) => {
      const user = await setSuspended(db, currentUser(request), request.params.id, true);
      await publishSessionsEnded(ctx.events, request.params.id);
      return { user };
    },
  );

  app.post(
    '/api/users/:id/unsuspend',
    {
      config: { access: 'superadmin' },
      schema: {
        tags: ['users'],
        summary: 'Re-enable a suspended user',
        params: idParams,
        response: { 200: userAnswer, ...errors(404) },
      },
    },
    async (request) => ({ user: await setSuspended(db, currentUser(request), request.params.id, false) }),
  );

  app.post(
    '/api/users/:id/hard-delete',
    {
      config: { access: 'superadmin' },
      schema: {
        tags: ['users'],
        summary: "Delete a user and all their data; needs the acting SuperAdmin's password",
        params: idParams,
        body: z.object({ password: z.string().max(128) }),
        response: { 204: noContent, ...errors(404, 429) },
      },
    },
    async (request, reply) => {
      await wrongPasswords.check(request, reply);
      await hardDelete(db, currentUser(request), request.params.id, request.body.password, () =>
        wrongPasswords.count(request),
      );
      await publishSessionsEnded(ctx.events, request.params.id);
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/users/:id/data',
    {
      config: { access: 'superadmin' },
      schema: {
        tags: ['users'],
        summary: 'Counts of a user’s stored data (User Data Testing)',
        params: idParams,
        response: { 200: userDataSchema, ...errors(404) },
      },
    },
    async (request) => {
      const data = await userData(db, currentUser(request), request.params.id);
      if (!data) throw notFound('User not found');
      return data;
    },
  );
};
