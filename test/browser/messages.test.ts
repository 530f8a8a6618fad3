// The exact messages on every path that leads to one (docs/PRODUCT.md, "Messages"), in the browser. The demo
// place provider answers scans; failures the real server does not produce on demand are stubbed with
// page.route.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Prospect } from '../../src/core/types.js';
import {
  firstAccount,
  openBrowser,
  registerViaApi,
  startServer,
  type ApiSession,
  type TestBrowser,
  type TestServer,
  POLL,
} from './harness.js';

let server: TestServer;
let owner: ApiSession;
beforeAll(async () => {
  server = await startServer();
  owner = await firstAccount(server, {
    name: 'Olive Owner',
    email: 'owner@example.com',
    password: 'owner-pass-1',
  });
});
afterAll(async () => {
  await server?.close();
});

/** Waits for a notice with exactly this text, then dismisses every notice so the next one stands alone. */
async function expectNotice(page: Page, text: string) {
  await page.getByTestId('notice').getByText(text, { exact: true }).waitFor();
  for (const close of await page.getByRole('button', { name: 'Dismiss message' }).all()) {
    await close.click().catch(() => undefined);
  }
  await expect.poll(() => page.getByTestId('notice').count(), POLL).toBe(0);
}

let people = 0;
async function signedIn(viewport?: { width: number; height: number }): Promise<TestBrowser> {
  const b = await openBrowser(server.baseUrl, viewport);
  people++;
  await registerViaApi(
    server,
    b,
    { name: `Rep ${people}`, email: `rep${people}@example.com`, password: `rep-pass-${people}23` },
    { inviter: owner },
  );
  return b;
}

const GPS_SCRIPT = () => {
  // What navigator.geolocation is on this visit: 'none' (no GPS at all), 'spy' (records the options and
  // answers with a San Francisco position), or the browser's own.
  const mode = sessionStorage.getItem('gps-mode');
  if (mode === 'none') {
    delete (Navigator.prototype as { geolocation?: unknown }).geolocation;
  } else if (mode === 'spy') {
    const w = window as unknown as { __gpsOptions: unknown[] };
    w.__gpsOptions = [];
    Object.defineProperty(navigator, 'geolocation', {
      configurable: true,
      value: {
        getCurrentPosition(ok: PositionCallback, _fail: PositionErrorCallback, options: PositionOptions) {
          w.__gpsOptions.push(options);
          setTimeout(
            () => ok({ coords: { latitude: 37.7879, longitude: -122.4066 } } as GeolocationPosition),
            0,
          );
        },
        watchPosition: () => 0,
        clearWatch: () => undefined,
      },
    });
  }
};

describe('messages', () => {
  it('location: address not found, another refusal in its own words, GPS missing, GPS options', async () => {
    const b = await signedIn();
    try {
      const page = b.page;
      await b.context.addInitScript(GPS_SCRIPT);
      await page.goto(server.baseUrl);

      await page.getByLabel('Address').fill('Zzyzx Nowhere Boulevard 99999x');
      await page.getByRole('button', { name: 'Set Address' }).click();
      await expectNotice(page, 'Address not found. Please check the address and try again.');

      // A refusal other than "not found" is shown in the server's words.
      await b.context.route('**/api/geocode?*', (route) =>
        route.fulfill({ status: 429, json: { error: 'Too many lookups. Please wait a minute.' } }),
      );
      await page.getByRole('button', { name: 'Set Address' }).click();
      await expectNotice(page, 'Too many lookups. Please wait a minute.');
      expect(await page.getByText('Address not found', { exact: false }).count()).toBe(0);
      await b.context.unroute('**/api/geocode?*');

      // No GPS on this device.
      await page.evaluate(() => sessionStorage.setItem('gps-mode', 'none'));
      await page.reload();
      await page.getByRole('button', { name: 'Use GPS' }).click();
      await expectNotice(page, 'GPS is not available on this device');

      // GPS asked with its limits: 10 s timeout, 60 s maximum age.
      await page.evaluate(() => sessionStorage.setItem('gps-mode', 'spy'));
      await page.reload();
      await page.getByRole('button', { name: 'Use GPS' }).click();
      await page.getByTestId('location-label').getByText('San Francisco, CA').waitFor();
      const options = await page.evaluate(
        () => (window as unknown as { __gpsOptions: unknown[] }).__gpsOptions,
      );
      expect(options).toEqual([{ enableHighAccuracy: true, timeout: 10000, maximumAge: 60000 }]);
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  });

  it('search and scan: nothing found, failures, and only "too generic" asks for a category', async () => {
    const b = await signedIn();
    try {
      const page = b.page;
      // A rep never downloads the admin screens or (without a Strategy click) the strategy modal.
      const adminCode: string[] = [];
      page.on('request', (r) => {
        if (/\/assets\/(AdminPanel|AdvertisersTab|AllProspectsTab|BlockedTab|StrategyModal)-/.test(r.url()))
          adminCode.push(r.url());
      });
      await page.goto(server.baseUrl);
      const find = async (mode: 'business' | 'category', text: string) => {
        await page.getByLabel('Search by').selectOption(mode);
        await page.getByLabel(mode === 'business' ? 'Name' : 'Category', { exact: true }).fill(text);
        await page.getByRole('button', { name: 'Find', exact: true }).click();
      };

      await find('business', 'Qwxyzzy Holdings');
      await expectNotice(page, 'No matching business found within your radius. Try a more specific name.');
      await find('category', 'qwxyzzy');
      await expectNotice(page, 'No results found for that category within your radius.');

      await b.context.route('**/api/quick-search', (route) =>
        route.fulfill({ status: 500, json: { error: 'database exploded' } }),
      );
      await find('business', 'Dental');
      await expectNotice(page, 'Quick search failed. Check console for details.');
      // A 400 that is not the "too generic" refusal is shown as it is; no category prompt.
      await b.context.unroute('**/api/quick-search');
      await b.context.route('**/api/quick-search', (route) =>
        route.fulfill({ status: 400, json: { error: 'Please enter a business name or category.' } }),
      );
      await find('category', 'dentist');
      await expectNotice(page, 'Please enter a business name or category.');
      expect(await page.getByRole('dialog').count()).toBe(0);
      await b.context.unroute('**/api/quick-search');

      await b.context.route('**/api/scans', (route) =>
        route.fulfill({ status: 500, json: { error: 'boom' } }),
      );
      await page.getByTestId('scan-button').click();
      await expectNotice(page, 'Error scanning for businesses. Check console for details.');
      await b.context.unroute('**/api/scans');

      // A scan, then the next page fails.
      await page.getByTestId('scan-button').click();
      await expect.poll(() => page.getByTestId('prospect-card').count(), POLL).toBe(20);
      await b.context.route('**/api/scans/latest?*', (route) =>
        route.fulfill({ status: 500, json: { error: 'boom' } }),
      );
      await page.getByRole('button', { name: /^Load Next \d+ Prospects$/ }).click();
      await expectNotice(page, 'Error loading more prospects. Please try again.');
      expect(await page.getByTestId('prospect-card').count()).toBe(20);
      expect(adminCode).toEqual([]);
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  });

  it('working the list: saved, already saved, the 30 limit, nothing to clear, an export the server refuses', async () => {
    const b = await signedIn();
    try {
      const page = b.page;
      const scanned = await page.request.post(`${server.baseUrl}/api/scans`, {
        data: { lat: 33.5186, lng: -86.8104, radiusMiles: 1, count: 50 },
      });
      const all = ((await scanned.json()) as { prospects: Prospect[] }).prospects;
      expect(all.length).toBeGreaterThanOrEqual(32);
      await page.goto(server.baseUrl);
      await expect.poll(() => page.getByTestId('prospect-card').count(), POLL).toBe(20);
      const cards = page.getByTestId('prospect-card');
      const saveFromCard = async (i: number) => {
        await cards.nth(i).getByLabel('Status').selectOption('Save for Later');
        await cards.nth(i).getByRole('button', { name: 'Log', exact: true }).click();
      };

      await saveFromCard(0);
      await expectNotice(page, 'Saved for later.');
      await saveFromCard(0);
      await expectNotice(page, 'This prospect is already in your saved prospects.');
      expect(await page.getByRole('tab', { name: /^Saved/ }).textContent()).toContain('1');

      // 29 more through the API make 30: the next one is refused with the exact message.
      const shown = new Set(await page.getByTestId('prospect-name').allTextContents());
      const others = all.filter((p) => !shown.has(p.name)).slice(0, 29);
      expect(others).toHaveLength(29);
      for (const p of others) {
        const res = await page.request.post(`${server.baseUrl}/api/saved`, { data: { prospect: p } });
        expect(res.status()).toBe(201);
      }
      await saveFromCard(1);
      await expectNotice(page, 'You can only save up to 30 prospects');

      await page.getByRole('tab', { name: /^Log/ }).click();
      await page.getByRole('button', { name: 'Clear All' }).click();
      await expectNotice(page, 'No call history to clear');

      // A call is logged, then the history is cleared elsewhere: the export shows the server's refusal
      // instead of downloading it as the file.
      await page.getByRole('tab', { name: /^Prospects/ }).click();
      await cards.nth(2).getByLabel('Status').selectOption('Called');
      await cards.nth(2).getByRole('button', { name: 'Log', exact: true }).click();
      await expect.poll(() => page.getByRole('tab', { name: /^Log/ }).textContent(), POLL).toContain('1');
      expect((await page.request.delete(`${server.baseUrl}/api/call-logs`)).ok()).toBe(true);
      await page.getByRole('tab', { name: /^Log/ }).click();
      const downloads: string[] = [];
      page.on('download', (d) => downloads.push(d.suggestedFilename()));
      await page.getByRole('button', { name: 'Export to CSV' }).click();
      await expectNotice(page, 'No call history to export');
      expect(downloads).toEqual([]);
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  });
});
