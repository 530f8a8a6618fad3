// Map tiles of the areas the rep viewed are kept by the service worker. A tile server on this machine
// (127.0.0.1, a 256x256 PNG for any tile) stands in for the configured one: after the map was viewed online, a
// reload with the network cut shows the same tiles from the device and no warning; tiles of an area never viewed
// (zoomed out) cannot load and the map says so.
import { createServer, type Server } from 'node:http';
import { deflateSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  keepScreenshot,
  openBrowser,
  POLL,
  registerViaApi,
  startServer,
  type TestServer,
} from './harness.js';
import { cachedState } from './offline-helpers.js';

const SLOW = { timeout: 20_000, interval: 200 } as const;
const TILES_MISSING =
  'Offline: map tiles of this area are not saved on this device. They load when you are back online.';

/** A plain 256x256 PNG (one light grey), built here so no file is needed. */
function greyTile(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const byte of buf) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(256, 0);
  header.writeUInt32BE(256, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  const rows = Buffer.alloc(257 * 256, 0xdd);
  for (let y = 0; y < 256; y++) rows[y * 257] = 0; // filter byte of each row
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

let server: TestServer;
let tiles: Server;
let tileOrigin = '';
const served: string[] = [];

beforeAll(async () => {
  const png = greyTile();
  tiles = createServer((req, res) => {
    served.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'max-age=86400' });
    res.end(png);
  });
  await new Promise<void>((resolve) => tiles.listen(0, '127.0.0.1', resolve));
  tileOrigin = `http://127.0.0.1:${(tiles.address() as AddressInfo).port}`;
  server = await startServer({
    TILE_URL: `${tileOrigin}/{z}/{x}/{y}.png`,
    TILE_ATTRIBUTION: 'Local Test Tiles',
  });
});
afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => tiles?.close(resolve));
});

const loadedTiles = (page: Page) => page.locator('.prospect-map img.leaflet-tile-loaded').count();
const cachedTiles = (page: Page) =>
  page.evaluate(async () => (await (await caches.open('map-tiles')).keys()).length);

describe('map tiles offline', () => {
  it('shows the tiles of an area viewed online with the network cut, and says when an area has none', async () => {
    const rep = await openBrowser(server.baseUrl, { width: 1440, height: 900 }, { serviceWorkers: 'allow' });
    // The harness lets only the app's own origin through; the local tile server too, here.
    await rep.context.route(`${tileOrigin}/**`, (route) => route.continue());
    try {
      const page = rep.page;
      const { id } = await registerViaApi(server, rep, {
        name: 'Tia Tiles',
        email: 'tia@example.com',
        password: 'tia-pass-1234',
      });
      await page.goto(server.baseUrl);
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready;
      });
      // The worker controls the next load: the tiles of that load go through it and are kept.
      await page.reload();
      await expect
        .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), SLOW)
        .toBe(true);
      await page.locator('.prospect-map').waitFor({ timeout: SLOW.timeout });
      await expect.poll(() => loadedTiles(page), SLOW).toBeGreaterThan(3);
      await expect.poll(() => cachedTiles(page), SLOW).toBeGreaterThanOrEqual(await loadedTiles(page));
      const viewedOnline = await loadedTiles(page);
      // The app keeps what it shows on the device half a second after it changes, or as the page is left: the
      // map's config (the tile URL) must be kept before the connection goes, or the offline reload has no tile
      // layer to draw. Waited for, so the test does not race the reload against that save.
      await expect
        .poll(() => cachedState(page, id).then((state) => state.includes(`${tileOrigin}/{z}`)), SLOW)
        .toBe(true);

      // Offline: the same area loads from the device, with no warning.
      await rep.context.setOffline(true);
      const before = served.length;
      await page.reload();
      await page.getByTestId('offline-banner').waitFor();
      await page.locator('.prospect-map').waitFor({ timeout: SLOW.timeout });
      await expect.poll(() => loadedTiles(page), SLOW).toBe(viewedOnline);
      expect(served.length).toBe(before);
      await page.waitForTimeout(500);
      expect(await page.getByTestId('tiles-missing').count()).toBe(0);
      await keepScreenshot(page, 'offline-tiles-kept-1440');

      // Zoomed out three steps: an area never viewed. Its tiles cannot load and the map says so.
      for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Zoom out' }).click();
      await page.getByTestId('tiles-missing').waitFor({ timeout: SLOW.timeout });
      expect(await page.getByTestId('tiles-missing').innerText()).toBe(TILES_MISSING);
      expect(served.length).toBe(before);
      await keepScreenshot(page, 'offline-tiles-missing-1440');
      await page.setViewportSize({ width: 375, height: 812 });
      await page.getByTestId('tiles-missing').scrollIntoViewIfNeeded();
      await keepScreenshot(page, 'offline-tiles-missing-375');

      // Back online the message goes and the new area loads.
      await rep.context.setOffline(false);
      await page.evaluate(() => window.dispatchEvent(new Event('online')));
      await expect.poll(() => page.getByTestId('tiles-missing').count(), POLL).toBe(0);
      expect(rep.pageErrors).toEqual([]);
    } finally {
      await rep.close();
    }
  });
});
