// The sign-in, invitation-check and password-reset rate limits hold across instances when
// RATE_LIMIT_REDIS_URL names a Redis shared by them (each run uses its own key prefix, so runs never
// collide). Needs Redis on 127.0.0.1:6379 (REDIS_URL to change it); skipped with a reason when none answers,
// and failed instead in CI (CI=1 or RUN_FAULT_TESTS=1, see test/helpers/dependencies.ts).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { Redis } from 'ioredis';
import { buildApp } from '../../src/server/app.js';
import { parseConfig } from '../../src/server/config.js';
import type { Db } from '../../src/server/db/database.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { createTestContext, ORIGIN, type TestContext, type TestUser } from '../helpers/app.js';
import { missingDependency } from '../helpers/dependencies.js';
import { memoryCounters } from '../../src/server/http/rate-limit.js';
import { INVITATION_INVALID, TOO_MANY_ATTEMPTS, WRONG_PASSWORD } from '../../src/core/messages.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisAnswers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port || 6379), hostname);
    socket.setTimeout(500);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}
const haveRedis = await redisAnswers(REDIS_URL);

interface Instance {
  app: FastifyInstance;
  db: Db;
  testDb: TestDatabase;
}

async function instance(env: Record<string, string>, namespace: string): Promise<Instance> {
  const testDb = await createTestDatabase();
  const config = parseConfig({
    NODE_ENV: 'test',
    DATA_DIR: testDb.dataDir,
    DATABASE_URL: testDb.database.kind === 'postgres' ? testDb.database.url : '',
    PUBLIC_URL: ORIGIN,
    LOG_LEVEL: 'silent',
    AUTH_SECRET: randomBytes(32).toString('hex'),
    SIGN_IN_RATE_LIMIT: '3',
    INVITATION_CHECK_RATE_LIMIT: '4',
    PASSWORD_RESET_RATE_LIMIT: '2',
    ...env,
  });
  config.rateLimits.redisNamespace = namespace;
  const db = testDb.open();
  const app = await buildApp({ config, db, mailer: { send: () => Promise.resolve() }, serveWeb: false });
  return { app, db, testDb };
}

const signIn = (i: Instance, email: string) =>
  i.app.inject({
    method: 'POST',
    url: '/api/session',
    headers: { origin: ORIGIN },
    payload: { email, password: 'wrong-password' },
  });
const check = (i: Instance) =>
  i.app.inject({ method: 'GET', url: '/api/invitations/check?code=NOPE1234', headers: { origin: ORIGIN } });

describe.skipIf(!haveRedis)('rate limits shared through Redis (RATE_LIMIT_REDIS_URL)', () => {
  const namespace = `pf-test-${randomBytes(6).toString('hex')}-`;
  const instances: Instance[] = [];
  beforeAll(async () => {
    const shared = { RATE_LIMIT_REDIS_URL: REDIS_URL, SIGN_IN_IP_RATE_LIMIT: '12' };
    instances.push(await instance(shared, namespace));
    instances.push(await instance(shared, namespace));
  });
  afterAll(async () => {
    for (const i of instances.splice(0)) {
      await i.app.close();
      await i.db.destroy();
      await i.testDb.drop();
    }
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${namespace}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  it('counts sign-in attempts for one address across both instances', async () => {
    const [a, b] = instances as [Instance, Instance];
    const email = 'shared-limit@example.com';
    // Three attempts allowed in all, whichever instance answers them.
    expect((await signIn(a, email)).statusCode).toBe(401);
    expect((await signIn(b, email)).statusCode).toBe(401);
    expect((await signIn(a, email)).statusCode).toBe(401);
    for (const i of [b, a]) {
      const refused = await signIn(i, email);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ error: TOO_MANY_ATTEMPTS, retryAfterMs: expect.any(Number) });
    }
    // Another address from the same IP has its own count.
    expect((await signIn(b, 'someone-else@example.com')).statusCode).toBe(401);
  });

  it('counts failed sign-ins sent at once to both instances: at most the per-IP limit answered', async () => {
    const [a, b] = instances as [Instance, Instance];
    // 6 addresses, 6 tries each: 3 of each pass the per-address limit (18), 12 of those the per-IP one.
    const answers = await Promise.all(
      Array.from({ length: 36 }, (_, i) =>
        (i % 2 ? a : b).app.inject({
          method: 'POST',
          url: '/api/session',
          headers: { origin: ORIGIN },
          remoteAddress: '198.51.100.36',
          payload: { email: `sprayed${i % 6}@example.com`, password: 'wrong-password' },
        }),
      ),
    );
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(12);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(20);
  });

  it('counts invitation checks across both instances', async () => {
    const [a, b] = instances as [Instance, Instance];
    const statuses = [];
    for (const i of [a, b, a, b, a, b]) statuses.push((await check(i)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });

  it('counts password-reset requests for one address across both instances', async () => {
    const [a, b] = instances as [Instance, Instance];
    const reset = (i: Instance, remoteAddress: string) =>
      i.app.inject({
        method: 'POST',
        url: '/api/password-reset',
        headers: { origin: ORIGIN },
        payload: { email: 'shared-reset@example.com' },
        remoteAddress,
      });
    const statuses = [];
    for (const [i, ip] of [
      [a, '10.1.0.1'],
      [b, '10.1.0.2'],
      [a, '10.1.0.3'],
      [b, '10.1.0.4'],
    ] as const) {
      statuses.push((await reset(i, ip)).statusCode);
    }
    expect(statuses).toEqual([200, 200, 429, 429]);
  });

  it('keeps its keys under the configured prefix', async () => {
    const redis = new Redis(REDIS_URL);
    try {
      expect((await redis.keys(`${namespace}*`)).length).toBeGreaterThan(0);
    } finally {
      await redis.quit();
    }
  });
});

describe('rate limits without Redis', () => {
  it('are per instance: each counts only what it answered', async () => {
    const a = await instance({}, 'unused-');
    const b = await instance({}, 'unused-');
    try {
      const email = 'local-limit@example.com';
      for (let n = 0; n < 3; n++) expect((await signIn(a, email)).statusCode).toBe(401);
      expect((await signIn(a, email)).statusCode).toBe(429);
      expect((await signIn(b, email)).statusCode).toBe(401);
    } finally {
      for (const i of [a, b]) {
        await i.app.close();
        await i.db.destroy();
        await i.testDb.drop();
      }
    }
  });
});

describe('rate limits without Redis: answers in the exact words', () => {
  let t: TestContext;
  afterEach(() => t?.close());

  it('refuses a burst of registrations with the sign-in message', async () => {
    t = await createTestContext({ SIGN_IN_RATE_LIMIT: '2' });
    const register = (n: number) =>
      t.request({
        method: 'POST',
        url: '/api/register',
        payload: { name: 'X', email: `x${n}@example.com`, password: 'password1', invitationCode: 'NOPE' },
      });
    await t.newUser('SuperAdmin');
    expect((await register(1)).statusCode).toBe(400);
    expect((await register(2)).statusCode).toBe(400);
    const refused = await register(3);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: TOO_MANY_ATTEMPTS, retryAfterMs: expect.any(Number) });
  });

  it('refuses a burst of invitation checks with a clear message', async () => {
    t = await createTestContext({ INVITATION_CHECK_RATE_LIMIT: '2' });
    const check = () => t.request({ method: 'GET', url: '/api/invitations/check?code=NOPE1234' });
    expect((await check()).json()).toEqual({ valid: false, message: INVITATION_INVALID });
    expect((await check()).statusCode).toBe(200);
    const refused = await check();
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      error: 'Too many invitation code checks. Please wait a minute and try again.',
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('limits password-reset e-mails per address (from any IP) and per IP (for any address)', async () => {
    t = await createTestContext({ PASSWORD_RESET_RATE_LIMIT: '2' });
    const reset = (email: string, remoteAddress: string) =>
      t.request({ method: 'POST', url: '/api/password-reset', payload: { email }, remoteAddress });
    const u = await t.newUser('user');
    // One address, three IPs: the third request is refused and sends nothing.
    expect((await reset(u.email, '10.0.0.1')).statusCode).toBe(200);
    expect((await reset(u.email.toUpperCase(), '10.0.0.2')).statusCode).toBe(200);
    const perEmail = await reset(u.email, '10.0.0.3');
    expect(perEmail.statusCode).toBe(429);
    expect(perEmail.json()).toEqual({ error: TOO_MANY_ATTEMPTS, retryAfterMs: expect.any(Number) });
    expect(t.mail).toHaveLength(2);
    // One IP, three addresses.
    expect((await reset('a@example.com', '10.0.0.9')).statusCode).toBe(200);
    expect((await reset('b@example.com', '10.0.0.9')).statusCode).toBe(200);
    const perIp = await reset('c@example.com', '10.0.0.9');
    expect(perIp.statusCode).toBe(429);
    expect(perIp.json()).toEqual({ error: TOO_MANY_ATTEMPTS, retryAfterMs: expect.any(Number) });
  });

  it('limits wrong passwords on hard delete per acting SuperAdmin, never successful deletes', async () => {
    t = await createTestContext({ SIGN_IN_RATE_LIMIT: '2' });
    const root = await t.newUser('SuperAdmin');
    const other = await t.newUser('SuperAdmin');
    const hardDelete = (as: TestUser, id: string, password: string) =>
      t.request({ method: 'POST', url: `/api/users/${id}/hard-delete`, payload: { password }, as });
    // Deleting several users in a row is never refused.
    for (let n = 0; n < 3; n++) {
      const victim = await t.newUser('user');
      expect((await hardDelete(root, victim.id, root.password)).statusCode).toBe(204);
    }
    const target = await t.newUser('user');
    for (let n = 0; n < 2; n++) {
      const wrong = await hardDelete(root, target.id, 'guess-guess');
      expect(wrong.statusCode).toBe(403);
      expect(wrong.json()).toEqual({ error: WRONG_PASSWORD });
    }
    // Used up: even the right password is refused now, and the user is still there.
    const refused = await hardDelete(root, target.id, root.password);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: TOO_MANY_ATTEMPTS, retryAfterMs: expect.any(Number) });
    expect(
      (await t.request({ method: 'GET', url: `/api/users/${target.id}/data`, as: root })).statusCode,
    ).toBe(200);
    // Another SuperAdmin has a count of their own.
    expect((await hardDelete(other, target.id, other.password)).statusCode).toBe(204);
  });
});

describe('failure-only limits take their place before the request runs', () => {
  let t: TestContext;
  afterEach(() => t?.close());

  it('lets at most 10 of 40 wrong hard-delete passwords sent at once reach the password check', async () => {
    t = await createTestContext({ SIGN_IN_RATE_LIMIT: '10' });
    const root = await t.newUser('SuperAdmin');
    const target = await t.newUser('user');
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        t.request({
          method: 'POST',
          url: `/api/users/${target.id}/hard-delete`,
          payload: { password: `guess-${i}` },
          as: root,
        }),
      ),
    );
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 403)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
  });

  it('in memory: a place taken is given back, and a refused take counts nothing', async () => {
    const counters = memoryCounters(3);
    expect(await counters.take('a', 2, 60_000)).toMatchObject({ allowed: true });
    expect(await counters.take('a', 2, 60_000)).toMatchObject({ allowed: true });
    expect(await counters.take('a', 2, 60_000)).toMatchObject({ allowed: false });
    await counters.giveBack('a');
    expect(await counters.take('a', 2, 60_000)).toMatchObject({ allowed: true });
    // A window that ended starts again from nothing.
    expect(await counters.take('b', 1, 1)).toMatchObject({ allowed: true });
    await new Promise((r) => setTimeout(r, 5));
    expect(await counters.take('b', 1, 60_000)).toMatchObject({ allowed: true });
    // Full (3 keys), the store drops the oldest key, 'a', whose count starts again.
    await counters.take('c', 1, 60_000);
    await counters.take('d', 1, 60_000);
    expect(await counters.take('a', 2, 60_000)).toMatchObject({ allowed: true });
  });
});

describe.skipIf(haveRedis)('rate limits shared through Redis', () => {
  missingDependency(`a Redis answering at ${REDIS_URL}`, 'apt-get install redis-server, or set REDIS_URL');
});
