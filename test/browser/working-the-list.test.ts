// Working the list on the main screen — log a call with a note and see it at the top of the Log
// tab, export the call log as CSV, clear it, mark a current advertiser in one browser and see the banner in
// another without reload, and render outside text (business names, notes) as text only.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import type { Prospect } from '../../src/core/types.js';
import { axeViolations } from './axe.js';
import {
  firstAccount,
  keepScreenshot,
  openBrowser,
  registerViaApi,
  startServer,
  type TestServer,
  POLL,
} from './harness.js';
import { scannedBusiness } from '../helpers/businesses.js';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(async () => {
  await server?.close();
});

const XSS_NAME = '<img src=x onerror=alert(1)>';

function prospect(id: string, name: string, extra: Partial<Prospect> = {}): Prospect {
  return {
    id,
    name,
    category: 'Dental',
    address: '450 Sutter St',
    city: 'San Francisco',
    state: 'CA',
    zip: '94108',
    phone: '+1 415-555-0100',
    website: 'https://dentist.example',
    lat: 37.7898,
    lng: -122.4085,
    openNow: true,
    reviews: 120,
    rating: 4.6,
    source: 'local',
    distance: 0.4,
    score: 0.82,
    types: ['dentist'],
    aiAnalysis: {
      score: 82,
      reasoning: 'Dental practices buy search and streaming TV; strong reviews and a website.',
      confidence: 90,
      recommendations: ['Search Engine Marketing', 'Streaming TV (CTV)'],
      breakdown: {
        vertical: 'dental',
        rule: null,
        fit: 0.86,
        presence: 0.7,
        scale: 0.5,
        keywords: 0.15,
        distance: 0.8,
        qualitySpread: 0.3,
        contributions: {
          fit: 0.387,
          presence: 0.14,
          scale: 0.05,
          keywords: 0.0135,
          distance: 0.048,
          qualitySpread: 0.03,
        },
        raw: 0.67,
        propensity: { ctv: 0.85, olv: 0.8, display: 0.75, sem: 0.95 },
        dealerGroup: false,
        brand: null,
        keywordMatches: ['dental'],
      },
      analyzedAt: new Date().toISOString(),
      businessHash: `hash-${id}`,
      modelVersion: 'v1',
    },
    ...extra,
  };
}

async function save(page: Page, p: Prospect) {
  const res = await page.request.post(`${server.baseUrl}/api/saved`, { data: { prospect: p } });
  expect(res.status()).toBe(201);
}

const tab = (page: Page, name: string) => page.getByRole('tab', { name: new RegExp(`^${name}`) });
const card = (page: Page, name: string) =>
  page
    .getByTestId('prospect-card')
    .filter({ has: page.getByTestId('prospect-name').getByText(name, { exact: true }) });

describe('working the list', () => {
  it('logs, exports and clears calls; shows outside text as text; marks advertisers live across browsers', async () => {
    const ann = await openBrowser(server.baseUrl);
    const alerts: string[] = [];
    ann.page.on('dialog', (d) => {
      alerts.push(d.message());
      void d.dismiss();
    });
    try {
      await registerViaApi(server, ann, {
        name: 'Ann Seller',
        email: 'ann@example.com',
        password: 'ann-pass-123',
      });
      await save(ann.page, prospect('place-1', 'Bright Smile Dental'));
      await save(
        ann.page,
        prospect('place-2', XSS_NAME, { category: 'Business', phone: undefined, website: undefined }),
      );

      const page = ann.page;
      await page.goto(server.baseUrl);
      await tab(page, 'Saved').click();
      await card(page, 'Bright Smile Dental').waitFor();
      expect(await tab(page, 'Saved').innerText()).toContain('2');
      // A card with everything a scan of OSM data seldom has (rating, reviews, open now, website) is readable.
      expect(await axeViolations(page, '[data-testid="prospect-card"]')).toEqual([]);

      // Outside text is text: the name shows literally and no element was created from it.
      const xss = card(page, XSS_NAME);
      await xss.waitFor();
      expect(await xss.getByTestId('prospect-name').textContent()).toBe(XSS_NAME);
      expect(await page.locator('img[src="x"]').count()).toBe(0);

      // The saved card: status limited to Called / Visited; Call and Website only when the data exists.
      const bright = card(page, 'Bright Smile Dental');
      const options = await bright.getByLabel('Status').locator('option').allTextContents();
      expect(options.filter((o) => o !== 'Select status')).toEqual(['Called', 'Visited']);
      expect(await bright.getByRole('link', { name: /^Call / }).getAttribute('href')).toBe(
        'tel:+14155550100',
      );
      expect(await xss.getByRole('button', { name: /^Call / }).count()).toBe(0);
      expect(await xss.getByRole('link', { name: /^Website / }).count()).toBe(0);
      const directions = await bright.getByRole('link', { name: /^Directions / }).getAttribute('href');
      expect(directions).toBe(
        `https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent('450 Sutter St, San Francisco, CA 94108')}`,
      );
      // Analysis block and the breakdown on demand.
      await bright.getByText('Why this is a good prospect:').waitFor();
      await bright.getByRole('button', { name: 'Show score breakdown' }).click();
      await bright.getByText('Channel fit').waitFor();

      // Log is disabled until a status is chosen; a logged call lands at the top of the Log tab.
      const logButton = bright.getByRole('button', { name: 'Log', exact: true });
      expect(await logButton.isDisabled()).toBe(true);
      await bright.getByLabel('Status').selectOption('Called');
      await bright.getByLabel('Note').fill('Spoke to the office manager; call back Tuesday');
      await logButton.click();
      // The Log tab by its name (Today sits beside Prospects, so the Log is not the third tab).
      await expect.poll(() => tab(page, 'Log').innerText(), POLL).toMatch(/Log\s*1/);
      // The draft is cleared.
      expect(await bright.getByLabel('Status').inputValue()).toBe('');
      expect(await bright.getByLabel('Note').inputValue()).toBe('');

      await xss.getByLabel('Status').selectOption('Visited');
      await xss.getByLabel('Note').fill('<b>not bold</b>');
      await xss.getByRole('button', { name: 'Log', exact: true }).click();

      await tab(page, 'Log').click();
      await page.getByRole('heading', { name: 'Call History' }).waitFor();
      const entries = page.getByTestId('log-entry');
      await expect.poll(() => entries.count(), POLL).toBe(2);
      expect(await entries.nth(0).getByTestId('log-name').textContent()).toBe(XSS_NAME);
      expect(await entries.nth(0).getByTestId('log-outcome').textContent()).toBe('Visited');
      expect(await entries.nth(0).getByTestId('log-note').textContent()).toBe('Note: <b>not bold</b>');
      expect(await entries.nth(1).getByTestId('log-name').textContent()).toBe('Bright Smile Dental');
      expect(await entries.nth(1).getByTestId('log-note').textContent()).toContain('call back Tuesday');
      await keepScreenshot(page, 'log-tab-1440');

      // Export to CSV: the server's file name and the rows, newest first.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Export to CSV' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^call_log_Ann_Seller_\d{4}-\d{2}-\d{2}\.csv$/);
      const csv = readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, '');
      const lines = csv.trim().split(/\r\n/);
      // Dates on the browser's clock (it sends its time zone), which the last column names.
      expect(lines[0]).toBe('Date,Name,Outcome,Category,Address,Phone,Website,Note,Follow-up,Time Zone');
      expect(lines).toHaveLength(3);
      const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
      expect(lines[1]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2},/);
      expect(lines[1]!.endsWith(`,${zone}`)).toBe(true);
      expect(lines[1]).toContain(`${XSS_NAME},Visited`);
      expect(lines[2]).toContain('Bright Smile Dental,Called,Dental');
      expect(lines[2]).toContain('call back Tuesday');

      // --- A second person marks a current advertiser; Ann's open screen shows the banner without reload.
      const ben = await openBrowser(server.baseUrl, { width: 375, height: 812 }, { touch: true });
      try {
        await registerViaApi(
          server,
          ben,
          { name: 'Ben Rep', email: 'ben@example.com', password: 'ben-pass-123' },
          { inviter: ann },
        );
        await save(ben.page, prospect('place-1', 'Bright Smile Dental'));
        // A business the team scanned: only those can be marked (the mark takes the record's name).
        await scannedBusiness(server.db, 'place-1', 'Bright Smile Dental');
        await ben.page.goto(server.baseUrl);
        await tab(ben.page, 'Saved').click();
        const benCard = card(ben.page, 'Bright Smile Dental');
        // On a touch screen the card's buttons are finger-sized.
        await benCard.waitFor();
        expect(
          (await benCard.getByRole('link', { name: /^Call / }).boundingBox())!.height,
        ).toBeGreaterThanOrEqual(40);
        await benCard.getByRole('button', { name: 'Mark as current advertiser' }).click();
        await benCard.getByTestId('advertiser-banner').waitFor();
        // Not an admin: no unmark, no block.
        expect(await benCard.getByRole('button', { name: 'Unmark current advertiser' }).count()).toBe(0);
        await keepScreenshot(ben.page, 'saved-tab-375');
        expect(await ben.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

        await tab(page, 'Saved').click();
        const banner = card(page, 'Bright Smile Dental').getByTestId('advertiser-banner');
        await banner.waitFor({ timeout: 2000 });
        expect(await banner.textContent()).toContain('marked by Ben Rep');
        await keepScreenshot(page, 'saved-tab-1440');

        // Ann is SuperAdmin: she may unmark, and Ben's screen follows.
        await card(page, 'Bright Smile Dental')
          .getByRole('button', { name: 'Unmark current advertiser' })
          .click();
        await benCard.getByTestId('advertiser-banner').waitFor({ state: 'detached', timeout: 2000 });
        expect(ben.pageErrors).toEqual([]);
      } finally {
        await ben.close();
      }

      // Delete one entry, then Clear All with its exact confirmation and message.
      await tab(page, 'Log').click();
      await entries
        .nth(0)
        .getByRole('button', { name: /^Delete log entry/ })
        .click();
      await expect.poll(() => entries.count(), POLL).toBe(1);
      await page.getByRole('button', { name: 'Clear All' }).click();
      const confirm = page.getByRole('dialog', { name: 'Please confirm' });
      await confirm
        .getByText('Are you sure you want to clear all 1 call log entries? This action cannot be undone.')
        .waitFor();
      await confirm.getByRole('button', { name: 'Clear All' }).click();
      await page.getByTestId('notice').getByText('Call history cleared successfully').waitFor();
      await page.getByText('No call history yet. Log your first call to see it here.').waitFor();
      await page.getByRole('button', { name: 'Export to CSV' }).click();
      await page.getByTestId('notice').getByText('No call history to export').waitFor();

      // Saved: Remove.
      await tab(page, 'Saved').click();
      await card(page, XSS_NAME).getByRole('button', { name: 'Remove' }).click();
      await card(page, XSS_NAME).waitFor({ state: 'detached' });

      expect(alerts).toEqual([]);
      expect(ann.pageErrors).toEqual([]);
    } finally {
      await ann.close();
    }
  });

  it('reloads the shared lists when its event stream comes back: blocks and marks made meanwhile show', async () => {
    const admin = await firstAccount(server, {
      name: 'Ada Admin',
      email: 'ada@example.com',
      password: 'ada-pass-123',
    });
    const b = await openBrowser(server.baseUrl);
    try {
      const page = b.page;
      await registerViaApi(
        server,
        b,
        { name: 'Dee Driver', email: 'dee@example.com', password: 'dee-pass-123' },
        { inviter: admin },
      );
      const scanned = await page.request.post(`${server.baseUrl}/api/scans`, {
        data: { lat: 33.5186, lng: -86.8104, radiusMiles: 1, count: 20 },
      });
      expect(scanned.status()).toBe(200);
      const results = ((await scanned.json()) as { prospects: Prospect[] }).prospects;
      // The event stream cannot connect (a tunnel, a dead spot): nothing arrives live.
      let attempts = 0;
      await b.context.route('**/api/events', (route) => {
        attempts++;
        return route.abort('internetdisconnected');
      });
      await page.goto(server.baseUrl);
      await expect.poll(() => page.getByTestId('prospect-card').count(), POLL).toBe(20);
      await expect.poll(() => attempts, POLL).toBeGreaterThan(0);

      const [gone, marked] = [results[0]!, results[1]!];
      expect(
        (await admin.call('POST', '/api/blocklist', { businessId: gone.id, label: gone.name })).status,
      ).toBe(201);
      expect(
        (await admin.call('POST', '/api/current-advertisers', { businessId: marked.id, label: marked.name }))
          .status,
      ).toBe(201);
      await page.waitForTimeout(1000);
      expect(await page.getByTestId('prospect-card').count()).toBe(20);
      expect(await page.getByTestId('advertiser-banner').count()).toBe(0);

      // The stream connects again (the browser retries on its own): the block and the mark show.
      await b.context.unroute('**/api/events');
      // The loaded part of the list is reloaded without the blocked one (the next result moves up).
      await expect
        .poll(() => page.getByTestId('prospect-name').allTextContents(), POLL)
        .toEqual([...results.slice(1, 20).map((p) => p.name), expect.any(String)]);
      expect(await page.getByTestId('prospect-name').allTextContents()).not.toContain(gone.name);
      await card(page, marked.name).getByTestId('advertiser-banner').waitFor();
      expect(await card(page, marked.name).getByTestId('advertiser-banner').textContent()).toContain(
        'marked by Ada Admin',
      );
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  });

  it('keeps search settings per user, moves the centre on the map and reopens the help dialog', async () => {
    const b = await openBrowser(server.baseUrl, { width: 375, height: 812 }, { touch: true });
    try {
      await registerViaApi(server, b, {
        name: 'Cat Rep',
        email: 'cat@example.com',
        password: 'cat-pass-123',
      });
      const page = b.page;
      await page.goto(server.baseUrl);
      await page.getByTestId('location-label').getByText('Birmingham, AL').waitFor();

      // Radius with the keyboard: 1.0 -> 1.2 miles; count 20 -> 25; one category off.
      const radius = page.getByRole('slider', { name: /^Radius/ });
      await radius.focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await page.getByText('1.2 miles').waitFor();
      const count = page.getByRole('slider', { name: /^Prospects/ });
      await count.focus();
      for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
      await page.getByLabel('Furniture').uncheck();
      expect(await page.getByLabel('Select all').isChecked()).toBe(false);

      // The map: the blue 'Your Location' marker; a click reports the point; a double-click moves the centre.
      const map = page.locator('.prospect-map');
      await map.waitFor();
      await page.locator('.leaflet-marker-icon[title="Your Location"]').waitFor();
      await map.evaluate((e) => e.scrollIntoView({ block: 'center' }));
      const box = (await map.boundingBox())!;
      await page.mouse.click(box.x + box.width * 0.25, box.y + box.height * 0.25);
      await page
        .getByTestId('picked-point')
        .getByText(/^Clicked at 33\.\d+, -86\.\d+$/)
        .waitFor();
      await page.mouse.dblclick(box.x + box.width * 0.25, box.y + box.height * 0.25);
      // The centre moves north-west of Birmingham's default point and is saved with its looked-up label.
      const savedSettings = async () =>
        (
          (await (await page.request.get(`${server.baseUrl}/api/me`)).json()) as {
            user: { searchSettings: { lat: number; lng: number; label: string; radiusMiles: number } | null };
          }
        ).user.searchSettings;
      await expect
        .poll(async () => (await savedSettings())?.lat ?? 0, { timeout: 5000 })
        .toBeGreaterThan(33.5186);
      await page.getByTestId('picked-point').waitFor({ state: 'detached' });
      await page.waitForTimeout(1500); // the reverse lookup answers and the settings are saved after it
      const settings = (await savedSettings())!;
      expect(settings.lng).toBeLessThan(-86.8104);
      expect(settings.radiusMiles).toBe(1.2);
      const label = (await page.getByTestId('location-label').textContent()) ?? '';
      expect(label).toBe(`Current location: ${settings.label}`);

      await page.reload();
      await page.getByText('1.2 miles').waitFor();
      await page.getByText('Prospects: 25').waitFor();
      expect(await page.getByLabel('Furniture').isChecked()).toBe(false);
      expect(await page.getByTestId('location-label').textContent()).toBe(label);

      // Help reopens the welcome dialog and clears the preference.
      await page.getByRole('button', { name: 'Help' }).click();
      const help = page.getByRole('dialog', { name: 'Welcome to Prospect Finder' });
      // A touch phone: the tip says tap.
      await help.getByText('Double-tap the map to set a new center point', { exact: false }).waitFor();
      await keepScreenshot(page, 'help-375');
      await help.getByRole('button', { name: 'Get Started' }).click();
      await expect
        .poll(
          async () =>
            (
              (await (await page.request.get(`${server.baseUrl}/api/me`)).json()) as {
                user: { hideInstructions: boolean };
              }
            ).user.hideInstructions,
        )
        .toBe(false);
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  });
});
