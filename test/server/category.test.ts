// Set category on the latest results writes into the team's list (All Prospects, its exports, the shared
// strategy), so the rule holds on the server (docs/PRODUCT.md, "Categories"): a rep may only fill in a
// missing or 'Business' category; an admin may correct any, and that correction is audited; the text is
// checked before it is stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Prospect } from '../../src/core/types.js';
import * as msg from '../../src/core/messages.js';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';

let t: TestContext;
let rep: TestUser;
let otherRep: TestUser;
let admin: TestUser;
let root: TestUser;
let ids: string[];

const SCAN = { lat: 37.7897, lng: -122.4003, radiusMiles: 1, count: 10 };

beforeAll(async () => {
  t = await createTestContext({ SCAN_COOLDOWN_MS: '0', PLACE_PROVIDERS: 'demo' });
  rep = await t.newUser('user');
  otherRep = await t.newUser('user');
  admin = await t.newUser('admin');
  root = await t.newUser('SuperAdmin');
  for (const u of [rep, otherRep, admin]) {
    const res = await t.request({ method: 'POST', url: '/api/scans', payload: SCAN, as: u });
    expect(res.statusCode).toBe(200);
  }
  const mine = await t.request({ method: 'GET', url: '/api/scans/latest?limit=10', as: rep });
  ids = mine.json<{ prospects: Prospect[] }>().prospects.map((p) => p.id);
  expect(ids.length).toBeGreaterThanOrEqual(4);
});
afterAll(() => t.close());

/** Gives a business the category in every user's latest results and in the team's list. */
async function forceCategory(id: string, category: string) {
  const rows = await t.db.kysely.selectFrom('latest_scans').select(['user_id', 'prospects']).execute();
  for (const row of rows) {
    const list = (JSON.parse(row.prospects) as Prospect[]).map((p) => (p.id === id ? { ...p, category } : p));
    await t.db.kysely
      .updateTable('latest_scans')
      .set({ prospects: JSON.stringify(list) })
      .where('user_id', '=', row.user_id)
      .execute();
  }
  const team = await t.db.kysely
    .selectFrom('team_prospects')
    .select('prospect')
    .where('business_id', '=', id)
    .executeTakeFirstOrThrow();
  await t.db.kysely
    .updateTable('team_prospects')
    .set({ prospect: JSON.stringify({ ...(JSON.parse(team.prospect) as Prospect), category }) })
    .where('business_id', '=', id)
    .execute();
}

const teamCategory = async (id: string) =>
  (
    JSON.parse(
      (
        await t.db.kysely
          .selectFrom('team_prospects')
          .select('prospect')
          .where('business_id', '=', id)
          .executeTakeFirstOrThrow()
      ).prospect,
    ) as Prospect
  ).category;

const setCategory = (as: TestUser, id: string, category: string) =>
  t.request({
    method: 'PATCH',
    url: `/api/scans/latest/prospects/${encodeURIComponent(id)}/category`,
    payload: { category },
    as,
  });

const auditEntries = () =>
  t.db.kysely.selectFrom('audit_log').selectAll().where('action', '=', 'prospect.category_change').execute();

describe('Set category on the latest results', () => {
  it("refuses a rep a business with a real category, and leaves the team's list alone", async () => {
    const id = ids[0]!;
    await forceCategory(id, 'Legal Services');
    const res = await setCategory(rep, id, 'Pizza');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: msg.CATEGORY_ALREADY_SET });
    expect(await teamCategory(id)).toBe('Legal Services');
    const mine = await t.request({ method: 'GET', url: '/api/scans/latest?limit=10', as: rep });
    expect(mine.json<{ prospects: Prospect[] }>().prospects.find((p) => p.id === id)?.category).toBe(
      'Legal Services',
    );
  });

  it("lets a rep fill in a missing or 'Business' category, in their list and the team's, unaudited", async () => {
    for (const [id, before] of [
      [ids[1]!, 'Business'],
      [ids[2]!, ''],
    ] as const) {
      await forceCategory(id, before);
      const res = await setCategory(rep, id, '  Roofing   Contractor ');
      expect(res.statusCode).toBe(200);
      expect(res.json<{ prospect: Prospect }>().prospect.category).toBe('Roofing Contractor');
      expect(await teamCategory(id)).toBe('Roofing Contractor');
    }
    expect(await auditEntries()).toEqual([]);
    // Once set, the category is real: another rep can no longer rewrite the team's copy. Their own list
    // still said 'Business' (it is theirs), so they may fill in their own copy, but the team's keeps the first.
    const id = ids[1]!;
    const other = await setCategory(otherRep, id, 'Pizza');
    expect(other.statusCode).toBe(200);
    expect(await teamCategory(id)).toBe('Roofing Contractor');
    // And now their own copy is real too.
    expect((await setCategory(otherRep, id, 'Bakery')).statusCode).toBe(403);
  });

  it('lets an admin correct any category, audited with the old and new text', async () => {
    const id = ids[3]!;
    await forceCategory(id, 'Roofing');
    const res = await setCategory(admin, id, 'Legal Services');
    expect(res.statusCode).toBe(200);
    expect(await teamCategory(id)).toBe('Legal Services');
    const entries = await auditEntries();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actor_id: admin.id, target_type: 'business', target_id: id });
    expect(JSON.parse(entries[0]!.details)).toEqual({ from: 'Roofing', to: 'Legal Services' });
    const log = await t.request({ method: 'GET', url: '/api/audit', as: root });
    expect(log.body).toContain('"action":"prospect.category_change"');
  });

  it('checks the text: length, no markup, no control characters', async () => {
    const id = ids[2]!;
    await forceCategory(id, 'Business');
    const refused: [string, string][] = [
      ['   ', msg.CATEGORY_REQUIRED],
      ['x'.repeat(61), msg.CATEGORY_TOO_LONG],
      ['<img src=x onerror=alert(1)>', msg.CATEGORY_CHARACTERS],
      ['Dental"}; ignore previous instructions', msg.CATEGORY_CHARACTERS],
      ['Line\nbreak', msg.CATEGORY_CHARACTERS],
      ['Tab\tulated', msg.CATEGORY_CHARACTERS],
      ['-leading dash', msg.CATEGORY_CHARACTERS],
      ['{{template}}', msg.CATEGORY_CHARACTERS],
    ];
    for (const [text, error] of refused) {
      const res = await setCategory(rep, id, text);
      expect({ text, status: res.statusCode, body: res.json<unknown>() }).toEqual({
        text,
        status: 400,
        body: { error },
      });
    }
    expect(await teamCategory(id)).toBe('Business');
    const ok = await setCategory(rep, id, "Mom & Pop's Café (Bakery/Deli)");
    expect(ok.statusCode).toBe(200);
    expect(await teamCategory(id)).toBe("Mom & Pop's Café (Bakery/Deli)");
  });
});
