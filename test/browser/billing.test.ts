// Billing in the browser: an admin uploads the billing export in the Admin Panel (preview, then import) and sees
// the lapsed advertisers; on a phone the lapsed advertiser's card says when it last ran and what it spent, and
// the list filters to lapsed or declining advertisers. Places are a small fixture of dentists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import type { Page } from 'playwright-core';
import {
  firstAccount,
  keepScreenshot,
  openBrowser,
  POLL,
  startServer,
  type ApiSession,
  type TestServer,
} from './harness.js';
import { commitStaged, placeRow, stageRows } from '../../src/server/places/local-store.js';
import { addMonths, monthName, monthOf } from '../../src/core/billing.js';

const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1440, height: 900 };
const CENTRE = { lat: 41.5, lng: -99.5 };
const NOW = monthOf(new Date());
const ago = (n: number) => addMonths(NOW, -n);

const NAMES = [
  'Union Square Dental Group',
  'Prairie Family Dentistry',
  'Bright Smiles Dental',
  'Zeta Dental Care',
  'Gumps',
  'Mini of San Francisco',
];

const CSV =
  `Advertiser Name,Telephone,Broadcast Month,Gross\n` +
  `Union Sq Dental Grp,(415) 399-1966,${ago(1)},"$4,000.00"\n` +
  `Zeta Dental Care Inc,,${ago(8)},"$5,000"\n` +
  `ZETA DENTAL CARE,,${ago(9)},7500\n` +
  `MINI OF SF,,${ago(1)},100\n` +
  `Nobody We Know LLC,415.555.0100,${ago(1)},999\n`;

let server: TestServer;
let owner: ApiSession;
let csvFile: string;

beforeAll(async () => {
  server = await startServer({ PLACE_PROVIDERS: 'local' });
  const at = new Date().toISOString();
  await stageRows(
    server.db.kysely,
    'billing-browser',
    NAMES.map((name, i) =>
      placeRow(
        {
          id: `osm:node/${201 + i}`,
          lat: CENTRE.lat + 0.001 * (i + 1),
          lng: CENTRE.lng,
          tags: {
            name,
            amenity: 'dentist',
            phone: i === 0 ? '+1 415-399-1966' : `+1 308-555-01${10 + i}`,
            'addr:housenumber': String(10 + i),
            'addr:street': 'Main Street',
            'addr:city': 'Prairie',
          },
        },
        at,
      ),
    ),
  );
  await commitStaged(server.db.kysely, 'billing-browser');
  owner = await firstAccount(server, {
    name: 'Bea Billing',
    email: 'bea@example.com',
    password: 'bea-pass-1234',
  });
  expect(
    (await owner.call('PATCH', '/api/me', { hideInstructions: true, installPromptDismissed: true })).status,
  ).toBe(200);
  csvFile = join(tmpdir(), `billing-${process.pid}.csv`);
  writeFileSync(csvFile, CSV);
});
afterAll(async () => {
  await server?.close();
});

async function signedIn(viewport: { width: number; height: number }, touch: boolean) {
  const b = await openBrowser(server.baseUrl, viewport, { touch, cards: 'compact' });
  const [name, ...rest] = owner.cookie.split('; ')[0]!.split('=');
  await b.context.addCookies([{ name: name!, value: rest.join('='), url: server.baseUrl }]);
  return b;
}

async function openBilling(page: Page) {
  await page.goto(`${server.baseUrl}/admin/billing`);
  await page.getByTestId('billing-section').waitFor();
}

describe('the billing section of the Admin Panel', () => {
  it('previews the file, imports it and lists the lapsed advertisers (375 and 1440 px)', async () => {
    const b = await signedIn(DESKTOP, false);
    try {
      const page = b.page;
      await openBilling(page);
      await expect
        .poll(
          () => page.getByText('No lapsed advertisers: import billing to see who stopped buying.').count(),
          POLL,
        )
        .toBe(1);
      await page.getByTestId('billing-section').locator('input[type="file"]').setInputFiles(csvFile);
      await page.getByRole('button', { name: 'Preview' }).click();
      const report = page.getByTestId('billing-report');
      await report.waitFor();
      expect(await report.getByRole('status').textContent()).toBe(
        `Preview: 3 matched, 1 unmatched, ${monthName(ago(9))} ${ago(9).slice(0, 4)} to ${monthName(ago(1))} ${ago(1).slice(0, 4)}`,
      );
      expect(await page.getByTestId('billing-unmatched').textContent()).toContain('Nobody We Know LLC');
      expect(await page.getByTestId('billing-matched').textContent()).toContain('Union Square Dental Group');
      // Nothing stored yet.
      expect(await page.getByTestId('lapsed-item').count()).toBe(0);
      await keepScreenshot(page, 'billing-preview-1440', { fullPage: true });

      await page.getByTestId('billing-import').click();
      await expect.poll(() => report.getByRole('status').textContent(), POLL).toMatch(/^Imported: 3 matched/);
      const lapsed = page.getByTestId('lapsed-item');
      await expect.poll(() => lapsed.count(), POLL).toBe(1);
      expect(await lapsed.first().textContent()).toContain('Zeta Dental Care');
      expect(await lapsed.first().textContent()).toContain('$12,500 last year');
      await keepScreenshot(page, 'billing-imported-1440', { fullPage: true });
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }

    const phone = await signedIn(PHONE, true);
    try {
      const page = phone.page;
      await openBilling(page);
      await expect.poll(() => page.getByTestId('lapsed-item').count(), POLL).toBe(1);
      await page.getByTestId('billing-section').locator('input[type="file"]').setInputFiles(csvFile);
      await page.getByRole('button', { name: 'Preview' }).tap();
      await page.getByTestId('billing-report').waitFor();
      // Nothing wider than the phone.
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(PHONE.width);
      await keepScreenshot(page, 'billing-preview-375', { fullPage: true });
      expect(phone.pageErrors).toEqual([]);
    } finally {
      await phone.close();
    }
  });
});

describe('a lapsed advertiser on a phone', () => {
  it('its card says when it last ran and what it spent; the list filters to lapsed or declining', async () => {
    expect((await owner.call('POST', '/api/admin/billing', { csv: CSV })).status).toBe(200);
    const scanned = await owner.call('POST', '/api/scans', { ...CENTRE, radiusMiles: 1, count: 20 });
    expect(scanned.status).toBe(200);
    const b = await signedIn(PHONE, true);
    try {
      const page = b.page;
      await page.goto(server.baseUrl);
      const cards = page.getByTestId('prospect-card');
      await expect.poll(() => cards.count(), POLL).toBe(NAMES.length);
      const line = page.getByTestId('billing-line');
      await expect.poll(() => line.count(), POLL).toBe(1);
      expect(await line.textContent()).toBe(
        `Lapsed advertiser: last ran ${monthName(ago(8))}, $12,500 last year`,
      );
      // Beside the other filters, counting the loaded cards.
      const filter = page
        .getByTestId('list-filters')
        .getByRole('checkbox', { name: 'Lapsed or declining (1)' });
      expect(await filter.isEnabled()).toBe(true);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.getByTestId('list-filters').scrollIntoViewIfNeeded();
      await keepScreenshot(page, 'billing-lapsed-card-375');
      await filter.tap();
      await expect.poll(() => cards.count(), POLL).toBe(1);
      expect(await cards.first().getByTestId('prospect-name').textContent()).toBe('Zeta Dental Care');
      await keepScreenshot(page, 'billing-lapsed-filter-375');
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }

    // The full card at 1440 px carries the same line.
    const desk = await openBrowser(server.baseUrl, DESKTOP, { cards: 'full' });
    try {
      const [name, ...rest] = owner.cookie.split('; ')[0]!.split('=');
      await desk.context.addCookies([{ name: name!, value: rest.join('='), url: server.baseUrl }]);
      const page = desk.page;
      await page.goto(server.baseUrl);
      const zeta = page.getByTestId('prospect-card').filter({ hasText: 'Zeta Dental Care' });
      await zeta.getByTestId('billing-line').waitFor();
      expect(await zeta.getByTestId('billing-line').textContent()).toBe(
        `Lapsed advertiser: last ran ${monthName(ago(8))}, $12,500 last year`,
      );
      await zeta.scrollIntoViewIfNeeded();
      await keepScreenshot(page, 'billing-lapsed-card-1440');
      expect(desk.pageErrors).toEqual([]);
    } finally {
      await desk.close();
    }
  });
});
