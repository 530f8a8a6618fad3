import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';
import { parseCsv } from '../../src/core/csv.js';
import { recordAudit } from '../../src/server/audit/service.js';

let t: TestContext;
let root: TestUser;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestContext();
  root = await t.newUser('SuperAdmin', { name: 'Root Super' });
  admin = await t.newUser('admin', { name: 'Ada Admin' });
});
afterAll(() => t.close());

interface Entry {
  id: string;
  actor: { id: string | null; name: string; email: string | null };
  action: string;
  target: { type: string; id: string | null; label: string | null };
  details: Record<string, unknown>;
  createdAt: string;
}
interface Page {
  entries: Entry[];
  page: number;
  pageSize: number;
  total: number;
}

const page = async (query = '') => {
  const res = await t.request({ method: 'GET', url: `/api/audit${query}`, as: root });
  expect(res.statusCode).toBe(200);
  return res.json<Page>();
};
const newest = async () => (await page('?pageSize=1')).entries[0]!;

describe('audit log', () => {
  it('records user administration: role change, profile delete, suspend, unsuspend, hard delete', async () => {
    const u = await t.newUser('user', { name: 'Target One' });
    expect(
      (
        await t.request({
          method: 'PATCH',
          url: `/api/users/${u.id}/role`,
          payload: { role: 'admin' },
          as: admin,
        })
      ).statusCode,
    ).toBe(200);
    expect(await newest()).toMatchObject({
      action: 'user.role_change',
      actor: { id: admin.id, name: 'Ada Admin', email: admin.email },
      target: { type: 'user', id: u.id, label: `Target One <${u.email}>` },
      details: { from: 'user', to: 'admin' },
    });

    await t.request({ method: 'POST', url: `/api/users/${u.id}/suspend`, as: root });
    expect(await newest()).toMatchObject({
      action: 'user.suspend',
      actor: { id: root.id },
      target: { id: u.id },
    });
    await t.request({ method: 'POST', url: `/api/users/${u.id}/unsuspend`, as: root });
    expect(await newest()).toMatchObject({ action: 'user.unsuspend', target: { id: u.id } });

    const v = await t.newUser('user', { name: 'Target Two' });
    expect((await t.request({ method: 'DELETE', url: `/api/users/${v.id}`, as: admin })).statusCode).toBe(
      204,
    );
    expect(await newest()).toMatchObject({
      action: 'user.profile_delete',
      actor: { id: admin.id },
      target: { id: v.id },
    });

    const w = await t.newUser('user', { name: 'Target Three' });
    const hard = await t.request({
      method: 'POST',
      url: `/api/users/${w.id}/hard-delete`,
      payload: { password: root.password },
      as: root,
    });
    expect(hard.statusCode).toBe(204);
    // The entry outlives the deleted account and still names it.
    expect(await newest()).toMatchObject({
      action: 'user.hard_delete',
      target: { id: w.id, label: `Target Three <${w.email}>` },
    });
  });

  it('does not record refused actions', async () => {
    const before = (await page()).total;
    const u = await t.newUser();
    const wrong = await t.request({
      method: 'POST',
      url: `/api/users/${u.id}/hard-delete`,
      payload: { password: 'not-the-password' },
      as: root,
    });
    expect(wrong.statusCode).toBe(403);
    const denied = await t.request({ method: 'POST', url: `/api/users/${u.id}/suspend`, as: admin });
    expect(denied.statusCode).toBe(403);
    expect((await page()).total).toBe(before);
  });

  it('records generated invitations', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/invitations',
      payload: { email: 'new.rep@example.com' },
      as: admin,
    });
    expect(res.statusCode).toBe(201);
    const invitation = res.json<{ invitation: { id: string } }>().invitation;
    expect(await newest()).toMatchObject({
      action: 'invitation.generate',
      actor: { id: admin.id },
      target: { type: 'invitation', id: invitation.id, label: 'new.rep@example.com' },
    });
  });

  it('pages newest first without overlap', async () => {
    for (let i = 0; i < 7; i++) {
      await recordAudit(t.db, { id: root.id, name: 'Root Super' }, 'blocklist.block', {
        type: 'business',
        id: `page-${i}`,
      });
    }
    const first = await page('?page=1&pageSize=3');
    const second = await page('?page=2&pageSize=3');
    expect(first).toMatchObject({ page: 1, pageSize: 3 });
    expect(first.entries.map((e) => e.target.id)).toEqual(['page-6', 'page-5', 'page-4']);
    expect(second.entries.map((e) => e.target.id)).toEqual(['page-3', 'page-2', 'page-1']);
    expect(first.total).toBe(second.total);
    const bad = await t.request({ method: 'GET', url: '/api/audit?pageSize=5000', as: root });
    expect(bad.statusCode).toBe(400);
  });

  it('is for SuperAdmins only', async () => {
    expect((await t.request({ method: 'GET', url: '/api/audit', as: admin })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/audit/export.csv', as: admin })).statusCode).toBe(
      403,
    );
  });

  it('exports audit_log_{date}.csv, newest first, hostile text neutralised', async () => {
    await recordAudit(
      t.db,
      { id: admin.id, name: '=cmd|calc' },
      'blocklist.block',
      {
        type: 'business',
        id: 'csv-1',
        label: 'Smith, "Jones"',
      },
      { note: 'a\nb' },
    );
    const res = await t.request({ method: 'GET', url: '/api/audit/export.csv', as: root });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain(
      `audit_log_${new Date().toISOString().slice(0, 10)}.csv`,
    );
    const rows = parseCsv(res.body).records;
    expect(rows[0]).toEqual([
      'When',
      'Actor',
      'Actor Email',
      'Actor Id',
      'Action',
      'Target Type',
      'Target Id',
      'Target',
      'Details',
    ]);
    expect(rows[1]).toEqual([
      expect.any(String),
      "'=cmd|calc",
      '',
      admin.id,
      'blocklist.block',
      'business',
      'csv-1',
      'Smith, "Jones"',
      '{"note":"a\\nb"}',
    ]);
    expect(rows).toHaveLength((await page()).total + 1);
  });
});
