// A place source that fails during a scan (the scan says which source failed, and shows its real
// progress). Google Places is configured against a local stand-in that thinks for two seconds and then fails;
// the imported data (the repository's Prairie Junction fixture, so this runs wherever Chromium is) answers.
// The overlay names the sources it is asking, the results come from the local data, and the rep is told,
// without being stopped, that Google Places did not answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importOsmFile } from '../../src/server/places/osm-import.js';
import { axeViolations } from './axe.js';
import { json, startFakeService, type FakeService } from '../helpers/places-http.js';
import { openBrowser, registerViaApi, startServer, type TestServer, POLL } from './harness.js';
import { fixtureExtract } from '../helpers/osm-data.js';

let server: TestServer;
let google: FakeService;
beforeAll(async () => {
  google = await startFakeService(async (req, res) => {
    if (req.path.startsWith('/v1/places')) {
      await new Promise((r) => setTimeout(r, 2000));
      json(res, 500, { error: { code: 500, message: 'Internal error', status: 'INTERNAL' } });
      return;
    }
    json(res, 200, { status: 'ZERO_RESULTS', results: [] }); // geocoding: the offline gazetteer answers
  });
  server = await startServer({
    GOOGLE_MAPS_API_KEY: 'test-key-0123456789',
    GOOGLE_PLACES_URL: google.url,
    GOOGLE_GEOCODING_URL: google.url,
  });
  await importOsmFile(server.db, fixtureExtract());
});
afterAll(async () => {
  await server?.close();
  await google?.close();
});

describe('a failing place source', () => {
  it('shows which sources a scan asks, then results from the others and a notice naming the failed one', async () => {
    const b = await openBrowser(server.baseUrl);
    try {
      const page = b.page;
      await registerViaApi(server, b, {
        name: 'Fay Failover',
        email: 'fay@example.com',
        password: 'fay-pass-123',
      });
      await page.goto(server.baseUrl);
      await page.getByLabel('Address').fill('69001');
      await page.getByRole('button', { name: 'Set Address' }).click();
      await page.getByTestId('location-label').getByText('Mc Cook, NE 69001').waitFor();

      await page.getByTestId('scan-button').click();
      await page
        .getByTestId('scan-progress')
        .getByText('Fetching businesses from the local business data and Google Places...')
        .waitFor();
      expect(await axeViolations(page, '[data-testid="scan-overlay"]')).toEqual([]);
      await expect.poll(() => page.getByTestId('prospect-card').count(), POLL).toBe(20);
      expect(google.requests.some((r) => r.path === '/v1/places:searchNearby')).toBe(true);

      const notice = page.getByTestId('sources-notice');
      await notice
        .getByText('Google Places did not answer; showing results from the other sources.')
        .waitFor();
      expect(await axeViolations(page)).toEqual([]);
      // Not in the way: the results are there to work, and the notice can be dismissed.
      await page.getByTestId('prospect-card').first().getByLabel('Status').selectOption('Called');
      await notice.getByRole('button', { name: 'Dismiss' }).click();
      await notice.waitFor({ state: 'detached' });
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  });
});
