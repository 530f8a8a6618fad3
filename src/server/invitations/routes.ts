import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { route } from '../http/route.js';
import { INVITATION_VALID, ONLY_ADMINS_GENERATE, ONLY_ADMINS_VIEW } from '../../core/messages.js';
import { allInvitations, checkInvitation, generateInvitation } from './service.js';
import { assertEmail, normaliseEmail } from '../users/accounts.js';
import { HttpError } from '../http/errors.js';
import { invitationCheckSchema } from '../../core/api/accounts.js';

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

  // Registered directly, not from a contract entry: route() carries no rate limit.
  app.get(
    '/api/invitations/check',
    {
      config: {
        access: 'public',
        rateLimit: {
          max: config.rateLimits.invitationCheck,
          timeWindow: '1 minute',
          // For API clients; the registration form shows 'Error validating invitation code' for any failed check.
          errorResponseBuilder: () => new HttpError(429, INVITATION_CHECKS_TOO_MANY),
        },
      },
      schema: {
        tags: ['invitations'],
        summary: 'Live validation of an invitation code for the registration form',
        querystring: z.object({ code: z.string().max(100), email: z.string().max(254).optional() }),
        response: { 200: invitationCheckSchema },
      },
    },
    async (request) => {
      const problem = await checkInvitation(db, request.query.code, request.query.email);
      return problem ? { valid: false, message: problem } : { valid: true, message: INVITATION_VALID };
    },
  );
};
