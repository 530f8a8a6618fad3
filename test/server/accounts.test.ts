import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, sessionCookie, type TestContext } from '../helpers/app.js';
import { sql } from 'kysely';
import Fastify from 'fastify';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMailer } from '../../src/server/mail/mailer.js';
import * as msg from '../../src/core/messages.js';
import * as suspensionsMigration from '../../src/server/db/migrations/2026-11-23T1000-account-suspensions.js';

let t: TestContext;
beforeEach(async () => {
  t = await createTestContext();
});
afterEach(() => t.close());

const register = (payload: Record<string, unknown>) =>
  t.request({ method: 'POST', url: '/api/register', payload });

describe('registration and bootstrap', () => {
  it('makes the first account SuperAdmin without a code, then requires a valid invitation', async () => {
    const first = await register({
      name: 'Ann',
      email: ' Ann@Example.COM ',
      password: 'password1',
      confirmPassword: 'password1',
    });
    expect(first.statusCode).toBe(201);
    const cookie = sessionCookie(first.headers['set-cookie']);
    expect(cookie).toContain('session_token');
    const me = await t.request({ method: 'GET', url: '/api/me', headers: { cookie } });
    expect(me.json().user).toMatchObject({
      email: 'ann@example.com',
      role: 'SuperAdmin',
      isSuperAdmin: true,
    });

    const noCode = await register({ name: 'Bob', email: 'bob@example.com', password: 'password1' });
    expect(noCode.json()).toEqual({ error: msg.INVITATION_REQUIRED });
    const badCode = await register({
      name: 'Bob',
      email: 'bob@example.com',
      password: 'password1',
      invitationCode: 'NOPE',
    });
    expect(badCode.json()).toEqual({ error: msg.INVITATION_ENTER_VALID });

    const inv = await t.request({
      method: 'POST',
      url: '/api/invitations',
      payload: {},
      headers: { cookie },
    });
    expect(inv.statusCode).toBe(201);
    const code = inv.json().invitation.code as string;
    expect(code.replaceAll('-', '')).toMatch(/^[A-Z2-9]{32}$/);
    // Invalid once expiresAt has passed, 7 days after creation: exactly.
    const { createdAt, expiresAt } = inv.json().invitation as { createdAt: string; expiresAt: string };
    expect(Date.parse(expiresAt) - Date.parse(createdAt)).toBe(7 * 24 * 60 * 60 * 1000);
    expect(Math.abs(Date.parse(createdAt) - Date.now())).toBeLessThan(60_000);

    const bob = await register({
      name: 'Bob',
      email: 'bob@example.com',
      password: 'password1',
      invitationCode: code.toLowerCase(),
    });
    expect(bob.statusCode).toBe(201);
    const bobMe = await t.request({
      method: 'GET',
      url: '/api/me',
      headers: { cookie: sessionCookie(bob.headers['set-cookie']) },
    });
    expect(bobMe.json().user).toMatchObject({ role: 'user', isSuperAdmin: false });

    const again = await register({
      name: 'Cy',
      email: 'cy@example.com',
      password: 'password1',
      invitationCode: code,
    });
    expect(again.json()).toEqual({ error: msg.INVITATION_USED });

    const list = await t.request({ method: 'GET', url: '/api/invitations', headers: { cookie } });
    expect(list.json().invitations[0]).toMatchObject({ status: 'used', usedByEmail: 'bob@example.com' });
  });

  it('gives the exact messages for bad registration input', async () => {
    await t.newUser('SuperAdmin');
    expect(
      (
        await register({ name: 'X', email: 'not-an-email', password: 'password1', invitationCode: 'x' })
      ).json(),
    ).toEqual({
      error: msg.INVALID_EMAIL,
    });
    expect(
      (await register({ name: 'X', email: 'x@example.com', password: 'short', invitationCode: 'x' })).json(),
    ).toEqual({
      error: 'Password is too weak. Please choose a password with at least 8 characters.',
    });
    expect(
      (
        await register({
          name: 'X',
          email: 'x@example.com',
          password: 'password1',
          confirmPassword: 'password2',
          invitationCode: 'x',
        })
      ).json(),
    ).toEqual({ error: msg.PASSWORDS_DO_NOT_MATCH });
    const existing = await t.newUser('user');
    const admin = await t.newUser('admin');
    const inv = await t.request({ method: 'POST', url: '/api/invitations', payload: {}, as: admin });
    const dup = await register({
      name: 'X',
      email: existing.email.toUpperCase(),
      password: 'password1',
      invitationCode: inv.json().invitation.code,
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({ error: msg.EMAIL_IN_USE });
  });

  it('names the configured minimum length in the weak-password message', async () => {
    await t.close();
    t = await createTestContext({ PASSWORD_MIN_LENGTH: '12' });
    const res = await register({ name: 'X', email: 'x@example.com', password: 'elevenchars' });
    expect(res.json()).toEqual({
      error: 'Password is too weak. Please choose a password with at least 12 characters.',
    });
  });

  it('restricts an invitation issued for one e-mail to that address and reports expiry', async () => {
    const admin = await t.newUser('admin');
    const inv = await t.request({
      method: 'POST',
      url: '/api/invitations',
      payload: { email: 'Dee@Example.com' },
      as: admin,
    });
    const code = inv.json().invitation.code as string;
    const check = await t.request({
      method: 'GET',
      url: `/api/invitations/check?code=${code}&email=eve@example.com`,
    });
    expect(check.json()).toEqual({ valid: false, message: msg.INVITATION_WRONG_EMAIL });
    expect(
      (await register({ name: 'Eve', email: 'eve@example.com', password: 'password1', invitationCode: code }))
        .statusCode,
    ).toBe(400);
    expect((await t.request({ method: 'GET', url: `/api/invitations/check?code=${code}` })).json()).toEqual({
      valid: true,
      message: msg.INVITATION_VALID,
    });
    await t.db.kysely
      .updateTable('invitations')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    expect((await t.request({ method: 'GET', url: `/api/invitations/check?code=${code}` })).json()).toEqual({
      valid: false,
      message: msg.INVITATION_EXPIRED,
    });
    expect((await t.request({ method: 'GET', url: '/api/invitations/check?code=unknown' })).json()).toEqual({
      valid: false,
      message: msg.INVITATION_INVALID,
    });
    expect(
      (await t.request({ method: 'GET', url: '/api/invitations', as: admin })).json().invitations[0].status,
    ).toBe('expired');
  });

  it('lets exactly one of two simultaneous registrations use one invitation', async () => {
    const admin = await t.newUser('admin');
    for (let round = 0; round < 3; round++) {
      const inv = await t.request({ method: 'POST', url: '/api/invitations', payload: {}, as: admin });
      const code = inv.json().invitation.code as string;
      const results = await Promise.all(
        ['a', 'b'].map((who) =>
          register({
            name: who,
            email: `${who}${round}@race.test`,
            password: 'password1',
            invitationCode: code,
          }),
        ),
      );
      expect(results.map((r) => r.statusCode).sort()).toEqual([201, 400]);
      const accounts = await t.db.kysely
        .selectFrom('user')
        .select('email')
        .where('email', 'like', `%${round}@race.test`)
        .execute();
      expect(accounts).toHaveLength(1);
    }
  });

  it('makes exactly one SuperAdmin when two first registrations race', async () => {
    const results = await Promise.all(
      ['a', 'b'].map((who) => register({ name: who, email: `${who}@first.test`, password: 'password1' })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 400]);
    const supers = await t.db.kysely
      .selectFrom('user_profiles')
      .select('email')
      .where('role', '=', 'SuperAdmin')
      .execute();
    expect(supers).toHaveLength(1);
  });
});

describe('sign-in', () => {
  it('trims and lower-cases the e-mail and gives the exact messages', async () => {
    const u = await t.newUser('user', { email: 'kim@example.com', password: 'password1' });
    const signIn = (email: string, password: string) =>
      t.request({ method: 'POST', url: '/api/session', payload: { email, password } });
    expect((await signIn('  KIM@example.com ', 'password1')).statusCode).toBe(200);
    expect((await signIn(u.email, 'wrong-password')).json()).toEqual({ error: msg.WRONG_PASSWORD });
    expect((await signIn('nobody@example.com', 'password1')).json()).toEqual({ error: msg.USER_NOT_FOUND });
    expect((await signIn('bad email', 'password1')).json()).toEqual({ error: msg.INVALID_EMAIL });
  });

  it('rate limits repeated sign-in attempts with the exact message', async () => {
    await t.close();
    t = await createTestContext({ SIGN_IN_RATE_LIMIT: '3' });
    const u = await t.newUser('user');
    const codes: number[] = [];
    let last: unknown;
    for (let i = 0; i < 5; i++) {
      const res = await t.request({
        method: 'POST',
        url: '/api/session',
        payload: { email: u.email, password: 'nope-nope' },
      });
      codes.push(res.statusCode);
      last = res.json();
    }
    expect(codes.slice(-1)).toEqual([429]);
    expect(last).toEqual({ error: msg.TOO_MANY_ATTEMPTS, retryAfterMs: expect.any(Number) });
  });

  it('restores the session from the cookie and ends it on sign-out', async () => {
    const u = await t.newUser('user');
    const other = await t.signIn(u.email, u.password);
    expect((await t.request({ method: 'GET', url: '/api/me', as: u })).statusCode).toBe(200);
    const out = await t.request({ method: 'DELETE', url: '/api/session', as: u });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ ok: true });
    expect((await t.request({ method: 'GET', url: '/api/me', as: u })).statusCode).toBe(401);
    // Only this session ends; the same person signed in elsewhere stays signed in.
    expect((await t.request({ method: 'GET', url: '/api/me', headers: { cookie: other } })).statusCode).toBe(
      200,
    );
    // Signing out again with the ended session's cookie is a plain 401.
    expect((await t.request({ method: 'DELETE', url: '/api/session', as: u })).statusCode).toBe(401);
  });

  it('works end to end from an address other than PUBLIC_URL (a LAN IP on a phone)', async () => {
    const lan = { origin: 'http://192.168.1.20:3000', host: '192.168.1.20:3000' };
    const first = await t.request({
      method: 'POST',
      url: '/api/register',
      payload: { name: 'Lan', email: 'lan@example.com', password: 'password1' },
      headers: lan,
    });
    expect(first.statusCode).toBe(201);
    const signIn = await t.request({
      method: 'POST',
      url: '/api/session',
      payload: { email: 'lan@example.com', password: 'password1' },
      headers: lan,
    });
    expect(signIn.statusCode).toBe(200);
    const cookie = sessionCookie(signIn.headers['set-cookie']);
    expect((await t.request({ method: 'GET', url: '/api/me', headers: { ...lan, cookie } })).statusCode).toBe(
      200,
    );
    const sessions = () => t.db.kysely.selectFrom('session').select('token').execute();
    expect(await sessions()).toHaveLength(2);

    const out = await t.request({ method: 'DELETE', url: '/api/session', headers: { ...lan, cookie } });
    expect(out.statusCode).toBe(200);
    // The cookie is cleared in the browser and the session row is gone, so a reload stays signed out.
    const cleared = ([] as string[]).concat(out.headers['set-cookie'] ?? []);
    expect(cleared.find((c) => c.includes('session_token='))).toMatch(/session_token=;.*Max-Age=0/i);
    expect(await sessions()).toHaveLength(1);
    expect((await t.request({ method: 'GET', url: '/api/me', headers: { ...lan, cookie } })).statusCode).toBe(
      401,
    );
  });

  it('does not expose better-auth sign-up or direct sign-in', async () => {
    const up = await t.request({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      payload: { email: 'z@z.io', password: 'password1', name: 'z' },
    });
    expect(up.statusCode).toBe(404);
    const direct = await t.request({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: 'z@z.io', password: 'x' },
    });
    expect(direct.statusCode).toBe(404);
  });

  it('resets a password through the e-mailed link', async () => {
    const u = await t.newUser('user');
    const req = await t.request({
      method: 'POST',
      url: '/api/password-reset',
      payload: { email: ` ${u.email.toUpperCase()} ` },
    });
    expect(req.statusCode).toBe(200);
    expect(t.mail).toHaveLength(1);
    expect(t.mail[0]!.to).toBe(u.email);
    const link = /http\S+/.exec(t.mail[0]!.text)![0];
    const landing = await t.request({ method: 'GET', url: new URL(link).pathname + new URL(link).search });
    expect(landing.statusCode).toBe(302);
    const token = new URL(landing.headers.location as string, 'http://x').searchParams.get('token');
    expect(token).toBeTruthy();
    const complete = (newPassword: string) =>
      t.request({ method: 'POST', url: '/api/password-reset/complete', payload: { newPassword, token } });
    // Too short: the weak-password message naming the configured length, as at registration.
    const weak = await complete('short');
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toEqual({ error: msg.weakPassword(8) });
    const reset = await complete('brand-new-pass');
    expect(reset.statusCode).toBe(200);
    await expect(t.signIn(u.email, 'brand-new-pass')).resolves.toContain('session_token');
    // The token is single use.
    expect((await complete('another-new-pass')).statusCode).toBe(400);
    // Unknown addresses get the same answer (no account enumeration) and no mail; bad ones a clear 400.
    const unknown = await t.request({
      method: 'POST',
      url: '/api/password-reset',
      payload: { email: 'nobody@example.com' },
    });
    expect(unknown.statusCode).toBe(200);
    expect(t.mail).toHaveLength(1);
    const bad = await t.request({ method: 'POST', url: '/api/password-reset', payload: { email: 'nope' } });
    expect(bad.json()).toEqual({ error: msg.INVALID_EMAIL });
  });

  it('names the configured minimum length when a reset password is too short', async () => {
    await t.close();
    t = await createTestContext({ PASSWORD_MIN_LENGTH: '12' });
    const u = await t.newUser('user', { password: 'twelve-chars' });
    await t.request({ method: 'POST', url: '/api/password-reset', payload: { email: u.email } });
    const link = new URL(/http\S+/.exec(t.mail[0]!.text)![0]);
    const landing = await t.request({ method: 'GET', url: link.pathname + link.search });
    const token = new URL(landing.headers.location as string, 'http://x').searchParams.get('token');
    const res = await t.request({
      method: 'POST',
      url: '/api/password-reset/complete',
      payload: { newPassword: 'elevenchars', token },
    });
    expect(res.json()).toEqual({ error: msg.weakPassword(12) });
  });

  it('no longer passes reset requests to better-auth, which had no limit on them', async () => {
    for (const url of ['/api/auth/request-password-reset', '/api/auth/reset-password']) {
      expect((await t.request({ method: 'POST', url, payload: { email: 'x@example.com' } })).statusCode).toBe(
        404,
      );
    }
  });
});

describe('password reset without SMTP (SMTP_URL empty)', () => {
  it('writes the reset mail to $DATA_DIR/outbox, and its link works', async () => {
    await t.close();
    t = await createTestContext({}, { realMailer: true });
    const u = await t.newUser('user');
    const outbox = join(t.config.dataDir, 'outbox');
    expect(t.config.mail.outboxDir).toBe(outbox);
    const req = await t.request({ method: 'POST', url: '/api/password-reset', payload: { email: u.email } });
    expect(req.statusCode).toBe(200);
    const files = readdirSync(outbox);
    expect(files).toHaveLength(1);
    expect(files[0]).toContain(u.email);
    const text = readFileSync(join(outbox, files[0]!), 'utf8');
    expect(text).toMatch(new RegExp(`^To: ${u.email.replace(/[.]/g, '\\.')}$`, 'm'));
    expect(text).toMatch(/^Subject: Reset your Prospect Finder password$/m);
    const link = new URL(/http\S+\/api\/auth\/reset-password\/\S+/.exec(text)![0]);
    expect(link.origin).toBe(t.config.publicUrl);
    const landing = await t.request({ method: 'GET', url: link.pathname + link.search });
    const token = new URL(landing.headers.location as string, 'http://x').searchParams.get('token');
    const done = await t.request({
      method: 'POST',
      url: '/api/password-reset/complete',
      payload: { newPassword: 'from-the-outbox', token },
    });
    expect(done.statusCode).toBe(200);
    await expect(t.signIn(u.email, 'from-the-outbox')).resolves.toContain('session_token');
  });

  it('also writes the mail, link included, to the server log', async () => {
    const lines: string[] = [];
    const logged = Fastify({
      logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } },
    });
    const outboxDir = join(t.config.dataDir, 'log-test-outbox');
    const mailer = createMailer({ smtpUrl: undefined, from: 'PF <pf@localhost>', outboxDir }, logged.log);
    await mailer.send({ to: 'kim@example.com', subject: 'Reset', text: 'Open http://localhost:3000/x/abc' });
    const entry = lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.to === 'kim@example.com');
    expect(entry).toMatchObject({
      level: 30,
      msg: 'mail written to outbox (no SMTP_URL)',
      subject: 'Reset',
      text: 'Open http://localhost:3000/x/abc',
    });
    expect(entry!.file).toBe(join(outboxDir, readdirSync(outboxDir)[0]!));
    await logged.close();
  });
});

describe('profiles and user management', () => {
  it('reads and writes preferences and saved search settings per user', async () => {
    const u = await t.newUser('user');
    const settings = {
      lat: 33.5,
      lng: -86.8,
      label: 'Birmingham, AL',
      radiusMiles: 1.2,
      count: 25,
      categories: ['legal'],
    };
    const res = await t.request({
      method: 'PATCH',
      url: '/api/me',
      payload: { hideInstructions: true, searchSettings: settings },
      as: u,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ hideInstructions: true, searchSettings: settings });
    const bad = await t.request({ method: 'PATCH', url: '/api/me', payload: { role: 'SuperAdmin' }, as: u });
    expect(bad.statusCode).toBe(400);
    expect(typeof bad.json().error).toBe('string');
  });

  it('bounds saved search settings (radius 0.5 to the configured maximum, count 5 to 50)', async () => {
    const u = await t.newUser('user');
    expect(t.config.discovery.radiusMaxMiles).toBe(5);
    const base = {
      lat: 33.5,
      lng: -86.8,
      label: 'Birmingham, AL',
      radiusMiles: 1,
      count: 20,
      categories: [],
    };
    const save = (patch: Record<string, unknown>) =>
      t.request({
        method: 'PATCH',
        url: '/api/me',
        payload: { searchSettings: { ...base, ...patch } },
        as: u,
      });
    for (const ok of [{ radiusMiles: 0.5 }, { radiusMiles: 5 }, { count: 5 }, { count: 50 }]) {
      expect((await save(ok)).statusCode, JSON.stringify(ok)).toBe(200);
    }
    for (const [patch, field] of [
      [{ radiusMiles: 0.4 }, 'radiusMiles'],
      [{ radiusMiles: 5.1 }, 'radiusMiles'],
      [{ count: 4 }, 'count'],
      [{ count: 51 }, 'count'],
      [{ count: 20.5 }, 'count'],
    ] as const) {
      const res = await save(patch);
      expect(res.statusCode, JSON.stringify(patch)).toBe(400);
      expect(res.json().error).toContain(`searchSettings.${field}`);
    }
    // Settings stored under the old, looser bounds (radius 0.1..50, count 1..100) still read back, and other
    // preferences still save beside them.
    const old = { ...base, radiusMiles: 0.1, count: 100 };
    await t.db.kysely
      .updateTable('user_profiles')
      .set({ search_settings: JSON.stringify(old) })
      .where('user_id', '=', u.id)
      .execute();
    expect((await t.request({ method: 'GET', url: '/api/me', as: u })).json().user.searchSettings).toEqual(
      old,
    );
    const prefs = await t.request({
      method: 'PATCH',
      url: '/api/me',
      payload: { hideInstructions: true },
      as: u,
    });
    expect(prefs.statusCode).toBe(200);
    expect(prefs.json().user).toMatchObject({ hideInstructions: true, searchSettings: old });
  });

  it('recreates a deleted profile as role user at the next sign-in', async () => {
    const admin = await t.newUser('admin');
    const u = await t.newUser('admin', { name: 'Pat' });
    expect((await t.request({ method: 'DELETE', url: `/api/users/${u.id}`, as: admin })).statusCode).toBe(
      204,
    );
    expect((await t.request({ method: 'GET', url: '/api/me', as: u })).statusCode).toBe(401);
    const cookie = await t.signIn(u.email, u.password);
    const me = await t.request({ method: 'GET', url: '/api/me', headers: { cookie } });
    expect(me.json().user).toMatchObject({ role: 'user', isSuperAdmin: false, name: 'Pat' });
  });

  it('keeps admins off SuperAdmins and their own row; only SuperAdmins assign SuperAdmin', async () => {
    const root = await t.newUser('SuperAdmin');
    const admin = await t.newUser('admin');
    const user = await t.newUser('user');
    const setRole = (as: typeof root, id: string, role: string) =>
      t.request({ method: 'PATCH', url: `/api/users/${id}/role`, payload: { role }, as });
    expect((await setRole(admin, user.id, 'admin')).statusCode).toBe(200);
    expect((await setRole(admin, user.id, 'SuperAdmin')).statusCode).toBe(403);
    expect((await setRole(admin, root.id, 'user')).statusCode).toBe(403);
    expect((await setRole(admin, admin.id, 'user')).statusCode).toBe(403);
    expect((await t.request({ method: 'DELETE', url: `/api/users/${root.id}`, as: admin })).statusCode).toBe(
      403,
    );
    expect((await setRole(root, user.id, 'SuperAdmin')).json().user).toMatchObject({
      role: 'SuperAdmin',
      isSuperAdmin: true,
    });
    const list = await t.request({ method: 'GET', url: '/api/users', as: admin });
    const rows = list.json().users as { id: string; can: { changeRole: string[] } }[];
    expect(rows.find((r) => r.id === admin.id)!.can.changeRole).toEqual([]);
    expect(rows.find((r) => r.id === root.id)!.can.changeRole).toEqual([]);
  });

  it('suspends at once, refuses sign-in with the exact message, and re-enables', async () => {
    const root = await t.newUser('SuperAdmin');
    const u = await t.newUser('user');
    // Two open sessions (two devices); both end at once.
    const phone = { ...u, cookie: await t.signIn(u.email, u.password) };
    const getSession = (as: typeof u) => t.request({ method: 'GET', url: '/api/auth/get-session', as });
    for (const as of [u, phone]) {
      expect((await getSession(as)).json()).toMatchObject({ user: { id: u.id } });
      expect((await t.request({ method: 'GET', url: '/api/me', as })).statusCode).toBe(200);
    }
    const suspended = await t.request({ method: 'POST', url: `/api/users/${u.id}/suspend`, as: root });
    expect(suspended.statusCode).toBe(200);
    expect(suspended.json().user).toMatchObject({
      id: u.id,
      suspended: true,
      suspendedAt: expect.any(String),
    });
    for (const as of [u, phone]) {
      const session = await getSession(as);
      expect(session.statusCode).toBe(200);
      expect(session.json()).toBeNull();
      const me = await t.request({ method: 'GET', url: '/api/me', as });
      expect(me.statusCode).toBe(401);
      expect(me.json()).toEqual({ error: msg.NOT_AUTHENTICATED });
    }
    expect(await t.db.kysely.selectFrom('session').select('id').where('userId', '=', u.id).execute()).toEqual(
      [],
    );
    const again = await t.request({
      method: 'POST',
      url: '/api/session',
      payload: { email: u.email, password: u.password },
    });
    expect(again.statusCode).toBe(403);
    expect(again.json()).toEqual({ error: msg.ACCOUNT_DISABLED });
    expect(
      (await t.request({ method: 'POST', url: `/api/users/${u.id}/unsuspend`, as: root })).statusCode,
    ).toBe(200);
    await expect(t.signIn(u.email, u.password)).resolves.toContain('session_token');
  });

  it('keeps a suspension when an admin deletes the profile: only a SuperAdmin can lift it', async () => {
    const root = await t.newUser('SuperAdmin');
    const admin = await t.newUser('admin');
    const u = await t.newUser('admin', { name: 'Sam' });
    expect(
      (await t.request({ method: 'POST', url: `/api/users/${u.id}/suspend`, as: root })).statusCode,
    ).toBe(200);
    expect((await t.request({ method: 'DELETE', url: `/api/users/${u.id}`, as: admin })).statusCode).toBe(
      204,
    );
    const signIn = () =>
      t.request({ method: 'POST', url: '/api/session', payload: { email: u.email, password: u.password } });
    const refused = await signIn();
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: msg.ACCOUNT_DISABLED });
    expect(refused.headers['set-cookie']).toBeUndefined();
    // No session row was made on the way to the refusal.
    expect(await t.db.kysely.selectFrom('session').selectAll().where('userId', '=', u.id).execute()).toEqual(
      [],
    );

    // Still listed (as the recreated profile would look), suspended, so the SuperAdmin can find it.
    const listed = async (as: typeof root) =>
      (
        (await t.request({ method: 'GET', url: '/api/users', as })).json().users as Record<string, unknown>[]
      ).find((r) => r.id === u.id);
    expect(await listed(admin)).toMatchObject({ name: 'Sam', role: 'user', suspended: true });
    expect((await listed(admin))!.can).toMatchObject({ suspend: false });
    expect(
      (await t.request({ method: 'POST', url: `/api/users/${u.id}/unsuspend`, as: admin })).statusCode,
    ).toBe(403);
    expect((await signIn()).statusCode).toBe(403);

    const lifted = await t.request({ method: 'POST', url: `/api/users/${u.id}/unsuspend`, as: root });
    expect(lifted.statusCode).toBe(200);
    expect(lifted.json().user).toMatchObject({ id: u.id, suspended: false });
    const back = await signIn();
    expect(back.statusCode).toBe(200);
    const me = await t.request({
      method: 'GET',
      url: '/api/me',
      headers: { cookie: sessionCookie(back.headers['set-cookie']) },
    });
    expect(me.json().user).toMatchObject({ name: 'Sam', role: 'user', suspended: false });
  });

  it('refuses a suspended account a session even when the profile delete came first', async () => {
    const root = await t.newUser('SuperAdmin');
    const u = await t.newUser('user');
    expect((await t.request({ method: 'DELETE', url: `/api/users/${u.id}`, as: root })).statusCode).toBe(204);
    // Not listed any more (no profile, not suspended) until the next sign-in recreates the profile.
    expect(
      (await t.request({ method: 'POST', url: `/api/users/${u.id}/suspend`, as: root })).statusCode,
    ).toBe(404);
    const cookie = await t.signIn(u.email, u.password);
    expect((await t.request({ method: 'GET', url: '/api/me', headers: { cookie } })).statusCode).toBe(200);
    expect(
      (await t.request({ method: 'POST', url: `/api/users/${u.id}/suspend`, as: root })).statusCode,
    ).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/me', headers: { cookie } })).statusCode).toBe(401);
    expect((await t.request({ method: 'DELETE', url: `/api/users/${u.id}`, as: root })).statusCode).toBe(204);
    const again = await t.request({
      method: 'POST',
      url: '/api/session',
      payload: { email: u.email, password: u.password },
    });
    expect(again.json()).toEqual({ error: msg.ACCOUNT_DISABLED });
    // A role change gives it back the profile a sign-in would recreate, with the new role, still suspended.
    const role = await t.request({
      method: 'PATCH',
      url: `/api/users/${u.id}/role`,
      payload: { role: 'admin' },
      as: root,
    });
    expect(role.statusCode).toBe(200);
    expect(role.json().user).toMatchObject({ id: u.id, role: 'admin', suspended: true });
    expect(
      await t.db.kysely.selectFrom('user_profiles').select('role').where('user_id', '=', u.id).execute(),
    ).toEqual([{ role: 'admin' }]);
    // Hard delete of the suspended account removes the suspension with the account.
    expect(
      (
        await t.request({
          method: 'POST',
          url: `/api/users/${u.id}/hard-delete`,
          payload: { password: root.password },
          as: root,
        })
      ).statusCode,
    ).toBe(204);
    expect(await t.db.kysely.selectFrom('account_suspensions').selectAll().execute()).toEqual([]);
  });

  it('moves suspensions stored on profiles to the account when migrating', async () => {
    const u = await t.newUser('user');
    const v = await t.newUser('user');
    await suspensionsMigration.down(t.db.kysely);
    await sql`update user_profiles set suspended_at = ${'2026-01-02T03:04:05.000Z'} where user_id = ${u.id}`.execute(
      t.db.kysely,
    );
    await suspensionsMigration.up(t.db.kysely);
    expect(await t.db.kysely.selectFrom('account_suspensions').selectAll().execute()).toEqual([
      { user_id: u.id, suspended_at: '2026-01-02T03:04:05.000Z' },
    ]);
    const row = await sql<
      Record<string, unknown>
    >`select * from user_profiles where user_id = ${v.id}`.execute(t.db.kysely);
    expect(Object.keys(row.rows[0]!)).not.toContain('suspended_at');
  });

  it('hard deletes a user and all their data only with the acting SuperAdmin password', async () => {
    const root = await t.newUser('SuperAdmin');
    const u = await t.newUser('user');
    const now = new Date().toISOString();
    const seed = async (userId: string, n: string) => {
      await t.db.kysely
        .insertInto('call_logs')
        .values({
          id: `c${n}`,
          user_id: userId,
          prospect_id: 'p',
          name: 'n',
          category: 'c',
          phone: '',
          website: '',
          address: '',
          outcome: 'Called',
          note: '',
          created_at: now,
        })
        .execute();
      await t.db.kysely
        .insertInto('saved_prospects')
        .values({ id: `s${n}`, user_id: userId, prospect_id: 'p', prospect: '{}', created_at: now })
        .execute();
      await t.db.kysely
        .insertInto('searches')
        .values({
          id: `q${n}`,
          user_id: userId,
          created_at: now,
          kind: 'area',
          lat: 33.5,
          lng: -86.8,
          radius_miles: 1,
          count: 20,
          categories: '[]',
          location_label: null,
          query: null,
          total: 0,
        })
        .execute();
      await t.db.kysely
        .insertInto('latest_scans')
        .values({ user_id: userId, search_id: `q${n}`, prospects: '[]', total: 0, created_at: now })
        .execute();
    };
    await seed(u.id, '1');
    await seed(root.id, '2');
    const tables = ['call_logs', 'saved_prospects', 'searches', 'latest_scans', 'user_profiles'] as const;
    const left = async (userId: string) => {
      const found: Record<string, number> = {};
      for (const table of tables) {
        found[table] = (
          await t.db.kysely.selectFrom(table).select('user_id').where('user_id', '=', userId).execute()
        ).length;
      }
      for (const table of ['session', 'account'] as const) {
        found[table] = (
          await t.db.kysely.selectFrom(table).select('userId').where('userId', '=', userId).execute()
        ).length;
      }
      found.user = (
        await t.db.kysely.selectFrom('user').select('id').where('id', '=', userId).execute()
      ).length;
      return found;
    };
    const everything = {
      call_logs: 1,
      saved_prospects: 1,
      searches: 1,
      latest_scans: 1,
      user_profiles: 1,
      session: 1,
      account: 1,
      user: 1,
    };
    expect(await left(u.id)).toEqual(everything);

    // The password re-check needs a signed-in user: without one, the re-authentication's own words.
    const signedOut = await t.request({
      method: 'POST',
      url: `/api/users/${u.id}/hard-delete`,
      payload: { password: root.password },
    });
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.json()).toEqual({ error: msg.REAUTH_NOT_AUTHENTICATED });
    expect(msg.REAUTH_NOT_AUTHENTICATED).toBe('Not authenticated');
    const wrong = await t.request({
      method: 'POST',
      url: `/api/users/${u.id}/hard-delete`,
      payload: { password: 'wrong' },
      as: root,
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toEqual({ error: msg.WRONG_PASSWORD });
    expect(await left(u.id)).toEqual(everything);
    const ok = await t.request({
      method: 'POST',
      url: `/api/users/${u.id}/hard-delete`,
      payload: { password: root.password },
      as: root,
    });
    expect(ok.statusCode).toBe(204);
    expect(await left(u.id)).toEqual(Object.fromEntries(Object.keys(everything).map((k) => [k, 0])));
    // Nobody else's data goes with it.
    expect(await left(root.id)).toEqual(everything);
    expect((await t.request({ method: 'GET', url: '/api/me', as: u })).statusCode).toBe(401);
  });

  it('refuses every action on your own row, SuperAdmin or not', async () => {
    const root = await t.newUser('SuperAdmin');
    const admin = await t.newUser('admin');
    const own = (as: typeof root, method: 'POST' | 'DELETE' | 'PATCH', path: string, payload?: object) =>
      t.request({ method, url: `/api/users/${as.id}${path}`, as, ...(payload ? { payload } : {}) });
    for (const as of [root, admin]) {
      const answers = [
        await own(as, 'PATCH', '/role', { role: 'user' }),
        await own(as, 'DELETE', ''),
        ...(as === root
          ? [
              await own(as, 'POST', '/suspend'),
              await own(as, 'POST', '/unsuspend'),
              await own(as, 'POST', '/hard-delete', { password: as.password }),
            ]
          : []),
      ];
      for (const res of answers) {
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ error: 'You cannot change your own account here.' });
      }
    }
    // Nothing happened: both still signed in, with their roles, profiles and accounts.
    expect((await t.request({ method: 'GET', url: '/api/me', as: root })).json().user).toMatchObject({
      role: 'SuperAdmin',
      suspended: false,
    });
    expect((await t.request({ method: 'GET', url: '/api/me', as: admin })).json().user).toMatchObject({
      role: 'admin',
    });
    const rows = (await t.request({ method: 'GET', url: '/api/users', as: root })).json().users as {
      id: string;
      can: Record<string, unknown>;
    }[];
    expect(rows.find((r) => r.id === root.id)!.can).toEqual({
      changeRole: [],
      deleteProfile: false,
      suspend: false,
      hardDelete: false,
    });
  });
});

describe('platform', () => {
  it('answers /healthz and serves an OpenAPI document of the routes', async () => {
    expect((await t.request({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const doc = (await t.request({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toContain('/api/register');
  });

  it('over plain HTTP sets an HttpOnly, SameSite=Lax session cookie without Secure', async () => {
    const u = await t.newUser('user');
    const res = await t.request({
      method: 'POST',
      url: '/api/session',
      payload: { email: u.email, password: u.password },
    });
    const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
    const session = cookies.find((c) => c.includes('session_token='));
    expect(session).toMatch(/^better-auth\.session_token=/); // no __Secure- prefix over http
    const attributes = session!.split(';').map((a) => a.trim().toLowerCase());
    expect(attributes).toContain('httponly');
    expect(attributes).toContain('samesite=lax');
    expect(attributes).toContain('path=/');
    expect(attributes).not.toContain('secure');
  });

  it("sends helmet's security headers on / and on /api answers (no HSTS over plain HTTP)", async () => {
    const u = await t.newUser('user');
    for (const [url, as] of [
      ['/', null],
      ['/api/config', null],
      ['/api/me', u],
      ['/api/me', null],
    ] as const) {
      const res = await t.request({ method: 'GET', url, as });
      const h = res.headers;
      const label = `${url} -> ${res.statusCode}`;
      expect(h['content-security-policy'], label).toContain("default-src 'self'");
      expect(h['content-security-policy'], label).toContain("script-src 'self'");
      expect(h['content-security-policy'], label).toContain("frame-ancestors 'self'");
      expect(h['x-content-type-options'], label).toBe('nosniff');
      expect(h['x-frame-options'], label).toBe('SAMEORIGIN');
      expect(h['referrer-policy'], label).toBe('no-referrer');
      expect(h['cross-origin-opener-policy'], label).toBe('same-origin');
      expect(h['cross-origin-resource-policy'], label).toBe('same-origin');
      expect(h['strict-transport-security'], label).toBeUndefined();
      expect(h['x-powered-by'], label).toBeUndefined();
    }
  });

  it('answers malformed JSON and unknown routes with a clear {"error"}', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/session',
      payload: '{oops',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(typeof res.json().error).toBe('string');
    expect((await t.request({ method: 'GET', url: '/api/nope' })).json()).toEqual({ error: 'Not found' });
  });
});
