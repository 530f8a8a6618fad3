import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { route } from '../http/route.js';
import { INVITATION_VALID, ONLY_ADMINS_GENERATE, ONLY_ADMINS_VIEW } from '../../core/messages.js';
import { allInvitations, checkInvitation, generateInvitation, revokeInvitation } from './service.js';
import { assertEmail, normaliseEmail } from '../users/accounts.js';
import { HttpError } from '../http/errors.js';

const INVITATION_CHECKS_TOO_MANY = 'Too many invitation code checks. Please wait a minute and try again.';

export const invitationRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { db, config } = ctx;

  route(
    app,
    'POST /api/invitations',
    { config: { deniedMessage: ONLY_ADMINS_GENERATE } },
    async (request, reply) => {
      const me = currentUser(request);
      const email = request.body?.email?.trim() ? normaliseEmail(request.body.email) : undefined;
      if (email) assertEmail(email);
      const invitation = await generateInvitation(db, me, email);
      return reply.status(201).send({ invitation, link: `${config.publicUrl}/?invite=${invitation.code}` });
    },
  );

  route(app, 'GET /api/invitations', { config: { deniedMessage: ONLY_ADMINS_VIEW } }, async () => ({
    invitations: await allInvitations(db),
  }));

  route(app, 'POST /api/invitations/:id/revoke', async (request) => ({
    invitation: await revokeInvitation(db, currentUser(request), request.params.id),
  }));

  route(
    app,
    'GET /api/invitations/check',
    {
      config: {
        rateLimit: {
          max: config.rateLimits.invitationCheck,
          timeWindow: '1 minute',
          // For API clients; the registration form shows 'Error validating invitation code' for any failed check.
          errorResponseBuilder: () => new HttpError(429, INVITATION_CHECKS_TOO_MANY),
        },
      },
    },
    async (request) => {
      const problem = await checkInvitation(db, request.query.code, request.query.email);
      return problem ? { valid: false, message: problem } : { valid: true, message: INVITATION_VALID };
    },
  );
};
