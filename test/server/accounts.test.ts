import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, sessionCookie, type TestContext } from '../helpers/app.js';
import * as msg from '../../src/core/messages.js';

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

  it('gives the spec messages for bad registration input', async () => {
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
  it('trims and lower-cases the e-mail and gives the spec messages', async () => {
    const u = await t.newUser('user', { email: 'kim@example.com', password: 'password1' });
    const signIn = (email: string, password: string) =>
      t.request({ method: 'POST', url: '/api/session', payload: { email, password } });
    expect((await signIn('  KIM@example.com ', 'password1')).statusCode).toBe(200);
    expect((await signIn(u.email, 'wrong-password')).json()).toEqual({ error: msg.WRONG_PASSWORD });
    expect((await signIn('nobody@example.com', 'password1')).json()).toEqual({ error: msg.USER_NOT_FOUND });
    expect((await signIn('bad email', 'password1')).json()).toEqual({ error: msg.INVALID_EMAIL });
  });

  it('rate limits repeated sign-in attempts with the spec message', async () => {
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
    expect(last).toEqual({ error: msg.TOO_MANY_ATTEMPTS });
  });

  it('restores the session from the cookie and ends it on sign-out', async () => {
    const u = await t.newUser('user');
    expect((await t.request({ method: 'GET', url: '/api/me', as: u })).statusCode).toBe(200);
    const out = await t.request({ method: 'POST', url: '/api/auth/sign-out', payload: {}, as: u });
    expect(out.statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/me', as: u })).statusCode).toBe(401);
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
      url: '/api/auth/request-password-reset',
      payload: { email: u.email, redirectTo: '/reset-password' },
    });
    expect(req.statusCode).toBe(200);
    expect(t.mail).toHaveLength(1);
    const link = /http\S+/.exec(t.mail[0]!.text)![0];
    const landing = await t.request({ method: 'GET', url: new URL(link).pathname + new URL(link).search });
    expect(landing.statusCode).toBe(302);
    const token = new URL(landing.headers.location as string, 'http://x').searchParams.get('token');
    expect(token).toBeTruthy();
    const reset = await t.request({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { newPassword: 'brand-new-pass', token },
    });
    expect(reset.statusCode).toBe(200);
    await expect(t.signIn(u.email, 'brand-new-pass')).resolves.toContain('session_token');
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

  it('recreates a deleted profile as role user at the next sign-in (SPEC §4)', async () => {
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

  it('suspends at once, refuses sign-in with the spec message, and re-enables', async () => {
    const root = await t.newUser('SuperAdmin');
    const u = await t.newUser('user');
    expect(
      (await t.request({ method: 'POST', url: `/api/users/${u.id}/suspend`, as: root })).statusCode,
    ).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/me', as: u })).statusCode).toBe(401);
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

  it('hard deletes a user and all their data only with the acting SuperAdmin password', async () => {
    const root = await t.newUser('SuperAdmin');
    const u = await t.newUser('user');
    const now = new Date().toISOString();
    await t.db.kysely
      .insertInto('call_logs')
      .values({
        id: 'c1',
        user_id: u.id,
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
    const wrong = await t.request({
      method: 'POST',
      url: `/api/users/${u.id}/hard-delete`,
      payload: { password: 'wrong' },
      as: root,
    });
    expect(wrong.statusCode).toBe(403);
    const ok = await t.request({
      method: 'POST',
      url: `/api/users/${u.id}/hard-delete`,
      payload: { password: root.password },
      as: root,
    });
    expect(ok.statusCode).toBe(204);
    expect(
      await t.db.kysely.selectFrom('call_logs').selectAll().where('user_id', '=', u.id).execute(),
    ).toHaveLength(0);
    expect(await t.db.kysely.selectFrom('user').selectAll().where('id', '=', u.id).execute()).toHaveLength(0);
    expect((await t.request({ method: 'GET', url: '/api/me', as: u })).statusCode).toBe(401);
  });
});

describe('platform', () => {
  it('answers /healthz and serves an OpenAPI document of the routes', async () => {
    expect((await t.request({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const doc = (await t.request({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toContain('/api/register');
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
