// Business Data in the Admin Panel, in the browser: the section lists the areas with imported
// businesses and draws them on the map; an admin downloads a region from a local mirror (the repository's fixture
// town, with a header carrying its box and date) and sees its progress end in the counts, and the new area listed
// and drawn; a name that is not a region is refused in plain words. At 1440x900 and 375x812 (the list under the
// map on a phone), with a dialog drawn above the map.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { importOsmFile } from '../../src/server/places/osm-import.js';
import { fixtureExtract } from '../helpers/osm-data.js';
import { startOsmMirror, type OsmMirror } from '../helpers/osm-mirror.js';
import { ALL_NODES, BUSINESS_NODES, WAYS } from '../fixtures/osm/prairie-junction.js';
import { writePbf } from '../fixtures/osm/pbf-writer.js';
import { axeViolations } from './axe.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeOvertureParquet } from '../fixtures/overture/parquet-writer.js';
import { townPlaces } from '../fixtures/overture/places.js';
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

const IMPORTED = BUSINESS_NODES.length + WAYS.length - 1;
const TAKEN = '2026-11-20T21:14:02.000Z';

const PRAIRIE = '/north-america/us/prairie-latest.osm.pbf';
const PRAIRIE_BYTES = writePbf(ALL_NODES, WAYS, 'browser-test', {
  bbox: { minLat: 40.17, minLng: -100.68, maxLat: 40.24, maxLng: -100.57 },
  timestamp: TAKEN,
});

/** Overture places of the same town, some of them the businesses OpenStreetMap has. */
const OVERTURE_FILE = join(mkdtempSync(join(tmpdir(), 'pf-business-data-')), 'prairie-places.parquet');

let server: TestServer;
let mirror: OsmMirror;
let owner: ApiSession;
beforeAll(async () => {
  mirror = await startOsmMirror();
  mirror.set(PRAIRIE, PRAIRIE_BYTES);
  server = await startServer({ OSM_MIRROR_URL: mirror.url });
  owner = await firstAccount(server, {
    name: 'Olive Owner',
    email: 'owner@example.com',
    password: 'owner-pass-1',
  });
  await importOsmFile(server.db, fixtureExtract());
  await writeOvertureParquet(OVERTURE_FILE, townPlaces('prairie', 30, { lat: 40.2, lng: -100.62 }, 0.05), {
    rowGroupSize: 10,
  });
});
afterAll(async () => {
  await server?.close();
  await mirror?.close();
});

const section = (page: Page) => page.getByTestId('areas-section');
const items = (page: Page) => section(page).getByTestId('area-item');
const boxes = (page: Page) => page.locator('.areas-map-wrap path.area-box');

async function openSection(page: Page) {
  // The section's own address (its link beside the panel at 1440 px, its menu on a phone).
  await page.goto(`${server.baseUrl}/admin/business-data`);
  await section(page).waitFor();
  await section(page).scrollIntoViewIfNeeded();
}

/** Map elements under the open dialog that the dialog does not cover (expected: none). */
function uncoveredUnderDialog(page: Page) {
  return page.evaluate(() => {
    const content = [...document.querySelectorAll<HTMLElement>('.mantine-Modal-content')].find(
      (el) => el.getBoundingClientRect().height > 0,
    );
    if (!content) throw new Error('no dialog is open');
    const root = content.closest('.mantine-Modal-root');
    const box = content.getBoundingClientRect();
    let probed = 0;
    let inside = 0;
    const uncovered: string[] = [];
    for (const el of document.querySelectorAll(
      '.areas-map-wrap path.leaflet-interactive, .areas-map-wrap .leaflet-control-zoom a, .areas-map-wrap .leaflet-control-attribution',
    )) {
      const r = el.getBoundingClientRect();
      const points = [
        [r.left + r.width / 2, r.top + r.height / 2],
        [r.left + 3, r.top + 3],
      ];
      for (const [x = 0, y = 0] of points) {
        if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight) continue;
        probed++;
        if (x >= box.left && x <= box.right && y >= box.top && y <= box.bottom) inside++;
        const top = document.elementFromPoint(x, y);
        if (!root?.contains(top)) uncovered.push(`${el.tagName} at ${Math.round(x)},${Math.round(y)}`);
      }
    }
    return { probed, inside, uncovered };
  });
}

describe('Business Data in the Admin Panel', () => {
  it('at 1440x900: lists and draws the areas, downloads a region with progress and refuses a bad name', async () => {
    const b = await openBrowser(server.baseUrl);
    try {
      const page = b.page;
      await registerViaApi(
        server,
        b,
        { name: 'Ada Admin', email: 'ada@example.com', password: 'ada-pass-123' },
        { inviter: owner },
      );
      const me = (await (await page.request.get(`${server.baseUrl}/api/me`)).json()) as {
        user: { id: string };
      };
      expect((await owner.call('PATCH', `/api/users/${me.user.id}/role`, { role: 'admin' })).status).toBe(
        200,
      );
      await openSection(page);

      // The file imported before: listed with its count and the import's date, and drawn.
      await expect.poll(() => items(page).count(), POLL).toBe(1);
      await expect
        .poll(() => section(page).getByTestId('areas-summary').textContent(), POLL)
        .toBe(`${IMPORTED} businesses stored in 1 area.`);
      const file = items(page).first();
      expect(await file.textContent()).toContain('prairie-junction.osm.pbf');
      expect(await file.textContent()).toContain(`${IMPORTED} businesses`);
      expect(await file.textContent()).toContain('(the import’s date)');
      expect(await file.textContent()).toContain('Imported from a file');
      await expect.poll(() => boxes(page).count(), POLL).toBe(1);

      // A new region, from the mirror: progress, then the counts; listed with the extract's date and drawn.
      // The mirror holds the download after its first 2,000 bytes: the panel shows how far it is.
      mirror.hold(PRAIRIE, 2000);
      await section(page).getByLabel('Region').fill('us/prairie');
      await section(page).getByRole('button', { name: 'Download and Import' }).click();
      const status = section(page).getByTestId('area-refresh');
      const total = `${Math.ceil(PRAIRIE_BYTES.length / 1e3)} KB`;
      await status
        .getByText(new RegExp(`^us/prairie: downloading \\d+% \\(2 KB of ${total}\\)\\.\\.\\.$`))
        .waitFor({ timeout: 15_000 });
      expect(await status.getByRole('progressbar').count()).toBe(1);
      await keepScreenshot(page, 'business-data-progress-1440');
      mirror.release();
      await expect
        .poll(() => status.getAttribute('data-status'), { ...POLL, timeout: 30_000 })
        .toBe('complete');
      expect(await status.textContent()).toBe(
        `us/prairie: done. ${IMPORTED} businesses imported; ${IMPORTED} stored in all.`,
      );
      await expect.poll(() => items(page).count(), POLL).toBe(2);
      const region = items(page).first();
      expect(await region.textContent()).toContain('us/prairie');
      expect(await region.textContent()).toContain('(the extract’s date)');
      expect(await region.textContent()).toContain(new Date(TAKEN).toLocaleDateString('en-US'));
      await expect.poll(() => boxes(page).count(), POLL).toBe(2);
      expect(await region.getByRole('button', { name: 'Refresh us/prairie' }).isEnabled()).toBe(true);
      expect(await axeViolations(page, '[data-testid="areas-section"]')).toEqual([]);

      // Beside each other on a desk: the list to the right of the map.
      const map = await page.locator('.areas-map-wrap').boundingBox();
      const list = await section(page).getByRole('list', { name: 'Areas with business data' }).boundingBox();
      expect(list!.x).toBeGreaterThanOrEqual(map!.x + map!.width - 1);
      await section(page).scrollIntoViewIfNeeded();
      await keepScreenshot(page, 'business-data-1440');

      // Overture places from this computer: uploaded, then imported as a job that ends in its counts, what it
      // merged and what it left out; the new area is listed.
      await section(page).locator('input[type="file"]').setInputFiles(OVERTURE_FILE);
      await section(page).getByRole('button', { name: 'Upload and Import' }).click();
      const overture = section(page)
        .getByTestId('area-refresh')
        .filter({ hasText: 'prairie-places.parquet' });
      await expect
        .poll(() => overture.getAttribute('data-status'), { ...POLL, timeout: 30_000 })
        .toBe('complete');
      expect(await overture.textContent()).toMatch(
        /^prairie-places\.parquet: done\. \d+ businesses imported; \d+ stored in all\. \d+ merged with OpenStreetMap businesses; left out: \d+ under the confidence threshold/,
      );
      await expect.poll(() => items(page).count(), POLL).toBe(3);
      expect(await items(page).first().textContent()).toContain('Overture prairie-places.parquet');
      await keepScreenshot(page, 'business-data-overture-1440');

      // Not a region: the server's words.
      await section(page).getByLabel('Region').fill('alabama');
      await section(page).getByRole('button', { name: 'Download and Import' }).click();
      await page.getByTestId('notice').filter({ hasText: 'Unknown region "alabama"' }).waitFor();

      // A dialog opened over the map covers it.
      await page.getByRole('button', { name: 'Help' }).click();
      await page.locator('.mantine-Modal-content').first().waitFor();
      await page.evaluate(() => {
        const map = document.querySelector('.areas-map-wrap');
        if (!map) throw new Error('no map');
        document.documentElement.scrollTop = Math.max(
          0,
          map.getBoundingClientRect().top + document.documentElement.scrollTop - 120,
        );
      });
      await page.waitForTimeout(300);
      const probe = await uncoveredUnderDialog(page);
      await keepScreenshot(page, 'business-data-dialog-1440');
      expect(probe.inside).toBeGreaterThan(0);
      expect(probe.uncovered).toEqual([]);
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  });

  it('at 375x812: the list stacks under the map', async () => {
    const b = await openBrowser(server.baseUrl, { width: 375, height: 812 }, { touch: true });
    try {
      const page = b.page;
      await registerViaApi(
        server,
        b,
        { name: 'Pia Phone', email: 'pia@example.com', password: 'pia-pass-123' },
        { inviter: owner },
      );
      const me = (await (await page.request.get(`${server.baseUrl}/api/me`)).json()) as {
        user: { id: string };
      };
      expect((await owner.call('PATCH', `/api/users/${me.user.id}/role`, { role: 'admin' })).status).toBe(
        200,
      );
      await openSection(page);
      await expect.poll(() => items(page).count(), POLL).toBe(3);
      await expect.poll(() => boxes(page).count(), POLL).toBe(3);
      // The map credits the business data's sources, Overture's among them since its import.
      expect(await page.locator('.areas-map-wrap .leaflet-control-attribution').textContent()).toContain(
        '© OpenStreetMap contributors, Overture Maps Foundation',
      );
      const map = await page.locator('.areas-map-wrap').boundingBox();
      const list = await section(page).getByRole('list', { name: 'Areas with business data' }).boundingBox();
      expect(list!.y).toBeGreaterThanOrEqual(map!.y + map!.height - 1);
      // Every button of the section (the map's zoom buttons too) is a 44 px target on a touch screen.
      const small = await section(page).evaluate((root) =>
        [...root.querySelectorAll('button, [role="button"]')]
          .map((e) => ({ name: e.getAttribute('aria-label') || e.textContent, r: e.getBoundingClientRect() }))
          .filter(({ r }) => r.width > 0 && (r.width < 44 || r.height < 44))
          .map(({ name, r }) => `${name}: ${Math.round(r.width)}x${Math.round(r.height)}`),
      );
      expect(small).toEqual([]);
      expect(await section(page).getByRole('button').count()).toBeGreaterThan(4);
      // Nothing wider than the phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await page.locator('.areas-map-wrap').scrollIntoViewIfNeeded();
      await keepScreenshot(page, 'business-data-375');
      await items(page).first().scrollIntoViewIfNeeded();
      await keepScreenshot(page, 'business-data-375-list');
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  });
});
