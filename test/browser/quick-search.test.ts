// Quick search on the phone. The business found is brought into view (the list is far below
// the controls at 375x812), and a business lookup keeps the scan the rep was working: the found business goes on
// top of the list, and after a reload the scan's results are still there below it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { placeRow } from '../../src/server/places/local-store.js';
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

const SHOPS: [string, Record<string, string>][] = [
  ['Union Dental', { amenity: 'dentist' }],
  ['Square Plumbing', { craft: 'plumber' }],
  ['Powell Street Law', { office: 'lawyer' }],
  ['Geary Auto Repair', { shop: 'car_repair' }],
  ['Stockton Furniture', { shop: 'furniture' }],
  ['Post Street Spa', { leisure: 'spa', shop: 'beauty' }],
];

let server: TestServer;
let owner: ApiSession;
beforeAll(async () => {
  server = await startServer();
  owner = await firstAccount(server, {
    name: 'Olive Owner',
    email: 'owner@example.com',
    password: 'owner-pass-1',
  });
  const at = new Date().toISOString();
  await server.db.kysely
    .insertInto('places')
    .values(
      SHOPS.map(([name, tags], i) =>
        placeRow(
          {
            id: `osm:node/${i + 1}`,
            lat: 37.788 + (i - 3) * 0.0008,
            lng: -122.4075,
            tags: { name, ...tags },
          },
          at,
        ),
      ),
    )
    .execute();
});
afterAll(async () => {
  await server?.close();
});

const names = (page: Page) => page.getByTestId('prospect-name').allTextContents();

/** The first card's box against the viewport: its top edge must be on screen. */
const firstCardTop = (page: Page) =>
  page
    .getByTestId('prospect-card')
    .first()
    .evaluate((el) => ({ top: el.getBoundingClientRect().top, height: window.innerHeight }));

describe('quick search on the phone', () => {
  it('brings the business found into view and keeps the scan below it, also after a reload', async () => {
    const b = await openBrowser(server.baseUrl, { width: 375, height: 812 });
    try {
      const page = b.page;
      await registerViaApi(
        server,
        b,
        { name: 'Quinn Quick', email: 'quinn@example.com', password: 'quinn-pass-1' },
        { inviter: owner },
      );
      await page.goto(server.baseUrl);
      await page.getByLabel('Address').fill('94108');
      await page.getByRole('button', { name: 'Set Address' }).click();
      await page.getByTestId('location-label').getByText('San Francisco, CA 94108').waitFor();
      await page.getByTestId('scan-button').click();
      await expect.poll(() => page.getByTestId('prospect-card').count(), POLL).toBe(SHOPS.length);
      const scanned = await names(page);
      expect(scanned).toContain('Square Plumbing');

      // The quick-search box is near the top of the page; the list is far below it.
      await page.getByLabel('Name', { exact: true }).fill('Square Plumbing');
      await page.getByRole('button', { name: 'Find', exact: true }).click();
      await expect.poll(async () => (await names(page))[0], POLL).toBe('Square Plumbing');
      await expect
        .poll(async () => {
          const { top, height } = await firstCardTop(page);
          return top >= 0 && top < height / 2;
        }, POLL)
        .toBe(true);
      await keepScreenshot(page, 'quick-search-found-phone');

      // The scan's other results stay below the business found, and come back after a reload.
      const expected = ['Square Plumbing', ...scanned.filter((n) => n !== 'Square Plumbing')];
      expect(await names(page)).toEqual(expected);
      await page.reload();
      await expect.poll(() => names(page), POLL).toEqual(expected);
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  }, 90_000);

  it('on a desk too, the business found is in view', async () => {
    const b = await openBrowser(server.baseUrl, { width: 1440, height: 900 });
    try {
      const page = b.page;
      await registerViaApi(
        server,
        b,
        { name: 'Dora Desk', email: 'dora@example.com', password: 'dora-pass-12' },
        { inviter: owner },
      );
      await page.goto(server.baseUrl);
      await page.getByLabel('Address').fill('94108');
      await page.getByRole('button', { name: 'Set Address' }).click();
      await page.getByTestId('location-label').getByText('San Francisco, CA 94108').waitFor();
      await page.getByLabel('Name', { exact: true }).fill('Union Dental');
      await page.getByRole('button', { name: 'Find', exact: true }).click();
      await expect.poll(async () => (await names(page))[0], POLL).toBe('Union Dental');
      await expect
        .poll(async () => {
          const { top, height } = await firstCardTop(page);
          return top >= 0 && top < height - 100;
        }, POLL)
        .toBe(true);
      await keepScreenshot(page, 'quick-search-found-1440');
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  }, 90_000);
});
