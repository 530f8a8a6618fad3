import { betterAuth } from 'better-auth';
import { APIError } from 'better-auth/api';
import { getMigrations } from 'better-auth/db/migration';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Mailer } from '../mail/mailer.js';
import { ACCOUNT_DISABLED } from '../../core/messages.js';
import { isSuspended } from '../users/repository.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { voidResetLinks } from './reset-links.js';
import { configuredOrigins, trustedOriginsFor } from '../http/cross-site.js';

export interface AuthDeps {
  db: Db;
  config: Config;
  secret: string;
  mailer: Mailer;
  /** Called after better-auth deleted a session (sign-out, revoked by a password reset or change). */
  onSessionEnded?: (session: { id: string; userId: string }) => void;
}

function authOptions({ db, config, secret, mailer, onSessionEnded }: AuthDeps) {
  const origins = configuredOrigins(config.publicUrl, config.allowedOrigins);
  return {
    appName: 'Prospect Finder',
    database: { db: db.kysely, type: db.kind },
    secret,
    baseURL: config.publicUrl,
    basePath: '/api/auth',
    // The same origins the app's cross-site guard accepts (http/cross-site.ts): PUBLIC_URL, ALLOWED_ORIGINS
    // and the address the request was sent to.
    trustedOrigins: (request?: Request) => trustedOriginsFor(origins, request),
    emailAndPassword: {
      enabled: true,
      // Accounts are created only through /api/register, which checks and consumes invitations.
      disableSignUp: true,
      minPasswordLength: config.passwordMinLength,
      maxPasswordLength: 128,
      // better-auth's own scrypt, a bounded number at a time (passwords.ts).
      password: { hash: hashPassword, verify: verifyPassword },
      revokeSessionsOnPasswordReset: true,
      // better-auth spends only the link used: the account's other links would still set the password.
      onPasswordReset: async ({ user }: { user: { id: string } }) => voidResetLinks(db.kysely, user.id),
      sendResetPassword: async ({ user, url }: { user: { email: string; name: string }; url: string }) => {
        await mailer.send({
          to: user.email,
          subject: 'Reset your Prospect Finder password',
          text: `Hello ${user.name},\n\nOpen this link to choose a new password (valid for one hour):\n${url}\n\nIf you did not ask for this, ignore this e-mail.`,
        });
      },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
      // No cookie cache: suspension and deletion take effect on the very next request.
      cookieCache: { enabled: false },
    },
    // Sign-in is rate limited by our own route in front of better-auth (see auth/routes.ts).
    rateLimit: { enabled: false },
    advanced: {
      useSecureCookies: config.publicUrl.startsWith('https://'),
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' as const },
    },
    databaseHooks: {
      session: {
        delete: {
          after: (session: { id: string; userId: string }) => {
            onSessionEnded?.({ id: session.id, userId: session.userId });
            return Promise.resolve();
          },
        },
        create: {
          before: async (session: { userId: string }) => {
            // A suspended account gets no session, whichever way it signs in (password reset included).
            if (await isSuspended(db.kysely, session.userId)) {
              throw new APIError('FORBIDDEN', { message: ACCOUNT_DISABLED });
            }
          },
        },
      },
    },
  };
}

export function createAuth(deps: AuthDeps) {
  return betterAuth(authOptions(deps));
}

export type Auth = ReturnType<typeof createAuth>;

/** Create or update better-auth's own tables ("user", "session", "account", "verification"). */
export async function migrateAuthTables(deps: AuthDeps): Promise<void> {
  const { runMigrations } = await getMigrations(authOptions(deps));
  await runMigrations();
}
