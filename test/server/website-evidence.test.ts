// Website evidence end to end: a scan whose businesses point at local fixture sites answers at once with
// `signals: []`; the website checks follow as background jobs, and the rep's stored results get the right
// signals, scores scored again and reasoning that names the evidence, announced on the event stream. No
// internet: the sites are a local HTTP server and *.test names resolve through an injected resolver.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeRow } from '../../src/server/places/local-store.js';
import type { Prospect } from '../../src/core/types.js';
import type { Resolver } from '../../src/server/websites/address.js';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';
import { openStream } from '../helpers/sse.js';
import { addHostileRoutes, startSiteServer, type SiteServer } from '../helpers/websites.js';

const CENTRE = { lat: 40.0, lng: -75.0 };
const resolver: Resolver = (host) =>
  host.endsWith('.test')
    ? Promise.resolve([{ address: '127.0.0.1', family: 4 as const }])
    : Promise.reject(Object.assign(new Error('no network'), { code: 'ENOTFOUND' }));

let sites: SiteServer;
let t: TestContext;
let rep: TestUser;
let baseUrl: string;

interface Page {
  total: number;
  prospects: Prospect[];
}
const byName = (page: Page, name: string) => {
  const p = page.prospects.find((x) => x.name === name);
  if (!p) throw new Error(`${name} not in the results`);
  return p;
};

/** Waits until no website job is pending or running (polling the queue; the deadline only bounds a failure). */
async function checksDone(timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await t.db.kysely
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('kind', '=', 'website')
      .where('status', 'in', ['pending', 'running'])
      .executeTakeFirstOrThrow();
    if (Number(row.n) === 0) return;
    if (Date.now() > deadline) throw new Error('website checks did not finish');
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  sites = await startSiteServer();
  addHostileRoutes(sites);
  sites.robots.set(`blocked.test:${sites.port}`, 'User-agent: *\nDisallow: /\n');
  t = await createTestContext(
    {
      SCAN_COOLDOWN_MS: '0',
      WEBSITE_CHECKS: 'on',
      WEBSITE_CHECKS_ALLOW_LOOPBACK: 'true',
      WEBSITE_CHECK_HOST_PAUSE_MS: '0',
      WEBSITE_CHECK_CONCURRENCY: '4',
    },
    { websiteResolver: resolver },
  );
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const at = new Date().toISOString();
  const o = sites.origin;
  const place = (n: number, name: string, tags: Record<string, string>) =>
    placeRow(
      {
        id: `osm:node/${n}`,
        lat: CENTRE.lat + n * 0.0005,
        lng: CENTRE.lng,
        tags: {
          name,
          phone: '+1 555 555 01' + String(n).padStart(2, '0'),
          'addr:housenumber': String(n),
          ...tags,
        },
      },
      at,
    );
  await t.db.kysely
    .insertInto('places')
    .values([
      place(1, 'Valley Comfort Heating & Air', { craft: 'hvac', website: `${o}/sites/google-ads/` }),
      place(2, 'Bright Smiles Dental', { amenity: 'dentist', website: `${o}/sites/meta-pixel/` }),
      place(3, 'Rapid Rooter Plumbing', { craft: 'plumber', website: `${o}/sites/callrail/` }),
      place(4, 'Evergreen Dental Group', { amenity: 'dentist', website: `${o}/sites/jsonld/` }),
      place(5, 'Serenity Massage Studio', { shop: 'massage', website: `${o}/sites/booking/` }),
      place(6, 'Summit Roofing', { craft: 'roofer', website: `${o}/fail` }),
      place(7, 'Bestway Plumbing', { craft: 'plumber', website: `${o}/sites/parked/` }),
      place(8, 'Loop Dental', { amenity: 'dentist', website: `${o}/loop` }),
      place(9, 'Huge Page Dental', { amenity: 'dentist', website: `${o}/endless` }),
      place(10, 'Private Robots Dental', {
        amenity: 'dentist',
        website: `http://blocked.test:${sites.port}/sites/google-ads/`,
      }),
      place(11, 'Offline Dental', { amenity: 'dentist', website: 'https://offline-dental.example/' }),
      place(12, 'No Site Dental', { amenity: 'dentist' }),
      // Twins but for what their websites carry: Google Ads and a Meta Pixel, or nothing.
      place(13, 'Harbor Injury Law', { office: 'lawyer', website: `${o}/sites/google-meta/` }),
      place(14, 'Bay Injury Law', { office: 'lawyer', website: `${o}/sites/plain/` }),
    ])
    .execute();
  rep = await t.newUser('user');
});
afterAll(async () => {
  await t?.close();
  await sites?.close();
});

describe('website evidence after a scan', () => {
  let first: Page;
  let after: Page;

  it('the scan answers at once, every prospect with signals: []', async () => {
    const stream = await openStream(baseUrl, rep);
    try {
      const res = await t.request({
        method: 'POST',
        url: '/api/scans',
        payload: { ...CENTRE, radiusMiles: 1, count: 50 },
        as: rep,
      });
      expect(res.statusCode).toBe(200);
      first = res.json<Page>();
      expect(first.total).toBe(14);
      for (const p of first.prospects) expect(p.signals).toEqual([]);
      // The checks follow: the rep's screen is told when its results changed.
      const notice = await stream.next((e) => e.event === 'prospects' && e.data.action === 'website', 20_000);
      expect(notice.data.userId).toBe(rep.id);
    } finally {
      await stream.close();
    }
    await checksDone();
    const res = await t.request({ method: 'GET', url: '/api/scans/latest?limit=50', as: rep });
    after = res.json<Page>();
  });

  it('the right signals on each business, with the page and the time seen', () => {
    const kinds = (name: string) => byName(after, name).signals!.map((s) => s.kind);
    const valley = byName(after, 'Valley Comfort Heating & Air').signals!.find(
      (s) => s.kind === 'google_ads',
    );
    expect(valley).toMatchObject({ label: 'Runs Google Ads', url: `${sites.origin}/sites/google-ads/` });
    expect(Date.parse(valley!.seenAt)).toBeGreaterThan(0);
    expect(kinds('Bright Smiles Dental')).toContain('meta_pixel');
    expect(kinds('Rapid Rooter Plumbing')).toContain('call_tracking');
    expect(kinds('Evergreen Dental Group')).toEqual(
      expect.arrayContaining(['site_rating', 'several_locations', 'social_profiles']),
    );
    expect(kinds('Serenity Massage Studio')).toContain('online_booking');
    expect(byName(after, 'Summit Roofing').signals!.map((s) => s.label)).toEqual(['Website unreachable']);
    expect(kinds('Bestway Plumbing')).toContain('parked');
    // Could not check: no signal (endless redirects, a body past the cap, robots.txt, no network).
    for (const name of [
      'Loop Dental',
      'Huge Page Dental',
      'Private Robots Dental',
      'Offline Dental',
      'No Site Dental',
    ])
      expect(byName(after, name).signals, name).toEqual([]);
    // robots.txt said no: only robots.txt was asked of that host.
    expect(sites.requests.filter((r) => r.host.startsWith('blocked.test')).map((r) => r.path)).toEqual([
      '/robots.txt',
    ]);
    // One request at a time to the fixture host.
    expect(sites.maxInFlight.get(`127.0.0.1:${sites.port}`)).toBe(1);
  });

  it('scores scored again, the reasoning naming the evidence, the list in score order', () => {
    const before = (name: string) => byName(first, name).aiAnalysis!.score;
    const now = (name: string) => byName(after, name).aiAnalysis!;
    expect(now('Valley Comfort Heating & Air').score).toBeGreaterThan(before('Valley Comfort Heating & Air'));
    expect(now('Valley Comfort Heating & Air').reasoning).toContain(
      'Already advertising: its website carries Google Ads tags.',
    );
    expect(now('Bright Smiles Dental').reasoning).toContain('Meta (Facebook/Instagram) ads');
    expect(now('Evergreen Dental Group').reasoning).toContain('4.8 stars on its website');
    expect(now('Summit Roofing').score).toBeLessThan(before('Summit Roofing'));
    expect(now('Summit Roofing').reasoning).toContain('did not answer');
    expect(now('No Site Dental').score).toBe(before('No Site Dental'));
    const scores = after.prospects.map((p) => p.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    for (const p of after.prospects) expect(p.score).toBe(p.aiAnalysis!.score / 100);
  });

  it('a business already buying ads gains at least 8 points over its twin, and its stored rank rises', async () => {
    const harbor = byName(after, 'Harbor Injury Law');
    const bay = byName(after, 'Bay Injury Law');
    expect(byName(first, 'Harbor Injury Law').aiAnalysis!.score).toBe(byName(first, 'Bay Injury Law').aiAnalysis!.score);
    expect(harbor.signals!.map((s) => s.kind)).toEqual(expect.arrayContaining(['google_ads', 'meta_pixel']));
    expect(bay.signals!.filter((s) => s.kind === 'google_ads' || s.kind === 'meta_pixel')).toEqual([]);
    expect(harbor.aiAnalysis!.score - bay.aiAnalysis!.score).toBeGreaterThanOrEqual(8);
    // The place's stored rank (what a scan ranks its circle by) rose with the evidence.
    const ranks = await t.db.kysely
      .selectFrom('places')
      .select(['id', 'rank_score'])
      .where('id', 'in', ['osm:node/13', 'osm:node/14'])
      .orderBy('id')
      .execute();
    expect(ranks[0]!.rank_score!).toBeGreaterThan(ranks[1]!.rank_score!);
    // A new scan sees it too.
    const again = await t.request({
      method: 'POST',
      url: '/api/scans',
      payload: { ...CENTRE, radiusMiles: 1, count: 50 },
      as: rep,
    });
    const page = again.json<Page>();
    expect(byName(page, 'Harbor Injury Law').aiAnalysis!.score - byName(page, 'Bay Injury Law').aiAnalysis!.score)
      .toBeGreaterThanOrEqual(8);
  }); // prettier-ignore

  it('the queue records done and failed checks; failures say why', async () => {
    const jobs = await t.db.kysely.selectFrom('jobs').selectAll().where('kind', '=', 'website').execute();
    expect(jobs).toHaveLength(13); // every business with a website, once
    const results = jobs.map(
      (j) =>
        JSON.parse(j.result ?? 'null') as {
          status: string;
          reason: string | null;
          name: string;
          shown: number;
        },
    );
    // A check that could not be made changes no list (it scores as no evidence) and rewrites none; a check made
    // puts its evidence into the rep's list.
    for (const r of results) expect(r.shown, r.name).toBe(r.status === 'failed' ? 0 : 1);
    const offline = results.find((r) => r.name === 'Offline Dental');
    expect(offline).toMatchObject({ status: 'failed' });
    expect(offline!.reason).toMatch(/could not resolve/);
    expect(results.find((r) => r.name === 'Loop Dental')?.reason).toBe('more than 5 redirects');
    expect(results.find((r) => r.name === 'Private Robots Dental')?.reason).toBe(
      'robots.txt disallows checking this site',
    );
  });

  it('a second scan carries the fresh evidence in its answer and checks nothing again', async () => {
    const requests = sites.requests.length;
    const res = await t.request({
      method: 'POST',
      url: '/api/scans',
      payload: { ...CENTRE, radiusMiles: 1, count: 50 },
      as: rep,
    });
    const page = res.json<Page>();
    expect(byName(page, 'Valley Comfort Heating & Air').signals!.map((s) => s.kind)).toContain('google_ads');
    expect(byName(page, 'Valley Comfort Heating & Air').aiAnalysis!.score).toBe(
      byName(after, 'Valley Comfort Heating & Air').aiAnalysis!.score,
    );
    await checksDone();
    // Only the checks that could not be made earlier are fresh for an hour too: nothing is fetched again.
    expect(sites.requests.length).toBe(requests);
    const pending = await t.db.kysely.selectFrom('jobs').select('id').where('kind', '=', 'website').execute();
    expect(pending).toHaveLength(13);
  });
});

describe('the Admin Panel: the queue and a re-check', () => {
  it('counts waiting, done and failed checks, lists the latest with their reasons', async () => {
    const admin = await t.newUser('admin');
    const res = await t.request({ method: 'GET', url: '/api/admin/website-checks', as: admin });
    expect(res.statusCode).toBe(200);
    const q = res.json<{
      enabled: boolean;
      waiting: number;
      done: number;
      failed: number;
      recent: { businessKey: string; name: string; state: string; reason: string | null }[];
    }>();
    // Done: read or found dead (9); failed: could not check (loop, huge page, robots.txt, no network).
    expect(q).toMatchObject({ enabled: true, waiting: 0, done: 9, failed: 4 });
    expect(q.recent.find((r) => r.name === 'Offline Dental')).toMatchObject({ state: 'failed' });
    expect(q.recent.find((r) => r.name === 'Summit Roofing')).toMatchObject({
      state: 'done',
      reason: 'answered HTTP 500',
    });
  });

  it('checks one business again on request', async () => {
    const admin = await t.newUser('admin');
    const before = sites.requests.filter((r) => r.path === '/sites/google-ads/').length;
    const res = await t.request({
      method: 'POST',
      url: '/api/admin/website-checks',
      payload: { businessKey: 'place_osm:node/1' },
      as: admin,
    });
    expect(res.statusCode).toBe(202);
    await checksDone();
    expect(sites.requests.filter((r) => r.path === '/sites/google-ads/').length).toBe(before + 1);
    const unknown = await t.request({
      method: 'POST',
      url: '/api/admin/website-checks',
      payload: { businessKey: 'place_osm:node/404' },
      as: admin,
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<{ error: string }>().error).toMatch(/not been checked yet/);
  });
});

describe('WEBSITE_CHECKS=off', () => {
  it('schedules nothing and the answer still carries signals: []', async () => {
    const off = await createTestContext({ SCAN_COOLDOWN_MS: '0' });
    try {
      await off.db.kysely
        .insertInto('places')
        .values(
          placeRow(
            {
              id: 'osm:node/1',
              lat: CENTRE.lat,
              lng: CENTRE.lng,
              tags: { name: 'Site Dental', amenity: 'dentist', website: 'https://site-dental.example/' },
            },
            new Date().toISOString(),
          ),
        )
        .execute();
      const user = await off.newUser('user');
      const res = await off.request({
        method: 'POST',
        url: '/api/scans',
        payload: { ...CENTRE, radiusMiles: 1, count: 10 },
        as: user,
      });
      expect(res.json<Page>().prospects.map((p) => p.signals)).toEqual([[]]);
      const latest = await off.request({ method: 'GET', url: '/api/scans/latest', as: user });
      expect(latest.json<Page>().prospects.map((p) => p.signals)).toEqual([[]]);
      const jobs = await off.db.kysely
        .selectFrom('jobs')
        .select('id')
        .where('kind', '=', 'website')
        .execute();
      expect(jobs).toEqual([]);
      const admin = await off.newUser('admin');
      const recheck = await off.request({
        method: 'POST',
        url: '/api/admin/website-checks',
        payload: { businessKey: 'place_osm:node/1' },
        as: admin,
      });
      expect(recheck.statusCode).toBe(409);
    } finally {
      await off.close();
    }
  });
});
