// Issue 14, the details of working the list: Save for Later keeps the rep's note and the Saved card shows it
// (item 5); with 100 loaded of more found, the list says that at most 100 can be loaded and how to narrow the
// scan (item 6). 130 businesses are imported around Union Square.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { placeRow } from '../../src/server/places/local-store.js';
import { loadLimitNote } from '../../src/web/texts.js';
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

const KINDS: Record<string, string>[] = [
  { amenity: 'dentist' },
  { craft: 'plumber' },
  { office: 'lawyer' },
  { shop: 'car_repair' },
  { shop: 'furniture' },
];
const PLACES = 130;

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
  const rows = Array.from({ length: PLACES }, (_, i) =>
    placeRow(
      {
        id: `osm:node/${1000 + i}`,
        lat: 37.783 + Math.floor(i / 13) * 0.001,
        lng: -122.413 + (i % 13) * 0.001,
        tags: { name: `Test Business ${i + 1}`, ...KINDS[i % KINDS.length] },
      },
      at,
    ),
  );
  await server.db.kysely.insertInto('places').values(rows).execute();
});
afterAll(async () => {
  await server?.close();
});

const tab = (page: Page, name: string) => page.getByRole('tab', { name: new RegExp(`^${name}`) });

async function scanUnionSquare(page: Page) {
  await page.getByLabel('Address').fill('94108');
  await page.getByRole('button', { name: 'Set Address' }).click();
  await page.getByTestId('location-label').getByText('San Francisco, CA 94108').waitFor();
  await page.getByTestId('scan-button').click();
  await expect.poll(() => page.getByTestId('prospect-card').count(), POLL).toBe(20);
}

describe('working the list', () => {
  it('Save for Later keeps the note typed with it and the Saved card shows it', async () => {
    const b = await openBrowser(server.baseUrl, { width: 375, height: 812 });
    try {
      const page = b.page;
      await registerViaApi(
        server,
        b,
        { name: 'Nora Note', email: 'nora@example.com', password: 'nora-pass-1' },
        { inviter: owner },
      );
      await page.goto(server.baseUrl);
      await scanUnionSquare(page);
      const first = page.getByTestId('prospect-card').first();
      const name = await first.getByTestId('prospect-name').textContent();
      await first.getByLabel('Status').selectOption('Save for Later');
      await first.getByLabel('Note').fill('Owner is back Tuesday, ask for Pat');
      await first.getByRole('button', { name: 'Log' }).click();
      await page.getByTestId('notice').getByText('Saved for later.').waitFor();

      await tab(page, 'Saved').click();
      const saved = page.getByTestId('prospect-card').first();
      expect(await saved.getByTestId('prospect-name').textContent()).toBe(name);
      expect(await saved.getByTestId('saved-note').textContent()).toBe(
        'Note: Owner is back Tuesday, ask for Pat',
      );
      await saved.scrollIntoViewIfNeeded();
      await keepScreenshot(page, 'saved-note-375');
      await page.reload();
      await tab(page, 'Saved').click();
      await expect
        .poll(() => page.getByTestId('saved-note').first().textContent(), POLL)
        .toBe('Note: Owner is back Tuesday, ask for Pat');
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  }, 90_000);

  it('at 100 loaded of more found, says that at most 100 load and how to narrow the scan', async () => {
    const b = await openBrowser(server.baseUrl);
    try {
      const page = b.page;
      await registerViaApi(
        server,
        b,
        { name: 'Hank Hundred', email: 'hank@example.com', password: 'hank-pass-1' },
        { inviter: owner },
      );
      await page.goto(server.baseUrl);
      await scanUnionSquare(page);
      const showing = page.getByTestId('showing');
      expect(await showing.textContent()).toBe(`Showing 20 of ${PLACES}`);
      for (let loaded = 40; loaded <= 100; loaded += 20) {
        await page.getByRole('button', { name: /^Load Next 20 Prospects/ }).click();
        await expect.poll(() => page.getByTestId('prospect-card').count(), POLL).toBe(loaded);
      }
      expect(await page.getByRole('button', { name: /^Load Next/ }).count()).toBe(0);
      await expect.poll(() => showing.textContent(), POLL).toBe(loadLimitNote(100, PLACES, 100));
      await showing.scrollIntoViewIfNeeded();
      await keepScreenshot(page, 'load-limit-1440');
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  }, 90_000);
});
