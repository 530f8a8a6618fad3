// Cross-site request forgery. A state-changing request (POST, PUT, PATCH, DELETE) is refused
// with 403 when the browser says it comes from a page of another origin (Origin, else Sec-Fetch-Site, else
// Referer); scripts that send none of these keep working. JSON routes take application/json only (415).
// The walk over every registered route is in hostile-input.test.ts. With PUBLIC_URL or ALLOWED_ORIGINS set,
// a request sent to any other host name (DNS rebinding of a LAN install) is refused with 421, reads included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ORIGIN, type TestContext, type TestUser } from '../helpers/app.js';
import { CROSS_SITE_REFUSED, hostRefused } from '../../src/server/http/cross-site.js';
import { isSuspended } from '../../src/server/users/repository.js';

let t: TestContext;
let root: TestUser;
let rep: TestUser;

beforeAll(async () => {
  t = await createTestContext({ ALLOWED_ORIGINS: 'https://second-name.example, http://10.0.0.5:8080/' });
  root = await t.newUser('SuperAdmin');
  rep = await t.newUser('user');
});
afterAll(() => t.close());

const suspended = (id: string) => isSuspended(t.db.kysely, id);

const callLogCount = async (userId: string) =>
  (await t.db.kysely.selectFrom('call_logs').select('id').where('user_id', '=', userId).execute()).length;

const logCall = (headers: Record<string, string>, as: TestUser | null = rep) =>
  t.app.inject({
    method: 'POST',
    url: '/api/call-logs',
    headers: { ...(as ? { cookie: as.cookie } : {}), 'content-type': 'application/json', ...headers },
    payload: JSON.stringify({ prospectId: 'osm:node/1', name: 'Forged Dental', outcome: 'Called' }),
  });

describe('cross-site requests', () => {
  it('refuses the forged suspend of the report (same host, other port, text/plain form) and changes nothing', async () => {
    const victim = await t.newUser('user');
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/users/${victim.id}/suspend`,
      headers: { cookie: root.cookie, origin: 'http://127.0.0.1:9999', 'content-type': 'text/plain' },
      payload: 'x=1',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: CROSS_SITE_REFUSED });
    expect(await suspended(victim.id)).toBe(false);
  });

  it('refuses a foreign Origin, a cross-site or same-site fetch without one, a foreign Referer and Origin null', async () => {
    const before = await callLogCount(rep.id);
    const forged: Record<string, string>[] = [
      { origin: 'http://evil.example' },
      { origin: 'http://localhost:3001' }, // same host, another port
      { origin: 'https://localhost:3000' }, // another scheme
      { origin: 'http://sub.localhost:3000' },
      { origin: 'null' },
      { origin: 'not a url' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' }, // a sibling subdomain
      { referer: 'http://evil.example/page' },
      { referer: 'garbage' },
      { origin: 'http://evil.example', referer: `${ORIGIN}/` },
    ];
    for (const headers of forged) {
      const res = await logCall(headers);
      expect({ headers, status: res.statusCode, body: res.json<unknown>() }).toEqual({
        headers,
        status: 403,
        body: { error: CROSS_SITE_REFUSED },
      });
    }
    expect(await callLogCount(rep.id)).toBe(before);
  });

  it("accepts the app's own origin, PUBLIC_URL, ALLOWED_ORIGINS, a same-origin fetch and scripts without any", async () => {
    const before = await callLogCount(rep.id);
    const accepted: Record<string, string>[] = [
      { origin: ORIGIN }, // PUBLIC_URL
      { origin: 'http://localhost:80', host: 'localhost' }, // the address the request was sent to
      { origin: 'http://192.168.1.20:3000', host: '192.168.1.20:3000' }, // a phone on the LAN IP
      { origin: 'https://second-name.example' }, // ALLOWED_ORIGINS
      { origin: 'http://10.0.0.5:8080' },
      { origin: 'null', 'sec-fetch-site': 'same-origin' }, // Referrer-Policy: no-referrer hides the origin
      { 'sec-fetch-site': 'same-origin' },
      { referer: `${ORIGIN}/prospects` },
      {}, // a script, the CLI, curl
    ];
    for (const headers of accepted) {
      const res = await logCall(headers);
      expect({ headers, status: res.statusCode }).toEqual({ headers, status: 201 });
    }
    expect(await callLogCount(rep.id)).toBe(before + accepted.length);
  });

  it('leaves reading alone: a GET from another site is answered (CORS keeps its answer from that page)', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { cookie: rep.cookie, origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses a text/plain body with 415 even from the own origin; the advertiser import takes text/csv', async () => {
    const victim = await t.newUser('user');
    const plain = await t.request({
      method: 'POST',
      url: `/api/users/${victim.id}/suspend`,
      as: root,
      headers: { 'content-type': 'text/plain' },
      payload: '{}',
    });
    expect(plain.statusCode).toBe(415);
    expect(plain.json()).toEqual({
      error: 'Unsupported content type "text/plain": send the body as application/json.',
    });
    expect(await suspended(victim.id)).toBe(false);

    const logAsText = await t.request({
      method: 'POST',
      url: '/api/call-logs',
      as: rep,
      headers: { 'content-type': 'text/plain' },
      payload: JSON.stringify({ prospectId: 'osm:node/1', name: 'Text Dental', outcome: 'Called' }),
    });
    expect(logAsText.statusCode).toBe(415);

    const csvAsText = await t.request({
      method: 'POST',
      url: '/api/current-advertisers/import',
      as: root,
      headers: { 'content-type': 'text/plain' },
      payload: 'name,phone\nAcme,415-555-0101\n',
    });
    expect(csvAsText.statusCode).toBe(415);
    const csv = await t.request({
      method: 'POST',
      url: '/api/current-advertisers/import',
      as: root,
      headers: { 'content-type': 'text/csv' },
      payload: 'name,phone\nAcme,415-555-0101\n',
    });
    expect(csv.statusCode).toBe(200);

    // A form post (urlencoded, multipart) was never parsed; it stays a 415 with the same message.
    const form = await t.request({
      method: 'POST',
      url: '/api/call-logs',
      as: rep,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'prospectId=osm%3Anode%2F1&name=Form&outcome=Called',
    });
    expect(form.statusCode).toBe(415);
    expect(form.json<{ error: string }>().error).toMatch(/^Unsupported content type/);
  });

  it("agrees with better-auth's own Origin check on its sign-out", async () => {
    const session = await t.signIn(rep.email, rep.password);
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { cookie: session, origin: 'http://evil.example', 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toEqual({ error: CROSS_SITE_REFUSED });
    expect(
      (await t.request({ method: 'GET', url: '/api/me', headers: { cookie: session } })).statusCode,
    ).toBe(200);

    // The address the request was sent to (not PUBLIC_URL): both checks accept it, the session ends.
    const own = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: {
        cookie: session,
        host: '192.168.1.20:3000',
        origin: 'http://192.168.1.20:3000',
        'content-type': 'application/json',
      },
      payload: '{}',
    });
    expect(own.statusCode).toBe(200);
    expect(
      (await t.request({ method: 'GET', url: '/api/me', headers: { cookie: session } })).statusCode,
    ).toBe(401);

    // An ALLOWED_ORIGINS page too.
    const second = await t.signIn(rep.email, rep.password);
    const allowed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { cookie: second, origin: 'https://second-name.example', 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(allowed.statusCode).toBe(200);
  });
});

describe('the Host a request was sent to (DNS rebinding)', () => {
  const get = (url: string, host: string, as: TestUser | null = rep) =>
    t.app.inject({ method: 'GET', url, headers: { host, ...(as ? { cookie: as.cookie } : {}) } });

  it("refuses every request sent to a name that is not PUBLIC_URL's or an allowed origin's, reads too", async () => {
    const before = await callLogCount(rep.id);
    for (const host of [
      'evil.example',
      'evil.example:3000',
      'localhost.evil.example',
      'second-name.example.evil',
    ]) {
      const me = await get('/api/me', host);
      expect({ host, status: me.statusCode, body: me.json<unknown>() }).toEqual({
        host,
        status: 421,
        body: { error: hostRefused(ORIGIN) },
      });
      expect((await get('/healthz', host, null)).statusCode).toBe(421);
      expect((await logCall({ host, origin: `http://${host}` })).statusCode).toBe(421);
    }
    expect(await callLogCount(rep.id)).toBe(before);
  });

  it("answers PUBLIC_URL's and the allowed origins' names on any port, IP addresses and localhost", async () => {
    for (const host of [
      'localhost:3000',
      'localhost',
      'LOCALHOST:8080',
      'second-name.example',
      'Second-Name.example.:443', // case and a trailing dot name the same host
      '10.0.0.5:8080',
      '127.0.0.1:3000', // a probe of /healthz on the machine
      '[::1]:3000',
      '192.168.1.20:3000', // a phone on the LAN address: no DNS name, no rebinding
    ]) {
      expect({ host, status: (await get('/api/me', host)).statusCode }).toEqual({ host, status: 200 });
    }
    expect((await get('/healthz', '127.0.0.1:3000', null)).statusCode).toBe(200);
  });

  it('answers every name when neither PUBLIC_URL nor ALLOWED_ORIGINS is set', async () => {
    const open = await createTestContext({ PUBLIC_URL: '' });
    try {
      expect(
        (await open.app.inject({ method: 'GET', url: '/healthz', headers: { host: 'evil.example' } }))
          .statusCode,
      ).toBe(200);
    } finally {
      await open.close();
    }
  });
});
