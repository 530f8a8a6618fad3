// Issue 16 items 3, 4 and 5: the edges of signing in. Paths with dot segments never reach better-auth; a
// password spray from one address is stopped; a password reset voids every other reset link of the account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { createTestContext, ORIGIN, type TestContext, type TestUser } from '../helpers/app.js';
import { isAmbiguousPath } from '../../src/server/auth/routes.js';

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

describe('dot segments on the way to better-auth (item 3)', () => {
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
