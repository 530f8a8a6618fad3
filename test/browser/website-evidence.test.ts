// Website evidence on the screen: a rep's results whose businesses point at local fixture sites get their
// website chips live (no reload) as the checks finish, with when they were seen; the "Runs online ads"
// filter keeps the advertisers; screenshots at 1440x900 and 375x812.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { placeRow } from '../../src/server/places/local-store.js';
import { addHostileRoutes, startSiteServer, type SiteServer } from '../helpers/websites.js';
import {
  keepScreenshot,
  openBrowser,
  POLL,
  registerViaApi,
  startServer,
  type TestServer,
} from './harness.js';

const CENTRE = { lat: 40.0, lng: -75.0 };
let server: TestServer;
let sites: SiteServer;

beforeAll(async () => {
  sites = await startSiteServer();
  addHostileRoutes(sites);
  // Each answer a moment late, so the checks are still running when the screen opens.
  sites.delayMs = 150;
  server = await startServer({
    WEBSITE_CHECKS: 'on',
    WEBSITE_CHECKS_ALLOW_LOOPBACK: 'true',
    WEBSITE_CHECK_HOST_PAUSE_MS: '0',
  });
  const o = sites.origin;
  const at = new Date().toISOString();
  const place = (n: number, name: string, tags: Record<string, string>) =>
    placeRow(
      {
        id: `osm:node/${n}`,
        lat: CENTRE.lat + n * 0.0005,
        lng: CENTRE.lng,
        tags: {
          name,
          phone: `+1 555 555 01${String(n).padStart(2, '0')}`,
          'addr:housenumber': String(10 * n),
          'addr:street': 'Main Street',
          ...tags,
        },
      },
      at,
    );
  await server.db.kysely
    .insertInto('places')
    .values([
      place(1, 'Valley Comfort Heating & Air', { craft: 'hvac', website: `${o}/sites/google-ads/` }),
      place(2, 'Bright Smiles Dental', { amenity: 'dentist', website: `${o}/sites/meta-pixel/` }),
      place(3, 'Rapid Rooter Plumbing', { craft: 'plumber', website: `${o}/sites/callrail/` }),
      place(4, 'Serenity Massage Studio', { shop: 'massage', website: `${o}/sites/booking/` }),
      place(5, "Joe's Auto Body Dental", { amenity: 'dentist', website: `${o}/sites/old-site/` }),
      place(6, 'Summit Roofing', { craft: 'roofer', website: `${o}/fail` }),
      place(7, 'No Site Dental', { amenity: 'dentist' }),
    ])
    .execute();
});
afterAll(async () => {
  await server?.close();
  await sites?.close();
});

const card = (page: Page, name: string) =>
  page
    .getByTestId('prospect-card')
    .filter({ has: page.getByTestId('prospect-name').getByText(name, { exact: true }) });
const chips = (page: Page, name: string) =>
  card(page, name).getByTestId('signal-chips').getByRole('listitem').allTextContents();

describe('website evidence on the cards', () => {
  it('chips arrive live with when they were seen; the filter keeps the advertisers', async () => {
    const b = await openBrowser(server.baseUrl);
    try {
      await registerViaApi(server, b, {
        name: 'Ann Seller',
        email: 'ann@example.com',
        password: 'ann-pass-123',
      });
      const scan = await b.page.request.post(`${server.baseUrl}/api/scans`, {
        data: { ...CENTRE, radiusMiles: 1, count: 20 },
      });
      expect(scan.status()).toBe(200);
      await b.page.goto(server.baseUrl);
      await card(b.page, 'Valley Comfort Heating & Air').waitFor();

      // Without a reload: the event stream tells the screen, which reloads its results.
      await expect
        .poll(() => chips(b.page, 'Valley Comfort Heating & Air'), { timeout: 60_000, interval: 200 })
        .toContain('Runs Google Ads');
      await expect
        .poll(() => chips(b.page, 'Summit Roofing'), { timeout: 60_000, interval: 200 })
        .toEqual(['Website unreachable']);
      await expect
        .poll(() => chips(b.page, 'Bright Smiles Dental'), { timeout: 60_000 })
        .toContain('Meta Pixel');
      await expect
        .poll(() => chips(b.page, 'Rapid Rooter Plumbing'), { timeout: 60_000 })
        .toContain('Call tracking');
      await expect
        .poll(() => chips(b.page, 'Serenity Massage Studio'), { timeout: 60_000 })
        .toContain('Books online');
      await expect
        .poll(() => chips(b.page, "Joe's Auto Body Dental"), { timeout: 60_000 })
        .toContain('Site not mobile-friendly');
      expect(await card(b.page, 'No Site Dental').getByTestId('signal-chips').count()).toBe(0);
      const seen = await card(b.page, 'Valley Comfort Heating & Air')
        .getByTestId('signals-seen')
        .textContent();
      expect(seen).toMatch(/^Seen on its website \w+/);
      const reasoning = await card(b.page, 'Valley Comfort Heating & Air').textContent();
      expect(reasoning).toContain('Already advertising: its website carries Google Ads tags.');
      await keepScreenshot(b.page, 'website-evidence-1440x900');

      // The filter: only the businesses whose site carries an ad platform's tag.
      const filter = b.page.getByRole('checkbox', { name: /^Runs online ads \(2\)/ });
      await filter.check();
      await expect
        .poll(() => b.page.getByTestId('prospect-name').allTextContents(), { timeout: 10_000 })
        .toEqual(expect.arrayContaining(['Valley Comfort Heating & Air', 'Bright Smiles Dental']));
      expect(await b.page.getByTestId('prospect-name').count()).toBe(2);
      await filter.uncheck();
      await expect.poll(() => b.page.getByTestId('prospect-name').count(), { timeout: 10_000 }).toBe(7);

      // "Has a phone": the cards with a number to call; with none it is disabled instead of emptying the list.
      const phones = b.page.getByRole('checkbox', { name: /^Has a phone \(\d+\)$/ });
      const label = (await b.page.getByText(/^Has a phone \(\d+\)$/).textContent()) ?? '';
      const withPhone = Number(/\((\d+)\)/.exec(label)?.[1]);
      if (withPhone === 0) expect(await phones.isDisabled()).toBe(true);
      else {
        await phones.check();
        await expect.poll(() => b.page.getByTestId('prospect-name').count(), POLL).toBe(withPhone);
        await phones.uncheck();
        await expect.poll(() => b.page.getByTestId('prospect-name').count(), POLL).toBe(7);
      }

      // The Admin Panel: the queue, and a re-check of one business.
      await b.page.getByRole('link', { name: 'Admin Panel' }).click();
      await b.page.getByRole('link', { name: 'Website Checks', exact: true }).click();
      const section = b.page.getByRole('region', { name: 'Website Checks', exact: true });
      await section.waitFor();
      await expect.poll(() => section.getByTestId('stat-done').textContent(), POLL).toBe('Done6');
      expect(await section.getByTestId('stat-waiting').textContent()).toBe('Waiting0');
      const row = section.getByTestId('website-check').filter({ hasText: 'Summit Roofing' });
      expect(await row.textContent()).toContain('answered HTTP 500');
      const before = sites.requests.filter((r) => r.path === '/sites/google-ads/').length;
      await section.getByRole('button', { name: 'Check Valley Comfort Heating & Air again' }).click();
      await b.page.getByText('Website check queued.').waitFor();
      await expect
        .poll(() => sites.requests.filter((r) => r.path === '/sites/google-ads/').length, { timeout: 30_000 })
        .toBe(before + 1);
      await section.scrollIntoViewIfNeeded();
      await keepScreenshot(b.page, 'website-checks-admin-1440x900');
      await b.page.setViewportSize({ width: 375, height: 812 });
      await section.scrollIntoViewIfNeeded();
      await keepScreenshot(b.page, 'website-checks-admin-375x812');
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  });

  it('reads on a phone (375x812)', async () => {
    const ann = await openBrowser(server.baseUrl);
    const b = await openBrowser(server.baseUrl, { width: 375, height: 812 });
    try {
      await ann.page.request.post(`${server.baseUrl}/api/session`, {
        data: { email: 'ann@example.com', password: 'ann-pass-123' },
      });
      await registerViaApi(
        server,
        b,
        { name: 'Bo Phone', email: 'bo@example.com', password: 'bo-pass-1234' },
        { inviter: ann },
      );
      await b.page.request.post(`${server.baseUrl}/api/scans`, {
        data: { ...CENTRE, radiusMiles: 1, count: 20 },
      });
      await b.page.goto(server.baseUrl);
      const valley = card(b.page, 'Valley Comfort Heating & Air');
      await valley.waitFor();
      // The evidence is fresh: the scan's answer carried it, no check was needed.
      expect(await chips(b.page, 'Valley Comfort Heating & Air')).toContain('Runs Google Ads');
      await valley.scrollIntoViewIfNeeded();
      // Chips wrap inside the card: none sticks out of it.
      const box = (await valley.boundingBox())!;
      for (const chip of await valley.getByTestId('signal-chips').getByRole('listitem').all()) {
        const c = (await chip.boundingBox())!;
        expect(c.x).toBeGreaterThanOrEqual(box.x);
        expect(c.x + c.width).toBeLessThanOrEqual(box.x + box.width + 0.5);
      }
      await keepScreenshot(b.page, 'website-evidence-375x812');
    } finally {
      await b.close();
      await ann.close();
    }
  });
});
