// The edges of signing in. Paths with dot segments never reach better-auth; a
// password spray from one address is stopped; a password reset voids every other reset link of the account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { createTestContext, ORIGIN, type TestContext, type TestUser } from '../helpers/app.js';
import { isAmbiguousPath } from '../../src/server/auth/routes.js';
import { createAuth } from '../../src/server/auth/auth.js';
import { TOO_MANY_ATTEMPTS, USER_NOT_FOUND, WRONG_PASSWORD } from '../../src/core/messages.js';

let t: TestContext;
let rep: TestUser;
let baseUrl: string;

beforeAll(async () => {
  t = await createTestContext();
  rep = await t.newUser('user');
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

/** A request sent over the network with the path exactly as written (fetch would resolve the dots itself). */
function rawGet(path: string, cookie: string): Promise<{ status: number; body: string }> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path, method: 'GET', headers: { cookie, origin: ORIGIN } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('dot segments on the way to better-auth', () => {
  const sneaky = [
    '/api/auth/reset-password/../list-sessions',
    '/api/auth/reset-password/%2e%2e/list-sessions',
    '/api/auth/reset-password/%2E%2E/list-sessions',
    '/api/auth/reset-password/..%2flist-sessions',
    '/api/auth/reset-password/..%2Flist-sessions',
    '/api/auth/reset-password/%2e%2e%2flist-sessions',
    '/api/auth/reset-password/%252e%252e/list-sessions',
    '/api/auth/reset-password/x/..%5c..%5clist-sessions',
    '/api/auth/reset-password/.%2e/list-sessions',
    '/api/auth/get-session/../list-sessions',
    '/api/auth/./list-sessions',
    '/api/auth/reset-password/abc/../../list-sessions',
  ];

  it('refuses them, over the network and in process, and never lists the sessions', async () => {
    const token = /session_token=([^;.]+)/.exec(rep.cookie)?.[1];
    expect(token).toBeTruthy();
    for (const path of sneaky) {
      for (const res of [
        await rawGet(path, rep.cookie),
        await t
          .request({ method: 'GET', url: path, as: rep })
          .then((r) => ({ status: r.statusCode, body: r.body })),
      ]) {
        expect({ path, status: [400, 404].includes(res.status) }).toEqual({ path, status: true });
        expect(JSON.parse(res.body)).toEqual({ error: expect.any(String) as string });
        expect(res.body).not.toContain(token);
      }
    }
  });

  it('still passes the allowed endpoints through: the session, the e-mailed link', async () => {
    const session = await rawGet('/api/auth/get-session', rep.cookie);
    expect(session.status).toBe(200);
    const list = await rawGet('/api/auth/list-sessions', rep.cookie);
    expect(list.status).toBe(404);
    const landing = await rawGet('/api/auth/reset-password/abcDEF123?callbackURL=%2Freset-password', '');
    expect(landing.status).toBe(302);
  });

  it('names the ambiguous paths', () => {
    for (const path of sneaky)
      expect({ path, ambiguous: isAmbiguousPath(path) }).toEqual({ path, ambiguous: true });
    for (const path of ['/api/auth/get-session', '/api/auth/reset-password/abc123', '/api/auth/sign-out'])
      expect({ path, ambiguous: isAmbiguousPath(path) }).toEqual({ path, ambiguous: false });
    expect(isAmbiguousPath('/api/auth/%E0%A4%A')).toBe(true); // broken encoding
  });
});

describe('password spraying from one address', () => {
  it('stops one IP trying many addresses after SIGN_IN_IP_RATE_LIMIT failures; the per-address limit stays', async () => {
    const sprayed = await createTestContext({ SIGN_IN_IP_RATE_LIMIT: '5', SIGN_IN_RATE_LIMIT: '3' });
    try {
      const victims = await Promise.all([1, 2, 3].map(() => sprayed.newUser('user')));
      const signIn = (email: string, password: string, ip = '203.0.113.7') =>
        sprayed.app.inject({
          method: 'POST',
          url: '/api/session',
          remoteAddress: ip,
          headers: { origin: ORIGIN, 'content-type': 'application/json' },
          payload: JSON.stringify({ email, password }),
        });
      // The per-address limit alone: the 4th try at one address from one IP is refused.
      const perAddress: number[] = [];
      for (let i = 0; i < 4; i++)
        perAddress.push((await signIn(victims[0]!.email, 'wrong', '198.51.100.1')).statusCode);
      expect(perAddress).toEqual([401, 401, 401, 429]);

      // 15 addresses from one IP, one guess each: the per-address limit never fires; the per-IP one does.
      const answers: { status: number; error: string }[] = [];
      for (let i = 0; i < 15; i++) {
        const email = i < 3 ? victims[i]!.email : `nobody${i}@example.com`;
        const res = await signIn(email, 'Summer2026!');
        answers.push({ status: res.statusCode, error: res.json<{ error: string }>().error });
      }
      expect(answers.slice(0, 5).map((a) => a.status)).toEqual([401, 401, 401, 401, 401]);
      expect(answers.slice(0, 3).map((a) => a.error)).toEqual([
        WRONG_PASSWORD,
        WRONG_PASSWORD,
        WRONG_PASSWORD,
      ]);
      expect(answers[3]!.error).toBe(USER_NOT_FOUND);
      expect(answers.slice(5)).toEqual(Array(10).fill({ status: 429, error: TOO_MANY_ATTEMPTS }));
      // Past the limit even the right password is refused from that IP (else the limit would tell the
      // sprayer which guess was right); another address signs in as usual.
      expect((await signIn(victims[1]!.email, victims[1]!.password)).statusCode).toBe(429);
      expect((await signIn(victims[1]!.email, victims[1]!.password, '192.0.2.44')).statusCode).toBe(200);
    } finally {
      await sprayed.close();
    }
  });

  it('counts failures sent at once: 36 parallel wrong guesses over 6 accounts from one IP, 12 answered', async () => {
    // The default limits: 12 failures per IP, 10 tries per IP and address (6 tries each never reach it).
    const sprayed = await createTestContext({ SIGN_IN_IP_RATE_LIMIT: '12', SIGN_IN_RATE_LIMIT: '10' });
    try {
      const victims = await Promise.all([1, 2, 3, 4, 5, 6].map(() => sprayed.newUser('user')));
      const answers = await Promise.all(
        Array.from({ length: 36 }, (_, i) =>
          sprayed.request({
            method: 'POST',
            url: '/api/session',
            remoteAddress: '203.0.113.9',
            payload: { email: victims[i % 6]!.email, password: `Guess-${i}` },
          }),
        ),
      );
      const statuses = answers.map((a) => a.statusCode);
      expect(statuses.filter((s) => s === 401)).toHaveLength(12);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(20);
      const refused = answers.find((a) => a.statusCode === 429)!;
      expect(refused.json()).toEqual({ error: TOO_MANY_ATTEMPTS, retryAfterMs: expect.any(Number) });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await sprayed.close();
    }
  });

  it('counts only failures: many successful sign-ins from one office address are never refused', async () => {
    const office = await createTestContext({ SIGN_IN_IP_RATE_LIMIT: '2' });
    try {
      // One after another: a sign-in holds its place in the count while it runs (see the test above).
      const reps = [];
      for (let n = 0; n < 4; n++) reps.push(await office.newUser('user'));
      for (let round = 0; round < 2; round++) {
        for (const r of reps) {
          const res = await office.request({
            method: 'POST',
            url: '/api/session',
            payload: { email: r.email, password: r.password },
          });
          expect(res.statusCode).toBe(200);
        }
      }
    } finally {
      await office.close();
    }
  });
});

describe('old reset links after a reset or a password change', () => {
  /** Asks for a reset link and returns its token (the mail's link, as the browser lands from it). */
  const resetToken = async (email: string): Promise<string> => {
    const before = t.mail.length;
    expect(
      (await t.request({ method: 'POST', url: '/api/password-reset', payload: { email } })).statusCode,
    ).toBe(200);
    expect(t.mail).toHaveLength(before + 1);
    const link = new URL(/http\S+/.exec(t.mail.at(-1)!.text)![0]);
    return link.pathname.split('/').at(-1)!;
  };
  const complete = (token: string, newPassword: string) =>
    t.request({ method: 'POST', url: '/api/password-reset/complete', payload: { token, newPassword } });
  const outstanding = async (userId: string) =>
    (
      await t.db.kysely
        .selectFrom('verification')
        .select('id')
        .where('identifier', 'like', 'reset-password:%')
        .where('value', '=', userId)
        .execute()
    ).length;

  it('voids every older link of the account once the newest one set the password', async () => {
    const u = await t.newUser('user');
    const other = await t.newUser('user');
    const oldest = await resetToken(u.email);
    const older = await resetToken(u.email);
    const newest = await resetToken(u.email);
    const othersLink = await resetToken(other.email);
    expect(await outstanding(u.id)).toBe(3);

    expect((await complete(newest, 'newest-password-1')).statusCode).toBe(200);
    expect(await outstanding(u.id)).toBe(0);
    for (const token of [older, oldest]) {
      const res = await complete(token, 'attacker-password-1');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'Invalid token' });
    }
    await expect(t.signIn(u.email, 'newest-password-1')).resolves.toContain('session_token');
    await expect(t.signIn(u.email, 'attacker-password-1')).rejects.toThrow(/401/);
    // Another account's link is untouched.
    expect(await outstanding(other.id)).toBe(1);
    expect((await complete(othersLink, 'other-new-pass-1')).statusCode).toBe(200);
  });

  it('voids the links sent before a password change', async () => {
    const u = await t.newUser('user');
    const sentBefore = await resetToken(u.email);
    // The app has no password-change screen; better-auth's own change-password stands for any way the
    // password changes (the account's updatedAt moves).
    await new Promise((r) => setTimeout(r, 5));
    const auth = createAuth({
      db: t.db,
      config: t.config,
      secret: t.config.authSecret!,
      mailer: { send: () => Promise.resolve() },
    });
    await auth.api.changePassword({
      body: { currentPassword: u.password, newPassword: 'changed-password-1' },
      headers: new Headers({ cookie: u.cookie }),
    });
    await expect(t.signIn(u.email, 'changed-password-1')).resolves.toContain('session_token');
    const res = await complete(sentBefore, 'attacker-password-1');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'Invalid token' });
    expect(await outstanding(u.id)).toBe(0);
    await expect(t.signIn(u.email, 'changed-password-1')).resolves.toContain('session_token');
    // A link asked for after the change works.
    const sentAfter = await resetToken(u.email);
    expect((await complete(sentAfter, 'after-change-pass-1')).statusCode).toBe(200);
  });
});
