import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { randomBytes } from 'node:crypto';
import { parseConfig, type Config } from '../../src/server/config.js';
import type { Db } from '../../src/server/db/database.js';
import { buildApp, type BuildOptions } from '../../src/server/app.js';
import type { Mail, Mailer } from '../../src/server/mail/mailer.js';
import type { Role } from '../../src/server/db/schema.js';
import { registerAccount } from '../../src/server/users/accounts.js';
import { updateProfile } from '../../src/server/users/repository.js';
import { createInvitation } from '../../src/server/invitations/service.js';
import { createTestDatabase, type TestDatabase } from './db.js';

export const ORIGIN = 'http://localhost:3000';

export interface TestUser {
  id: string;
  email: string;
  name: string;
  password: string;
  role: Role;
  cookie: string;
}

export interface TestContext {
  app: FastifyInstance;
  db: Db;
  config: Config;
  mail: Mail[];
  testDb: TestDatabase;
  /** A new account with the given role, signed in; each call makes a distinct user. */
  newUser(role?: Role, overrides?: { email?: string; password?: string; name?: string }): Promise<TestUser>;
  /** app.inject with the Origin header better-auth requires and, when given, a user's cookie. */
  request(options: InjectOptions & { as?: TestUser | null }): Promise<LightMyRequestResponse>;
  signIn(email: string, password: string): Promise<string>;
  close(): Promise<void>;
}

export function sessionCookie(setCookie: string | string[] | undefined): string {
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return all.map((c) => c.split(';')[0]).join('; ');
}

/**
 * A fresh app on a fresh database (SQLite or PostgreSQL per TEST_DATABASE), with mail captured in `mail`, or
 * with `realMailer` sent by the app's own mailer (without SMTP_URL: the log and $DATA_DIR/outbox). `score`
 * swaps the scan's scorer for a test.
 */
export async function createTestContext(
  env: Record<string, string> = {},
  options: Pick<BuildOptions, 'score' | 'serveWeb' | 'websiteResolver'> & { realMailer?: boolean } = {},
): Promise<TestContext> {
  const testDb = await createTestDatabase();
  const config = parseConfig({
    NODE_ENV: 'test',
    DATA_DIR: testDb.dataDir,
    DATABASE_URL: testDb.database.kind === 'postgres' ? testDb.database.url : '',
    PUBLIC_URL: ORIGIN,
    LOG_LEVEL: 'silent',
    AUTH_SECRET: randomBytes(32).toString('hex'),
    SIGN_IN_RATE_LIMIT: '1000',
    SIGN_IN_IP_RATE_LIMIT: '1000',
    INVITATION_CHECK_RATE_LIMIT: '1000',
    PASSWORD_RESET_RATE_LIMIT: '1000',
    // Nothing leaves the machine: a region refresh a test starts without its own mirror fails at once.
    OSM_MIRROR_URL: 'http://127.0.0.1:9',
    // Tests never touch the internet: website checks only where a test turns them on (local fixture servers).
    WEBSITE_CHECKS: 'off',
    ...env,
  });
  const db = testDb.open();
  const mail: Mail[] = [];
  const mailer: Mailer = {
    send: (m) => {
      mail.push(m);
      return Promise.resolve();
    },
  };
  const { realMailer, ...parts } = options;
  const app = await buildApp({ config, db, ...(realMailer ? {} : { mailer }), serveWeb: false, ...parts });
  let counter = 0;

  const request: TestContext['request'] = ({ as, headers, ...options }) =>
    app.inject({
      ...options,
      headers: { origin: ORIGIN, ...(as ? { cookie: as.cookie } : {}), ...headers },
    });

  const signIn = async (email: string, password: string) => {
    const res = await request({ method: 'POST', url: '/api/session', payload: { email, password } });
    if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
    return sessionCookie(res.headers['set-cookie']);
  };

  const newUser: TestContext['newUser'] = async (role = 'user', overrides = {}) => {
    counter += 1;
    const email = overrides.email ?? `user${counter}-${randomBytes(3).toString('hex')}@example.com`;
    const password = overrides.password ?? `pw-${randomBytes(6).toString('hex')}`;
    const name = overrides.name ?? `Test User ${counter}`;
    const invitation = await createInvitation(db, { id: null as never, name: 'factory' }, undefined).catch(
      () => null,
    );
    const { userId } = await registerAccount(
      db,
      { name, email, password, invitationCode: invitation?.code },
      config.passwordMinLength,
    );
    await updateProfile(db.kysely, userId, { role, isSuperAdmin: role === 'SuperAdmin' });
    const cookie = await signIn(email, password);
    return { id: userId, email, name, password, role, cookie };
  };

  return {
    app,
    db,
    config,
    mail,
    testDb,
    newUser,
    request,
    signIn,
    close: async () => {
      await app.close();
      await db.destroy();
      await testDb.drop();
    },
  };
}

export interface SecondInstance {
  app: FastifyInstance;
  /** Where it listens, e.g. http://127.0.0.1:41234. */
  url: string;
  close(): Promise<void>;
}

/** Another app on the same database and configuration (its database handle closes with it), not listening. */
export async function buildSecondApp(
  t: TestContext,
  options: Pick<BuildOptions, 'strictResponses'> = {},
): Promise<FastifyInstance> {
  const db = t.testDb.open();
  const app = await buildApp({
    config: t.config,
    db,
    mailer: { send: () => Promise.resolve() },
    serveWeb: false,
    ...options,
  });
  app.addHook('onClose', () => db.destroy());
  return app;
}

/** Another app instance on the same database and configuration, listening on its own port. */
export async function startSecondInstance(t: TestContext): Promise<SecondInstance> {
  const app = await buildSecondApp(t);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url, close: () => app.close() };
}
