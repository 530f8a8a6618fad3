// The scan option "Spread results out" (docs/SCORING.md "Spread results out": a 0.25-mile spacing). On the
// imported San Francisco extract, the option re-orders the ranking before the top 100 are kept, so the first
// page, Load Next and the restored latest scan all show the spread order; the set of prospects stays the same.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { importOsmFile } from '../../src/server/places/index.js';
import { spreadResults } from '../../src/core/diversify.js';
import type { Prospect } from '../../src/core/types.js';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';
import { describeWithOsm, osmExtract } from '../helpers/osm-data.js';

const CENTER = { lat: 37.7879, lng: -122.4066 };
/** Healthcare within a mile of Union Square: some dozens of prospects, so the whole ranking fits the 100 kept. */
const SCAN = { ...CENTER, radiusMiles: 1, count: 20, categories: ['healthcare'] };

let t: TestContext;
let rep: TestUser;
beforeAll(async () => {
  t = await createTestContext({ SCAN_COOLDOWN_MS: '0' });
  await importOsmFile(t.db, osmExtract('sf-downtown.osm.pbf'));
  rep = await t.newUser('user');
}, 120_000);
afterAll(() => t.close());

interface Page {
  prospects: Prospect[];
  total: number;
}
const scan = async (body: Record<string, unknown>) => {
  const res = await t.request({ method: 'POST', url: '/api/scans', payload: body, as: rep });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Page>();
};
const latest = async (offset: number, limit: number) => {
  const res = await t.request({
    method: 'GET',
    url: `/api/scans/latest?offset=${offset}&limit=${limit}`,
    as: rep,
  });
  expect(res.statusCode).toBe(200);
  return res.json<Page>().prospects;
};
const ids = (list: readonly Prospect[]) => list.map((p) => p.id);

describeWithOsm('sf-downtown.osm.pbf', 'scan option "Spread results out"', () => {
  it('re-orders the ranking (same prospects) for the first page, Load Next and the restored scan', async () => {
    const plain = await scan(SCAN);
    const plainAll = await latest(0, 100);
    expect(plain.total, 'the whole ranking must fit the 100 kept for this test').toBeLessThanOrEqual(100);
    expect(plainAll).toHaveLength(plain.total);
    expect(plain.total).toBeGreaterThan(20);

    const spread = await scan({ ...SCAN, spreadOut: true });
    const spreadAll = await latest(0, 100);
    expect(spread.total).toBe(plain.total);
    // The same prospects, none dropped or added...
    expect([...ids(spreadAll)].sort()).toEqual([...ids(plainAll)].sort());
    // ...in the order of the greedy re-rank of the plain ranking, which differs on its first page.
    const expected = spreadResults(plainAll, { spreadOut: true, limit: 100 });
    expect(ids(spreadAll)).toEqual(ids(expected));
    expect(ids(spread.prospects)).not.toEqual(ids(plain.prospects));
    // The first page, Load Next and the restored latest scan agree.
    expect(ids(spread.prospects)).toEqual(ids(spreadAll.slice(0, 20)));
    expect(ids(await latest(20, 20))).toEqual(ids(spreadAll.slice(20, 40)));
    expect(ids(await latest(0, 20))).toEqual(ids(spread.prospects));
  }, 60_000);

  it('is off by default and when sent false', async () => {
    const plain = await scan(SCAN);
    const plainAll = await latest(0, 100);
    const off = await scan({ ...SCAN, spreadOut: false });
    expect(ids(off.prospects)).toEqual(ids(plain.prospects));
    expect(ids(await latest(0, 100))).toEqual(ids(plainAll));
  }, 60_000);

  it('takes only a boolean', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/scans',
      payload: { ...SCAN, spreadOut: 'yes' },
      as: rep,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: string }>().error).toContain('spreadOut');
  });

  it('is remembered with the other scan settings', async () => {
    const settings = {
      ...CENTER,
      label: 'San Francisco, CA 94108',
      radiusMiles: 1,
      count: 20,
      categories: ['healthcare'],
      spreadOut: true,
    };
    const save = await t.request({
      method: 'PATCH',
      url: '/api/me',
      payload: { searchSettings: settings },
      as: rep,
    });
    expect(save.statusCode).toBe(200);
    const me = await t.request({ method: 'GET', url: '/api/me', as: rep });
    expect(me.json<{ user: { searchSettings: unknown } }>().user.searchSettings).toEqual(settings);
    const bad = await t.request({
      method: 'PATCH',
      url: '/api/me',
      payload: { searchSettings: { ...settings, spreadOut: 1 } },
      as: rep,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: string }>().error).toContain('searchSettings.spreadOut');
  });
});
