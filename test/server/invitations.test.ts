// Revoking an invitation: an admin revokes an open one, its code then registers nobody (refused as an invalid
// code), the revocation is audited, and a used, expired or revoked invitation cannot be revoked again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVITATION_ENTER_VALID, INVITATION_INVALID } from '../../src/core/messages.js';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';

let t: TestContext;
let admin: TestUser;
let rep: TestUser;
beforeAll(async () => {
  t = await createTestContext();
  admin = await t.newUser('admin');
  rep = await t.newUser('user');
});
afterAll(() => t.close());

const generate = async (email?: string) => {
  const res = await t.request({
    method: 'POST',
    url: '/api/invitations',
    payload: email ? { email } : {},
    as: admin,
  });
  expect(res.statusCode).toBe(201);
  return res.json<{ invitation: { id: string; code: string } }>().invitation;
};
const revoke = (id: string, as: TestUser = admin) =>
  t.request({ method: 'POST', url: `/api/invitations/${id}/revoke`, as });
const register = (code: string, email: string) =>
  t.request({
    method: 'POST',
    url: '/api/register',
    payload: {
      name: 'New Rep',
      email,
      password: 'new-rep-pass-1',
      confirmPassword: 'new-rep-pass-1',
      invitationCode: code,
    },
  });

describe('revoking an invitation', () => {
  it('stops an open code from registering anyone, and is audited', async () => {
    const inv = await generate('wrong.person@example.com');
    const res = await revoke(inv.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().invitation).toMatchObject({
      id: inv.id,
      status: 'revoked',
      revokedAt: expect.any(String),
      revokedByName: admin.name,
    });
    const listed = await t.request({ method: 'GET', url: '/api/invitations', as: admin });
    expect(listed.json().invitations.find((i: { id: string }) => i.id === inv.id).status).toBe('revoked');

    const check = await t.request({
      method: 'GET',
      url: `/api/invitations/check?code=${inv.code}&email=wrong.person@example.com`,
    });
    expect(check.json()).toEqual({ valid: false, message: INVITATION_INVALID });
    const reg = await register(inv.code, 'wrong.person@example.com');
    expect(reg.statusCode).toBe(400);
    expect(reg.json()).toEqual({ error: INVITATION_ENTER_VALID });

    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'invitation.revoke')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_id: admin.id, target_id: inv.id });
  });

  it('refuses a used or already revoked invitation, an unknown one, and a rep', async () => {
    const used = await generate();
    expect((await register(used.code, 'joined@example.com')).statusCode).toBe(201);
    expect((await revoke(used.id)).statusCode).toBe(409);

    const twice = await generate();
    expect((await revoke(twice.id)).statusCode).toBe(200);
    const again = await revoke(twice.id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'Only an open invitation can be revoked.' });

    expect((await revoke('no-such-invitation')).statusCode).toBe(404);
    const open = await generate();
    expect((await revoke(open.id, rep)).statusCode).toBe(403);
    expect((await register(open.code, 'still.fine@example.com')).statusCode).toBe(201);
  });
});
