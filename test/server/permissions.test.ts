import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Access } from '../../src/server/http/access.js';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';

// SPEC.md §6, as the server must enforce it. Every /api route declares its access rule; this test walks
// the routes the app really registered, so a new route is covered the moment it exists.
type Caller = 'anonymous' | 'user' | 'admin' | 'SuperAdmin';
const allowed: Record<Access, Caller[]> = {
  public: ['anonymous', 'user', 'admin', 'SuperAdmin'],
  user: ['user', 'admin', 'SuperAdmin'],
  admin: ['admin', 'SuperAdmin'],
  superadmin: ['SuperAdmin'],
};

// Routes whose rule is fixed by SPEC.md §6; the test fails if one of them drifts.
const expectedRules: Record<string, Access> = {
  'POST /api/invitations': 'admin',
  'GET /api/invitations': 'admin',
  'GET /api/users': 'admin',
  'PATCH /api/users/:id/role': 'admin',
  'DELETE /api/users/:id': 'admin',
  'POST /api/users/:id/suspend': 'superadmin',
  'POST /api/users/:id/unsuspend': 'superadmin',
  'POST /api/users/:id/hard-delete': 'superadmin',
  'GET /api/me': 'user',
  'POST /api/session': 'public',
  'POST /api/register': 'public',
};

let t: TestContext;
const callers: Partial<Record<Caller, TestUser | null>> = {};

beforeAll(async () => {
  t = await createTestContext();
  callers.SuperAdmin = await t.newUser('SuperAdmin');
  callers.admin = await t.newUser('admin');
  callers.user = await t.newUser('user');
  callers.anonymous = null;
});
afterAll(() => t.close());

describe('permission matrix (SPEC.md §6)', () => {
  it('registers an access rule for every /api route, as the spec fixes them', () => {
    const seen = new Map(t.app.apiRoutes.map((r) => [`${r.method} ${r.url}`, r.access]));
    expect(seen.size).toBeGreaterThan(10);
    for (const [route, access] of Object.entries(expectedRules)) {
      expect(seen.get(route), route).toBe(access);
    }
  });

  it('answers every route as each role allows: 401 signed out, 403 with a message when denied', async () => {
    const failures: string[] = [];
    for (const route of t.app.apiRoutes) {
      const url = route.url.replace(/:(\w+)/g, 'no-such-$1').replace('*', 'x');
      for (const caller of ['anonymous', 'user', 'admin', 'SuperAdmin'] as const) {
        const res = await t.request({
          method: route.method,
          url,
          as: callers[caller] ?? null,
          payloadAsStream: true,
          ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
        });
        const stream = res.stream();
        let body = '';
        if (res.statusCode === 401 || res.statusCode === 403) {
          for await (const chunk of stream) body += String(chunk);
        } else {
          stream.destroy();
        }
        const ok = allowed[route.access].includes(caller);
        const label = `${route.method} ${route.url} as ${caller} -> ${res.statusCode}`;
        if (ok && (res.statusCode === 401 || res.statusCode === 403))
          failures.push(`${label} (should be allowed)`);
        if (!ok) {
          const want = caller === 'anonymous' ? 401 : 403;
          if (res.statusCode !== want) failures.push(`${label} (want ${want})`);
          else if (typeof (JSON.parse(body) as { error?: unknown }).error !== 'string') {
            failures.push(`${label} without an {"error"} message`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("uses the spec's own denial texts for invitations", async () => {
    const gen = await t.request({ method: 'POST', url: '/api/invitations', payload: {}, as: callers.user });
    expect(gen.statusCode).toBe(403);
    expect(gen.json()).toEqual({ error: 'Only admins can generate invitations' });
    const list = await t.request({ method: 'GET', url: '/api/invitations', as: callers.user });
    expect(list.json()).toEqual({ error: 'Only admins can view invitations' });
  });
});
