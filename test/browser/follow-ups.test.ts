// Follow-ups on a phone: log a call with a "Tomorrow" follow-up, find it in Today the next day (the browser's
// clock moved a day ahead; the tab counts it), and mark it done. Screenshots of the log form and the Today tab
// at 375x812 and 1440x900. In March, an HVAC business's card says it plans its summer campaign now, and Today can
// put it first ("In season first") ahead of a law office due earlier.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Prospect } from '../../src/core/types.js';
import { analyzeOne } from '../../src/core/scoring/analyze.js';
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

  it('says a business in its buying season plans its campaign now, and puts it first in Today on request', async () => {
    const rep = await openBrowser(server.baseUrl, { width: 375, height: 812 }, { touch: true });
    try {
      const page = rep.page;
      // Mid-March on the rep's clock: HVAC plans its summer campaign; a law office buys all year.
      await page.clock.install({ time: new Date('2027-03-10T15:00:00Z').getTime() });
      await registerViaApi(server, rep, { name: 'Sam Season', email: 'sam@example.com', password: 'sam-pass-1234' });
      const scored = (p: Prospect): Prospect => ({
        ...p,
        aiAnalysis: analyzeOne({ name: p.name, types: p.types, category: p.category, phone: p.phone, website: p.website, distance: p.distance }),
      });
      const hvac = scored({ ...bakery, id: 'place-hvac', name: 'Bay Heating & Air', category: 'HVAC', types: ['hvac_contractor'] });
      const law = scored({ ...bakery, id: 'place-law', name: 'Oak Law Office', category: 'Legal Services', types: ['lawyer'] });
      expect([hvac.aiAnalysis?.breakdown.vertical, law.aiAnalysis?.breakdown.vertical]).toEqual(['hvac', 'legal']);
      for (const p of [hvac, law]) {
        expect((await page.request.post(`${server.baseUrl}/api/saved`, { data: { prospect: p } })).status()).toBe(201);
        // The team's copy, as a scan of it would have written it.
        await server.db.kysely
          .insertInto('team_prospects')
          .values({ business_id: p.id, prospect: JSON.stringify(p), name: p.name, score: p.score, analysis_hash: '', business_hash: p.id, scanned_by: null, scanned_at: new Date().toISOString() })
          .execute();
      }
      // The law office is due first, at 9; the HVAC business at 10.
      for (const [p, dueTime] of [[law, '09:00'], [hvac, '10:00']] as const) {
        const logged = await page.request.post(`${server.baseUrl}/api/call-logs`, {
          data: { prospectId: p.id, name: p.name, category: p.category, outcome: 'Called', followUp: { dueDate: '2027-03-10', dueTime, timeZone: 'UTC' } },
        });
        expect(logged.status()).toBe(201);
      }

      await page.goto(server.baseUrl);
      await tab(page, 'Saved').click();
      const hvacCard = page.getByTestId('prospect-card').filter({ hasText: 'Bay Heating & Air' });
      expect(await hvacCard.getByTestId('season-line').innerText()).toBe('Plans its summer campaign now');
      const lawCard = page.getByTestId('prospect-card').filter({ hasText: 'Oak Law Office' });
      await lawCard.waitFor();
      expect(await lawCard.getByTestId('season-line').count()).toBe(0);
      await hvacCard.getByTestId('season-line').scrollIntoViewIfNeeded();
      expect(await axeViolations(page, '[data-testid="prospect-card"]')).toEqual([]);
      await keepScreenshot(page, 'season-card-375');
      await page.setViewportSize({ width: 1440, height: 900 });
      await hvacCard.getByTestId('season-line').scrollIntoViewIfNeeded();
      await keepScreenshot(page, 'season-card-1440');
      await page.setViewportSize({ width: 375, height: 812 });

      await tab(page, 'Today').click();
      const names = () => page.getByTestId('follow-ups-today').getByTestId('follow-up-name').allInnerTexts();
      await expect.poll(names, POLL).toEqual(['Oak Law Office', 'Bay Heating & Air']);
      await page.getByLabel('Order of follow-ups').selectOption('season');
      await expect.poll(names, POLL).toEqual(['Bay Heating & Air', 'Oak Law Office']);
      const first = page.getByTestId('follow-up').first();
      expect(await first.getByTestId('season-line').innerText()).toBe('Plans its summer campaign now');
      expect(await axeViolations(page, '[data-testid="today-panel"]')).toEqual([]);
      await keepScreenshot(page, 'season-today-375', { fullPage: true });
      await page.setViewportSize({ width: 1440, height: 900 });
      await keepScreenshot(page, 'season-today-1440');
      // Due first again: the default order is back.
      await page.getByLabel('Order of follow-ups').selectOption('due');
      await expect.poll(names, POLL).toEqual(['Oak Law Office', 'Bay Heating & Air']);
      expect(rep.pageErrors).toEqual([]);
    } finally {
      await rep.close();
    }
  }); // prettier-ignore
});
