// A typed street address, with no geocoding service: the location says the address it found and how exactly
// ("Street-level"), and a ZIP or city says it is only the centre, so the rep drops a pin. Runs on the repository's
// Prairie Junction fixture, on a phone and on a desktop.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importOsmFile } from '../../src/server/places/osm-import.js';
import { BUSINESS_NODES } from '../fixtures/osm/prairie-junction.js';
import { fixtureExtract } from '../helpers/osm-data.js';
import {
  firstAccount,
  keepScreenshot,
  openBrowser,
  registerViaApi,
  startServer,
  type ApiSession,
  type TestServer,
} from './harness.js';

let server: TestServer;
let admin: ApiSession;
beforeAll(async () => {
  server = await startServer();
  await importOsmFile(server.db, fixtureExtract());
  admin = await firstAccount(server, {
    name: 'Ada Admin',
    email: 'ada@example.com',
    password: 'ada-pass-123',
  });
});
afterAll(() => server?.close());

const house = BUSINESS_NODES.find((n) => n.tags?.['addr:street'] === 'Main Street')!;
const number = house.tags!['addr:housenumber']!;

describe('a typed street address', () => {
  for (const [size, viewport] of [
    ['phone', { width: 375, height: 812 }],
    ['desktop', { width: 1440, height: 900 }],
  ] as const) {
    it(`lands on the house and says how exactly it was found (${size})`, async () => {
      const b = await openBrowser(server.baseUrl, viewport);
      try {
        const page = b.page;
        await registerViaApi(
          server,
          b,
          {
            name: `Addie ${size}`,
            email: `addie-${size}@example.com`,
            password: 'addie-pass-123',
          },
          { inviter: admin },
        );
        await page.goto(server.baseUrl);
        const address = page.getByLabel('Address');
        const label = page.getByTestId('location-label');
        const precision = page.getByTestId('location-precision');

        await address.fill(`${number} main st, Prairie Junction, NE 69001`);
        await page.getByRole('button', { name: 'Set Address' }).click();
        await label.getByText(`${number} Main Street, Prairie Junction, NE`).waitFor();
        expect(await precision.textContent()).toBe('Street-level');
        await keepScreenshot(page, `address-street-level-${size}`);

        await address.fill('69001');
        await page.getByRole('button', { name: 'Set Address' }).click();
        await label.getByText('Mc Cook, NE 69001').waitFor();
        expect(await precision.textContent()).toBe('City centre: drop a pin to be exact');
        await keepScreenshot(page, `address-city-centre-${size}`);

        await address.fill(`${house.lat},${house.lon}`);
        await page.getByRole('button', { name: 'Set Address' }).click();
        await label.getByText(`${number} Main Street, Prairie Junction, NE`).waitFor();
        expect(await precision.textContent()).toBe('Exact point');
        expect(b.pageErrors).toEqual([]);
      } finally {
        await b.close();
      }
    });
  }
});
