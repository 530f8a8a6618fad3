// Follow-ups on a phone: log a call with a "Tomorrow" follow-up, find it in Today the next day (the browser's
// clock moved a day ahead; the tab counts it), and mark it done. Screenshots of the log form and the Today tab
// at 375x812 and 1440x900.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Prospect } from '../../src/core/types.js';
import { axeViolations } from './axe.js';
import { keepScreenshot, openBrowser, registerViaApi, startServer, type TestServer } from './harness.js';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(async () => {
  await server?.close();
});

const DAY = 86_400_000;
const POLL = { timeout: 10_000 };

const bakery: Prospect = {
  id: 'place-bakery',
  name: 'Corner Bakery',
  category: 'Bakery',
  address: '12 Oak Ave',
  city: 'Birmingham',
  state: 'AL',
  zip: '35203',
  phone: '+1 205-555-0142',
  website: 'https://bakery.example',
  lat: 33.52,
  lng: -86.81,
  openNow: true,
  reviews: 40,
  source: 'local',
  distance: 0.3,
  score: 0.74,
  types: ['bakery'],
};

const tab = (page: Page, name: string) => page.getByRole('tab', { name: new RegExp(`^${name}`) });

describe('follow-ups on a phone', () => {
  it('logs a call with Tomorrow, finds it in Today the next day and marks it done', async () => {
    const rep = await openBrowser(server.baseUrl, { width: 375, height: 812 }, { touch: true });
    try {
      const page = rep.page;
      const start = Date.now();
      await page.clock.install({ time: start });
      await registerViaApi(server, rep, {
        name: 'Rita Rep',
        email: 'rita@example.com',
        password: 'rita-pass-123',
      });
      const saved = await page.request.post(`${server.baseUrl}/api/saved`, { data: { prospect: bakery } });
      expect(saved.status()).toBe(201);

      await page.goto(server.baseUrl);
      await expect.poll(() => tab(page, 'Today').innerText(), POLL).toMatch(/Today\s*0/);
      await tab(page, 'Today').click();
      await page.getByTestId('no-follow-ups').waitFor();

      await tab(page, 'Saved').click();
      const card = page.getByTestId('prospect-card').filter({ hasText: 'Corner Bakery' });
      await card.getByLabel('Status').selectOption('Called');
      await card.getByRole('button', { name: 'Tomorrow' }).click();
      await card.getByLabel('Next step').fill('Bring the media kit');
      await card.getByText("It's a meeting").click();
      await card.getByTestId('follow-up-fields').scrollIntoViewIfNeeded();
      expect(await axeViolations(page, '[data-testid="prospect-card"]')).toEqual([]);
      await keepScreenshot(page, 'follow-ups-log-form-375');
      await page.setViewportSize({ width: 1440, height: 900 });
      await card.getByTestId('follow-up-fields').scrollIntoViewIfNeeded();
      await keepScreenshot(page, 'follow-ups-log-form-1440');
      await page.setViewportSize({ width: 375, height: 812 });
      await card.getByRole('button', { name: 'Log', exact: true }).click();
      await page.getByText(/^Follow-up set for /).waitFor();

      // The Log shows the follow-up set with the entry.
      await tab(page, 'Log').click();
      const logged = page.getByTestId('log-entry').filter({ hasText: 'Corner Bakery' });
      expect(await logged.getByTestId('log-follow-up').innerText()).toBe('Meeting: Tomorrow');

      // Today it is upcoming, not due.
      await tab(page, 'Today').click();
      const upcoming = page.getByTestId('follow-ups-upcoming');
      await upcoming.getByText('Corner Bakery').waitFor();
      expect(await upcoming.getByTestId('follow-up-due').innerText()).toBe('Tomorrow');
      expect(await tab(page, 'Today').innerText()).toMatch(/Today\s*0/);

      // The next day (the browser's clock), the same follow-up is due today and counted on the tab.
      await page.clock.setSystemTime(start + DAY + 60_000);
      await page.reload();
      await expect.poll(() => tab(page, 'Today').innerText(), POLL).toMatch(/Today\s*1/);
      await tab(page, 'Today').click();
      const today = page.getByTestId('follow-ups-today');
      const item = today.getByTestId('follow-up').filter({ hasText: 'Corner Bakery' });
      await item.waitFor();
      expect(await item.innerText()).toContain('Bring the media kit');
      expect(await item.innerText()).toContain('Meeting');
      expect(await item.getByRole('link', { name: /^Call / }).getAttribute('href')).toBe('tel:+12055550142');
      expect(await item.getByRole('link', { name: /\.ics/ }).getAttribute('href')).toMatch(
        /^\/api\/follow-ups\/[\w-]+\.ics$/,
      );
      expect(await axeViolations(page, '[data-testid="today-panel"]')).toEqual([]);
      await keepScreenshot(page, 'follow-ups-today-375', { fullPage: true });
      await page.setViewportSize({ width: 1440, height: 900 });
      await keepScreenshot(page, 'follow-ups-today-1440');
      await page.setViewportSize({ width: 375, height: 812 });

      // The settings dialog: a feed link made, shown, and the digest switch on by default.
      await page.getByRole('button', { name: 'Calendar & e-mail' }).click();
      await page.getByRole('button', { name: 'Create calendar link' }).click();
      const url = await page.getByTestId('calendar-feed-url').inputValue();
      expect(url).toMatch(/\/api\/calendar\/[\w-]{43}\.ics$/);
      const feed = await page.request.get(url);
      expect(feed.status()).toBe(200);
      expect(await feed.text()).toContain('SUMMARY:Meeting: Corner Bakery — Bring the media kit');
      expect(await page.getByRole('switch', { name: /E-mail me my follow-ups/ }).isChecked()).toBe(true);
      expect(await axeViolations(page, '[role="dialog"]')).toEqual([]);
      await keepScreenshot(page, 'follow-ups-settings-375');
      await page.keyboard.press('Escape');

      await item.getByRole('button', { name: 'Done' }).click();
      await page.getByTestId('no-follow-ups').waitFor();
      await expect.poll(() => tab(page, 'Today').innerText(), POLL).toMatch(/Today\s*0/);
      const left = await page.request.get(`${server.baseUrl}/api/follow-ups`);
      expect(((await left.json()) as { followUps: unknown[] }).followUps).toEqual([]);
      expect(rep.pageErrors).toEqual([]);
    } finally {
      await rep.close();
    }
  });
});
