// All Prospects is every prospect anyone on the team has scanned (table team_prospects), not only
// each rep's latest scan: a rep's next scan elsewhere or New Search leaves it in; a business scanned by several reps
// appears once, as the newest scan saw it; blocked ones are left out; the list pages by score; the exports hold it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Prospect } from '../../src/core/types.js';
import { parseCsv } from '../../src/core/csv.js';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';
import * as teamProspectsMigration from '../../src/server/db/migrations/2026-11-23T1300-team-prospects.js';

let t: TestContext;
let admin: TestUser;
let root: TestUser;
let repA: TestUser;
let repB: TestUser;
beforeAll(async () => {
  t = await createTestContext({ PLACE_PROVIDERS: 'demo', SCAN_COOLDOWN_MS: '0' });
  admin = await t.newUser('admin');
  root = await t.newUser('SuperAdmin');
  repA = await t.newUser('user', { name: 'Rep A' });
  repB = await t.newUser('user', { name: 'Rep B' });
});
afterAll(() => t.close());

const BIRMINGHAM = { lat: 33.5186, lng: -86.8104 };
const HOOVER = { lat: 33.4054, lng: -86.8114 };

interface TeamProspect extends Prospect {
  scannedBy: { id: string | null; name: string | null };
  scannedAt: string;
}
interface TeamPage {
  prospects: TeamProspect[];
  total: number;
}

async function scan(as: TestUser, center: { lat: number; lng: number }, categories: string[]) {
  const res = await t.request({
    method: 'POST',
    url: '/api/scans',
    payload: { ...center, radiusMiles: 1, count: 50, categories },
    as,
  });
  expect(res.statusCode).toBe(200);
  const body = res.json<{ prospects: Prospect[]; total: number }>();
  expect(body.prospects.length).toBe(body.total); // every kept prospect is in this first page
  expect(body.total).toBeGreaterThan(0);
  return body.prospects;
}

async function allProspects(query = 'limit=500'): Promise<TeamPage> {
  const res = await t.request({ method: 'GET', url: `/api/admin/all-prospects?${query}`, as: admin });
  expect(res.statusCode).toBe(200);
  return res.json<TeamPage>();
}
const ids = (list: { id: string }[]) => list.map((p) => p.id);

describe('All Prospects: every prospect the team has scanned', () => {
  let first: Prospect[];
  let second: Prospect[];

  it("keeps a rep's earlier prospects after the rep scans elsewhere and after New Search", async () => {
    first = await scan(repA, BIRMINGHAM, ['legal', 'finance']);
    second = await scan(repA, HOOVER, ['car']);
    expect(ids(first).filter((id) => ids(second).includes(id))).toEqual([]);

    let team = await allProspects();
    expect(ids(team.prospects)).toEqual(expect.arrayContaining([...ids(first), ...ids(second)]));
    expect(team.total).toBe(first.length + second.length);

    // New Search clears the rep's latest results, not the team's list.
    const cleared = await t.request({ method: 'DELETE', url: '/api/scans/latest', as: repA });
    expect(cleared.statusCode).toBe(204);
    const latest = await t.request({ method: 'GET', url: '/api/scans/latest', as: repA });
    expect(latest.json<{ total: number }>().total).toBe(0);
    team = await allProspects();
    expect(ids(team.prospects).sort()).toEqual([...ids(first), ...ids(second)].sort());
    const one = team.prospects.find((p) => p.id === first[0]!.id)!;
    expect(one).toMatchObject({
      name: first[0]!.name,
      score: first[0]!.score,
      scannedBy: { id: repA.id, name: 'Rep A' },
    });
    // By score, highest first.
    const scores = team.prospects.map((p) => p.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('records a quick search that becomes the latest results', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/quick-search',
      payload: { mode: 'category', text: 'dentist', ...BIRMINGHAM, radiusMiles: 1 },
      as: repA,
    });
    expect(res.statusCode).toBe(200);
    const found = res.json<{ prospects: Prospect[] }>().prospects;
    expect(found.length).toBeGreaterThan(0);
    expect(ids((await allProspects()).prospects)).toEqual(expect.arrayContaining(ids(found)));
  });

  it('shows a business scanned by several reps once, as the newest scan saw it', async () => {
    const before = await allProspects();
    const again = await scan(repB, HOOVER, ['legal']);
    const shared = again.find((p) => ids(first).includes(p.id))!;
    expect(shared).toBeDefined();
    const team = await allProspects();
    expect(new Set(ids(team.prospects)).size).toBe(team.prospects.length);
    expect(team.total).toBe(before.total); // nothing new: the legal businesses were already listed
    const copy = team.prospects.find((p) => p.id === shared.id)!;
    expect(copy.scannedBy).toEqual({ id: repB.id, name: 'Rep B' });
    expect(copy.lat).toBe(shared.lat); // Rep B's copy, around Hoover, not Rep A's around Birmingham
    expect(copy.lng).toBe(shared.lng);
    expect(copy.scannedAt > before.prospects.find((p) => p.id === shared.id)!.scannedAt).toBe(true);
  });

  it('pages by score: offset and limit, total counts all; limits are checked', async () => {
    const all = await allProspects();
    expect(all.total).toBe(all.prospects.length);
    expect(all.total).toBeGreaterThan(7);
    const pages: TeamProspect[] = [];
    for (let offset = 0; offset < all.total; offset += 3) {
      const page = await allProspects(`offset=${offset}&limit=3`);
      expect(page.total).toBe(all.total);
      expect(page.prospects.length).toBe(Math.min(3, all.total - offset));
      pages.push(...page.prospects);
    }
    expect(ids(pages)).toEqual(ids(all.prospects));
    expect((await allProspects(`offset=${all.total}`)).prospects).toEqual([]);
    // The default page is the first 100.
    expect(ids((await allProspects('')).prospects)).toEqual(ids(all.prospects).slice(0, 100));
    for (const bad of ['limit=0', 'limit=501', 'offset=-1', 'limit=abc']) {
      const res = await t.request({ method: 'GET', url: `/api/admin/all-prospects?${bad}`, as: admin });
      expect(res.statusCode).toBe(400);
    }
  });

  it('leaves blocked businesses out of the list and the exports, and brings them back when unblocked', async () => {
    const victim = first[0]!;
    const before = await allProspects();
    const blocked = await t.request({
      method: 'POST',
      url: '/api/blocklist',
      payload: { businessId: victim.id, label: victim.name },
      as: admin,
    });
    expect(blocked.statusCode).toBe(201);
    const after = await allProspects();
    expect(ids(after.prospects)).not.toContain(victim.id);
    expect(after.total).toBe(before.total - 1);
    expect((await allProspects('offset=0&limit=2')).total).toBe(before.total - 1);

    const summary = await t.request({ method: 'GET', url: '/api/exports/all-prospects.csv', as: admin });
    expect(summary.statusCode).toBe(200);
    const names = parseCsv(summary.body)
      .records.slice(1)
      .map((r) => r[0]);
    expect(names).toEqual(after.prospects.map((p) => p.name));

    const detail = await t.request({ method: 'GET', url: '/api/exports/prospects.csv', as: admin });
    expect(detail.statusCode).toBe(200);
    const records = parseCsv(detail.body).records;
    const idColumn = records[0]!.indexOf('Id');
    expect(records.slice(1).map((r) => r[idColumn])).toEqual(ids(after.prospects));

    // Kept in the table: unblocking lists it again.
    const unblocked = await t.request({
      method: 'DELETE',
      url: `/api/blocklist/${encodeURIComponent(victim.id)}`,
      as: admin,
    });
    expect(unblocked.statusCode).toBe(204);
    expect(ids((await allProspects()).prospects)).toContain(victim.id);
  });

  it('leaves out a business blocked under its analysis hash rather than its id', async () => {
    const victim = second[0]!;
    const hash = victim.aiAnalysis!.businessHash;
    expect(hash).toBeTruthy();
    expect(hash).not.toBe(victim.id);
    await t.request({
      method: 'POST',
      url: '/api/blocklist',
      payload: { businessId: hash, label: 'x' },
      as: admin,
    });
    expect(ids((await allProspects()).prospects)).not.toContain(victim.id);
    await t.request({ method: 'DELETE', url: `/api/blocklist/${encodeURIComponent(hash)}`, as: admin });
  });

  it("keeps a hard-deleted rep's prospects, no longer naming the rep", async () => {
    const mine = await scan(repB, BIRMINGHAM, ['furniture']);
    const res = await t.request({
      method: 'POST',
      url: `/api/users/${repB.id}/hard-delete`,
      payload: { password: root.password },
      as: root,
    });
    expect(res.statusCode).toBe(204);
    const team = await allProspects();
    const left = team.prospects.find((p) => p.id === mine[0]!.id)!;
    expect(left.scannedBy).toEqual({ id: null, name: null });
    // The rep scans no more; the others still record theirs.
    const later = await scan(repA, HOOVER, ['furniture']);
    const now = (await allProspects()).prospects.find((p) => p.id === later[0]!.id)!;
    expect(now.scannedBy).toEqual({ id: repA.id, name: 'Rep A' });
  });

  it('is seeded from the latest scans when migrating, the newest copy winning', async () => {
    const p = (id: string, name: string, score: number) => ({
      id,
      name,
      category: 'Dental',
      address: '',
      score,
    });
    const rows = [
      { user: repA, at: '2026-05-01T10:00:00.000Z', list: [p('m1', 'Old', 0.3), p('m2', 'Two', 0.2)] },
      { user: admin, at: '2026-05-02T10:00:00.000Z', list: [p('m1', 'New', 0.4), { name: 'no id' }] },
    ];
    await t.db.kysely.deleteFrom('latest_scans').execute();
    for (const r of rows) {
      await t.db.kysely
        .insertInto('latest_scans')
        .values({
          user_id: r.user.id,
          search_id: 's',
          prospects: JSON.stringify(r.list),
          total: r.list.length,
          created_at: r.at,
        })
        .execute();
    }
    await teamProspectsMigration.down(t.db.kysely);
    await teamProspectsMigration.up(t.db.kysely);
    const team = await allProspects();
    expect(team.prospects.map((x) => [x.id, x.name, x.scannedBy.id, x.scannedAt])).toEqual([
      ['m1', 'New', admin.id, '2026-05-02T10:00:00.000Z'],
      ['m2', 'Two', repA.id, '2026-05-01T10:00:00.000Z'],
    ]);
  });

  it('is for admins only', async () => {
    expect((await t.request({ method: 'GET', url: '/api/admin/all-prospects', as: repA })).statusCode).toBe(
      403,
    );
  });
});
