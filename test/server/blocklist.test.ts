import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';
import { blockedIds } from '../../src/server/blocklist/service.js';

let t: TestContext;
let admin: TestUser;
let superAdmin: TestUser;
let rep: TestUser;
beforeAll(async () => {
  t = await createTestContext();
  admin = await t.newUser('admin', { name: 'Ada Admin' });
  superAdmin = await t.newUser('SuperAdmin', { name: 'Sue Super' });
  rep = await t.newUser();
});
afterAll(() => t.close());

interface Blocked {
  businessId: string;
  label: string;
  blockedBy: string | null;
  blockedByName: string | null;
  blockedAt: string;
}

const block = (as: TestUser, businessId: string | null | undefined, label = `Biz ${String(businessId)}`) =>
  t.request({ method: 'POST', url: '/api/blocklist', payload: { businessId, label }, as });
const list = async (as: TestUser = admin) =>
  (await t.request({ method: 'GET', url: '/api/blocklist', as })).json<{ blocklist: Blocked[] }>().blocklist;
const check = (id: string, as: TestUser = superAdmin) =>
  t.request({ method: 'GET', url: `/api/blocklist/check/${encodeURIComponent(id)}`, as });

describe('blocklist', () => {
  it('admins block; the Blocked tab lists who and when; blockedIds feeds the scan', async () => {
    const res = await block(admin, 'osm:node/55', 'Chain Burger');
    expect(res.statusCode).toBe(201);
    expect(res.json<{ blocked: Blocked }>().blocked).toMatchObject({
      businessId: 'osm:node/55',
      label: 'Chain Burger',
      blockedBy: admin.id,
      blockedByName: 'Ada Admin',
    });
    expect(await list()).toContainEqual(
      expect.objectContaining({ businessId: 'osm:node/55', blockedByName: 'Ada Admin' }),
    );
    expect((await blockedIds(t.db)).has('osm:node/55')).toBe(true);

    const again = await block(superAdmin, 'osm:node/55', 'Other');
    expect(again.statusCode).toBe(200);
    expect(again.json<{ blocked: Blocked; created: boolean }>()).toMatchObject({
      created: false,
      blocked: { label: 'Chain Burger', blockedBy: admin.id },
    });
  });

  it('users cannot see or change the blocklist', async () => {
    expect((await t.request({ method: 'GET', url: '/api/blocklist', as: rep })).statusCode).toBe(403);
    expect((await block(rep, 'x')).statusCode).toBe(403);
    expect((await t.request({ method: 'DELETE', url: '/api/blocklist', as: admin })).statusCode).toBe(403);
    expect((await check('x', admin)).statusCode).toBe(403);
  });

  it('a business with no stable id is not blocked, and the admin is told why', async () => {
    for (const id of [null, undefined, '', '   ']) {
      const res = await block(admin, id, 'Nameless');
      expect(res.statusCode).toBe(400);
      expect(res.json<{ error: string }>().error).toBe(
        'This business has no stable id (no place id, provider id or business hash), so it cannot be blocked.',
      );
    }
    expect((await list()).some((b) => b.label === 'Nameless')).toBe(false);
  });

  it('unblocks one business; unknown ids answer 404', async () => {
    await block(admin, 'place_ChIJ-unblock', 'Unblock Me');
    const res = await t.request({ method: 'DELETE', url: '/api/blocklist/place_ChIJ-unblock', as: admin });
    expect(res.statusCode).toBe(204);
    expect((await blockedIds(t.db)).has('place_ChIJ-unblock')).toBe(false);
    const again = await t.request({ method: 'DELETE', url: '/api/blocklist/place_ChIJ-unblock', as: admin });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ error: 'This business is not blocked' });
  });

  it('the debug check says whether an id is blocked', async () => {
    await block(admin, 'osm:way/9', 'Debug Me');
    const yes = await check('osm:way/9');
    expect(yes.statusCode).toBe(200);
    expect(yes.json()).toMatchObject({
      businessId: 'osm:way/9',
      blocked: true,
      entry: { label: 'Debug Me' },
    });
    expect((await check('osm:way/10')).json()).toEqual({
      businessId: 'osm:way/10',
      blocked: false,
      entry: null,
    });
  });

  it('SuperAdmins clear everything; each admin action is in the audit log', async () => {
    await block(admin, 'clear-a');
    await block(admin, 'clear-b');
    const before = (await list()).length;
    const res = await t.request({ method: 'DELETE', url: '/api/blocklist', as: superAdmin });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ cleared: before });
    expect(await list()).toEqual([]);
    expect((await blockedIds(t.db)).size).toBe(0);

    const audit = await t.request({ method: 'GET', url: '/api/audit?pageSize=200', as: superAdmin });
    const entries = audit.json<{
      entries: { action: string; actor: { id: string }; target: { id: string | null }; details: unknown }[];
    }>().entries;
    expect(entries[0]).toMatchObject({
      action: 'blocklist.clear',
      actor: { id: superAdmin.id },
      details: { cleared: before },
    });
    const actions = entries.map((e) => `${e.action} ${e.target.id ?? ''}`);
    expect(actions).toContain('blocklist.block osm:node/55');
    expect(actions).toContain('blocklist.unblock place_ChIJ-unblock');
    // The idempotent second block changed nothing and recorded nothing.
    expect(actions.filter((a) => a === 'blocklist.block osm:node/55')).toHaveLength(1);
  });
});
