// Territories in the browser. At 1440x900 an admin draws a territory around the fixture town's main street in the
// Admin Panel (clicks on the map, a name, a rep), saves it and sees it listed; the rep then sees its outline on
// their map, scans the territory, and gets only businesses inside it; the Team page shows its row. At 375x812 the
// list reads on a phone, a ZIP code list is typed, the server's message for an unknown ZIP code shows as it
// comes, and the rep's map and the Team view fit the screen. Screenshots of each.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ALL_GROUPS } from '../../src/core/categories.js';
import { importOsmFile } from '../../src/server/places/osm-import.js';
import { fixtureExtract } from '../helpers/osm-data.js';
import { axeViolations } from './axe.js';
import { CENTER } from '../fixtures/osm/prairie-junction.js';
import {
  keepScreenshot,
  openBrowser,
  POLL,
  registerViaApi,
  startServer,
  type TestBrowser,
  type TestServer,
} from './harness.js';

let server: TestServer;
let admin: TestBrowser;
beforeAll(async () => {
  server = await startServer();
  await importOsmFile(server.db, fixtureExtract());
  admin = await openBrowser(server.baseUrl);
  await registerViaApi(server, admin, {
    name: 'Olive Owner',
    email: 'owner@example.com',
    password: 'owner-pass-1',
  });
  await saveCenter(admin);
});
afterAll(async () => {
  await admin?.close();
  await server?.close();
});

/** Search settings at the fixture town, so the maps open on it. */
async function saveCenter(b: TestBrowser) {
  const res = await b.page.request.patch(`${server.baseUrl}/api/me`, {
    data: {
      searchSettings: {
        lat: CENTER.lat,
        lng: CENTER.lng,
        label: 'Prairie Junction',
        radiusMiles: 1,
        count: 20,
        categories: [...ALL_GROUPS],
      },
    },
  });
  expect(res.ok()).toBe(true);
}

/** Whether [lng, lat] lies inside the ring (ray casting). */
function inside([x, y]: number[], ring: number[][]): boolean {
  let hit = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi! > y! !== yj! > y! && x! < ((xj! - xi!) * (y! - yi!)) / (yj! - yi!) + xi!) hit = !hit;
  }
  return hit;
}

/** No page wider than the screen (a phone scrolls only down). */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

it('draws a territory at 1440 px; its rep sees the outline and scans it', async () => {
  const rep = await openBrowser(server.baseUrl);
  try {
    await registerViaApi(
      server,
      rep,
      { name: 'Sam Seller', email: 'sam@example.com', password: 'sam-pass-123' },
      { inviter: admin },
    );
    await saveCenter(rep);
    // The rep's map before any territory: no outline is drawn.
    const rp = rep.page;
    await rp.goto(server.baseUrl);
    await rp.locator('.leaflet-container.prospect-map').waitFor();
    expect(await rp.locator('path.territory-outline').count()).toBe(0);
    expect(await rp.getByRole('switch', { name: 'Scan a territory' }).count()).toBe(0);
    const page = admin.page;
    await page.goto(`${server.baseUrl}/admin/territories`);
    await page.getByTestId('territories-section').waitFor();
    await expect.poll(() => page.getByTestId('territory-count').textContent(), POLL).toBe('0 territories');

    await page.getByTestId('territory-new').click();
    await page.getByTestId('territory-name').fill('Main Street');
    await page.getByTestId('territory-reps').click();
    await page.getByRole('option', { name: /Sam Seller/ }).click();
    await page.keyboard.press('Escape');

    // Four corners around the town centre (the map opens on the admin's search centre at zoom 13: a pixel is
    // about 0.00017 degree), then Finish.
    const map = page.locator('.leaflet-container.territory-map');
    await map.waitFor();
    await page.getByTestId('territory-draw').click();
    const box = (await map.boundingBox())!;
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    for (const [dx, dy] of [
      [-30, -30],
      [30, -30],
      [30, 30],
      [-30, 30],
    ] as const) {
      // Moved there first, as a hand does: the drawing places the point where the pointer last moved to.
      await page.mouse.move(cx + dx, cy + dy, { steps: 4 });
      await page.mouse.click(cx + dx, cy + dy);
      // Apart, so two clicks are never read as the double-click that closes the outline.
      await page.waitForTimeout(400);
    }
    await expect.poll(() => page.getByTestId('territory-finish').isEnabled(), POLL).toBe(true);
    await page.getByTestId('territory-finish').click();
    await expect
      .poll(() => page.getByTestId('territory-draw-hint').textContent(), POLL)
      .toBe('Outline drawn.');
    await keepScreenshot(page, 'territories-draw-1440');
    expect(await axeViolations(page, '[data-testid="territory-form"]')).toEqual([]);

    await page.getByTestId('territory-save').click();
    const row = page.getByTestId('territory-row');
    await expect.poll(() => row.count(), POLL).toBe(1);
    expect(await row.textContent()).toContain('Main Street');
    expect(await row.textContent()).toContain('Reps: Sam Seller');
    expect(await row.textContent()).toMatch(/sq mi · drawn on the map/);
    await keepScreenshot(page, 'territories-list-1440');
    expect(await axeViolations(page, '[data-testid="territories-section"]')).toEqual([]);

    // Edit: the outline comes back on the map as drawn, and saves again unchanged (read back through Leaflet).
    const before = await row.textContent();
    await page.getByRole('button', { name: 'Edit Main Street' }).click();
    await expect
      .poll(() => page.getByTestId('territory-draw-hint').textContent(), POLL)
      .toBe('Outline drawn.');
    expect(await page.locator('.territory-map path.leaflet-interactive').count()).toBe(1);
    await page.getByTestId('territory-save').click();
    await expect.poll(() => row.count(), POLL).toBe(1);
    expect(await row.textContent()).toBe(before);

    // From the keyboard: arrow keys move the map under the crosshair, a button places a corner at its centre.
    await page.getByTestId('territory-new').click();
    await page.getByTestId('territory-draw').focus();
    await page.keyboard.press('Enter');
    const keyMap = page.locator('.leaflet-container.territory-map');
    for (const arrow of ['ArrowRight', 'ArrowDown', 'ArrowLeft']) {
      await page.getByTestId('territory-add-center').focus();
      await page.keyboard.press('Enter');
      await keyMap.focus();
      await page.keyboard.press(arrow);
      await page.waitForTimeout(300);
    }
    await page.getByTestId('territory-add-center').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('territory-finish').isEnabled(), POLL).toBe(true);
    await keepScreenshot(page, 'territories-keyboard-1440');
    await page.getByTestId('territory-finish').focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.getByTestId('territory-draw-hint').textContent(), POLL)
      .toBe('Outline drawn.');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => row.count(), POLL).toBe(1);

    // The rep, whose page stayed open: the outline arrives with the live notice, then a scan of the territory.
    await expect.poll(() => rp.locator('path.territory-outline').count(), POLL).toBe(1);
    // Its name on hovering the line; a click inside still picks a point on the map.
    const outline = (await rp.locator('path.territory-outline').boundingBox())!;
    await rp.mouse.move(outline.x + 1, outline.y + outline.height / 2, { steps: 3 });
    await expect.poll(() => rp.locator('.leaflet-tooltip').textContent(), POLL).toBe('Main Street');
    await rp.mouse.click(outline.x + outline.width / 2, outline.y + outline.height / 2);
    await rp.getByTestId('picked-point').waitFor();
    await rp.getByRole('switch', { name: 'Scan a territory' }).check();
    await expect.poll(() => rp.getByTestId('scan-territory').inputValue(), POLL).not.toBe('');
    expect(await rp.getByTestId('scan-button').textContent()).toBe('Scan Territory');
    await rp.getByTestId('scan-button').click();
    await expect.poll(() => rp.getByTestId('prospect-name').count(), POLL).toBeGreaterThan(0);
    await keepScreenshot(rp, 'territories-map-1440');

    const territories = (await (await rp.request.get(`${server.baseUrl}/api/territories`)).json()) as {
      territories: { id: string; area: { type: 'Polygon'; coordinates: number[][][] } }[];
    };
    expect(territories.territories).toHaveLength(1);
    const ring = territories.territories[0]!.area.coordinates[0]!;
    const latest = (await (await rp.request.get(`${server.baseUrl}/api/scans/latest?limit=100`)).json()) as {
      prospects: { name: string; lat: number; lng: number }[];
    };
    expect(latest.prospects.length).toBeGreaterThan(0);
    for (const p of latest.prospects) expect(inside([p.lng, p.lat], ring), p.name).toBe(true);

    // The Team page's territory view.
    await page.goto(`${server.baseUrl}/team`);
    const team = page.getByTestId('team-section-territories');
    await team.waitFor();
    await expect.poll(() => page.getByTestId('team-territories-table').count(), POLL).toBe(1);
    expect(await page.getByTestId('team-territories-table').textContent()).toContain('Main Street');
    await team.scrollIntoViewIfNeeded();
    await keepScreenshot(page, 'territories-team-1440');

    expect(rep.pageErrors).toEqual([]);
    expect(admin.pageErrors).toEqual([]);
  } finally {
    await rep.close();
  }
});

it('lists territories and takes ZIP codes at 375 px; the rep map and Team view fit', async () => {
  const phone = await openBrowser(server.baseUrl, { width: 375, height: 812 }, { cards: 'compact' });
  try {
    // The same admin on a phone: the session cookie of the desktop profile.
    await phone.context.addCookies(await admin.context.cookies());
    const page = phone.page;
    await page.goto(`${server.baseUrl}/admin/territories`);
    await page.getByTestId('territories-section').waitFor();
    await expect.poll(() => page.getByTestId('territory-row').count(), POLL).toBeGreaterThan(0);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.getByTestId('territories-section').scrollIntoViewIfNeeded();
    await keepScreenshot(page, 'territories-list-375', { fullPage: true });

    await page.getByTestId('territory-new').click();
    await page.getByTestId('territory-name').fill('Depot Road');
    await page.getByText('ZIP codes', { exact: true }).click();
    const zips = page.getByTestId('territory-zips');
    await zips.pressSequentially('69001,00000');
    await zips.press('Enter');
    await page.getByTestId('territory-save').click();
    // The server's own words for the unknown code.
    const alert = page.getByTestId('territory-form').getByRole('alert');
    await expect.poll(() => alert.textContent(), POLL).toMatch(/00000/);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await keepScreenshot(page, 'territories-zip-375', { fullPage: true });

    // Backspace in the empty field takes the last code off.
    await zips.press('Backspace');
    await page.getByTestId('territory-save').click();
    await expect.poll(() => page.getByTestId('territory-row').count(), POLL).toBe(2);
    const depot = page.getByTestId('territory-row').filter({ hasText: 'Depot Road' });
    expect(await depot.textContent()).toContain('ZIP codes 69001');
    expect(await overflow(page)).toBeLessThanOrEqual(0);

    await page.goto(`${server.baseUrl}/team`);
    const team = page.getByTestId('team-section-territories');
    await team.waitFor();
    await team.scrollIntoViewIfNeeded();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await keepScreenshot(page, 'territories-team-375');

    // An admin's map shows every territory's outline; a territory scan names it in the phone's folded settings.
    await page.goto(server.baseUrl);
    await expect.poll(() => page.locator('path.territory-outline').count(), POLL).toBe(2);
    await page.getByRole('switch', { name: 'Scan a territory' }).check();
    await page.getByTestId('scan-territory').selectOption({ label: 'Depot Road' });
    await page.getByTestId('scan-button').click();
    await expect.poll(() => page.getByTestId('scan-settings-line').count(), POLL).toBe(1);
    expect(await page.getByTestId('scan-settings-line').textContent()).toMatch(/^Depot Road · 20 prospects/);
    await page.locator('.map-wrap').scrollIntoViewIfNeeded();
    await keepScreenshot(page, 'territories-map-375');

    // Delete asks first; Cancel keeps it, Delete removes it.
    await page.goto(`${server.baseUrl}/admin/territories`);
    const remove = page.getByRole('button', { name: 'Delete Depot Road' });
    await remove.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    expect(await page.getByTestId('territory-row').count()).toBe(2);
    await remove.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete Territory' }).click();
    await expect.poll(() => page.getByTestId('territory-row').count(), POLL).toBe(1);
    expect(phone.pageErrors).toEqual([]);
  } finally {
    await phone.close();
  }
});
