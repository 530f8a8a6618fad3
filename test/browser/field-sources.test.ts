// A business both OpenStreetMap and Overture Maps hold is one card, with the phone Overture adds, and the card says
// where its phone and address came from; the map credits both sources. At 1440x900 and 375x812.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importOsmFile } from '../../src/server/places/osm-import.js';
import { importOvertureFiles } from '../../src/server/places/overture-import.js';
import { fixtureExtract } from '../helpers/osm-data.js';
import { CENTER } from '../fixtures/osm/prairie-junction.js';
import { writeOvertureParquet } from '../fixtures/overture/parquet-writer.js';
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

let server: TestServer;
let owner: ApiSession;
beforeAll(async () => {
  server = await startServer();
  owner = await firstAccount(server, {
    name: 'Olive Owner',
    email: 'owner@example.com',
    password: 'owner-pass-1',
  });
  await importOsmFile(server.db, fixtureExtract());
  // Overture's record of the furniture store of the fixture town (no phone there): 20 m off, with a phone.
  const file = join(mkdtempSync(join(tmpdir(), 'pf-field-sources-')), 'prairie.parquet');
  await writeOvertureParquet(file, [
    {
      id: 'homestead',
      lat: CENTER.lat + 0.006 + 0.00018,
      lng: CENTER.lng + 0.005,
      name: 'Homestead Furniture Gallery',
      category: 'furniture_store',
      confidence: 0.9,
      phones: ['+13085550190'],
      websites: ['https://homestead-furniture.example/'],
      sources: [{ dataset: 'meta', record_id: '1', license: 'CDLA-Permissive-2.0' }],
    },
  ]);
  await importOvertureFiles(server.db, [file]);
});
afterAll(async () => {
  await server?.close();
});

describe('a card merged from two sources', () => {
  for (const [width, height] of [
    [1440, 900],
    [375, 812],
  ] as const) {
    it(`shows the phone Overture adds and says where it came from, at ${width}x${height}`, async () => {
      const b = await openBrowser(server.baseUrl, { width, height }, { touch: width < 500 });
      try {
        const page = b.page;
        await registerViaApi(
          server,
          b,
          { name: 'Rita Rep', email: `rita${width}@example.com`, password: 'rita-pass-123' },
          { inviter: owner },
        );
        const settings = await page.request.patch(`${server.baseUrl}/api/me`, {
          data: {
            searchSettings: {
              ...CENTER,
              label: 'Prairie Junction',
              radiusMiles: 1,
              count: 20,
              categories: [],
            },
          },
        });
        expect(settings.status()).toBe(200);
        await page.goto(server.baseUrl);
        await page.getByTestId('scan-button').getByText('Scan Area').click();
        const card = page.getByTestId('prospect-card').filter({ hasText: 'Homestead Furniture Gallery' });
        await card.waitFor({ timeout: POLL.timeout });
        expect(
          await page.getByTestId('prospect-card').filter({ hasText: 'Homestead Furniture' }).count(),
        ).toBe(1);
        expect(await card.getByTestId('field-sources').textContent()).toBe(
          'Phone: Overture (Meta) · Website: Overture (Meta) · Address: OpenStreetMap',
        );
        expect(
          await card.getByRole('link', { name: 'Call Homestead Furniture Gallery' }).getAttribute('href'),
        ).toBe('tel:+13085550190');
        expect(await page.locator('.leaflet-control-attribution').first().textContent()).toContain(
          '© OpenStreetMap contributors, Overture Maps Foundation',
        );
        await card.evaluate((el) => el.scrollIntoView({ block: 'start' }));
        // Cards off screen are painted when scrolled to (content-visibility): one frame more before the picture.
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        await keepScreenshot(page, `field-sources-${width}`);
        expect(b.pageErrors).toEqual([]);
      } finally {
        await b.close();
      }
    });
  }
});
