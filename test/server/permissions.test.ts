import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Access } from '../../src/server/http/access.js';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';

// Who may call each route the app registers, route by route (docs/PRODUCT.md, "Accounts and roles"). The
// table is written from the product's rules, not copied from the routes' own declarations: the test fails
// when a registered route is missing here (a new route must be added deliberately, with the rule it follows),
// when a line names a route that no longer exists, when a route declares another rule, and when any caller is
// let in or kept out against this table.
//   public: anyone, signed in or not · user: any signed-in account · admin: admin or SuperAdmin ·
//   superadmin: SuperAdmin only. A route with no config.access is open to everyone and must be 'public'.
const ROLE_TABLE: Record<string, Access> = {
  // Platform
  'GET /healthz': 'public', // answers once the database is migrated
  'GET /metrics': 'admin', // Prometheus metrics, admin-only
  'GET /api/openapi.json': 'public', // the API document
  'GET /api/config': 'public', // settings the sign-in screen needs too (password length, map)
  'GET /api/auth/*': 'public', // better-auth's own: get-session, the reset link's landing
  'POST /api/auth/*': 'public', // better-auth's own: sign-out
  // Accounts (signing in and out, registering and resetting a password need no role)
  'POST /api/register': 'public',
  'POST /api/session': 'public',
  'DELETE /api/session': 'user',
  'POST /api/password-reset': 'public',
  'POST /api/password-reset/complete': 'public',
  'GET /api/invitations/check': 'public', // the registration form validates the code live
  'GET /api/session': 'public', // the page load: the signed-in user, or null (200) when signed out
  'GET /api/me': 'user',
  'PATCH /api/me': 'user',
  // Listing users, switching a role between user and admin: admin
  'GET /api/users': 'admin',
  'PATCH /api/users/:id/role': 'admin', // SuperAdmin targets and the SuperAdmin role: SuperAdmins (service)
  // Deleting a profile (non-SuperAdmin targets only): admin
  'DELETE /api/users/:id': 'admin',
  // Suspend, unsuspend, hard delete (with the password re-entered): SuperAdmin
  'POST /api/users/:id/suspend': 'superadmin',
  'POST /api/users/:id/unsuspend': 'superadmin',
  'POST /api/users/:id/hard-delete': 'superadmin',
  // User Data Testing: SuperAdmin
  'GET /api/users/:id/data': 'superadmin',
  // Generating and listing invitations: admin
  'POST /api/invitations': 'admin',
  'GET /api/invitations': 'admin',
  'POST /api/invitations/:id/revoke': 'admin',
  // Scanning, logging calls, saving and removing saved, exporting and clearing one's own log: user
  'POST /api/scans': 'user',
  'POST /api/quick-search': 'user',
  'GET /api/geocode': 'user',
  'GET /api/reverse-geocode': 'user',
  'GET /api/places/:id/details': 'user',
  'GET /api/photos': 'user', // a Google photo, fetched with the server's key
  'GET /api/scans/latest': 'user',
  'DELETE /api/scans/latest': 'user',
  'PATCH /api/scans/latest/prospects/:id/category': 'user', // a category set before asking for a strategy
  'GET /api/call-logs': 'user',
  'POST /api/call-logs': 'user',
  'DELETE /api/call-logs/:id': 'user',
  'DELETE /api/call-logs': 'user',
  'POST /api/route': 'user', // route for the day over businesses the rep may see
  'GET /api/visits': 'user', // own visits of a day
  'GET /api/call-logs/export.csv': 'user',
  // Own follow-ups (another rep's answer 404), the calendar feed and the digest switch
  'GET /api/follow-ups': 'user',
  'POST /api/follow-ups/:id/done': 'user',
  'PATCH /api/follow-ups/:id': 'user',
  'GET /api/follow-ups/:id.ics': 'user',
  'GET /api/calendar/settings': 'user',
  'PATCH /api/calendar/settings': 'user',
  'POST /api/calendar/feed': 'user',
  'GET /api/calendar/:token.ics': 'public', // the secret token in the link is the credential (404 otherwise)
  'GET /api/saved': 'user',
  'POST /api/saved': 'user',
  'DELETE /api/saved/:prospectId': 'user',
  'PATCH /api/saved/:prospectId/category': 'user', // Set category on a Saved card, before its strategy
  'GET /api/events': 'user', // live blocklist and advertiser updates for every screen
  // Marking a current advertiser, asking for a strategy: user; unmarking an advertiser: admin
  'GET /api/current-advertisers': 'user',
  'POST /api/current-advertisers': 'user',
  'DELETE /api/current-advertisers/:businessId': 'admin',
  'POST /api/current-advertisers/import': 'admin', // import of an existing advertiser list
  // The billing import and who sees amounts: admin; the lapsed advertisers list: any user (the service narrows
  // a rep's to their territories and hides amounts unless shared)
  'POST /api/admin/billing': 'admin',
  'GET /api/admin/billing/settings': 'admin',
  'PATCH /api/admin/billing/settings': 'admin',
  'GET /api/advertisers/lapsed': 'user',
  // The team pipeline. Any rep reads it and claims or moves a business (the service refuses
  // another rep's with a 409); admins reassign and release.
  'GET /api/pipeline': 'user',
  'PUT /api/pipeline/:businessId': 'user',
  'GET /api/pipeline/:businessId/history': 'user',
  'POST /api/admin/pipeline/:businessId/reassign': 'admin',
  'POST /api/admin/pipeline/:businessId/release': 'admin',
  'POST /api/strategies': 'user',
  'GET /api/strategies/jobs/:jobId': 'user',
  'GET /api/strategies/:businessId': 'user',
  // The admin tabs, blocking a business: admin (the Blocked tab lists and removes)
  'GET /api/blocklist': 'admin',
  'POST /api/blocklist': 'admin',
  'DELETE /api/blocklist/:businessId': 'admin',
  // Clearing the whole blocklist and checking one id (Universal Blocklist Debug): SuperAdmin
  'DELETE /api/blocklist': 'superadmin',
  'GET /api/blocklist/check/:businessId': 'superadmin',
  // Cache stats: admin; clearing the caches: SuperAdmin
  'GET /api/admin/cache': 'admin',
  'DELETE /api/admin/cache': 'superadmin',
  // The website checks' queue and a re-check of one business, for admins
  'GET /api/admin/website-checks': 'admin',
  'POST /api/admin/website-checks': 'admin',
  // All Prospects and its exports: admin
  'GET /api/admin/all-prospects': 'admin',
  'GET /api/exports/all-prospects.csv': 'admin',
  'GET /api/exports/prospects.csv': 'admin', // Export Prospects; its current-scan part: SuperAdmin (service)
  // Algorithm Settings: SuperAdmins change them; admins see the panel read-only
  'GET /api/admin/settings': 'admin',
  'PATCH /api/admin/settings': 'superadmin',
  // The areas with business data and refreshing a region: admin, like the cache stats: the team's shared
  // data, and a refresh only adds or updates businesses (clearing is SuperAdmin's)
  'GET /api/admin/areas': 'admin',
  'POST /api/admin/areas/refresh': 'admin',
  'GET /api/admin/areas/jobs/:jobId': 'admin',
  // Importing an Overture places file, from the server or uploaded: adds and updates businesses, as a refresh does.
  'POST /api/admin/areas/overture-file': 'admin',
  'POST /api/admin/areas/overture-upload': 'admin',
  // The audit log, for SuperAdmins
  'GET /api/audit': 'superadmin',
  'GET /api/audit/export.csv': 'superadmin',
  // The Team dashboard, admin-only like every admin view
  'GET /api/team/activity': 'admin',
  'GET /api/team/daily': 'admin',
  'GET /api/team/outcomes': 'admin',
  'GET /api/team/inactive': 'admin',
  'GET /api/team/map': 'admin',
  'GET /api/team/reps/:userId': 'admin',
  'GET /api/team/funnel': 'admin',
  'GET /api/team/win-rates': 'admin',
  'GET /api/team/reps/:userId/pipeline': 'admin',
  'GET /api/team/reps/:userId/route': 'admin',
  // Territories: a rep reads the ones they are assigned to (the service filters); drawing, changing and
  // deleting them is for admins
  'GET /api/territories': 'user',
  'POST /api/territories': 'admin',
  'PUT /api/territories/:id': 'admin',
  'DELETE /api/territories/:id': 'admin',
  // The Team tab's territory view, admin-only like every Team view
  'GET /api/team/territories': 'admin',
};

/** Routes that end the caller's session: called with a fresh session of the same account. */
const SIGNS_OUT = new Set(['DELETE /api/session']);

type Caller = 'anonymous' | 'user' | 'admin' | 'SuperAdmin';
const allowed: Record<Access, Caller[]> = {
  public: ['anonymous', 'user', 'admin', 'SuperAdmin'],
  user: ['user', 'admin', 'SuperAdmin'],
  admin: ['admin', 'SuperAdmin'],
  superadmin: ['SuperAdmin'],
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

const key = (r: { method: string; url: string }) => `${r.method} ${r.url}`;

describe('permission matrix, every route as every role', () => {
  it('has a line for every registered route and a registered route for every line', () => {
    const registered = new Set(t.app.allRoutes.map(key));
    expect(registered.size).toBeGreaterThan(50);
    const missing = [...registered].filter((r) => !(r in ROLE_TABLE));
    const stale = Object.keys(ROLE_TABLE).filter((r) => !registered.has(r));
    expect(missing, 'registered routes missing from ROLE_TABLE').toEqual([]);
    expect(stale, 'ROLE_TABLE lines naming no registered route').toEqual([]);
  });

  it('has every route declare the rule of the table', () => {
    const wrong = t.app.allRoutes
      .filter((r) => (r.access ?? 'public') !== ROLE_TABLE[key(r)])
      .map((r) => `${key(r)} declares ${r.access ?? 'no rule'}, ROLE_TABLE says ${ROLE_TABLE[key(r)]}`);
    expect(wrong).toEqual([]);
  });

  it('answers every route as the table allows: 401 signed out, 403 with a message when denied', async () => {
    const failures: string[] = [];
    for (const route of t.app.allRoutes) {
      const rule = ROLE_TABLE[key(route)];
      if (!rule) continue; // reported by the first test
      // better-auth's catch-all is called on get-session (POST: not passed through), never on sign-out.
      const url = route.url.replace(/:(\w+)/g, 'no-such-$1').replace('*', 'get-session');
      for (const caller of ['anonymous', 'user', 'admin', 'SuperAdmin'] as const) {
        let as = callers[caller] ?? null;
        if (as && SIGNS_OUT.has(key(route))) as = { ...as, cookie: await t.signIn(as.email, as.password) };
        const res = await t.request({
          method: route.method,
          url,
          as,
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
        const label = `${key(route)} as ${caller} -> ${res.statusCode}`;
        if (allowed[rule].includes(caller)) {
          if (res.statusCode === 401 || res.statusCode === 403) failures.push(`${label} (should be allowed)`);
          continue;
        }
        const want = caller === 'anonymous' ? 401 : 403;
        if (res.statusCode !== want) failures.push(`${label} (want ${want})`);
        else if (typeof (JSON.parse(body) as { error?: unknown }).error !== 'string') {
          failures.push(`${label} without an {"error"} message`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("uses the invitation routes' own denial texts", async () => {
    const gen = await t.request({ method: 'POST', url: '/api/invitations', payload: {}, as: callers.user });
    expect(gen.statusCode).toBe(403);
    expect(gen.json()).toEqual({ error: 'Only admins can generate invitations' });
    const list = await t.request({ method: 'GET', url: '/api/invitations', as: callers.user });
    expect(list.json()).toEqual({ error: 'Only admins can view invitations' });
  });
});

describe('GET /metrics', () => {
  it('is for admins: 401 signed out, 403 for a user, Prometheus text for admins', async () => {
    expect((await t.request({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    const user = await t.request({ method: 'GET', url: '/metrics', as: callers.user });
    expect(user.statusCode).toBe(403);
    expect(user.json()).toEqual({ error: expect.any(String) });
    for (const as of [callers.admin, callers.SuperAdmin]) {
      const res = await t.request({ method: 'GET', url: '/metrics', as });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(res.body).toMatch(/^# HELP /m);
    }
  });

  it('reports request latency by route, scans, provider errors and the job queue', async () => {
    await t.request({ method: 'GET', url: '/api/me', as: callers.user });
    await t.request({ method: 'GET', url: '/api/users/someone/data', as: callers.SuperAdmin });
    const text = (await t.request({ method: 'GET', url: '/metrics', as: callers.admin })).body;
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    // Labelled by the route pattern, never the raw URL.
    expect(text).toMatch(/^http_request_duration_seconds_bucket\{[^}]*route="\/api\/me"[^}]*\} [1-9]/m);
    expect(text).toMatch(/^http_request_duration_seconds_count\{[^}]*route="\/api\/users\/:id\/data"/m);
    expect(text).not.toContain('/api/users/someone/data');
    expect(text).toContain('# TYPE scans_total counter');
    expect(text).toMatch(/^scans_total \d+$/m);
    expect(text).toContain('# TYPE place_provider_errors_total counter');
    expect(text).toContain('# TYPE job_queue_depth gauge');
    expect(text).toMatch(/^job_queue_depth \d+$/m);
    expect(text).toMatch(/^password_hashes_waiting \d+$/m);
  });
});
