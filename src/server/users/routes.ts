import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { findProfile, listUsers, updateProfile } from './repository.js';
import { changeRole, hardDelete, removeProfile, rowPermissions, setSuspended, userData } from './service.js';
import { ensureProfile } from './accounts.js';
import { notFound } from '../http/errors.js';
import { createLimiter } from '../http/rate-limit.js';
import { TOO_MANY_ATTEMPTS } from '../../core/messages.js';
import { publishSessionsEnded } from '../events/routes.js';

/**
 * Saved search settings as SPEC §5 and §9 bound them: radius 0.5 miles to the configured maximum, prospect
 * count 5 to 50. Checked on write only: settings stored under the older, looser bounds still read back (the
 * web clamps them into its sliders).
 */
export const searchSettingsSchema = (radiusMaxMiles: number) =>
  z.object({
    lat: z.number().min(-90).max(90),
    lng: z.number().min(-180).max(180),
    label: z.string().max(300),
    radiusMiles: z.number().min(0.5).max(radiusMaxMiles),
    count: z.number().int().min(5).max(50),
    categories: z.array(z.string().max(40)).max(50),
    /** "Spread results out" (absent in settings saved before the option existed: off). */
    spreadOut: z.boolean().optional(),
  });

const roleSchema = z.enum(['user', 'admin', 'SuperAdmin']);
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
      schema: { tags: ['profile'], summary: 'The signed-in user and their profile' },
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
        body: z
          .object({
            name: z.string().trim().min(1).max(200),
            hideInstructions: z.boolean(),
            installPromptDismissed: z.boolean(),
            searchSettings: searchSettingsSchema(config.discovery.radiusMaxMiles),
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
      await publishSessionsEnded(ctx.events, request.params.id);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/users/:id/suspend',
    {
      config: { access: 'superadmin' },
      schema: { tags: ['users'], summary: 'Suspend a user and end their sessions', params: idParams },
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
      },
    },
    async (request) => {
      const data = await userData(db, currentUser(request), request.params.id);
      if (!data) throw notFound('User not found');
      return data;
    },
  );
};
