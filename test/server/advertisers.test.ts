import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';
import { scannedBusiness } from '../helpers/businesses.js';
import { settleAfterAnswer } from '../../src/server/scans/after-answer.js';
import { commitStaged, placeRow, stageRows } from '../../src/server/places/local-store.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

interface Advertiser {
  businessId: string;
  label: string;
  markedBy: string | null;
  markedByName: string;
  markedAt: string;
}

/** Marks a business; the team has scanned it under `scannedAs` unless that is null. */
const mark = async (
  as: TestUser,
  businessId: string,
  label = `Biz ${businessId}`,
  scannedAs: string | null = label,
) => {
  if (scannedAs !== null) await scannedBusiness(t.db, businessId, scannedAs);
  return sendMark(as, businessId, label);
};
const sendMark = (as: TestUser, businessId: string, label: string) =>
  t.request({ method: 'POST', url: '/api/current-advertisers', payload: { businessId, label }, as });
const unmark = (as: TestUser, businessId: string) =>
  t.request({ method: 'DELETE', url: `/api/current-advertisers/${encodeURIComponent(businessId)}`, as });
const list = async (as: TestUser) =>
  (await t.request({ method: 'GET', url: '/api/current-advertisers', as })).json<{
    advertisers: Advertiser[];
  }>().advertisers;

describe('current advertisers', () => {
  it('any user marks; everyone sees the mark with who and when', async () => {
    const rep = await t.newUser('user', { name: 'Rita Rep' });
    const other = await t.newUser();
    const res = await mark(rep, 'osm:node/100', 'Acme Autos');
    expect(res.statusCode).toBe(201);
    const { advertiser, created } = res.json<{ advertiser: Advertiser; created: boolean }>();
    expect(created).toBe(true);
    expect(advertiser).toMatchObject({
      businessId: 'osm:node/100',
      label: 'Acme Autos',
      markedBy: rep.id,
      markedByName: 'Rita Rep',
    });
    expect(Date.now() - Date.parse(advertiser.markedAt)).toBeLessThan(60_000);
    expect(await list(other)).toContainEqual(advertiser);
  });

  it('ignores a second mark of the same business and answers the existing mark', async () => {
    const first = await t.newUser('user', { name: 'First Marker' });
    const second = await t.newUser('admin', { name: 'Second Marker' });
    const a = await mark(first, 'place_twice', 'Original label');
    const b = await sendMark(second, 'place_twice', 'Other label');
    expect(b.statusCode).toBe(200);
    expect(b.json()).toEqual({ advertiser: a.json<{ advertiser: Advertiser }>().advertiser, created: false });
    const rows = (await list(first)).filter((x) => x.businessId === 'place_twice');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.markedByName).toBe('First Marker');
  });

  it('refuses a mark without a business id', async () => {
    const u = await t.newUser();
    const res = await sendMark(u, '   ', 'x');
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: string }>().error).toMatch(/no stable id/);
  });

  it('only admins unmark, with the exact message for others; unmarking is audited', async () => {
    const rep = await t.newUser();
    const admin = await t.newUser('admin', { name: 'Ada Admin' });
    const superAdmin = await t.newUser('SuperAdmin');
    await mark(rep, 'osm:way/7', 'Bob’s Tires');
    const denied = await unmark(rep, 'osm:way/7');
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ error: 'Only admins can remove current advertisers' });
    expect((await list(rep)).some((x) => x.businessId === 'osm:way/7')).toBe(true);

    expect((await unmark(admin, 'osm:way/7')).statusCode).toBe(204);
    expect((await list(rep)).some((x) => x.businessId === 'osm:way/7')).toBe(false);
    const again = await unmark(admin, 'osm:way/7');
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ error: 'This business is not marked as a current advertiser' });

    const audit = await t.request({ method: 'GET', url: '/api/audit', as: superAdmin });
    const entry = audit
      .json<{
        entries: { action: string; actor: { name: string }; target: { id: string; label: string } }[];
      }>()
      .entries.find((e) => e.action === 'advertiser.unmark' && e.target.id === 'osm:way/7');
    expect(entry).toMatchObject({ actor: { name: 'Ada Admin' }, target: { label: 'Bob’s Tires' } });

    // Marking again after an unmark is a fresh mark.
    expect((await sendMark(rep, 'osm:way/7', 'x')).statusCode).toBe(201);
  });

  it('lists newest mark first', async () => {
    const u = await t.newUser();
    await mark(u, 'order-1');
    await new Promise((r) => setTimeout(r, 5));
    await mark(u, 'order-2');
    const ids = (await list(u)).map((x) => x.businessId).filter((id) => id.startsWith('order-'));
    expect(ids).toEqual(['order-2', 'order-1']);
  });
});

describe('hostile text', () => {
  it('refuses NUL characters in ids and labels with a 400, never a 500', async () => {
    const admin = await t.newUser('admin');
    const cases = [
      {
        method: 'POST' as const,
        url: '/api/current-advertisers',
        payload: { businessId: 'a\u0000', label: 'x' },
      },
      {
        method: 'POST' as const,
        url: '/api/current-advertisers',
        payload: { businessId: 'a', label: '\u0000' },
      },
      { method: 'DELETE' as const, url: '/api/current-advertisers/a%00b' },
      { method: 'POST' as const, url: '/api/blocklist', payload: { businessId: 'b\u0000', label: 'x' } },
      { method: 'DELETE' as const, url: '/api/blocklist/b%00' },
    ];
    for (const c of cases) {
      const res = await t.request({ ...c, as: admin });
      expect(res.statusCode, `${c.method} ${c.url}`).toBe(400);
      expect(res.json<{ error: string }>().error).toMatch(/NUL/);
    }
  });

  it('accepts a mark without a label, naming it from the record', async () => {
    const u = await t.newUser();
    await scannedBusiness(t.db, 'no-label', 'Named By The Scan');
    const res = await t.request({
      method: 'POST',
      url: '/api/current-advertisers',
      payload: { businessId: 'no-label' },
      as: u,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json<{ advertiser: Advertiser }>().advertiser.label).toBe('Named By The Scan');
  });
});

describe('what a rep may put in the shared list', () => {
  it('refuses a made-up business id with a clear 404, and lists nothing', async () => {
    const rep = await t.newUser();
    const res = await sendMark(rep, 'osm:node/999999999', 'Totally Real Business');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      error: 'This business is not in any scan or imported list, so it cannot be marked or claimed.',
    });
    expect((await list(rep)).some((x) => x.businessId === 'osm:node/999999999')).toBe(false);
  });

  it('stores the name of the server’s record, not the label the rep sent', async () => {
    const rep = await t.newUser();
    const res = await mark(rep, 'osm:node/4242', 'Competitor Is Closing Down', 'Corner Pharmacy');
    expect(res.statusCode).toBe(201);
    expect(res.json<{ advertiser: Advertiser }>().advertiser.label).toBe('Corner Pharmacy');
    expect((await list(rep)).find((x) => x.businessId === 'osm:node/4242')?.label).toBe('Corner Pharmacy');
  });

  it('knows an imported place as a record too, under any case of its OpenStreetMap id', async () => {
    const rep = await t.newUser();
    const place = placeRow(
      { id: 'osm:node/5151', lat: 41.88, lng: -87.63, tags: { name: 'Imported Hardware', shop: 'hardware' } },
      new Date().toISOString(),
    );
    await stageRows(t.db.kysely, 'advertisers-test', [place]);
    await commitStaged(t.db.kysely, 'advertisers-test');
    const res = await sendMark(rep, 'OSM:Node/5151', 'Made Up');
    expect(res.statusCode).toBe(201);
    expect(res.json<{ advertiser: Advertiser }>().advertiser).toMatchObject({
      businessId: 'osm:node/5151',
      label: 'Imported Hardware',
    });
  });

  it('an id in another case marks the same business once', async () => {
    const rep = await t.newUser();
    expect((await mark(rep, 'osm:way/6161', 'x', 'Case Garage')).statusCode).toBe(201);
    const again = await sendMark(rep, 'OSM:Way/6161', 'y');
    expect(again.statusCode).toBe(200);
    expect(again.json<{ created: boolean }>().created).toBe(false);
    expect((await list(rep)).filter((x) => x.businessId.toLowerCase() === 'osm:way/6161')).toHaveLength(1);
  });
});

describe("the rep's own latest results as the record", () => {
  it('marks a business of the rep’s latest results under its scanned name, though no team copy has it', async () => {
    const demo = await createTestContext({ PLACE_PROVIDERS: 'demo', SCAN_COOLDOWN_MS: '0' });
    try {
      const rep = await demo.newUser();
      const other = await demo.newUser();
      const res = await demo.request({
        method: 'POST',
        url: '/api/scans',
        payload: { lat: 37.79, lng: -122.4, radiusMiles: 1, count: 5 },
        as: rep,
      });
      expect(res.statusCode).toBe(200);
      const [first] = res.json<{ prospects: { id: string; name: string }[] }>().prospects;
      await settleAfterAnswer(demo.db);
      // The team's copy gone (as if never written): only the rep's latest results still know the business.
      await demo.db.kysely.deleteFrom('team_prospects').where('business_id', '=', first!.id).execute();
      const send = (as: TestUser) =>
        demo.request({
          method: 'POST',
          url: '/api/current-advertisers',
          payload: { businessId: first!.id, label: 'Sent Label' },
          as,
        });
      const refused = await send(other);
      expect(refused.statusCode).toBe(404);
      const marked = await send(rep);
      expect(marked.statusCode).toBe(201);
      expect(marked.json<{ advertiser: Advertiser }>().advertiser.label).toBe(first!.name);
    } finally {
      await demo.close();
    }
  });
});
