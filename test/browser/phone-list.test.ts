// The list on a phone (375×812, touch): compact cards (rank, name, score, category, distance, the number and Call,
// Saved and the pipeline stage, the last note) that open to the full card; 20 of them in 3,600 px; the scan
// settings folded into one line once there are results; the tabs kept at the top of the screen while the list
// scrolls. At 1440×900 the full cards stay.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  firstAccount,
  keepScreenshot,
  openBrowser,
  POLL,
  startServer,
  type ApiSession,
  type TestServer,
} from './harness.js';

const PHONE = { width: 375, height: 812 };

interface Scanned {
  id: string;
  name: string;
  category: string;
  phone?: string;
}

let server: TestServer;
let owner: ApiSession;
let found: Scanned[];
beforeAll(async () => {
  server = await startServer();
  owner = await firstAccount(server, {
    name: 'Pia Phone',
    email: 'pia@example.com',
    password: 'pia-pass-1234',
  });
  expect(
    (await owner.call('PATCH', '/api/me', { hideInstructions: true, installPromptDismissed: true })).status,
  ).toBe(200);
  const res = await owner.call('POST', '/api/scans', {
    lat: 33.5186,
    lng: -86.8104,
    radiusMiles: 1,
    count: 20,
    categories: [],
  });
  expect(res.status).toBe(200);
  found = ((await res.json()) as { prospects: Scanned[] }).prospects;
  expect(found).toHaveLength(20);
  // The third is called with a note; the second is saved.
  const third = found[2]!;
  const logged = await owner.call('POST', '/api/call-logs', {
    prospectId: third.id,
    name: third.name,
    outcome: 'Called',
    note: 'Owner back Tuesday, ask about the spring sale',
  });
  expect(logged.status).toBe(201);
  const second = (
    (await (await owner.call('GET', '/api/scans/latest?offset=0&limit=20')).json()) as {
      prospects: object[];
    }
  ).prospects[1];
  expect((await owner.call('POST', '/api/saved', { prospect: second })).status).toBe(201);
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

describe('the list on a phone', () => {
  it('shows 20 compact cards in 3,600 px that open to the full card, folded settings and tabs in view', async () => {
    const b = await signedIn(PHONE, true);
    try {
      const page = b.page;
      await page.goto(server.baseUrl);
      const cards = page.getByTestId('prospect-card');
      await expect.poll(() => cards.count(), POLL).toBe(20);
      expect(await page.locator('[data-testid="prospect-card"][data-compact="true"]').count()).toBe(20);
      // The map, below the settings, is made only when the rep scrolls to it: Leaflet's set-up does not hold up
      // the list.
      expect(await page.locator('.prospect-map').count()).toBe(0);
      await page.locator('.map-wrap').scrollIntoViewIfNeeded();
      await page.locator('.prospect-map .leaflet-marker-icon').first().waitFor();
      await page.evaluate(() => window.scrollTo(0, 0));

      // 20 compact cards, from the first one's top to the last one's bottom, fit in 3,600 px (each laid out:
      // a card off screen is drawn at its placeholder height until it comes near).
      await cards.last().scrollIntoViewIfNeeded();
      const first = (await cards.first().boundingBox())!;
      const last = (await cards.last().boundingBox())!;
      expect(last.y + last.height - first.y).toBeLessThanOrEqual(3600);

      // What a compact card shows: rank, name, score, category and distance, the number and Call.
      const top = cards.first();
      expect(await top.getByTestId('prospect-name').textContent()).toBe(found[0]!.name);
      expect(
        await top.getByRole('button', { name: `Number 1: show ${found[0]!.name} on the map` }).count(),
      ).toBe(1);
      expect(await top.getByLabel(/^Score \d+%$/).count()).toBe(1);
      expect(await top.textContent()).toMatch(/ · \d+\.\d mi/);
      expect(await top.getByTestId('compact-phone').textContent()).toBe(found[0]!.phone);
      expect(await top.getByRole('link', { name: `Call ${found[0]!.name}` }).getAttribute('href')).toMatch(
        /^tel:/,
      );
      // Saved, and the last note of the Log.
      expect(await cards.nth(1).getByText('Saved', { exact: true }).count()).toBe(1);
      expect(await cards.nth(2).getByTestId('compact-note').textContent()).toBe(
        'Owner back Tuesday, ask about the spring sale',
      );
      // Restored from an earlier visit, the settings stay open (folding them would move the map under the first
      // paint); a scan folds them.
      expect(await page.getByRole('slider').count()).toBe(2);
      await page.evaluate(() => window.scrollTo(0, 0));
      await keepScreenshot(page, 'phone-list-top-375');
      await cards.first().scrollIntoViewIfNeeded();
      await keepScreenshot(page, 'phone-list-compact-375');

      // Details opens the full card in place (its log form and buttons); Close details folds it again.
      await cards
        .nth(3)
        .getByRole('button', { name: `Details of ${found[3]!.name}` })
        .tap();
      const opened = cards.nth(3);
      await opened.getByRole('button', { name: `Close details of ${found[3]!.name}` }).waitFor();
      expect(await opened.getAttribute('data-compact')).toBeNull();
      expect(await opened.getByRole('link', { name: `Directions to ${found[3]!.name}` }).count()).toBe(1);
      await keepScreenshot(page, 'phone-list-opened-375');
      await opened.getByRole('button', { name: `Close details of ${found[3]!.name}` }).tap();
      await expect.poll(() => cards.nth(3).getAttribute('data-compact'), POLL).toBe('true');

      // Far down the list the tabs stay at the top of the screen; Today opens at its start.
      await cards.nth(14).scrollIntoViewIfNeeded();
      const tabs = page.getByRole('tablist');
      const bar = (await tabs.boundingBox())!;
      expect(bar.y).toBeGreaterThanOrEqual(-1);
      expect(bar.y).toBeLessThanOrEqual(1);
      await keepScreenshot(page, 'phone-list-card-15-375');
      await page.getByRole('tab', { name: /^Today/ }).tap();
      await page.getByRole('tabpanel').waitFor();
      const panelTop = (await page.getByRole('tabpanel').boundingBox())!.y;
      expect(panelTop).toBeGreaterThanOrEqual(0);
      expect(panelTop).toBeLessThan(PHONE.height);

      // A scan folds the settings into one line above the map; Change unfolds them.
      await page.getByRole('tab', { name: /^Prospects/ }).tap();
      await page.getByTestId('scan-button').tap();
      const folded = page.getByTestId('scan-settings-folded');
      await folded.waitFor();
      expect(await folded.textContent()).toMatch(/\d+\.\d mi · 20 prospects · all categories/);
      expect(await page.getByRole('slider').count()).toBe(0);
      await keepScreenshot(page, 'phone-list-folded-375');
      await page.getByRole('button', { name: 'Change scan settings' }).tap();
      await expect.poll(() => page.getByRole('slider').count(), POLL).toBe(2);
      // The rep may choose full cards on this device, and it is remembered.
      await expect.poll(() => cards.count(), POLL).toBeGreaterThan(0);
      const listed = await cards.count();
      await page.getByRole('switch', { name: 'Compact cards' }).tap();
      await expect.poll(() => page.locator('[data-compact="true"]').count(), POLL).toBe(0);
      await page.reload();
      await expect.poll(() => cards.count(), POLL).toBe(listed);
      expect(await page.locator('[data-compact="true"]').count()).toBe(0);
      await page.getByRole('switch', { name: 'Compact cards' }).tap();
      await expect.poll(() => page.locator('[data-compact="true"]').count(), POLL).toBe(listed);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        PHONE.width,
      );
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  });

  it('keeps the full cards and the settings open at 1440×900', async () => {
    const b = await signedIn({ width: 1440, height: 900 }, false);
    try {
      const page = b.page;
      await page.goto(server.baseUrl);
      await expect.poll(() => page.getByTestId('prospect-card').count(), POLL).toBe(20);
      expect(await page.locator('[data-compact="true"]').count()).toBe(0);
      expect(await page.getByRole('switch', { name: 'Compact cards' }).count()).toBe(0);
      expect(await page.getByRole('slider').count()).toBe(2);
      expect(await page.getByTestId('scan-settings-folded').count()).toBe(0);
      await keepScreenshot(page, 'phone-list-desk-1440');
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  });
});
