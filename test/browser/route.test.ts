// Route for the day and visits that count, on a phone (375x812): eight saved prospects, "Plan route"
// from the Saved tab shows the numbered route on its map with leg and total miles and the map-app links; a
// "Visited" logged at the business is a "Verified visit" in the Log. At 1440x900: a selection of cards on the
// Prospects tab planned the same way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  firstAccount,
  keepScreenshot,
  openBrowser,
  POLL,
  registerViaApi,
  startServer,
  type ApiSession,
  type TestServer,
} from './harness.js';

const START = { lat: 33.5, lng: -86.8 };
const MILES_PER_LAT_DEGREE = (3959 * Math.PI) / 180;
/** Eight businesses 0.5 to 4 miles north of START, saved in a shuffled order. */
const ORDER = [5, 2, 8, 1, 7, 3, 6, 4];
const business = (n: number) => ({
  id: `route-test-${n}`,
  name: `Route Stop ${n}`,
  category: 'Dental',
  address: `${n} Main St`,
  city: 'Birmingham',
  state: 'AL',
  zip: '35203',
  phone: '+1 205 555 0100',
  lat: START.lat + (n * 0.5) / MILES_PER_LAT_DEGREE,
  lng: START.lng,
  openNow: true,
  reviews: 0,
  source: 'local',
  distance: 0,
  score: 0.6,
  types: ['dentist'],
});

let server: TestServer;
let owner: ApiSession;
beforeAll(async () => {
  server = await startServer({ PLACE_PROVIDERS: 'demo' });
  owner = await firstAccount(server, {
    name: 'Olive Owner',
    email: 'owner@example.com',
    password: 'owner-pass-1',
  });
});
afterAll(async () => {
  await server?.close();
});

const tab = (page: Page, name: string) => page.getByRole('tab', { name: new RegExp(`^${name}`) });

describe('route for the day', () => {
  it('plans a route of 8 saved prospects on a phone, and verifies a visit logged at the door', async () => {
    const b = await openBrowser(server.baseUrl, { width: 375, height: 812 }, { touch: true });
    try {
      const page = b.page;
      await registerViaApi(
        server,
        b,
        { name: 'Rita Route', email: 'rita@example.com', password: 'rita-pass-12' },
        { inviter: owner },
      );
      for (const n of ORDER) {
        const res = await page.request.post(`${server.baseUrl}/api/saved`, {
          data: { prospect: business(n) },
        });
        expect(res.status()).toBe(201);
      }
      // The phone is at START: the route starts there.
      await b.context.grantPermissions(['geolocation'], { origin: server.baseUrl });
      await b.context.setGeolocation({ latitude: START.lat, longitude: START.lng, accuracy: 20 });
      await page.goto(server.baseUrl);
      await tab(page, 'Saved').click();
      await page.getByRole('button', { name: 'Plan route (8)' }).click();

      const view = page.getByTestId('route-view');
      await view.waitFor();
      await expect.poll(() => view.getByTestId('route-stop').count(), POLL).toBe(8);
      expect(await view.getByTestId('route-stop-name').allTextContents()).toEqual(
        [1, 2, 3, 4, 5, 6, 7, 8].map((n) => `Route Stop ${n}`),
      );
      expect(await view.getByTestId('route-leg').allTextContents()).toEqual(Array(8).fill('0.5 mi'));
      expect(await view.getByTestId('route-total').textContent()).toBe('8 stops · 4.0 mi (straight line)');
      expect(await view.getByText('Start: Your position').count()).toBe(1);

      // The numbered route on the map: 8 numbered markers, the start, and the line joining them.
      const map = page.getByTestId('route-map');
      await expect.poll(() => map.locator('.route-marker').count(), POLL).toBe(8);
      expect(await map.locator('.route-marker').allTextContents()).toEqual([
        '1',
        '2',
        '3',
        '4',
        '5',
        '6',
        '7',
        '8',
      ]);
      expect(await map.locator('.you-marker').count()).toBe(1);
      expect(await map.locator('path.leaflet-interactive').count()).toBe(1);

      // The links: one Google Maps link with 7 waypoints, Apple Maps and Waze for each stop.
      const google = view.getByRole('link', { name: 'Google Maps' });
      const url = new URL((await google.getAttribute('href'))!);
      expect(url.origin + url.pathname).toBe('https://www.google.com/maps/dir/');
      expect(url.searchParams.get('origin')).toBe('33.500000,-86.800000');
      expect(url.searchParams.get('waypoints')!.split('|')).toHaveLength(7);
      expect(await view.getByRole('link', { name: /^Apple Maps to stop/ }).count()).toBe(8);
      expect(await view.getByRole('link', { name: /^Waze to stop/ }).count()).toBe(8);
      const waze = await view
        .getByRole('link', { name: 'Waze to stop 1, Route Stop 1' })
        .getAttribute('href');
      expect(waze).toBe(`https://waze.com/ul?ll=${business(1).lat.toFixed(6)}%2C-86.800000&navigate=yes`);
      // Every button of the dialog is a 44 px touch target.
      for (const box of await view
        .locator('[data-testid="route-google"] a, [data-testid="route-stops"] a')
        .evaluateAll((els) =>
          els
            .map((e) => ({ t: e.textContent, r: e.getBoundingClientRect(), d: getComputedStyle(e).display }))
            .map(({ t, r, d }) => ({ t, d, w: r.width, h: r.height })),
        )) {
        expect(box.h, JSON.stringify(box)).toBeGreaterThanOrEqual(44);
        expect(box.w).toBeGreaterThanOrEqual(44);
      }
      await page.waitForTimeout(300);
      await keepScreenshot(page, 'route-375');

      // Visited, logged standing at stop 1: the Log says "Verified visit".
      await page.getByRole('button', { name: 'Close route' }).click();
      await b.context.setGeolocation({ latitude: business(1).lat, longitude: business(1).lng, accuracy: 15 });
      const card = page.getByTestId('prospect-card').filter({ hasText: 'Route Stop 1' });
      await card.getByLabel('Status').selectOption('Visited');
      await card.getByRole('button', { name: 'Log' }).click();
      await tab(page, 'Log').click();
      const entry = page.getByTestId('log-entry').first();
      await entry.getByText('Route Stop 1').waitFor();
      await expect.poll(() => entry.getByTestId('verified-visit').count(), POLL).toBe(1);
      // Far from the business (2 miles off), a visit is logged but not verified.
      await b.context.setGeolocation({ latitude: START.lat, longitude: START.lng - 0.04, accuracy: 15 });
      await tab(page, 'Saved').click();
      const other = page.getByTestId('prospect-card').filter({ hasText: 'Route Stop 2' });
      await other.getByLabel('Status').selectOption('Visited');
      await other.getByRole('button', { name: 'Log' }).click();
      await tab(page, 'Log').click();
      await page.getByTestId('log-entry').first().getByText('Route Stop 2').waitFor();
      expect(await page.getByTestId('log-entry').first().getByTestId('verified-visit').count()).toBe(0);
      // The Log tab lists today's visits in the order they were logged.
      await expect.poll(() => page.getByTestId('visit').count(), POLL).toBe(2);
      const visitRows = await page.getByTestId('visit').allTextContents();
      expect(visitRows[0]).toMatch(/^1\. Route Stop 1.*Verified visit$/);
      expect(visitRows[1]).toMatch(/^2\. Route Stop 2/);
      expect(visitRows[1]).not.toMatch(/Verified visit/);
      await page.getByTestId('visits-today').scrollIntoViewIfNeeded();
      await keepScreenshot(page, 'visits-375');
      const today = new Date().toISOString().slice(0, 10);
      const visits = (await (
        await page.request.get(`${server.baseUrl}/api/visits?date=${today}&tz=UTC`)
      ).json()) as { visits: { name: string; verified: boolean }[] };
      expect(visits.visits.map((v) => [v.name, v.verified])).toEqual([
        ['Route Stop 1', true],
        ['Route Stop 2', false],
      ]);
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  }, 120_000);

  it('plans a route of cards picked on the Prospects tab, from the scan centre without GPS (1440x900)', async () => {
    const b = await openBrowser(server.baseUrl, { width: 1440, height: 900 });
    try {
      const page = b.page;
      await registerViaApi(
        server,
        b,
        { name: 'Sam Select', email: 'sam@example.com', password: 'sam-pass-123' },
        { inviter: owner },
      );
      await page.goto(server.baseUrl);
      await page.getByTestId('scan-button').click();
      await expect.poll(() => page.getByTestId('prospect-card').count(), POLL).toBeGreaterThan(5);
      await page.getByTestId('select-for-route').click();
      const picks = page.getByTestId('route-pick');
      for (const i of [0, 2, 4, 5]) await picks.nth(i).check();
      await page.getByRole('button', { name: 'Plan route (4)' }).click();
      const view = page.getByTestId('route-view');
      await view.waitFor();
      await expect.poll(() => view.getByTestId('route-stop').count(), POLL).toBe(4);
      expect(await view.getByText('Start: Scan centre').count()).toBe(1);
      await expect.poll(() => page.getByTestId('route-map').locator('.route-marker').count(), POLL).toBe(4);
      expect(await view.getByRole('link', { name: 'Google Maps' }).count()).toBe(1);
      await page.waitForTimeout(300);
      await keepScreenshot(page, 'route-1440');
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  }, 120_000);
});
