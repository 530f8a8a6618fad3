// The scan: with the San Francisco extract imported, set an address, scan, see the radar
// overlay, markers and cards in the same order, open a marker's info card, load the next page, log a call,
// save a prospect, block one, find a business by quick search, and see the latest results restored on reload.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { importOsmFile } from '../../src/server/places/osm-import.js';
import { describeWithOsm, osmExtractPath } from '../helpers/osm-data.js';
import { placeRow } from '../../src/server/places/local-store.js';
import {
  firstAccount,
  keepScreenshot,
  openBrowser,
  registerViaApi,
  startServer,
  type ApiSession,
  type TestServer,
  POLL,
} from './harness.js';

const SF_EXTRACT = osmExtractPath('sf-downtown.osm.pbf'); // every test is inside describeWithOsm
const XSS_NAME = '<img src=x onerror=alert(1)>';

let server: TestServer;
let owner: ApiSession;
beforeAll(async () => {
  server = await startServer();
  owner = await firstAccount(server, {
    name: 'Olive Owner',
    email: 'owner@example.com',
    password: 'owner-pass-1',
  });
  await importOsmFile(server.db, SF_EXTRACT);
  // A business whose name is markup, next to Union Square: it must show as text.
  const row = placeRow(
    {
      id: 'osm:node/999000000001',
      lat: 37.7895,
      lng: -122.4075,
      tags: {
        name: XSS_NAME,
        amenity: 'dentist',
        'addr:housenumber': '1',
        'addr:street': 'Test Street',
        'addr:city': 'San Francisco',
        'addr:state': 'CA',
        'addr:postcode': '94108',
        phone: '+1 415 555 0199',
        website: 'https://example.com',
      },
    },
    new Date().toISOString(),
  );
  // And a shop with nothing known about it: no phone, no website, no category.
  const plain = placeRow(
    {
      id: 'osm:node/999000000002',
      lat: 37.7901,
      lng: -122.4069,
      tags: { name: 'Plainview Goods', shop: 'yes' },
    },
    new Date().toISOString(),
  );
  await server.db.kysely.insertInto('places').values([row, plain]).execute();
});
afterAll(async () => {
  await server?.close();
});

const names = (page: Page) => page.getByTestId('prospect-name').allTextContents();
const markerTitles = (page: Page) =>
  page
    .locator('.leaflet-marker-icon.prospect-marker')
    .evaluateAll((els) => els.map((e) => e.getAttribute('title') ?? ''));

describeWithOsm(SF_EXTRACT, 'scan in the browser', () => {
  it('scans an address, shows markers and cards in one order and works the results', async () => {
    const b = await openBrowser(server.baseUrl);
    const alerts: string[] = [];
    b.page.on('dialog', (d) => {
      alerts.push(d.message());
      void d.dismiss();
    });
    try {
      const page = b.page;
      const sam = await registerViaApi(
        server,
        b,
        { name: 'Sam Seller', email: 'sam@example.com', password: 'sam-pass-123' },
        { inviter: owner },
      );
      // An admin, so the Block button is there.
      expect((await owner.call('PATCH', `/api/users/${sam.id}/role`, { role: 'admin' })).status).toBe(200);
      await page.goto(server.baseUrl);

      // Set an address (the offline gazetteer knows ZIP codes).
      await page.getByRole('button', { name: 'Set Address' }).click();
      await page.getByTestId('notice').getByText('Please enter an address').waitFor();
      await page.getByLabel('Address').fill('94108');
      await page.getByRole('button', { name: 'Set Address' }).click();
      await page.getByTestId('location-label').getByText('San Francisco, CA 94108').waitFor();

      // The scan runs on the server, its answer is held a moment so the overlay can be seen; meanwhile the
      // event stream has reported its progress.
      let scanTotal = -1;
      await b.context.route('**/api/scans', async (route) => {
        const response = await route.fetch();
        scanTotal = ((await response.json()) as { total: number }).total;
        await new Promise((r) => setTimeout(r, 2500));
        await route.fulfill({ response });
      });
      await page.getByTestId('scan-button').click();
      const overlay = page.getByTestId('scan-overlay');
      await overlay.getByText('Scanning for prospects...').waitFor();
      await overlay.getByText('Analyzing prospects with AI...').waitFor();
      await overlay.getByText('This process may take a few minutes to complete').waitFor();
      expect(await page.getByTestId('scan-button').textContent()).toBe('Scanning...');
      await page.waitForTimeout(700);
      expect(await overlay.locator('.radar-blip').count()).toBeGreaterThan(0);
      // Real progress: the number of businesses the providers found, and how many were ranked.
      const progress = overlay.getByTestId('scan-progress');
      await progress.getByText(/^Found \d+ businesses — \d+ prospects ranked$/).waitFor();
      await expect.poll(() => scanTotal, POLL).toBeGreaterThan(-1);
      const line = (await progress.textContent()) ?? '';
      const foundCount = Number(/^Found (\d+) businesses/.exec(line)?.[1]);
      expect(foundCount).toBeGreaterThanOrEqual(scanTotal);
      expect(scanTotal).toBeGreaterThan(20);
      expect(line).toBe(`Found ${foundCount} businesses — ${scanTotal} prospects ranked`);
      await overlay.waitFor({ state: 'detached', timeout: 20_000 });
      expect(await page.getByTestId('scan-button').textContent()).toBe('Scan Area');
      await b.context.unroute('**/api/scans');

      // 20 cards (the count slider's default), markers numbered in the same order, scores descending.
      await expect.poll(() => page.getByTestId('prospect-card').count(), POLL).toBe(20);
      const cardNames = await names(page);
      // Markers that would cover each other are clusters with their count: every marker on
      // its own carries its card's number and name, and with the clusters' counts they make the 20.
      const titles = await markerTitles(page);
      expect(titles.length).toBeGreaterThan(0);
      for (const title of titles) {
        const n = Number.parseInt(title, 10);
        expect(title).toBe(`${n}. ${cardNames[n - 1]}`);
      }
      // The best ten are drawn on their own, never inside a cluster.
      const ranks = titles.map((t) => Number.parseInt(t, 10));
      for (let n = 1; n <= 10; n++) expect(ranks).toContain(n);
      // ...and none of them covers another's number: markers of one spot are laid around it (once the map has
      // settled on the results' zoom).
      const bestApart = () =>
        page.locator('.leaflet-marker-icon.prospect-marker').evaluateAll((icons) => {
          const boxes = icons
            .filter((icon) => Number.parseInt(icon.getAttribute('title') ?? '', 10) <= 10)
            .map((icon) => icon.getBoundingClientRect());
          let closest = Infinity;
          for (const [i, a] of boxes.entries()) {
            for (const b of boxes.slice(i + 1)) closest = Math.min(closest, Math.hypot(a.x - b.x, a.y - b.y));
          }
          return { count: boxes.length, closest: closest / (boxes[0]?.width ?? 1) };
        });
      await expect.poll(bestApart, POLL).toEqual({ count: 10, closest: expect.any(Number) as number });
      await expect.poll(async () => (await bestApart()).closest, POLL).toBeGreaterThanOrEqual(1);
      // Each moved marker stays beside its business: its leader line is short.
      const leaders = await page
        .locator('path.marker-leader')
        .evaluateAll((paths) => paths.map((path) => (path as SVGPathElement).getTotalLength()));
      for (const length of leaders) expect(length).toBeLessThan(140);
      await page.locator('.map-wrap').evaluate((e) => e.scrollIntoView({ block: 'center' }));
      await keepScreenshot(page, 'scan-map-1440');
      const clustered = (await page.locator('.leaflet-marker-icon.prospect-cluster').allTextContents()).map(
        (t) => Number.parseInt(t, 10),
      );
      expect(titles.length + clustered.reduce((a, n) => a + n, 0)).toBe(20);
      const scores = (
        await page
          .getByTestId('prospect-card')
          .locator('.mantine-Badge-root[aria-label^="Score"]')
          .allTextContents()
      ).map((t) => Number.parseInt(t, 10));
      expect(scores).toEqual([...scores].sort((x, y) => y - x));
      expect(await page.getByRole('tab', { name: /^Prospects/ }).textContent()).toContain('20');

      // The info card of a marker.
      await page.locator('.map-wrap').evaluate((e) => e.scrollIntoView({ block: 'center' }));
      const marker = page.locator('.leaflet-marker-icon.prospect-marker').first();
      const n = Number.parseInt((await marker.getAttribute('title')) ?? '', 10);
      await marker.click();
      const info = page.getByTestId('info-card');
      await info.waitFor();
      expect(await info.textContent()).toContain(cardNames[n - 1]);
      expect(await info.textContent()).toContain(`${scores[n - 1]}%`);
      // A card's number opens its marker's info card.
      await page
        .getByTestId('prospect-card')
        .nth(1)
        .getByRole('button', { name: `Number 2: show ${cardNames[1]} on the map` })
        .click();
      await expect.poll(() => page.getByTestId('info-card').textContent(), POLL).toContain(cardNames[1]);
      await keepScreenshot(page, 'scan-results-1440');

      // Load the next page.
      await page
        .getByTestId('showing')
        .getByText(/^Showing 20 of \d+$/)
        .waitFor();
      await page.getByRole('button', { name: 'Load Next 20 Prospects' }).click();
      await expect.poll(() => page.getByTestId('prospect-card').count(), POLL).toBe(40);
      expect((await names(page)).slice(0, 20)).toEqual(cardNames);
      await page
        .getByTestId('showing')
        .getByText(/^Showing 40 of \d+$/)
        .waitFor();

      // Log a call on the first card: it is at the top of the Log tab.
      const first = page.getByTestId('prospect-card').first();
      await first.getByLabel('Status').selectOption('Called');
      await first.getByLabel('Note').fill('Left a voicemail');
      await first.getByRole('button', { name: 'Log', exact: true }).click();
      await expect.poll(() => page.getByRole('tab', { name: /^Log/ }).textContent(), POLL).toContain('1');

      // Save the second for later: it is in the Saved tab.
      const second = page.getByTestId('prospect-card').nth(1);
      await second.getByLabel('Status').selectOption('Save for Later');
      await second.getByRole('button', { name: 'Log', exact: true }).click();
      await expect.poll(() => page.getByRole('tab', { name: /^Saved/ }).textContent(), POLL).toContain('1');

      // Block the third (the first user is SuperAdmin): it leaves the results.
      const third = page.getByTestId('prospect-card').nth(2);
      await third.getByRole('button', { name: 'Block' }).click();
      await expect.poll(async () => (await names(page)).includes(cardNames[2]!), POLL).toBe(false);

      await page.getByRole('tab', { name: /^Log/ }).click();
      expect(await page.getByTestId('log-entry').first().getByTestId('log-name').textContent()).toBe(
        cardNames[0],
      );
      expect(await page.getByTestId('log-entry').first().getByTestId('log-note').textContent()).toBe(
        'Note: Left a voicemail',
      );
      await page.getByRole('tab', { name: /^Saved/ }).click();
      expect(await names(page)).toEqual([cardNames[1]]);

      // Quick search by name finds the business whose name is markup, shown as text, on top of the scan's list.
      await page.getByLabel('Name', { exact: true }).fill('onerror');
      await page.getByRole('button', { name: 'Find', exact: true }).click();
      await expect.poll(async () => (await names(page))[0], POLL).toBe(XSS_NAME);
      expect(await page.locator('img[src="x"]').count()).toBe(0);
      // It is number 1 on the map too; its card's number opens it there, out of a cluster if need be.
      await page.getByRole('button', { name: `Number 1: show ${XSS_NAME} on the map` }).click();
      await expect.poll(() => markerTitles(page), POLL).toContain(`1. ${XSS_NAME}`);

      // A category too generic to search asks for a more specific one, then finds it.
      await page.getByLabel('Search by').selectOption('category');
      await page.getByLabel('Category', { exact: true }).fill('business');
      await page.getByRole('button', { name: 'Find', exact: true }).click();
      const specific = page.getByRole('dialog').filter({ has: page.getByText(/more specific category/) });
      await specific.getByLabel('Category').fill('dentist');
      await specific.getByRole('button', { name: 'Find', exact: true }).click();
      // The category's results replace the list (the scan's first business, a law office, leaves it); until they
      // arrive the earlier list is still on screen.
      await expect.poll(async () => (await names(page)).includes(cardNames[0]!), POLL).toBe(false);
      await expect.poll(async () => (await names(page)).length, POLL).toBeGreaterThan(0);
      const categories = await page
        .getByTestId('prospect-card')
        .locator('p.mantine-Text-root[data-size="sm"]')
        .allTextContents();
      expect(categories).toContain('Dental');
      await page.getByLabel('Search by').selectOption('business');
      await page.getByLabel('Name', { exact: true }).fill('onerror');
      await page.getByRole('button', { name: 'Find', exact: true }).click();
      await expect.poll(async () => (await names(page))[0], POLL).toBe(XSS_NAME);
      const beforeReload = await names(page);
      expect(beforeReload.length).toBeGreaterThan(1);

      // The latest results come back after a reload; New Search clears them for good.
      await page.reload();
      await expect.poll(() => names(page), POLL).toEqual(beforeReload);

      // A business with no phone, website or category: the details are fetched, then the exact messages;
      // Set category stores the category with the latest results.
      await page.getByLabel('Name', { exact: true }).fill('Plainview');
      await page.getByRole('button', { name: 'Find', exact: true }).click();
      await expect.poll(async () => (await names(page))[0], POLL).toBe('Plainview Goods');
      const plain = page.getByTestId('prospect-card').first();
      await plain.getByRole('button', { name: 'Call Plainview Goods' }).click();
      await page.getByTestId('notice').getByText('Phone number not available.').waitFor();
      await plain.getByRole('button', { name: 'Website of Plainview Goods' }).click();
      await page.getByTestId('notice').getByText('Website not available.').waitFor();
      await plain.getByRole('button', { name: 'Strategy for Plainview Goods' }).click();
      await page
        .getByTestId('notice')
        .getByText('Set a category first to generate a high-quality strategy.')
        .waitFor();
      await plain.getByRole('button', { name: 'Set category' }).click();
      const ask = page.getByRole('dialog', { name: 'Set category' });
      await ask.getByLabel('Category').fill('  Hardware Store ');
      await ask.getByRole('button', { name: 'OK' }).click();
      await plain.getByText('Hardware Store', { exact: true }).waitFor();
      expect(await plain.getByRole('button', { name: 'Set category' }).count()).toBe(0);
      const shown = await page.getByTestId('prospect-card').count();
      await page.reload();
      await page.getByTestId('prospect-card').first().getByText('Hardware Store', { exact: true }).waitFor();
      // The restored list is the one left (its cards are drawn a few at a time).
      await expect.poll(() => page.getByTestId('prospect-card').count(), POLL).toBe(shown);

      // New Search can be undone while its notice shows; left as it is, the results are gone after a reload.
      await page.getByRole('button', { name: 'New Search' }).click();
      await expect.poll(() => page.getByTestId('prospect-card').count(), POLL).toBe(0);
      await page.getByTestId('notice').getByText('Results cleared.').waitFor();
      await page.getByTestId('notice').getByRole('button', { name: 'Undo' }).click();
      await expect.poll(() => page.getByTestId('prospect-card').count(), POLL).toBe(shown);
      await page.getByRole('button', { name: 'New Search' }).click();
      await expect.poll(() => page.getByTestId('prospect-card').count(), POLL).toBe(0);
      await page.reload();
      await page.getByText('No prospects yet. Set a location and press Scan Area.').waitFor();

      expect(alerts).toEqual([]);
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  });

  it('looks right on a phone with results', async () => {
    const b = await openBrowser(server.baseUrl, { width: 375, height: 812 }, { touch: true });
    try {
      const page = b.page;
      await registerViaApi(
        server,
        b,
        { name: 'Pat Phone', email: 'pat@example.com', password: 'pat-pass-123' },
        { inviter: owner },
      );
      await page.goto(server.baseUrl);
      await page.getByLabel('Address').fill('94108');
      await page.getByRole('button', { name: 'Set Address' }).click();
      await page.getByTestId('location-label').getByText('San Francisco, CA 94108').waitFor();
      await page.getByTestId('scan-button').tap();
      await expect.poll(() => page.getByTestId('prospect-card').count(), { timeout: 20_000 }).toBe(20);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await keepScreenshot(page, 'scan-results-375');
      await page
        .getByTestId('prospect-card')
        .first()
        .evaluate((e) => e.scrollIntoView({ block: 'start' }));
      await keepScreenshot(page, 'scan-cards-375');

      // An admin blocks the first of these businesses elsewhere: it leaves this open screen without reload.
      const before = await names(page);
      const latest = (await (
        await page.request.get(`${server.baseUrl}/api/scans/latest?limit=1`)
      ).json()) as {
        prospects: { id: string; name: string }[];
      };
      const victim = latest.prospects[0]!;
      expect(victim.name).toBe(before[0]);
      const blocked = await owner.call('POST', '/api/blocklist', {
        businessId: victim.id,
        label: victim.name,
      });
      expect(blocked.status).toBe(201);
      await expect
        .poll(() => page.getByTestId('prospect-card').count(), { timeout: 2000, interval: 100 })
        .toBe(19);
      expect(await names(page)).toEqual(before.slice(1));
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  });
});
