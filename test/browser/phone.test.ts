// Phone ergonomics: on a 375×812 touch screen every button and checkbox is at least 44×44 px,
// "Remove" fits on the admin lists, and markers that would cover each other are drawn as numbered clusters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  firstAccount,
  keepScreenshot,
  openBrowser,
  POLL,
  startServer,
  type ApiSession,
  type TestBrowser,
  type TestServer,
} from './harness.js';
import { scannedBusiness } from '../helpers/businesses.js';

const PHONE = { width: 375, height: 812 };
const MIN = 44;

let server: TestServer;
let owner: ApiSession;
beforeAll(async () => {
  server = await startServer();
  owner = await firstAccount(server, {
    name: 'Pat Phone',
    email: 'pat@example.com',
    password: 'pat-pass-1234',
  });
  const quiet = await owner.call('PATCH', '/api/me', {
    hideInstructions: true,
    installPromptDismissed: true,
  });
  expect(quiet.status).toBe(200);
});
afterAll(async () => {
  await server?.close();
});

/** The owner's session cookie in a phone-sized touch browser. */
async function phoneBrowser(): Promise<TestBrowser> {
  const b = await openBrowser(server.baseUrl, PHONE, { touch: true });
  const [name, ...rest] = owner.cookie.split('; ')[0]!.split('=');
  await b.context.addCookies([{ name: name!, value: rest.join('='), url: server.baseUrl }]);
  return b;
}

async function scan(count: number, at = { lat: 33.5186, lng: -86.8104 }) {
  const res = await owner.call('POST', '/api/scans', { ...at, radiusMiles: 1, count, categories: [] });
  expect(res.status).toBe(200);
  return ((await res.json()) as { prospects: unknown[] }).prospects.length;
}

/**
 * Every visible button (and element acting as one), tab and checkbox outside the map, with its tap area:
 * a checkbox's is the box and its label together (a tap on the label ticks it). Map markers are left to the
 * clustering test: they are map symbols, kept apart by clustering.
 */
async function tapTargets(page: Page): Promise<{ name: string; width: number; height: number }[]> {
  return page.evaluate(() => {
    const visible = (e: Element) => {
      const r = e.getBoundingClientRect();
      const style = getComputedStyle(e);
      return r.width > 0 && r.height > 0 && style.visibility !== 'hidden' && style.display !== 'none';
    };
    const nameOf = (e: Element) =>
      (e.getAttribute('aria-label') || e.textContent || e.getAttribute('title') || e.tagName)
        .trim()
        .slice(0, 40);
    const out: { name: string; width: number; height: number }[] = [];
    const selector = 'button, [role="button"], [role="tab"], a.mantine-Button-root';
    for (const e of document.querySelectorAll(selector)) {
      if (e.closest('.leaflet-container') || !visible(e)) continue;
      const r = e.getBoundingClientRect();
      out.push({ name: nameOf(e), width: Math.round(r.width), height: Math.round(r.height) });
    }
    for (const input of document.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')) {
      if (!visible(input)) continue;
      const boxes = [input.getBoundingClientRect()];
      for (const label of input.labels ?? []) if (visible(label)) boxes.push(label.getBoundingClientRect());
      const left = Math.min(...boxes.map((b) => b.left));
      const right = Math.max(...boxes.map((b) => b.right));
      const top = Math.min(...boxes.map((b) => b.top));
      const bottom = Math.max(...boxes.map((b) => b.bottom));
      const label = input.labels?.[0]?.textContent?.trim() ?? input.getAttribute('aria-label') ?? 'checkbox';
      out.push({
        name: `checkbox ${label}`,
        width: Math.round(right - left),
        height: Math.round(bottom - top),
      });
    }
    return out;
  });
}

const tooSmall = (targets: { name: string; width: number; height: number }[]) =>
  targets.filter((t) => t.width < MIN || t.height < MIN).map((t) => `${t.name}: ${t.width}×${t.height}`);

/**
 * The owner's latest results: 70 businesses in a 10×7 grid 40 m apart (a busy downtown block), made from a
 * demo scan's prospects with new ids, names and positions.
 */
async function seventyCloseTogether(): Promise<void> {
  // The screen's default centre (src/web/defaults.ts): the map opens on it.
  const center = { lat: 33.5186, lng: -86.8104 };
  const res = await owner.call('POST', '/api/scans', {
    ...center,
    radiusMiles: 1,
    count: 50,
    categories: [],
  });
  expect(res.status).toBe(200);
  const found = ((await res.json()) as { prospects: Record<string, unknown>[] }).prospects;
  const seventy = Array.from({ length: 70 }, (_, i) => ({
    ...found[i % found.length],
    id: `cluster-${i + 1}`,
    placeId: undefined,
    name: `Downtown Business ${i + 1}`,
    lat: center.lat + ((i % 10) - 5) * 0.0004,
    lng: center.lng + (Math.floor(i / 10) - 3) * 0.0004,
  }));
  const me = (await (await owner.call('GET', '/api/me')).json()) as { user: { id: string } };
  await server.db.kysely
    .updateTable('latest_scans')
    .set({ prospects: JSON.stringify(seventy), total: 70 })
    .where('user_id', '=', me.user.id)
    .execute();
}

describe('the phone layout', () => {
  it('makes every button, tab and checkbox at least 44×44 px, on the main screen, the cards and the admin lists', async () => {
    await scan(20);
    // Something on each admin list, so its Remove buttons show.
    const blocked = await owner.call('POST', '/api/blocklist', {
      businessId: 'demo:blocked-1',
      label: 'A Blocked Business With A Long Name LLC',
    });
    expect(blocked.status).toBeLessThan(300);
    await scannedBusiness(server.db, 'demo:adv-1', 'An Advertiser With A Rather Long Name Inc.');
    const marked = await owner.call('POST', '/api/current-advertisers', {
      businessId: 'demo:adv-1',
      label: 'An Advertiser With A Rather Long Name Inc.',
    });
    expect(marked.status).toBeLessThan(300);
    const b = await phoneBrowser();
    try {
      const page = b.page;
      expect(await page.evaluate(() => matchMedia('(pointer: coarse)').matches)).toBe(true);
      await page.goto(server.baseUrl);
      await expect.poll(() => page.getByTestId('prospect-card').count(), POLL).toBe(20);
      // On a touch screen the help's tip says tap, not click.
      await page.getByRole('button', { name: 'Help' }).click();
      const help = page.getByRole('dialog', { name: 'Welcome to Prospect Finder' });
      await help.getByText('Double-tap the map to set a new center point', { exact: false }).waitFor();
      // Help clears the "don't show" preference; ticked again, the later tests' screens open without it.
      await help.getByLabel("Don't show this again").check();
      await help.getByRole('button', { name: 'Get Started' }).click();
      await help.waitFor({ state: 'detached' });
      // Header, controls (categories included), tabs, and the first cards (all cards are alike).
      const checked: string[] = [];
      const main = await tapTargets(page);
      expect(main.length).toBeGreaterThan(30);
      expect(main.some((t) => t.name.startsWith('checkbox'))).toBe(true);
      expect(main.some((t) => t.name.startsWith('Call '))).toBe(true);
      checked.push(...tooSmall(main));
      await keepScreenshot(page, 'phone-targets-375', { fullPage: true });

      for (const tab of [/^Blocked/, /^Current Advertisers/, /^Universal Blocklist Management/]) {
        if (String(tab).includes('Universal')) {
          // The Admin Panel is a page of its own; its sections are in a menu on a phone.
          await page.getByRole('link', { name: 'Admin Panel' }).tap();
          await page.getByRole('combobox', { name: 'Section' }).tap();
          await page.getByRole('option', { name: tab }).tap();
        } else {
          await page.getByRole('tab', { name: tab }).tap();
        }
        const remove = page.getByRole('button', { name: /^Remove / }).first();
        await remove.waitFor();
        // Remove fits inside the list: nothing of it is cut off on the right.
        const box = (await remove.boundingBox())!;
        expect(box.x + box.width, `${tab} Remove`).toBeLessThanOrEqual(PHONE.width);
        const clipped = await remove.evaluate((e) => {
          const r = e.getBoundingClientRect();
          for (let p = e.parentElement; p; p = p.parentElement) {
            const s = getComputedStyle(p);
            if (s.overflow === 'visible' && s.overflowX === 'visible') continue;
            const c = p.getBoundingClientRect();
            if (r.right > c.right + 0.5 || r.left < c.left - 0.5) return true;
          }
          // Nor inside it: the label shows whole ('Remo' clipped by a squeezed button is cut off too).
          return [e, ...e.querySelectorAll('*')].some((x) => x.scrollWidth > x.clientWidth + 1);
        });
        expect(clipped, `${tab} Remove cut off`).toBe(false);
        checked.push(...tooSmall(await tapTargets(page)));
        await keepScreenshot(page, `phone-${String(tab).replace(/\W+/g, '')}-375`);
      }

      expect([...new Set(checked)]).toEqual([]);
    } finally {
      await b.close();
    }
  });

  for (const size of [PHONE, { width: 1440, height: 900 }]) {
    it(`clusters 70 businesses close together at ${size.width}×${size.height}; markers on their own keep their numbers`, async () => {
      await seventyCloseTogether();
      const b = size === PHONE ? await phoneBrowser() : await openBrowser(server.baseUrl, size);
      try {
        const page = b.page;
        if (size !== PHONE) {
          const [name, ...rest] = owner.cookie.split('; ')[0]!.split('=');
          await b.context.addCookies([{ name: name!, value: rest.join('='), url: server.baseUrl }]);
        }
        await page.goto(server.baseUrl);
        // The restored first page is on screen before Load Next is pressed: a press while the restore is still
        // replacing the list was lost (CI, once, at 1440x900: 20 cards where 40 were expected).
        await expect.poll(() => page.getByTestId('prospect-card').count(), POLL).toBe(20);
        // A page of 20 at a time: load the rest.
        for (const loaded of [40, 60, 70]) {
          await page.getByRole('button', { name: /^Load Next \d+ Prospects$/ }).click();
          await expect.poll(() => page.getByTestId('prospect-card').count(), POLL).toBe(loaded);
        }
        // On a phone the map is made when it is scrolled to.
        await page.locator('.map-wrap').scrollIntoViewIfNeeded();
        await page.locator('.prospect-map').waitFor({ timeout: 20_000 });
        const clusters = page.locator('.leaflet-marker-icon.prospect-cluster');
        await expect.poll(() => clusters.count(), POLL).toBeGreaterThan(0);
        const singles = page.locator('.leaflet-marker-icon.prospect-marker');
        const counts = (await clusters.allTextContents()).map((t) => Number.parseInt(t, 10));
        const numbers = (await singles.allTextContents()).map((t) => Number(t.trim()));
        // Fewer marker elements than businesses, every cluster saying how many it holds, none lost.
        expect(counts.length + numbers.length).toBeLessThan(70);
        for (const n of counts) expect(n).toBeGreaterThanOrEqual(2);
        expect(counts.reduce((a, n) => a + n, 0) + numbers.length).toBe(70);
        for (const n of numbers) expect(Number.isInteger(n) && n >= 1 && n <= 70).toBe(true);
        // The best ten are never inside a cluster.
        for (let n = 1; n <= 10; n++) expect(numbers).toContain(n);
        // The cluster's count is text a screen reader reads too.
        expect(await clusters.first().textContent()).toMatch(/^\+\d+ more businesses, zoom in$/);
        await keepScreenshot(page, `clusters-70-${size.width}`);

        // A card's number opens its business's info card even when that marker sits inside a cluster.
        await page.getByRole('button', { name: /^Number 35: show Downtown Business 35 / }).click();
        await expect
          .poll(() => page.getByTestId('info-card').textContent(), POLL)
          .toContain('Downtown Business 35');
        await page.keyboard.press('Escape');

        // Zooming in splits clusters into numbered markers, readable: the number fits its 28 px circle.
        const before = numbers.length;
        for (let i = 0; i < 5 && (await singles.count()) <= before; i++) {
          await page.locator('.leaflet-control-zoom-in').click();
          await page.waitForTimeout(600);
        }
        await expect.poll(() => singles.count(), POLL).toBeGreaterThan(before);
        const marker = singles.first();
        const style = await marker.evaluate((e) => {
          const s = getComputedStyle(e);
          const r = e.getBoundingClientRect();
          return { font: Number.parseFloat(s.fontSize), width: r.width, text: e.textContent?.trim() };
        });
        expect(style.font).toBeGreaterThanOrEqual(13);
        expect(style.width).toBeGreaterThanOrEqual(28);
        expect(style.text).toMatch(/^\d+$/);
        await keepScreenshot(page, `clusters-70-zoomed-${size.width}`);
        expect(b.pageErrors).toEqual([]);
      } finally {
        await b.close();
      }
    });
  }
});
