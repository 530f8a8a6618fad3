// An empty scan does not look like no scan. Businesses are imported around Union Square only
// (so the demo data is off): a scan at the default location (Birmingham) says that no data covers the area and
// what to do; a scan at Union Square for a category nobody there has says
// 'No businesses found in this area. Try a larger radius or more categories.', also after a reload.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeRow } from '../../src/server/places/local-store.js';
import { NO_BUSINESSES_FOUND, NO_LOCAL_DATA, NO_PROSPECTS_YET } from '../../src/web/texts.js';
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
    .values([
      placeRow(
        { id: 'osm:node/1', lat: 37.789, lng: -122.4075, tags: { name: 'Union Dental', amenity: 'dentist' } },
        at,
      ),
      placeRow(
        {
          id: 'osm:node/2',
          lat: 37.787,
          lng: -122.4075,
          tags: { name: 'Square Plumbing', craft: 'plumber' },
        },
        at,
      ),
    ])
    .execute();
});
afterAll(async () => {
  await server?.close();
});

const SIZES = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 375, height: 812 },
] as const;

describe('an empty scan', () => {
  for (const size of SIZES) {
    it(`at ${size.width}x${size.height}: says why nothing was found`, async () => {
      const b = await openBrowser(server.baseUrl, { width: size.width, height: size.height });
      try {
        const page = b.page;
        await registerViaApi(
          server,
          b,
          { name: `Ed Empty ${size.name}`, email: `ed-${size.name}@example.com`, password: 'ed-pass-1234' },
          { inviter: owner },
        );
        await page.goto(server.baseUrl);
        const empty = page.getByTestId('empty-list');
        await expect.poll(() => empty.textContent(), POLL).toBe(NO_PROSPECTS_YET);

        // Birmingham (the default location): no imported data there, while San Francisco has some.
        await page.getByTestId('scan-button').click();
        await expect.poll(() => empty.textContent(), POLL).toBe(NO_LOCAL_DATA);
        await empty.scrollIntoViewIfNeeded();
        await keepScreenshot(page, `empty-scan-no-data-${size.name}`);

        // Union Square, furniture only: the area is covered, nothing of that kind is there.
        await page.getByLabel('Address').fill('94108');
        await page.getByRole('button', { name: 'Set Address' }).click();
        await page.getByTestId('location-label').getByText('San Francisco, CA 94108').waitFor();
        await page.getByLabel('Select all').uncheck();
        await page.getByLabel('Furniture').check();
        await page.getByTestId('scan-button').click();
        await expect.poll(() => empty.textContent(), POLL).toBe(NO_BUSINESSES_FOUND);
        await empty.scrollIntoViewIfNeeded();
        await keepScreenshot(page, `empty-scan-nothing-${size.name}`);

        // The empty scan is the latest search: a reload says the same, not 'No prospects yet'.
        await page.waitForTimeout(1000); // the search settings are saved a moment after the last change
        await page.reload();
        await expect.poll(() => empty.textContent(), POLL).toBe(NO_BUSINESSES_FOUND);

        // And all categories find the two businesses.
        await page.getByLabel('Select all').check();
        await page.getByTestId('scan-button').click();
        await expect.poll(() => page.getByTestId('prospect-card').count(), POLL).toBe(2);
        expect(await empty.count()).toBe(0);
        expect(b.pageErrors).toEqual([]);
      } finally {
        await b.close();
      }
    }, 90_000);
  }
});
