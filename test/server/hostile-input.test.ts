import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';

// Issue 7 "hostile input": generated bodies, query strings and path parameters sent to every registered
// route as each role. The server must never answer 5xx, and every 4xx carries a clear {"error"} message.
// Routes that talk to the outside world or stream are still called; they must fail closed, not crash.

let t: TestContext;
const callers: (TestUser | null)[] = [];

beforeAll(async () => {
  t = await createTestContext({ SCAN_COOLDOWN_MS: '0', PLACE_PROVIDERS: 'demo', BODY_LIMIT_BYTES: '65536' });
  callers.push(null, await t.newUser('user'), await t.newUser('admin'), await t.newUser('SuperAdmin'));
});
afterAll(() => t.close());

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const segment = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom('..', '%00', '%2e%2e', "' or 1=1 --", '<script>', '0', '-1', '9'.repeat(40), 'null'),
);

// Routes whose success has side effects that would break the rest of the run (signing ourselves out,
// deleting the calling users) are exercised with bodies only, not as the signed-in callers.
const destructive = new Set(['POST /api/auth/sign-out']);

describe('hostile input on every route', () => {
  it('never answers 5xx and always explains a 4xx', async () => {
    const routes = t.app.apiRoutes.filter((r) => !destructive.has(`${r.method} ${r.url}`));
    expect(routes.length).toBeGreaterThan(10);
    const problems: string[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.constantFrom(...callers),
        fc.array(segment, { minLength: 3, maxLength: 3 }),
        fc.dictionary(fc.string({ maxLength: 12 }), fc.string({ maxLength: 30 }), { maxKeys: 4 }),
        fc.oneof(jsonValue, fc.string({ maxLength: 200 })),
        async (route, caller, params, query, body) => {
          let i = 0;
          const path = route.url.replace(/:(\w+)/g, () =>
            encodeURIComponent(params[i++ % params.length] ?? 'x'),
          );
          const qs = new URLSearchParams(query).toString();
          const res = await t.request({
            method: route.method,
            url: qs ? `${path}?${qs}` : path,
            as: caller,
            payloadAsStream: true,
            ...(route.method === 'GET' || route.method === 'DELETE'
              ? {}
              : typeof body === 'string'
                ? { payload: body, headers: { 'content-type': 'application/json' } }
                : { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
          });
          const stream = res.stream();
          const label = `${route.method} ${path} as ${caller?.role ?? 'anonymous'} -> ${res.statusCode}`;
          if (res.headers['content-type']?.toString().includes('text/event-stream')) {
            stream.destroy();
            return;
          }
          let text = '';
          for await (const chunk of stream) text += String(chunk);
          if (res.statusCode >= 500) problems.push(`${label}: ${text.slice(0, 200)}`);
          if (res.statusCode >= 400 && res.statusCode < 500) {
            try {
              const parsed = JSON.parse(text) as { error?: unknown };
              if (typeof parsed.error !== 'string' || parsed.error.length === 0)
                problems.push(`${label}: no error text`);
            } catch {
              problems.push(`${label}: not JSON: ${text.slice(0, 100)}`);
            }
          }
        },
      ),
      { numRuns: 400, seed: 42 },
    );
    expect(problems).toEqual([]);
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
