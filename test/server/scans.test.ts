import { MODEL_VERSION } from '../../src/core/scoring/constants.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { importOsmFile } from '../../src/server/places/index.js';
import { haversineMiles } from '../../src/core/geo.js';
import type { Prospect } from '../../src/core/types.js';
import { readLatestScan } from '../../src/server/scans/repository.js';
import { insertBlockedIfAbsent } from '../../src/server/blocklist/repository.js';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';
import { describeWithOsm, osmExtractPath } from '../helpers/osm-data.js';

const SF = osmExtractPath('sf-downtown.osm.pbf'); // every test is inside describeWithOsm
const CENTER = { lat: 37.7879, lng: -122.4066 };

let t: TestContext;
let rep: TestUser;
beforeAll(async () => {
  t = await createTestContext({ SCAN_COOLDOWN_MS: '0' });
  await importOsmFile(t.db, SF);
  rep = await t.newUser('user');
}, 120_000);
afterAll(() => t.close());

const scan = (as: TestUser, body: Record<string, unknown>) =>
  t.request({ method: 'POST', url: '/api/scans', payload: body, as });

describeWithOsm(SF, 'scan API on the imported San Francisco extract', () => {
  it('returns 50 distinct real businesses within 1 mile, sorted by score, each explained', async () => {
    const res = await scan(rep, { ...CENTER, radiusMiles: 1, count: 50, categories: [] });
    expect(res.statusCode).toBe(200);
    const body = res.json<{
      prospects: Prospect[];
      total: number;
      sources: { provider: string; ok: boolean }[];
      demo: boolean;
    }>();
    expect(body.demo).toBe(false);
    expect(body.sources).toContainEqual(expect.objectContaining({ provider: 'local', ok: true }));
    const list = body.prospects;
    expect(list).toHaveLength(50);
    expect(body.total).toBeGreaterThanOrEqual(50);
    expect(new Set(list.map((p) => p.id)).size).toBe(50);
    expect(new Set(list.map((p) => `${p.name}|${p.address}`)).size).toBe(50);
    for (let i = 0; i < list.length; i++) {
      const p = list[i]!;
      expect(p.id).toMatch(/^osm:/);
      expect(p.name.trim()).not.toBe('');
      expect(haversineMiles(CENTER, p)).toBeLessThan(1);
      expect(p.score).toBeGreaterThanOrEqual(0);
      expect(p.score).toBeLessThanOrEqual(1);
      if (i > 0) expect(p.score).toBeLessThanOrEqual(list[i - 1]!.score);
      const a = p.aiAnalysis!;
      expect(a.reasoning.length).toBeGreaterThan(10);
      expect(a.confidence).toBeGreaterThan(0);
      expect(a.recommendations.length).toBeGreaterThan(0);
      expect(a.breakdown).toEqual(
        expect.objectContaining({ fit: expect.any(Number), presence: expect.any(Number) }),
      );
      expect(a.modelVersion).toBe(MODEL_VERSION);
    }
  });

  it('explains each scan from its own centre: the reasoning says the distance the prospect shows', async () => {
    const shifted = { lat: CENTER.lat + 0.004, lng: CENTER.lng - 0.004 };
    const seen = new Map<string, number>();
    for (const center of [CENTER, shifted]) {
      const res = await scan(rep, { ...center, radiusMiles: 1, count: 50 });
      const model = res
        .json<{ prospects: Prospect[] }>()
        .prospects.filter((p) => !p.aiAnalysis!.breakdown.rule);
      expect(model.length).toBeGreaterThan(10);
      for (const p of model) {
        const said = Number(/ (\d+\.\d) mi away\./.exec(p.aiAnalysis!.reasoning)?.[1]);
        expect(Math.abs(said - p.distance)).toBeLessThanOrEqual(0.051);
        const before = seen.get(p.id);
        if (before !== undefined) expect(p.distance).not.toBe(before);
        seen.set(p.id, p.distance);
      }
    }
  });

  it('restores the latest scan and pages it up to 100', async () => {
    await scan(rep, { ...CENTER, radiusMiles: 1, count: 20 });
    const first = await t.request({ method: 'GET', url: '/api/scans/latest?offset=0&limit=20', as: rep });
    const next = await t.request({ method: 'GET', url: '/api/scans/latest?offset=20&limit=20', as: rep });
    const a = first.json<{ prospects: Prospect[]; loadable: number }>();
    const b = next.json<{ prospects: Prospect[] }>();
    expect(a.prospects).toHaveLength(20);
    expect(b.prospects).toHaveLength(20);
    expect(a.loadable).toBeLessThanOrEqual(100);
    expect(new Set([...a.prospects, ...b.prospects].map((p) => p.id)).size).toBe(40);
    const beyond = await t.request({ method: 'GET', url: '/api/scans/latest?offset=100&limit=20', as: rep });
    expect(beyond.json<{ prospects: Prospect[] }>().prospects).toHaveLength(0);
  });

  it('clamps the radius and count and honours category groups', async () => {
    const res = await scan(rep, {
      ...CENTER,
      radiusMiles: 99,
      count: 500,
      categories: ['healthcare', 'nonsense'],
    });
    const body = res.json<{ prospects: Prospect[]; radiusMiles: number; count: number }>();
    expect(body.radiusMiles).toBe(5);
    expect(body.count).toBe(50);
    expect(body.prospects.length).toBeGreaterThan(0);
    const healthcare = new Set([
      'dentist',
      'doctor',
      'hospital',
      'physiotherapist',
      'veterinary_care',
      'pharmacy',
    ]);
    for (const p of body.prospects) expect(p.types.some((ty) => healthcare.has(ty))).toBe(true);
    const small = await scan(rep, { ...CENTER, radiusMiles: 0.1, count: 1 });
    expect(small.json<{ radiusMiles: number; count: number }>()).toMatchObject({
      radiusMiles: 0.5,
      count: 5,
    });
  });

  it('leaves blocked businesses out of every later scan', async () => {
    const admin = await t.newUser('admin');
    const before = (await scan(rep, { ...CENTER, radiusMiles: 1, count: 5 })).json<{
      prospects: Prospect[];
    }>();
    const target = before.prospects[0]!;
    const block = await t.request({
      method: 'POST',
      url: '/api/blocklist',
      payload: { businessId: target.id, label: target.name },
      as: admin,
    });
    expect(block.statusCode).toBeLessThan(300);
    const after = (await scan(rep, { ...CENTER, radiusMiles: 1, count: 50 })).json<{
      prospects: Prospect[];
    }>();
    expect(after.prospects.map((p) => p.id)).not.toContain(target.id);
  });

  it('takes a blocked business out of every stored latest scan: its pages, its total, other users too', async () => {
    const admin = await t.newUser('admin');
    const other = await t.newUser('user');
    const body = { ...CENTER, radiusMiles: 1, count: 20 };
    await scan(rep, body);
    await scan(other, body);
    const page = async (as: TestUser, offset: number) =>
      (await t.request({ method: 'GET', url: `/api/scans/latest?offset=${offset}&limit=50`, as })).json<{
        prospects: Prospect[];
        total: number;
      }>();
    const before = await page(rep, 20);
    const otherBefore = await page(other, 20);
    const target = before.prospects[5]!; // position 26
    expect(otherBefore.prospects.map((p) => p.id)).toContain(target.id);
    const block = await t.request({
      method: 'POST',
      url: '/api/blocklist',
      payload: { businessId: target.id, label: target.name },
      as: admin,
    });
    expect(block.statusCode).toBe(201);
    for (const [as, was] of [
      [rep, before],
      [other, otherBefore],
    ] as const) {
      const after = await page(as, 20);
      expect(after.prospects.map((p) => p.id)).not.toContain(target.id);
      expect(after.total).toBe(was.total - 1);
      const at = was.prospects.findIndex((p) => p.id === target.id);
      expect(after.prospects[at]?.id).toBe(was.prospects[at + 1]?.id);
      // Pruned where it is stored, not only hidden when read.
      const stored = await readLatestScan(t.db.kysely, as.id);
      expect(stored?.prospects.map((p) => p.id)).not.toContain(target.id);
      expect(stored?.total).toBe(was.total - 1);
    }
  });

  it('leaves blocked businesses out of a stored latest scan when it is read', async () => {
    await scan(rep, { ...CENTER, radiusMiles: 1, count: 20 });
    const url = '/api/scans/latest?offset=20&limit=50';
    const before = (await t.request({ method: 'GET', url, as: rep })).json<{
      prospects: Prospect[];
      total: number;
    }>();
    const target = before.prospects[2]!;
    // As if the block landed while this scan was under way and the scan stored its results afterwards.
    await insertBlockedIfAbsent(t.db.kysely, {
      business_id: target.id,
      label: target.name,
      blocked_by: null,
      created_at: new Date().toISOString(),
    });
    const after = (await t.request({ method: 'GET', url, as: rep })).json<{
      prospects: Prospect[];
      total: number;
    }>();
    expect(after.prospects.map((p) => p.id)).not.toContain(target.id);
    expect(after.total).toBe(before.total - 1);
    expect(after.prospects[2]?.id).toBe(before.prospects[3]?.id);
  });

  it('records every scan and every quick search in searches: kind, query and total', async () => {
    const u = await t.newUser('user');
    const rows = () =>
      t.db.kysely
        .selectFrom('searches')
        .select(['kind', 'query', 'total', 'radius_miles', 'count'])
        .where('user_id', '=', u.id)
        .orderBy('created_at')
        .execute();
    const s = await scan(u, { ...CENTER, radiusMiles: 1, count: 10 });
    expect(await rows()).toEqual([
      { kind: 'scan', query: null, total: s.json<{ total: number }>().total, radius_miles: 1, count: 10 },
    ]);
    const q = await t.request({
      method: 'POST',
      url: '/api/quick-search',
      payload: { mode: 'category', text: 'dentist', ...CENTER, radiusMiles: 1 },
      as: u,
    });
    const b = await t.request({
      method: 'POST',
      url: '/api/quick-search',
      payload: {
        mode: 'business',
        text: s.json<{ prospects: Prospect[] }>().prospects[0]!.name,
        ...CENTER,
        radiusMiles: 1,
      },
      as: u,
    });
    const recorded = await rows();
    expect(recorded).toHaveLength(3);
    expect(recorded[1]).toMatchObject({
      kind: 'quick-category',
      query: 'dentist',
      total: q.json<{ total: number }>().total,
    });
    // A business lookup records how many it found; its answer is the list with them on top of the earlier one.
    expect(recorded[2]).toMatchObject({
      kind: 'quick-business',
      query: s.json<{ prospects: Prospect[] }>().prospects[0]!.name,
    });
    const lookupTotal = b.json<{ total: number }>().total;
    expect(lookupTotal).toBeGreaterThanOrEqual(q.json<{ total: number }>().total);
    expect(lookupTotal).toBeLessThanOrEqual(recorded[2]!.total + q.json<{ total: number }>().total);
    for (const r of recorded) expect(r.total).toBeGreaterThan(0);
  });

  it('answers a scan that comes too soon with 429 and the time to wait', async () => {
    const slow = await createTestContext({ SCAN_COOLDOWN_MS: '60000', PLACE_PROVIDERS: 'demo' });
    try {
      const u = await slow.newUser('user');
      const ok = await slow.request({
        method: 'POST',
        url: '/api/scans',
        payload: { ...CENTER, radiusMiles: 1, count: 5 },
        as: u,
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json<{ demo: boolean }>().demo).toBe(true);
      const again = await slow.request({
        method: 'POST',
        url: '/api/scans',
        payload: { ...CENTER, radiusMiles: 1, count: 5 },
        as: u,
      });
      expect(again.statusCode).toBe(429);
      const wait = again.json<{ retryAfterMs: number }>().retryAfterMs;
      expect(wait).toBeGreaterThan(50_000);
      expect(again.headers['retry-after']).toBe(String(Math.ceil(wait / 1000)));
    } finally {
      await slow.close();
    }
  });

  it('finds a business by name, and a category, with the exact messages when nothing matches', async () => {
    const list = (await t.request({ method: 'GET', url: '/api/scans/latest?limit=50', as: rep })).json<{
      prospects: Prospect[];
    }>();
    const known = list.prospects.find((p) => p.name.length > 5)!;
    const byName = await t.request({
      method: 'POST',
      url: '/api/quick-search',
      payload: { mode: 'business', text: known.name, ...CENTER, radiusMiles: 1 },
      as: rep,
    });
    expect(byName.statusCode).toBe(200);
    expect(byName.json<{ prospects: Prospect[] }>().prospects.map((p) => p.name)).toContain(known.name);
    // Found by name, it scores what the scan of the same circle gave it.
    const again = byName.json<{ prospects: Prospect[] }>().prospects.find((p) => p.id === known.id)!;
    expect(again.score).toBe(known.score);
    const none = await t.request({
      method: 'POST',
      url: '/api/quick-search',
      payload: { mode: 'business', text: 'Zzyzx Qwertyuiop Emporium', ...CENTER, radiusMiles: 1 },
      as: rep,
    });
    expect(none.statusCode).toBe(404);
    expect(none.json()).toMatchObject({
      error: 'No matching business found within your radius. Try a more specific name.',
    });
    const dentists = await t.request({
      method: 'POST',
      url: '/api/quick-search',
      payload: { mode: 'category', text: 'dentist', ...CENTER, radiusMiles: 1 },
      as: rep,
    });
    expect(dentists.statusCode).toBe(200);
    expect(dentists.json<{ prospects: Prospect[] }>().prospects.length).toBeGreaterThan(0);
    const noCat = await t.request({
      method: 'POST',
      url: '/api/quick-search',
      payload: { mode: 'category', text: 'zeppelin hangar', ...CENTER, radiusMiles: 1 },
      as: rep,
    });
    expect(noCat.json()).toMatchObject({ error: 'No results found for that category within your radius.' });
  });

  it('lets a rep set a missing category on a prospect of the latest results, and fetches details', async () => {
    const list = (await t.request({ method: 'GET', url: '/api/scans/latest?limit=5', as: rep })).json<{
      prospects: Prospect[];
    }>();
    // Set category is for a missing or 'Business' category; a real one is an admin's to change
    // (test/server/category.test.ts). The first result stands in for one the extract left uncategorised.
    const p = list.prospects[0]!;
    const url = `/api/scans/latest/prospects/${encodeURIComponent(p.id)}/category`;
    if (p.category !== 'Business') {
      expect(
        (await t.request({ method: 'PATCH', url, payload: { category: 'Plumbing' }, as: rep })).statusCode,
      ).toBe(403);
      const row = await t.db.kysely
        .selectFrom('latest_scans')
        .select('prospects')
        .where('user_id', '=', rep.id)
        .executeTakeFirstOrThrow();
      const uncategorised = (JSON.parse(row.prospects) as Prospect[]).map((x) =>
        x.id === p.id ? { ...x, category: 'Business' } : x,
      );
      await t.db.kysely
        .updateTable('latest_scans')
        .set({ prospects: JSON.stringify(uncategorised) })
        .where('user_id', '=', rep.id)
        .execute();
      const team = await t.db.kysely
        .selectFrom('team_prospects')
        .select('prospect')
        .where('business_id', '=', p.id)
        .executeTakeFirstOrThrow();
      await t.db.kysely
        .updateTable('team_prospects')
        .set({
          prospect: JSON.stringify({ ...(JSON.parse(team.prospect) as Prospect), category: 'Business' }),
        })
        .where('business_id', '=', p.id)
        .execute();
    }
    const blank = await t.request({ method: 'PATCH', url, payload: { category: '   ' }, as: rep });
    expect(blank.statusCode).toBe(400);
    const set = await t.request({ method: 'PATCH', url, payload: { category: '  Plumbing ' }, as: rep });
    expect(set.json().prospect.category).toBe('Plumbing');
    const again = (await t.request({ method: 'GET', url: '/api/scans/latest?limit=5', as: rep })).json<{
      prospects: Prospect[];
    }>();
    expect(again.prospects.find((x) => x.id === p.id)?.category).toBe('Plumbing');
    // The team's list (All Prospects) learns it too.
    const team = await t.db.kysely
      .selectFrom('team_prospects')
      .select('prospect')
      .where('business_id', '=', p.id)
      .executeTakeFirstOrThrow();
    expect((JSON.parse(team.prospect) as Prospect).category).toBe('Plumbing');
    const details = await t.request({
      method: 'GET',
      url: `/api/places/${encodeURIComponent(p.id)}/details`,
      as: rep,
    });
    expect(details.statusCode).toBe(200);
    expect(details.json()).toEqual(expect.objectContaining({ address: expect.any(String) }));
  });

  it('geocodes offline and reports an unknown address with the exact message', async () => {
    const sf = await t.request({ method: 'GET', url: '/api/geocode?q=94105', as: rep });
    expect(sf.statusCode).toBe(200);
    expect(haversineMiles(sf.json(), CENTER)).toBeLessThan(3);
    const bham = await t.request({
      method: 'GET',
      url: `/api/geocode?q=${encodeURIComponent('Birmingham, AL')}`,
      as: rep,
    });
    expect(haversineMiles(bham.json(), { lat: 33.5186, lng: -86.8104 })).toBeLessThan(10);
    const empty = await t.request({ method: 'GET', url: '/api/geocode?q=%20', as: rep });
    expect(empty.json()).toEqual({ error: 'Please enter an address' });
    const missing = await t.request({ method: 'GET', url: '/api/geocode?q=Qxzqxz%20Nowhereville', as: rep });
    expect(missing.json()).toEqual({ error: 'Address not found. Please check the address and try again.' });
    const label = await t.request({
      method: 'GET',
      url: `/api/reverse-geocode?lat=${CENTER.lat}&lng=${CENTER.lng}`,
      as: rep,
    });
    expect(label.json<{ label: string }>().label).toMatch(/San Francisco/);
  });

  it('keeps analysis and business caches, shows stats to admins and lets SuperAdmins clear them', async () => {
    const admin = await t.newUser('admin');
    const root = await t.newUser('SuperAdmin');
    const stats = (await t.request({ method: 'GET', url: '/api/admin/cache', as: admin })).json<{
      total: number;
      valid: number;
      expired: number;
    }>();
    expect(stats.total).toBeGreaterThan(0);
    expect(stats.valid).toBe(stats.total);
    expect(stats.expired).toBe(0);
    expect((await t.request({ method: 'DELETE', url: '/api/admin/cache', as: admin })).statusCode).toBe(403);
    expect((await t.request({ method: 'DELETE', url: '/api/admin/cache', as: root })).statusCode).toBe(204);
    expect((await t.request({ method: 'GET', url: '/api/admin/cache', as: admin })).json()).toMatchObject({
      total: 0,
    });
  });
});
