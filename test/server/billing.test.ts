// The billing import end to end: a billing export with messy names matched to imported places, the standing
// of each advertiser (lapsed, current), the marks it makes, the lapsed list, amounts hidden from reps until
// shared, and the scan's cards and order. On a small fixture always; on the San Francisco extract when the
// shared data is there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';
import { describeWithOsm, osmExtract } from '../helpers/osm-data.js';
import { commitStaged, placeRow, stageRows } from '../../src/server/places/local-store.js';
import { importOsmFile } from '../../src/server/places/osm-import.js';
import { addMonths, monthOf } from '../../src/core/billing.js';
import type { BillingReport, LapsedAdvertiser } from '../../src/core/api/billing.js';
import type { Prospect } from '../../src/core/types.js';

const NOW = monthOf(new Date());
const ago = (n: number) => addMonths(NOW, -n);

interface Lapsed {
  lapsed: LapsedAdvertiser[];
  amountsShown: boolean;
}

const postBilling = (t: TestContext, as: TestUser, csv: string, preview = false) =>
  t.request({
    method: 'POST',
    url: `/api/admin/billing${preview ? '?preview=true' : ''}`,
    as,
    headers: { 'content-type': 'text/csv' },
    payload: csv,
  });

const CENTRE = { lat: 41.5, lng: -99.5 };

/** A dentist's OSM tags; the fixture's dentists differ only in name, phone and street. */
const dentist = (id: string, name: string, north: number, phone: string, street: string) =>
  placeRow(
    {
      id,
      lat: CENTRE.lat + north,
      lng: CENTRE.lng,
      tags: {
        name,
        amenity: 'dentist',
        phone,
        'addr:housenumber': street.split(' ')[0]!,
        'addr:street': street.split(' ').slice(1).join(' '),
        'addr:city': 'Prairie',
        'addr:postcode': '69001',
      },
    },
    new Date().toISOString(),
  );

describe('billing import on a fixture of places', () => {
  let t: TestContext;
  let admin: TestUser;
  let rep: TestUser;

  beforeAll(async () => {
    t = await createTestContext({ PLACE_PROVIDERS: 'local', SCAN_COOLDOWN_MS: '0' });
    admin = await t.newUser('admin', { name: 'Ada Admin' });
    rep = await t.newUser('user', { name: 'Rita Rep' });
    await stageRows(t.db.kysely, 'billing-fixture', [
      dentist('osm:node/101', 'Union Square Dental Group', 0.001, '+1 415-399-1966', '490 Post Street'),
      dentist('osm:node/102', 'Prairie Family Dentistry', 0.002, '+1 308-555-0102', '12 Main Street'),
      dentist('osm:node/103', 'Bright Smiles Dental', 0.003, '+1 308-555-0103', '14 Main Street'),
      dentist('osm:node/104', 'Zeta Dental Care', 0.006, '+1 308-555-0104', '16 Main Street'),
      dentist('osm:node/105', 'Gumps', 0.004, '+1 866 6122226', '250 Post Street'),
      dentist('osm:node/106', 'Mini of San Francisco', 0.005, '+1 308-555-0106', '1023 Mission Street'),
    ]);
    await commitStaged(t.db.kysely, 'billing-fixture');
  });
  afterAll(() => t.close());

  const scan = async (as: TestUser) => {
    const res = await t.request({
      method: 'POST',
      url: '/api/scans',
      as,
      payload: { ...CENTRE, radiusMiles: 1, count: 20 },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ prospects: Prospect[] }>().prospects;
  };

  // Zeta Dental (farthest out) billed 8 and 9 months ago: lapsed. Union Square Dental billed last month and MINI a
  // year before and last month: current. Gumps billed 8 months ago under a messy name with a dotted phone.
  const CSV =
    `Advertiser Name,Telephone,Broadcast Month,Gross\n` +
    `Union Sq Dental Grp,(415) 399-1966,${ago(1)},"$4,000.00"\n` +
    `Zeta Dental Care Inc,,${ago(8)},"$5,000"\n` +
    `ZETA DENTAL CARE,,${ago(9)},7500\n` +
    `Gumps Inc,866.612.2226,${ago(8)},(1200)\n` +
    `Gumps Inc,866.612.2226,${ago(8)},"$3,200"\n` +
    `MINI OF SF,,${ago(1)},100\n` +
    `Nobody We Know LLC,415.555.0100,${ago(1)},999\n`;

  it('a preview matches the messy names and stores nothing', async () => {
    const res = await postBilling(t, admin, CSV, true);
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json<BillingReport>();
    expect(report.preview).toBe(true);
    expect(
      Object.fromEntries(report.matched.map((m) => [m.advertiser, [m.businessId, m.matchedBy]])),
    ).toEqual({
      'Union Sq Dental Grp': ['osm:node/101', ['name', 'phone']],
      'Zeta Dental Care Inc': ['osm:node/104', ['name']],
      'Gumps Inc': ['osm:node/105', ['name', 'phone']],
      'MINI OF SF': ['osm:node/106', ['name']],
    });
    expect(report.matched.find((m) => m.businessId === 'osm:node/104')?.lines).toEqual([3, 4]);
    expect(report.unmatched).toEqual([
      {
        advertiser: 'Nobody We Know LLC',
        lines: [8],
        reason: expect.stringContaining('No imported business'),
      },
    ]);
    expect(report.months).toEqual({ first: ago(9), last: ago(1), count: 3 });
    expect(report.counts).toEqual({ current: 2, lapsed: 2, declining: 0 });
    expect(await t.db.kysely.selectFrom('billing').selectAll().execute()).toEqual([]);
    expect(await t.db.kysely.selectFrom('current_advertisers').selectAll().execute()).toEqual([]);
  });

  it('refuses a bad file with the line and what is wrong', async () => {
    const bad = async (csv: string) => {
      const res = await postBilling(t, admin, csv);
      expect(res.statusCode, res.body).toBe(400);
      return res.json<{ error: string }>().error;
    };
    expect(await bad('')).toBe('The file is empty.');
    expect(await bad('Advertiser,Month,Amount\n')).toBe('The file has a header but no billing lines.');
    expect(await bad('Advertiser,Amount\nA,5\n')).toMatch(/^The file has no month column/);
    expect(await bad('Client,Period\nA,2026-01\n')).toMatch(/^The file has no amount column/);
    expect(await bad('Phone,Month,Net\n1,2026-01,5\n')).toMatch(/^The file has no advertiser name column/);
    expect(await bad(`Advertiser,Month,Net\nA,${ago(1)},5\nB,2026-14,5\n`)).toBe(
      'Line 3: "2026-14" is not a month (write it as 2026-03, 03/2026 or Mar 2026).',
    );
    expect(await bad(`Advertiser,Month,Net\nA,${ago(1)},five\n`)).toMatch(/^Line 2: "five" is not an amount/);
    expect(await t.db.kysely.selectFrom('billing').selectAll().execute()).toEqual([]);
  });

  it('is for admins only', async () => {
    expect((await postBilling(t, rep, CSV)).statusCode).toBe(403);
    expect((await postBilling(t, rep, CSV, true)).statusCode).toBe(403);
  });

  it('imports: billed last month is a current advertiser by "billing", billed 8-9 months ago is lapsed', async () => {
    // A rep's own mark of the lapsed dentist stays whatever the billing says.
    const mark = await t.request({
      method: 'POST',
      url: '/api/current-advertisers',
      as: rep,
      payload: { businessId: 'osm:node/104' },
    });
    expect(mark.statusCode, mark.body).toBe(201);
    const res = await postBilling(t, admin, CSV);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<BillingReport>().counts).toEqual({ current: 2, lapsed: 2, declining: 0 });

    const marks = await t.db.kysely
      .selectFrom('current_advertisers')
      .selectAll()
      .orderBy('business_id')
      .execute();
    expect(marks.map((m) => [m.business_id, m.marked_by, m.marked_by_name])).toEqual([
      ['osm:node/101', null, 'billing'],
      ['osm:node/104', rep.id, 'Rita Rep'],
      ['osm:node/106', null, 'billing'],
    ]);
    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'billing.import')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.actor_id).toBe(admin.id);
  });

  it('lists lapsed advertisers with amounts for admins; a rep sees none until an admin shares them', async () => {
    const asAdmin = await t.request({ method: 'GET', url: '/api/advertisers/lapsed', as: admin });
    expect(asAdmin.json<Lapsed>()).toEqual({
      amountsShown: true,
      lapsed: [
        { businessId: 'osm:node/104', name: 'Zeta Dental Care', address: expect.stringContaining('16 Main'), lastMonth: ago(8), lastYearTotal: 12500 },
        { businessId: 'osm:node/105', name: 'Gumps', address: expect.stringContaining('250 Post'), lastMonth: ago(8), lastYearTotal: 2000 },
      ],
    }); // prettier-ignore
    const asRep = (await t.request({ method: 'GET', url: '/api/advertisers/lapsed', as: rep })).json<Lapsed>();
    expect(asRep.amountsShown).toBe(false);
    expect(asRep.lapsed.map((l) => [l.businessId, l.lastYearTotal])).toEqual([
      ['osm:node/104', undefined],
      ['osm:node/105', undefined],
    ]);

    const cards = await scan(rep);
    const zeta = cards.find((p) => p.id === 'osm:node/104');
    expect(zeta?.billing).toEqual({ status: 'lapsed', lastMonth: ago(8) });
    expect(cards.find((p) => p.id === 'osm:node/101')?.billing).toEqual({ status: 'current', lastMonth: ago(1) });
    expect(cards.find((p) => p.id === 'osm:node/102')?.billing).toBeUndefined();

    expect((await t.request({ method: 'PATCH', url: '/api/admin/billing/settings', as: rep, payload: { shareAmounts: true } })).statusCode).toBe(403);
    const shared = await t.request({ method: 'PATCH', url: '/api/admin/billing/settings', as: admin, payload: { shareAmounts: true } });
    expect(shared.json()).toEqual({ settings: { shareAmounts: true } });
    const after = (await t.request({ method: 'GET', url: '/api/advertisers/lapsed', as: rep })).json<Lapsed>();
    expect(after.lapsed[0]?.lastYearTotal).toBe(12500);
    const latest = await t.request({ method: 'GET', url: '/api/scans/latest?offset=0&limit=20', as: rep });
    expect(latest.json<{ prospects: Prospect[] }>().prospects.find((p) => p.id === 'osm:node/104')?.billing).toEqual({
      status: 'lapsed',
      lastMonth: ago(8),
      lastYearTotal: 12500,
    });
    await t.request({ method: 'PATCH', url: '/api/admin/billing/settings', as: admin, payload: { shareAmounts: false } });
  }); // prettier-ignore

  it("shows a rep with territories only the lapsed advertisers inside them", async () => {
    const rep2 = await t.newUser('user', { name: 'Tess Territory' });
    // A box around Zeta Dental (0.006 north of the centre) that leaves Gumps (0.004 north) out.
    const [s, n, w, e] = [CENTRE.lat + 0.0055, CENTRE.lat + 0.0065, CENTRE.lng - 0.001, CENTRE.lng + 0.001];
    const area = { type: 'Polygon', coordinates: [[[w, s], [e, s], [e, n], [w, n], [w, s]]] };
    const made = await t.request({ method: 'POST', url: '/api/territories', as: admin, payload: { name: 'North Prairie', area, repIds: [rep2.id] } });
    expect(made.statusCode, made.body).toBe(201);
    const inside = (await t.request({ method: 'GET', url: '/api/advertisers/lapsed', as: rep2 })).json<Lapsed>();
    expect(inside.lapsed.map((l) => l.businessId)).toEqual(['osm:node/104']);
    // A rep without territories and the admin still see all.
    const all = (await t.request({ method: 'GET', url: '/api/advertisers/lapsed', as: rep })).json<Lapsed>();
    expect(all.lapsed.map((l) => l.businessId)).toEqual(['osm:node/104', 'osm:node/105']);
    const id = made.json<{ territory: { id: string } }>().territory.id;
    expect((await t.request({ method: 'DELETE', url: `/api/territories/${id}`, as: admin })).statusCode).toBe(204);
  }); // prettier-ignore

  it('sorts lapsed advertisers first within their 10-point score band', async () => {
    const cards = await scan(admin);
    const band = (p: Prospect) => Math.floor(Math.round(p.score * 100) / 10);
    const zetaAt = cards.findIndex((p) => p.id === 'osm:node/104');
    expect(zetaAt).toBeGreaterThanOrEqual(0);
    const zeta = cards[zetaAt]!;
    // Every card before it is lapsed too or in a higher band; it is not where its score alone puts it.
    for (const p of cards.slice(0, zetaAt))
      expect(p.billing?.status === 'lapsed' || band(p) > band(zeta)).toBe(true);
    const sameBand = cards.filter((p) => band(p) === band(zeta) && p.billing?.status !== 'lapsed');
    expect(sameBand.length).toBeGreaterThan(0);
    expect(
      sameBand.some((p) => p.score > zeta.score || (p.score === zeta.score && p.distance < zeta.distance)),
    ).toBe(true);
  });

  it('a new import replaces the months it covers and takes back the marks billing made', async () => {
    // Last month again without Union Square Dental: its billing mark goes; MINI's stays; the rep's mark stays.
    const res = await postBilling(t, admin, `Client,Month,Net\nMINI OF SF,${ago(1)},150\n`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<BillingReport>().counts).toEqual({ current: 1, lapsed: 2, declining: 0 });
    const rows = await t.db.kysely.selectFrom('billing').select(['business_id', 'month', 'amount_cents']).where('month', '=', ago(1)).execute();
    expect(rows).toEqual([{ business_id: 'osm:node/106', month: ago(1), amount_cents: 15000 }]);
    const marks = await t.db.kysely.selectFrom('current_advertisers').select('business_id').orderBy('business_id').execute();
    expect(marks.map((m) => m.business_id)).toEqual(['osm:node/104', 'osm:node/106']);
  }); // prettier-ignore
});

describeWithOsm('sf-downtown.osm.pbf', 'billing import on the San Francisco extract', () => {
  let t: TestContext;
  let admin: TestUser;

  beforeAll(async () => {
    t = await createTestContext();
    admin = await t.newUser('admin');
    await importOsmFile(t.db, osmExtract('sf-downtown.osm.pbf'));
  }, 120_000);
  afterAll(() => t.close());

  it('matches messy names and phone formats to the real businesses; lapsed, current and unmatched', async () => {
    const csv =
      `Client,Phone,Billing Month,Amount\n` +
      `MINI OF SF,,${ago(9)},"$6,000.00"\n` +
      `MINI OF SF,,${ago(8)},"$6,500.00"\n` +
      `Union Sq Dental Grp,(415) 399-1966,${ago(1)},"$1,800"\n` +
      `Gumps Inc,866.612.2226,${ago(1)},2500\n` +
      `Hotel G,415.986.2000,${ago(8)},900\n` +
      `Totally Unknown Advertising Co,(415) 555-0100,${ago(1)},100\n`;
    const res = await postBilling(t, admin, csv);
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json<BillingReport>();
    const by = Object.fromEntries(report.matched.map((m) => [m.advertiser, m]));
    expect(by['MINI OF SF']).toMatchObject({ businessName: 'Mini of San Francisco', matchedBy: ['name'] });
    expect(by['Union Sq Dental Grp']).toMatchObject({
      businessName: 'Union Square Dental Group',
      matchedBy: ['name', 'phone'],
    });
    expect(by['Gumps Inc']).toMatchObject({ businessName: 'Gumps', matchedBy: ['name', 'phone'] });
    expect(by['Hotel G']).toMatchObject({ businessName: 'Hotel G', matchedBy: ['name', 'phone'] });
    expect(report.unmatched.map((u) => u.advertiser)).toEqual(['Totally Unknown Advertising Co']);
    expect(report.counts).toEqual({ current: 2, lapsed: 2, declining: 0 });

    const lapsed = (
      await t.request({ method: 'GET', url: '/api/advertisers/lapsed', as: admin })
    ).json<Lapsed>();
    expect(lapsed.lapsed.map((l) => [l.name, l.lastMonth, l.lastYearTotal])).toEqual([
      ['Mini of San Francisco', ago(8), 12500],
      ['Hotel G', ago(8), 900],
    ]);
    const marked = (await t.request({ method: 'GET', url: '/api/current-advertisers', as: admin })).json<{
      advertisers: { label: string; markedByName: string }[];
    }>();
    expect(marked.advertisers.map((a) => [a.label, a.markedByName]).sort()).toEqual([
      ['Gumps', 'billing'],
      ['Union Square Dental Group', 'billing'],
    ]);
  });
});
