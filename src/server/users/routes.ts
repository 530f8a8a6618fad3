import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { findProfile, listProfiles, updateProfile } from './repository.js';
import { changeRole, hardDelete, removeProfile, rowPermissions, setSuspended, userData } from './service.js';
import { ensureProfile } from './accounts.js';
import { notFound } from '../http/errors.js';

export const searchSettingsSchema = z.object({
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
  label: z.string().max(300),
  radiusMiles: z.number().min(0.1).max(50),
  count: z.number().int().min(1).max(100),
  categories: z.array(z.string().max(40)).max(50),
});

const roleSchema = z.enum(['user', 'admin', 'SuperAdmin']);
const idParams = z.object({ id: z.string().min(1).max(100) });

export const userRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { db } = ctx;

  app.get(
    '/api/me',
    {
      config: { access: 'user' },
      schema: { tags: ['profile'], summary: 'The signed-in user and their profile' },
    },
    async (request) => {
      const me = currentUser(request);
      const profile = await ensureProfile(db, { id: me.id, name: me.name, email: me.email });
      return { user: profile };
    },
  );

  app.patch(
    '/api/me',
    {
      config: { access: 'user' },
      schema: {
        tags: ['profile'],
        summary: 'Update own name, preferences and saved search settings',
        body: z
          .object({
            name: z.string().trim().min(1).max(200),
            hideInstructions: z.boolean(),
            installPromptDismissed: z.boolean(),
            searchSettings: searchSettingsSchema,
          })
          .partial()
          .strict(),
      },
    },
    async (request) => {
      const me = currentUser(request);
      await updateProfile(db.kysely, me.id, request.body);
      return { user: await findProfile(db.kysely, me.id) };
    },
  );

  app.get(
    '/api/users',
    {
      config: { access: 'admin' },
      schema: { tags: ['users'], summary: 'All users, with what the caller may do to each' },
    },
    async (request) => {
      const me = currentUser(request);
      const users = await listProfiles(db.kysely);
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
      schema: { tags: ['users'], summary: 'Delete a user profile (not SuperAdmins)', params: idParams },
    },
    async (request, reply) => {
      await removeProfile(db, currentUser(request), request.params.id);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/users/:id/suspend',
    {
      config: { access: 'superadmin' },
      schema: { tags: ['users'], summary: 'Suspend a user and end their sessions', params: idParams },
    },
    async (request) => ({ user: await setSuspended(db, currentUser(request), request.params.id, true) }),
  );

  app.post(
    '/api/users/:id/unsuspend',
    {
      config: { access: 'superadmin' },
      schema: { tags: ['users'], summary: 'Re-enable a suspended user', params: idParams },
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
      },
    },
    async (request, reply) => {
      await hardDelete(db, currentUser(request), request.params.id, request.body.password);
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
      },
    },
    async (request) => {
      const data = await userData(db, request.params.id);
      if (!data) throw notFound('User not found');
      return data;
    },
  );
};
