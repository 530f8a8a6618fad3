import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ACCOUNT_DISABLED,
  TOO_MANY_ATTEMPTS,
  USER_NOT_FOUND,
  WRONG_PASSWORD,
  GENERIC_ERROR,
  weakPassword,
} from '../../core/messages.js';
import type { AppContext } from '../context.js';
import { nodeHeaders } from '../http/access.js';
import { badRequest, forbidden, HttpError } from '../http/errors.js';
import { createLimiter } from '../http/rate-limit.js';
import { route } from '../http/route.js';
import { ownOrigin } from '../http/cross-site.js';
import { resetLinkOutdated } from './reset-links.js';

/** better-auth's own answer to a spent or unknown reset token, so every void link reads the same. */
const RESET_LINK_INVALID = 'Invalid token';
import { assertEmail, ensureProfile, normaliseEmail, registerAccount } from '../users/accounts.js';
import { findAuthUserByEmail, isSuspended, updateProfile } from '../users/repository.js';
import { nowIso } from '../db/database.js';

// better-auth endpoints the browser may reach directly. Sign-in and sign-up go through our own routes below,
// which add the invitation rules, the product's own messages (core/messages.ts), suspension and rate
// limiting. Password reset is ours too (/api/password-reset), for its rate limits and the product's
// weak-password message; only the e-mailed link's landing (GET /api/auth/reset-password/:token) is
// better-auth's.
const PASSTHROUGH = new Set(['GET /api/auth/get-session', 'POST /api/auth/sign-out']);
/** The e-mailed link: better-auth's tokens are letters and digits; one segment, nothing after it. */
const RESET_LANDING = /^\/api\/auth\/reset-password\/[A-Za-z0-9_-]{1,200}$/;

/**
 * A path better-auth would resolve differently from how it reads: a `.` or `..` segment, written plainly or
 * percent-encoded (`%2e%2e`, `..%2f`, even encoded twice), or an encoded or back slash. better-auth resolves
 * `/api/auth/reset-password/../list-sessions` to `/api/auth/list-sessions`, so such a path must never be
 * compared as written; none of the app's paths needs one.
 */
export function isAmbiguousPath(path: string): boolean {
  let decoded = path;
  // Decoded up to three times, so `%252e%252e` (encoded twice) is seen as `..` too.
  for (let i = 0; i < 3; i++) {
    if (/%2f|%5c|\\/i.test(decoded)) return true;
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      return true;
    }
    if (next === decoded) break;
    decoded = next;
  }
  if (decoded.includes('\\')) return true;
  return decoded.split('/').some((segment) => segment === '.' || segment === '..');
}

/** Whether better-auth may answer this request itself, judged on the path as better-auth resolves it. */
const isPassthrough = (method: string, path: string) => {
  const resolved = new URL(path, 'http://app.invalid').pathname;
  if (resolved !== path) return false;
  return PASSTHROUGH.has(`${method} ${path}`) || (method === 'GET' && RESET_LANDING.test(path));
};

/**
 * Turn a Fastify request into a web Request for better-auth's handler, addressed to the origin the request
 * was sent to (better-auth trusts that origin, as the cross-site guard does: http/cross-site.ts). The path
 * is appended to the origin, so no request line can change the host.
 */
function toWebRequest(request: FastifyRequest, publicUrl: string): Request {
  const url = new URL(`${ownOrigin(request) ?? new URL(publicUrl).origin}${request.url}`);
  const init: RequestInit = { method: request.method, headers: nodeHeaders(request) };
  if (request.body !== undefined && request.method !== 'GET' && request.method !== 'HEAD') {
    init.body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
  }
  return new Request(url, init);
}

async function sendWebResponse(reply: FastifyReply, response: Response): Promise<FastifyReply> {
  reply.status(response.status);
  response.headers.forEach((value, key) => {
    if (key !== 'set-cookie' && key !== 'content-length') void reply.header(key, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) void reply.header('set-cookie', cookies);
  const text = await response.text();
  if (!text) return reply.send();
  try {
    const body = JSON.parse(text) as { message?: string; error?: string };
    if (response.status >= 400) return reply.send({ error: body.message ?? body.error ?? GENERIC_ERROR });
    return reply.send(body);
  } catch {
    return reply.send(text);
  }
}

export const authRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { db, auth, config } = ctx;

  app.route({
    method: ['GET', 'POST'],
    url: '/api/auth/*',
    schema: { hide: true },
    handler: async (request, reply) => {
      const path = request.url.split('?')[0] ?? '';
      if (isAmbiguousPath(path)) return reply.status(400).send({ error: 'Invalid path.' });
      if (!isPassthrough(request.method, path)) return reply.status(404).send({ error: 'Not found' });
      return sendWebResponse(reply, await auth.handler(toWebRequest(request, config.publicUrl)));
    },
  });

  route(
    app,
    'POST /api/register',
    {
      config: {
        rateLimit: {
          max: config.rateLimits.signIn,
          timeWindow: '15 minutes',
          errorResponseBuilder: (_request, context) =>
            new HttpError(429, TOO_MANY_ATTEMPTS, { retryAfterMs: context.ttl }),
        },
      },
    },
    async (request, reply) => {
      const { userId, role } = await registerAccount(db, request.body, config.passwordMinLength);
      const email = normaliseEmail(request.body.email);
      const response = await auth.api.signInEmail({
        body: { email, password: request.body.password },
        headers: nodeHeaders(request),
        asResponse: true,
      });
      if (!response.ok) return sendWebResponse(reply, response);
      const cookies = response.headers.getSetCookie();
      if (cookies.length) void reply.header('set-cookie', cookies);
      await updateProfile(db.kysely, userId, { lastSignInAt: nowIso() });
      return reply.status(201).send({ ok: true, role });
    },
  );

  // Sign-out through our own route: better-auth's /api/auth/sign-out checks the Origin against PUBLIC_URL,
  // so it refused a browser that opened the app at another address (http://127.0.0.1:3000, a LAN IP on a
  // phone), and the cookie survived to sign the user back in on reload. auth.api calls skip that check;
  // SameSite=Lax keeps other sites from sending the cookie on a DELETE.
  route(app, 'DELETE /api/session', async (request, reply) => {
    const response = await auth.api.signOut({ headers: nodeHeaders(request), asResponse: true });
    if (!response.ok) return sendWebResponse(reply, response);
    const cookies = response.headers.getSetCookie();
    if (cookies.length) void reply.header('set-cookie', cookies);
    return reply.send({ ok: true });
  });

  // Password spraying: one address trying many accounts never reaches the per-address limit above, so the
  // failures of one IP are counted across every e-mail too. Only failures count: an office behind one
  // address signs in all morning without being refused.
  const failedSignInsPerIp = createLimiter(app, {
    name: 'sign-in-ip',
    max: config.rateLimits.signInFailuresPerIp,
    timeWindow: '15 minutes',
    key: (req) => req.ip,
    message: TOO_MANY_ATTEMPTS,
  });

  route(
    app,
    'POST /api/session',
    {
      config: {
        rateLimit: {
          max: config.rateLimits.signIn,
          timeWindow: '15 minutes',
          // Counted once the body is parsed: at onRequest (the default) the e-mail is not known yet, so every
          // address from one IP (a whole office behind NAT) shared a single count.
          hook: 'preHandler',
          keyGenerator: (req: FastifyRequest) => {
            const email = (req.body as { email?: unknown } | undefined)?.email;
            return `${req.ip}|${typeof email === 'string' ? normaliseEmail(email) : ''}`;
          },
          errorResponseBuilder: (_request, context) =>
            new HttpError(429, TOO_MANY_ATTEMPTS, { retryAfterMs: context.ttl }),
        },
      },
    },
    // The attempt takes its place in the per-IP count before it runs, so attempts sent at once cannot all
    // pass a count none of them has added to yet; one that did not fail gives its place back.
    (request, reply) =>
      failedSignInsPerIp.countFailures(request, reply, async (failed) => {
        const email = normaliseEmail(request.body.email);
        assertEmail(email);
        const user = await findAuthUserByEmail(db.kysely, email);
        if (!user) return failed(new HttpError(401, USER_NOT_FOUND));
        if (await isSuspended(db.kysely, user.id)) return failed(forbidden(ACCOUNT_DISABLED));
        const response = await auth.api.signInEmail({
          body: { email, password: request.body.password },
          headers: nodeHeaders(request),
          asResponse: true,
        });
        if (response.status === 401) return failed(new HttpError(401, WRONG_PASSWORD));
        if (!response.ok) return sendWebResponse(reply, response);
        const cookies = response.headers.getSetCookie();
        if (cookies.length) void reply.header('set-cookie', cookies);
        await ensureProfile(db, user);
        await updateProfile(db.kysely, user.id, { lastSignInAt: nowIso() });
        return reply.send({ ok: true });
      }),
  );

  // Every reset request sends an e-mail (or writes one to the outbox): limited per IP and per address, so
  // nobody can mail-bomb an address or fill $DATA_DIR/outbox. better-auth's own limiter is off (auth.ts).
  const resetWindow = '1 hour';
  const resetsPerIp = createLimiter(app, {
    name: 'password-reset-ip',
    max: config.rateLimits.passwordReset,
    timeWindow: resetWindow,
    key: (req) => req.ip,
    message: TOO_MANY_ATTEMPTS,
  });
  const resetsPerEmail = createLimiter(app, {
    name: 'password-reset-email',
    max: config.rateLimits.passwordReset,
    timeWindow: resetWindow,
    key: (req) => normaliseEmail((req.body as { email: string }).email),
    message: TOO_MANY_ATTEMPTS,
  });

  route(
    app,
    'POST /api/password-reset',
    {
      preHandler: async (request, reply) => {
        await resetsPerIp.hit(request, reply);
        await resetsPerEmail.hit(request, reply);
      },
    },
    async (request) => {
      const email = normaliseEmail(request.body.email);
      assertEmail(email);
      await auth.api.requestPasswordReset({
        body: { email, redirectTo: '/reset-password' },
        headers: nodeHeaders(request),
      });
      return { ok: true as const };
    },
  );

  route(app, 'POST /api/password-reset/complete', async (request, reply) => {
    const { token, newPassword } = request.body;
    if (newPassword.length < config.passwordMinLength) {
      throw badRequest(weakPassword(config.passwordMinLength));
    }
    // A link sent before the password last changed (another link was used since, or the password was
    // changed) is void, like the link used.
    if (await resetLinkOutdated(db.kysely, token)) throw badRequest(RESET_LINK_INVALID);
    const response = await auth.api.resetPassword({
      body: { token, newPassword },
      headers: nodeHeaders(request),
      asResponse: true,
    });
    if (!response.ok) return sendWebResponse(reply, response);
    return reply.send({ ok: true });
  });
};
