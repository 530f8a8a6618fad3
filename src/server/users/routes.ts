import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { route } from '../http/route.js';
import { listUsers, updateProfile } from './repository.js';
import { changeRole, hardDelete, removeProfile, rowPermissions, setSuspended, userData } from './service.js';
import { ensureProfile } from './accounts.js';
import { notFound } from '../http/errors.js';
import { createLimiter } from '../http/rate-limit.js';
import { REAUTH_NOT_AUTHENTICATED, TOO_MANY_ATTEMPTS } from '../../core/messages.js';
import { profilePatch } from '../../core/api/accounts.js';
import { publishSessionsEnded } from '../events/routes.js';

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

  route(app, 'GET /api/me', async (request) => {
    const me = currentUser(request);
    const profile = await ensureProfile(db, { id: me.id, name: me.name, email: me.email });
    return { user: profile };
  });

  route(app, 'GET /api/session', async (request) => {
    // 200 either way: a signed-out page load is not an error (a 401 here would be logged by every browser).
    const me = request.user;
    if (!me) return { user: null };
    return { user: await ensureProfile(db, { id: me.id, name: me.name, email: me.email }) };
  });

  route(app, 'PATCH /api/me', { body: profilePatch(config.discovery.radiusMaxMiles) }, async (request) => {
    const me = currentUser(request);
    await updateProfile(db.kysely, me.id, request.body);
    return { user: await ensureProfile(db, { id: me.id, name: me.name, email: me.email }) };
  });

  route(app, 'GET /api/users', async (request) => {
    const me = currentUser(request);
    const users = await listUsers(db.kysely);
    return { users: users.map((u) => ({ ...u, searchSettings: undefined, can: rowPermissions(me, u) })) };
  });

  route(app, 'PATCH /api/users/:id/role', async (request) => ({
    user: await changeRole(db, currentUser(request), request.params.id, request.body.role),
  }));

  route(app, 'DELETE /api/users/:id', async (request, reply) => {
    await removeProfile(db, currentUser(request), request.params.id);
    await publishSessionsEnded(ctx.events, request.params.id);
    return reply.status(204).send();
  });

  route(app, 'POST /api/users/:id/suspend', async (request) => {
    const user = await setSuspended(db, currentUser(request), request.params.id, true);
    await publishSessionsEnded(ctx.events, request.params.id);
    return { user };
  });

  route(app, 'POST /api/users/:id/unsuspend', async (request) => ({
    user: await setSuspended(db, currentUser(request), request.params.id, false),
  }));

  route(
    app,
    'POST /api/users/:id/hard-delete',
    { config: { unauthenticatedMessage: REAUTH_NOT_AUTHENTICATED } },
    async (request, reply) => {
      // The try takes its place before the password is compared (tries sent at once cannot all pass the
      // count); anything but a wrong password gives it back.
      await wrongPasswords.countFailures(request, reply, (fail) =>
        hardDelete(db, currentUser(request), request.params.id, request.body.password, fail),
      );
      await publishSessionsEnded(ctx.events, request.params.id);
      return reply.status(204).send();
    },
  );

  route(app, 'GET /api/users/:id/data', async (request) => {
    const data = await userData(db, currentUser(request), request.params.id);
    if (!data) throw notFound('User not found');
    return data;
  });
};
