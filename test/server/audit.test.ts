import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';
import { parseCsv } from '../../src/core/csv.js';
import { recordAudit } from '../../src/server/audit/service.js';
import type { Prospect } from '../../src/core/types.js';
import { recordTeamProspects } from '../../src/server/scans/team-list.js';

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
    const before = (await page()).total;
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
    // The header and every entry up to the export; the export's own entry comes after it.
    expect(rows).toHaveLength(before + 1);
    expect(await newest()).toMatchObject({
      action: 'export.audit_log',
      actor: { id: root.id, name: 'Root Super' },
      target: { type: 'audit_log' },
      details: { rows: before },
    });
    expect((await page()).total).toBe(before + 1);
  });
});

/** What a scan stores: the user's latest results and the team's list (All Prospects). */
async function setLatestScan(user: TestUser, ids: string[]) {
  const prospects = ids.map((id) => ({
    id,
    name: `Business ${id}`,
    category: 'Dental',
    address: '1 Elm St',
    score: 0.5,
  }));
  await t.db.kysely.deleteFrom('latest_scans').where('user_id', '=', user.id).execute();
  await t.db.kysely
    .insertInto('latest_scans')
    .values({
      user_id: user.id,
      search_id: null,
      prospects: JSON.stringify(prospects),
      total: ids.length,
      created_at: new Date().toISOString(),
    })
    .execute();
  await recordTeamProspects(t.db.kysely, user.id, prospects as unknown as Prospect[]);
}
const clearScans = async () => {
  await t.db.kysely.deleteFrom('latest_scans').execute();
  await t.db.kysely.deleteFrom('team_prospects').execute();
};
const get = (url: string, as: TestUser) => t.request({ method: 'GET', url, as });

describe('audit log of admin reads', () => {
  it('records CSV exports of prospects with their scope and row count, never a refused or empty one', async () => {
    await clearScans();
    const before = (await page()).total;
    for (const url of [
      '/api/exports/all-prospects.csv',
      '/api/exports/prospects.csv',
      '/api/exports/prospects.csv?scope=current',
    ]) {
      const res = await get(url, root);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'No prospects to export' });
    }
    const rep = await t.newUser('user', { name: 'Rep Scanner' });
    await setLatestScan(rep, ['x1', 'x2', 'x3']);
    await setLatestScan(root, ['r1', 'r2']);
    // Admins may not export the current scan: refused, so not logged.
    expect((await get('/api/exports/prospects.csv?scope=current', admin)).statusCode).toBe(403);
    expect((await page()).total).toBe(before);

    expect((await get('/api/exports/all-prospects.csv', admin)).statusCode).toBe(200);
    expect(await newest()).toMatchObject({
      action: 'export.all_prospects',
      actor: { id: admin.id, name: 'Ada Admin', email: admin.email },
      target: { type: 'prospects', id: 'team' },
      details: { scope: 'team', rows: 5 },
    });
    expect((await get('/api/exports/prospects.csv', admin)).statusCode).toBe(200);
    expect(await newest()).toMatchObject({
      action: 'export.prospects',
      actor: { id: admin.id },
      target: { type: 'prospects', id: 'team' },
      details: { scope: 'team', rows: 5 },
    });
    expect((await get('/api/exports/prospects.csv?scope=current', root)).statusCode).toBe(200);
    expect(await newest()).toMatchObject({
      action: 'export.prospects',
      actor: { id: root.id },
      target: { type: 'prospects', id: 'current' },
      details: { scope: 'current', rows: 2 },
    });
    expect((await page()).total).toBe(before + 3);
    await clearScans();
  });

  it('records User Data Testing with the user looked at, not a look at nobody', async () => {
    const u = await t.newUser('user', { name: 'Looked At' });
    expect((await get(`/api/users/${u.id}/data`, root)).statusCode).toBe(200);
    expect(await newest()).toMatchObject({
      action: 'user.data_view',
      actor: { id: root.id },
      target: { type: 'user', id: u.id, label: `Looked At <${u.email}>` },
    });
    const before = (await page()).total;
    expect((await get('/api/users/no-such-user/data', root)).statusCode).toBe(404);
    expect((await page()).total).toBe(before);
  });

  it("records an admin's read of another rep's route history, not of their own", async () => {
    const rep = await t.newUser('user', { name: 'Route Rep' });
    const before = (await page()).total;
    expect((await get(`/api/team/reps/${admin.id}/route`, admin)).statusCode).toBe(200);
    expect((await page()).total).toBe(before);
    expect((await get(`/api/team/reps/${rep.id}/route?period=last-week`, admin)).statusCode).toBe(200);
    expect(await newest()).toMatchObject({
      action: 'team.route_view',
      actor: { id: admin.id },
      target: { type: 'user', id: rep.id, label: `Route Rep <${rep.email}>` },
    });
    expect((await page()).total).toBe(before + 1);
    expect((await get('/api/team/reps/no-such-rep/route', admin)).statusCode).toBe(404);
    expect((await page()).total).toBe(before + 1);
  });

  it('records every page of All Prospects an admin reads, with its place and size', async () => {
    const before = (await page()).total;
    expect((await get('/api/admin/all-prospects?offset=0&limit=10', admin)).statusCode).toBe(200);
    expect(await newest()).toMatchObject({
      action: 'prospects.view',
      actor: { id: admin.id },
      target: { type: 'prospects', id: 'team' },
      details: { scope: 'team', offset: 0, limit: 10 },
    });
    expect((await get('/api/admin/all-prospects?offset=10&limit=10', root)).statusCode).toBe(200);
    expect(await newest()).toMatchObject({ action: 'prospects.view', details: { offset: 10 } });
    expect((await page()).total).toBe(before + 2);
  });

  it('records Universal Blocklist Debug checks with the business id and the answer', async () => {
    const blocked = await t.request({
      method: 'POST',
      url: '/api/blocklist',
      payload: { businessId: 'debug-biz', label: 'Debug Diner' },
      as: admin,
    });
    expect(blocked.statusCode).toBe(201);
    expect((await get('/api/blocklist/check/debug-biz', root)).json()).toMatchObject({ blocked: true });
    expect(await newest()).toMatchObject({
      action: 'blocklist.check',
      actor: { id: root.id },
      target: { type: 'business', id: 'debug-biz', label: 'Debug Diner' },
      details: { blocked: true },
    });
    expect((await get('/api/blocklist/check/never-blocked', root)).json()).toMatchObject({ blocked: false });
    expect(await newest()).toMatchObject({
      action: 'blocklist.check',
      target: { type: 'business', id: 'never-blocked', label: null },
      details: { blocked: false },
    });
  });
});

describe('audit entries commit with the change', () => {
  it('records cache clears and settings changes', async () => {
    expect((await t.request({ method: 'DELETE', url: '/api/admin/cache', as: root })).statusCode).toBe(204);
    expect(await newest()).toMatchObject({
      action: 'cache.clear',
      actor: { id: root.id },
      target: { type: 'cache', id: 'analysis+business' },
    });
    const res = await t.request({
      method: 'PATCH',
      url: '/api/admin/settings',
      payload: { showAllProspects: true },
      as: root,
    });
    expect(res.statusCode).toBe(200);
    expect(await newest()).toMatchObject({
      action: 'settings.update',
      actor: { id: root.id },
      target: { type: 'settings', id: 'algorithm' },
      details: { showAllProspects: true },
    });
  });

  // With the log unwritable, an admin action must fail whole: a change that the log does not name is what
  // recording outside the action's transaction would leave behind.
  const withoutAuditLog = async (action: () => Promise<void>) => {
    await t.db.kysely.schema.alterTable('audit_log').renameTo('audit_log_away').execute();
    try {
      await action();
    } finally {
      await t.db.kysely.schema.alterTable('audit_log_away').renameTo('audit_log').execute();
    }
  };

  it('leaves no invitation when its entry cannot be written', async () => {
    const mine = () =>
      t.db.kysely.selectFrom('invitations').select('id').where('invited_by', '=', admin.id).execute();
    const before = await mine();
    await withoutAuditLog(async () => {
      const res = await t.request({
        method: 'POST',
        url: '/api/invitations',
        payload: { email: 'unlogged@example.com' },
        as: admin,
      });
      expect(res.statusCode).toBe(500);
    });
    expect(await mine()).toEqual(before);
  });

  it('leaves the caches full when the entry of clearing them cannot be written', async () => {
    const row = {
      business_id: 'cached-1',
      data: '{}',
      model_version: 'test',
      updated_at: new Date().toISOString(),
    };
    await t.db.kysely.insertInto('analysis_cache').values(row).execute();
    await t.db.kysely
      .insertInto('business_cache')
      .values({ ...row, content_hash: 'h' })
      .execute();
    await withoutAuditLog(async () => {
      expect((await t.request({ method: 'DELETE', url: '/api/admin/cache', as: root })).statusCode).toBe(500);
    });
    for (const table of ['analysis_cache', 'business_cache'] as const) {
      expect(await t.db.kysely.selectFrom(table).select('business_id').execute()).toEqual([
        { business_id: 'cached-1' },
      ]);
    }
  });

  it('leaves the settings unchanged when the entry of changing them cannot be written', async () => {
    const settings = async () =>
      (await get('/api/admin/settings', root)).json<{ settings: object }>().settings;
    const before = await settings();
    await withoutAuditLog(async () => {
      const res = await t.request({
        method: 'PATCH',
        url: '/api/admin/settings',
        payload: { useOsmTopUp: false, useLlmAnalysis: true },
        as: root,
      });
      expect(res.statusCode).toBe(500);
    });
    expect(await settings()).toEqual(before);
  });
});
