// Hostile input: every registered route, better-auth's endpoints under /api/auth, /metrics and
// /healthz, called as EVERY role (anonymous, user, admin, SuperAdmin) with generated path parameters, query
// strings, bodies, content types and headers. Bodies are derived from each route's published JSON schema, so most
// pass validation and reach the handler; the rest are nearly valid or anything at all. Path parameters mix real
// ids from the database with hostile segments.
//
// The server must never answer 5xx, and every 4xx is JSON with a non-empty {"error"}. Deterministic: each route
// and role runs HOSTILE_RUNS (default 20) cases from a seed of its own, so a failure names a reproducible case.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { createTestContext, ORIGIN, type TestContext, type TestUser } from '../helpers/app.js';
import { scannedBusiness } from '../helpers/businesses.js';
import { bodyFor, queryValueFor, type Hints, type JsonSchema } from '../helpers/schema-arbitrary.js';
import type { Role } from '../../src/server/db/schema.js';
import { CROSS_SITE_REFUSED } from '../../src/server/http/cross-site.js';

const RUNS = Number(process.env.HOSTILE_RUNS ?? 20);
const ROLES: (Role | 'anonymous')[] = ['anonymous', 'user', 'admin', 'SuperAdmin'];
// Nothing may leave the machine: the outside services point at a closed local port.
const NOWHERE = 'http://127.0.0.1:9';

interface Endpoint {
  method: string;
  url: string;
  body?: JsonSchema;
  path: Record<string, JsonSchema>;
  query: { name: string; schema: JsonSchema; required: boolean }[];
}

interface OpenApiOperation {
  parameters?: { in: string; name: string; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

// better-auth's own endpoints (those passed through and some that are not), plus the operational ones.
const EXTRA: Endpoint[] = [
  { method: 'GET', url: '/api/auth/get-session', path: {}, query: [] },
  { method: 'POST', url: '/api/auth/sign-out', path: {}, query: [] },
  {
    method: 'POST',
    url: '/api/auth/request-password-reset',
    path: {},
    query: [],
    body: {
      type: 'object',
      properties: { email: { type: 'string' }, redirectTo: { type: 'string' } },
      required: ['email'],
    },
  },
  {
    method: 'POST',
    url: '/api/auth/reset-password',
    path: {},
    query: [{ name: 'token', schema: { type: 'string' }, required: false }],
    body: {
      type: 'object',
      properties: { newPassword: { type: 'string', minLength: 8 }, token: { type: 'string' } },
      required: ['newPassword'],
    },
  },
  {
    method: 'GET',
    url: '/api/auth/reset-password/:token',
    path: { token: { type: 'string', minLength: 1 } },
    query: [{ name: 'callbackURL', schema: { type: 'string', format: 'url' }, required: false }],
  },
  {
    method: 'POST',
    url: '/api/auth/sign-in/email',
    path: {},
    query: [],
    body: {
      type: 'object',
      properties: { email: { type: 'string' }, password: { type: 'string' } },
      required: ['email', 'password'],
    },
  },
  {
    method: 'POST',
    url: '/api/auth/sign-up/email',
    path: {},
    query: [],
    body: {
      type: 'object',
      properties: { name: { type: 'string' }, email: { type: 'string' }, password: { type: 'string' } },
      required: ['name', 'email', 'password'],
    },
  },
  { method: 'GET', url: '/api/auth/list-sessions', path: {}, query: [] },
  { method: 'GET', url: '/metrics', path: {}, query: [] },
  { method: 'GET', url: '/healthz', path: {}, query: [] },
];

// Built while the tests are collected, so each route gets a test of its own, named after it.
const callers = new Map<(typeof ROLES)[number], TestUser | null>();
const hints: Hints = { ids: [], emails: [], passwords: [], codes: [] };
const t: TestContext = await createTestContext({
  SCAN_COOLDOWN_MS: '0',
  PLACE_PROVIDERS: 'demo',
  BODY_LIMIT_BYTES: '65536',
  OVERPASS_URL: NOWHERE,
  NOMINATIM_URL: NOWHERE,
  GOOGLE_PLACES_URL: NOWHERE,
  GOOGLE_GEOCODING_URL: NOWHERE,
  OSM_MIRROR_URL: NOWHERE,
  PROVIDER_TIMEOUT_MS: '500',
});
callers.set('anonymous', null);
for (const role of ROLES) if (role !== 'anonymous') callers.set(role, await t.newUser(role));

// Real rows, so id-like parameters sometimes name something that exists.
const user = callers.get('user')!;
const admin = callers.get('admin')!;
const scan = await t.request({
  method: 'POST',
  url: '/api/scans',
  as: user,
  payload: { lat: 37.7897, lng: -122.4003, radiusMiles: 1, count: 10 },
});
if (scan.statusCode !== 200) throw new Error(`seed scan failed: ${scan.statusCode} ${scan.body}`);
const prospects = scan.json<{ prospects: { id: string }[] }>().prospects.slice(0, 3);
const log = await t.request({
  method: 'POST',
  url: '/api/call-logs',
  as: user,
  payload: { prospectId: prospects[0]?.id ?? 'osm:node/1', name: 'Hostile Dental', outcome: 'Called' },
});
await scannedBusiness(t.db, 'osm:node/43', 'Advertiser');
await t.request({
  method: 'POST',
  url: '/api/current-advertisers',
  as: user,
  payload: { businessId: 'osm:node/43', label: 'Advertiser' },
});
await t.request({ method: 'POST', url: '/api/blocklist', as: admin, payload: { businessId: 'osm:node/44' } });
const job = await t.request({
  method: 'POST',
  url: '/api/strategies',
  as: user,
  payload: {
    prospect: {
      id: 'osm:node/45',
      name: 'Strategy Dental',
      category: 'Dental',
      address: '1 Main St',
      lat: 37.79,
      lng: -122.4,
      score: 0.5,
    },
  },
});
const invitation = await t.request({ method: 'POST', url: '/api/invitations', as: admin, payload: {} });
hints.codes.push(invitation.json<{ invitation?: { code: string } }>().invitation?.code ?? 'NOPE1234');
for (const c of callers.values()) {
  if (!c) continue;
  hints.emails.push(c.email);
  hints.passwords.push(c.password);
}
hints.ids.push(
  ...[...callers.values()].flatMap((c) => (c ? [c.id] : [])),
  ...prospects.map((p) => p.id),
  log.json<{ callLog?: { id: string } }>().callLog?.id ?? 'no-log',
  job.json<{ jobId?: string }>().jobId ?? 'no-job',
  'osm:node/43',
  'osm:node/44',
);

await t.app.ready();
const doc = t.app.swagger() as unknown as { paths: Record<string, Record<string, OpenApiOperation>> };
const apiEndpoints: Endpoint[] = t.app.apiRoutes.map(({ method, url }) => {
  const op = doc.paths[url.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()] ?? {};
  const params = op.parameters ?? [];
  return {
    method,
    url,
    body: op.requestBody?.content?.['application/json']?.schema,
    path: Object.fromEntries(
      [...url.matchAll(/:(\w+)/g)].map(([, name]) => [
        name!,
        params.find((p) => p.in === 'path' && p.name === name)?.schema ?? { type: 'string' },
      ]),
    ),
    query: params
      .filter((p) => p.in === 'query')
      .map((p) => ({ name: p.name, schema: p.schema ?? { type: 'string' }, required: p.required ?? false })),
  };
});
const endpoints: Endpoint[] = [...apiEndpoints, ...EXTRA];
afterAll(() => t.close());

// A route may end a caller's session, demote or delete them (that is its job): before each route, every role
// is signed in again as a live account with its role, so each route really is called as each role.
beforeEach(async () => {
  for (const [role, caller] of callers) {
    if (!caller || role === 'anonymous') continue;
    const me = await t.request({ method: 'GET', url: '/api/me', as: caller });
    const profile =
      me.statusCode === 200 ? me.json<{ user: { role: string; suspended?: boolean } }>().user : null;
    if (!profile || profile.role !== role || profile.suspended) callers.set(role, await t.newUser(role));
  }
});

const hostileSegment = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom(
    '..',
    '%00',
    '%2e%2e',
    "' or 1=1 --",
    '<script>',
    '0',
    '-1',
    '9'.repeat(40),
    'null',
    'a'.repeat(250),
  ),
);

type Encoding =
  | 'json'
  | 'json-charset'
  | 'broken-json'
  | 'empty-json'
  | 'text'
  | 'csv'
  | 'form'
  | 'multipart'
  | 'xml'
  | 'bytes'
  | 'none';
const encoding = fc.oneof(
  { weight: 12, arbitrary: fc.constant<Encoding>('json') },
  {
    weight: 4,
    arbitrary: fc.constantFrom<Encoding>(
      'json-charset',
      'broken-json',
      'empty-json',
      'text',
      'csv',
      'form',
      'multipart',
      'xml',
      'bytes',
      'none',
    ),
  },
);
/** How a route whose body is a file itself (an upload) is sent to: mostly as bytes. */
const fileEncoding = fc.oneof(
  { weight: 8, arbitrary: fc.constant<Encoding>('bytes') },
  { weight: 4, arbitrary: encoding },
);

const headers = fc.record(
  {
    origin: fc.oneof(
      { weight: 8, arbitrary: fc.constant(ORIGIN) },
      fc.constantFrom('https://evil.example', 'null', ''),
    ),
    accept: fc.constantFrom('application/json', 'text/html', '*/*', 'text/event-stream', ';;;'),
    'x-request-id': fc.oneof(fc.string({ maxLength: 80 }), fc.uuid()),
    'x-forwarded-for': fc.constantFrom('203.0.113.9', 'not-an-ip', '1.1.1.1, 2.2.2.2', ''),
    'accept-language': fc.string({ maxLength: 20 }),
  },
  { requiredKeys: ['origin'] },
);

const junkCookie = fc.constantFrom(
  'better-auth.session_token=garbage',
  'better-auth.session_token=abc.def; better-auth.session_data=%%%',
  '__Secure-better-auth.session_token=x',
  '=; ;=;',
);

function encode(how: Encoding, body: unknown): { payload?: string; contentType?: string } {
  const json = JSON.stringify(body) ?? 'null';
  switch (how) {
    case 'json':
      return { payload: json, contentType: 'application/json' };
    case 'json-charset':
      return { payload: json, contentType: 'application/json; charset=utf-8' };
    case 'broken-json':
      return { payload: json.slice(0, Math.max(1, json.length - 1)) + '{', contentType: 'application/json' };
    case 'empty-json':
      return { payload: '', contentType: 'application/json' };
    case 'text':
      return { payload: typeof body === 'string' ? body : json, contentType: 'text/plain' };
    case 'csv':
      return { payload: 'name,address\nAcme, "1 Main', contentType: 'text/csv' };
    case 'form':
      return { payload: 'a=1&b=%ZZ&email=x', contentType: 'application/x-www-form-urlencoded' };
    case 'multipart':
      return {
        payload: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n',
        contentType: 'multipart/form-data; boundary=x',
      };
    case 'xml':
      return { payload: '<?xml version="1.0"?><a/>', contentType: 'application/xml' };
    case 'bytes':
      return { payload: typeof body === 'string' ? body : json, contentType: 'application/octet-stream' };
    case 'none':
      return { payload: json };
  }
}

function requestFor(endpoint: Endpoint) {
  const pathParams = fc.record(
    Object.fromEntries(
      Object.keys(endpoint.path).map((name) => [
        name,
        fc.oneof(
          { weight: 2, arbitrary: fc.constantFrom(...hints.ids) },
          { weight: 2, arbitrary: hostileSegment },
          { weight: 1, arbitrary: queryValueFor(endpoint.path[name]!, name, hints) },
        ),
      ]),
    ),
  );
  const query = fc.record(
    Object.fromEntries(endpoint.query.map((q) => [q.name, queryValueFor(q.schema, q.name, hints)])),
    { requiredKeys: [] },
  );
  const extraQuery = fc.oneof(
    { weight: 3, arbitrary: fc.constant([] as [string, string][]) },
    fc.array(fc.tuple(fc.string({ maxLength: 10 }), fc.string({ maxLength: 20 })), { maxLength: 3 }),
    // A parameter given twice arrives as an array.
    fc.constant(endpoint.query.length ? [[endpoint.query[0]!.name, 'again'] as [string, string]] : []),
  );
  const withBody = ['POST', 'PUT', 'PATCH'].includes(endpoint.method);
  return fc.record({
    pathParams,
    query,
    extraQuery,
    body: withBody ? bodyFor(endpoint.body, hints) : fc.constant(undefined),
    encoding: withBody
      ? FILE_BODY.has(`${endpoint.method} ${endpoint.url}`)
        ? fileEncoding
        : encoding
      : fc.constant<Encoding>('json'),
    headers,
    junkCookie: fc.option(junkCookie, { freq: 4 }),
  });
}

/** FNV-1a: a fixed seed per route and role. */
const seedOf = (text: string) => {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h | 0;
};

async function bodyText(res: LightMyRequestResponse): Promise<string | null> {
  const stream = res.stream();
  if (res.headers['content-type']?.toString().includes('text/event-stream')) {
    stream.destroy(); // a live stream never ends; its status and type say enough
    return null;
  }
  let text = '';
  for await (const chunk of stream) text += String(chunk);
  return text;
}

/** The 400s that mean the request never reached the handler: schema validation and body parsing. */
const REFUSED_UNREAD =
  /^(Invalid (body|querystring|params|headers)\b|Body cannot be empty|Body is not valid JSON)/;

/** A route that takes a body but publishes no schema for it (so its bodies would be blind guesses). */
const NO_BODY = new Set([
  'POST /api/users/:id/suspend',
  'POST /api/users/:id/unsuspend',
  'POST /api/auth/sign-out',
  'POST /api/follow-ups/:id/done', // the id in the path says it all
  'POST /api/invitations/:id/revoke', // the invitation in the path says it all
  'POST /api/calendar/feed', // a new feed token for the signed-in rep
  'POST /api/admin/pipeline/:businessId/release', // the business in the path says it all
  'POST /api/admin/areas/overture-upload', // the body is the file itself (FILE_BODY), not JSON
]);
/** Routes whose body is a file sent as bytes (application/octet-stream), streamed to disk. */
const FILE_BODY = new Set(['POST /api/admin/areas/overture-upload']);

describe('hostile input on every route, as every role', () => {
  it('covers every registered route, better-auth, /metrics and /healthz', () => {
    expect(t.app.apiRoutes.length).toBeGreaterThan(40);
    expect(endpoints.map((e) => `${e.method} ${e.url}`)).toEqual(
      expect.arrayContaining([
        'GET /metrics',
        'GET /healthz',
        'POST /api/auth/reset-password',
        'POST /api/scans',
      ]),
    );
    // Every route that takes a body publishes its schema, so the bodies below are derived from it.
    const blind = endpoints
      .filter((e) => ['POST', 'PATCH', 'PUT'].includes(e.method) && !e.body)
      .map((e) => `${e.method} ${e.url}`);
    expect(blind.filter((r) => !NO_BODY.has(r))).toEqual([]);
  });

  for (const endpoint of endpoints) {
    it(`${endpoint.method} ${endpoint.url}: never 5xx, every 4xx explained, as each role`, async () => {
      const problems: string[] = [];
      let pastTheGate = 0; // requests that passed authentication and validation: the handler itself ran
      for (const role of ROLES) {
        const label = `${endpoint.method} ${endpoint.url} as ${role}`;
        await fc.assert(
          fc.asyncProperty(requestFor(endpoint), async (r) => {
            const caller = callers.get(role) ?? null;
            const path = endpoint.url.replace(/:(\w+)/g, (_m, name: string) =>
              encodeURIComponent(r.pathParams[name] ?? 'x'),
            );
            const qs = new URLSearchParams([
              ...Object.entries(r.query).filter((e): e is [string, string] => typeof e[1] === 'string'),
              ...r.extraQuery,
            ]).toString();
            const { payload, contentType } =
              r.body === undefined
                ? { payload: undefined, contentType: undefined }
                : encode(r.encoding, r.body);
            const cookie = [caller?.cookie, r.junkCookie].filter(Boolean).join('; ');
            const res = await t.app.inject({
              method: endpoint.method as 'GET',
              url: qs ? `${path}?${qs}` : path,
              payloadAsStream: true,
              headers: {
                ...r.headers,
                ...(cookie ? { cookie } : {}),
                ...(contentType ? { 'content-type': contentType } : {}),
              },
              ...(payload !== undefined ? { payload } : {}),
            });
            const text = await bodyText(res);
            const where = `${label} -> ${res.statusCode} (${path}${qs ? `?${qs}` : ''}, ${r.encoding})`;
            let error = '';
            if (res.statusCode >= 500) problems.push(`${where}: ${text?.slice(0, 200)}`);
            if (res.statusCode >= 400 && res.statusCode < 500 && text !== null) {
              try {
                const parsed = JSON.parse(text) as { error?: unknown };
                if (typeof parsed.error !== 'string' || parsed.error.trim() === '')
                  problems.push(`${where}: no error text: ${text.slice(0, 100)}`);
                else error = parsed.error;
              } catch {
                problems.push(`${where}: not JSON: ${text.slice(0, 100)}`);
              }
            }
            const stopped =
              [401, 403, 413, 415].includes(res.statusCode) ||
              (res.statusCode === 400 && REFUSED_UNREAD.test(error));
            if (!stopped) pastTheGate += 1;
          }),
          { numRuns: RUNS, seed: seedOf(label) },
        );
      }
      expect(problems).toEqual([]);
      expect(pastTheGate, 'no generated request got past authentication and validation').toBeGreaterThan(0);
    });
  }

  it('explains an error answer even where a library sent none (better-auth, reset link without a token)', async () => {
    const res = await t.request({ method: 'GET', url: '/api/auth/reset-password/' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Not found' });
  });

  it('refuses text with a NUL character (PostgreSQL cannot store it) with a 400 naming where it is', async () => {
    const user = callers.get('user')!;
    const cases = [
      { method: 'GET' as const, url: '/api/strategies/%00', where: /^Invalid params: businessId: .*NUL/ },
      {
        method: 'GET' as const,
        url: '/api/invitations/check?code=%00',
        where: /^Invalid querystring: code: .*NUL/,
      },
      {
        method: 'PATCH' as const,
        url: '/api/me',
        payload: { searchSettings: { label: 'a\u0000b' } },
        where: /^Invalid body: searchSettings\.label: .*NUL/,
      },
      {
        method: 'POST' as const,
        url: '/api/call-logs',
        payload: { prospectId: 'osm:node/1', name: 'Nul\u0000 Dental', outcome: 'Called' },
        where: /^Invalid body: name: .*NUL/,
      },
    ];
    for (const { where, ...request } of cases) {
      const res = await t.request({ ...request, as: user });
      expect({ url: request.url, status: res.statusCode }).toEqual({ url: request.url, status: 400 });
      expect(res.json<{ error: string }>().error).toMatch(where);
    }
  });

  it('refuses an oversized body with 413 and a message', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/session',
      payload: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(100_000) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: 'Request body is too large.' });
  });
});

// Cross-site requests, over fastify's own route list, so a route added later is covered without a line here.
// Each state-changing route is sent, as a SuperAdmin (whom every route lets in), what a page of another site
// can send: a foreign Origin (another port of the host, another site), a cross-site fetch without Origin, and
// a text/plain body (what an HTML form can post) from the app's own origin. None may reach a handler.
describe('cross-site requests and text/plain bodies on every state-changing route', () => {
  const stateChanging = [
    ...t.app.allRoutes.map(({ method, url }) => ({ method, url })),
    ...EXTRA.map(({ method, url }) => ({ method, url })),
  ]
    .filter((r) => r.method !== 'GET' && r.method !== 'HEAD' && r.method !== 'OPTIONS')
    .map((r) => ({ ...r, path: r.url.replace(/:(\w+)/g, 'no-such-$1').replace('*', 'sign-out') }));

  it('covers every route that changes something', () => {
    expect(stateChanging.length).toBeGreaterThan(30);
    const keys = stateChanging.map((r) => `${r.method} ${r.url}`);
    expect(keys).toEqual(
      expect.arrayContaining([
        'POST /api/users/:id/suspend',
        'POST /api/call-logs',
        'POST /api/current-advertisers/import',
        'POST /api/auth/*',
        'DELETE /api/session',
      ]),
    );
  });

  it('refuses a foreign Origin, a cross-site fetch and a foreign Referer with 403, before anything runs', async () => {
    const root = callers.get('SuperAdmin')!;
    const forged: Record<string, string>[] = [
      { origin: 'http://127.0.0.1:9999', 'content-type': 'application/json' },
      { origin: 'https://evil.example', 'content-type': 'text/plain' },
      { 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' },
      { 'sec-fetch-site': 'same-site', 'content-type': 'application/json' },
      { referer: 'http://evil.example/form.html', 'content-type': 'application/x-www-form-urlencoded' },
    ];
    const wrong: string[] = [];
    for (const route of stateChanging) {
      for (const headers of forged) {
        const res = await t.app.inject({
          method: route.method as 'POST',
          url: route.path,
          headers: { cookie: root.cookie, ...headers },
          payload: headers['content-type'] === 'application/json' ? '{}' : 'a=1',
        });
        if (res.statusCode !== 403 || res.json<{ error?: string }>().error !== CROSS_SITE_REFUSED) {
          wrong.push(
            `${route.method} ${route.path} ${JSON.stringify(headers)} -> ${res.statusCode} ${res.body}`,
          );
        }
      }
    }
    expect(wrong).toEqual([]);
    // Still a SuperAdmin with a live session: nothing above ran.
    expect((await t.request({ method: 'GET', url: '/api/me', as: root })).statusCode).toBe(200);
  });

  it('refuses a text/plain body from the own origin with 415 and a message', async () => {
    const root = callers.get('SuperAdmin')!;
    const wrong: string[] = [];
    for (const route of stateChanging) {
      const res = await t.request({
        method: route.method,
        url: route.path,
        as: root,
        headers: { 'content-type': 'text/plain' },
        payload: '{}',
      });
      const error = res.json<{ error?: string }>().error ?? '';
      if (res.statusCode !== 415 || !error.startsWith('Unsupported content type "text/plain"')) {
        wrong.push(`${route.method} ${route.path} -> ${res.statusCode} ${res.body}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
