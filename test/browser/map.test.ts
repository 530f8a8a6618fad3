// The map in detail: 'Loading {maps service}...' while its code loads, the configured tile
// server at zoom 12, 500 px high across the full column, only the zoom and attribution controls, the
// translucent radius circle, and the info card of a marker (name, category, full address, score badge, stars
// when rated, 'Open Now' when open). Place data comes from a local Google Places stand-in, since only Google
// reports ratings and opening state; the tile server is an address nobody answers (no tile ever loads, and
// the map still works on its plain background).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startFakeService, type FakeService } from '../helpers/places-http.js';
import { axeViolations } from './axe.js';
import {
  keepScreenshot,
  openBrowser,
  registerViaApi,
  startServer,
  type TestServer,
  POLL,
} from './harness.js';

const TILE_HOST = 'tiles.test.invalid';

let server: TestServer;
let google: FakeService;

interface Spot {
  id: string;
  name: string;
  types: string[];
  street: string;
  dLat: number;
  rating?: number;
  openNow: boolean;
}
const SPOTS: Spot[] = [
  {
    id: 'g-dental',
    name: 'Golden Gate Dental',
    types: ['dentist'],
    street: '450 Sutter St',
    dLat: 0.002,
    rating: 4.6,
    openNow: true,
  },
  {
    id: 'g-plumb',
    name: 'Mission Plumbing Co',
    types: ['plumber'],
    street: '1 Market St',
    dLat: -0.002,
    openNow: false,
  },
];

function googlePlace(s: Spot, center: { latitude: number; longitude: number }) {
  return {
    id: s.id,
    displayName: { text: s.name },
    formattedAddress: s.street,
    location: { latitude: center.latitude + s.dLat, longitude: center.longitude },
    types: s.types,
    ...(s.rating !== undefined && { rating: s.rating, userRatingCount: 230 }),
    nationalPhoneNumber: '(415) 555-0100',
    websiteUri: `https://${s.id}.example`,
    currentOpeningHours: { openNow: s.openNow },
    addressComponents: [
      { longText: 'San Francisco', shortText: 'SF', types: ['locality'] },
      { longText: 'California', shortText: 'CA', types: ['administrative_area_level_1'] },
      { longText: '94108', shortText: '94108', types: ['postal_code'] },
    ],
  };
}

beforeAll(async () => {
  let center = { latitude: 37.79, longitude: -122.407 };
  google = await startFakeService((req, res) => {
    if (req.path === '/v1/places:searchNearby') {
      const body = JSON.parse(req.body) as {
        locationRestriction: { circle: { center: { latitude: number; longitude: number } } };
      };
      center = body.locationRestriction.circle.center;
      json(res, 200, { places: SPOTS.map((s) => googlePlace(s, center)) });
      return;
    }
    const spot = SPOTS.find((s) => req.path === `/v1/places/${s.id}`);
    if (spot) {
      json(res, 200, googlePlace(spot, center));
      return;
    }
    json(res, 200, { status: 'ZERO_RESULTS', results: [] }); // geocoding: the offline gazetteer answers
  });
  server = await startServer({
    PLACE_PROVIDERS: 'google',
    GOOGLE_MAPS_API_KEY: 'test-key-0123456789',
    GOOGLE_PLACES_URL: google.url,
    GOOGLE_GEOCODING_URL: google.url,
    TILE_URL: `http://${TILE_HOST}/{z}/{x}/{y}.png`,
    TILE_ATTRIBUTION: 'Tiles &copy; <a href="https://tiles.example">Test Tiles</a>',
  });
});
afterAll(async () => {
  await server?.close();
  await google?.close();
});

describe('the map', () => {
  it('loads under its name, uses the configured tiles and shows the info card of a marker', async () => {
    const b = await openBrowser(server.baseUrl);
    try {
      const page = b.page;
      await registerViaApi(server, b, {
        name: 'Mo Mapper',
        email: 'mo@example.com',
        password: 'mo-pass-1234',
      });
      const tileRequests: string[] = [];
      page.on('request', (r) => {
        if (new URL(r.url()).hostname === TILE_HOST) tileRequests.push(r.url());
      });
      // Hold the map's code a moment: the placeholder names the map service.
      let held = 0;
      await b.context.route('**/assets/ProspectMap-*.js', async (route) => {
        held++;
        await new Promise((r) => setTimeout(r, 1500));
        await route.continue();
      });
      await page.goto(server.baseUrl);
      const placeholder = page.getByTestId('map-placeholder');
      await placeholder.getByText('Loading Test Tiles...').waitFor();
      expect(await page.locator('.prospect-map').count()).toBe(0);
      const map = page.locator('.prospect-map');
      await map.waitFor({ timeout: 15_000 });
      expect(held).toBe(1);
      await placeholder.waitFor({ state: 'detached' });

      // 500 px high and as wide as its column (the tabs below it); tiles from the configured server at zoom 12.
      const box = (await map.boundingBox())!;
      const column = (await page.getByRole('tablist').boundingBox())!;
      expect(box.height).toBe(500);
      expect(Math.abs(box.width - column.width)).toBeLessThanOrEqual(2);
      await expect.poll(() => tileRequests.length, POLL).toBeGreaterThan(0);
      for (const url of tileRequests)
        expect(url).toMatch(new RegExp(`^http://${TILE_HOST}/12/\\d+/\\d+\\.png$`));

      // Controls: zoom and the attribution, nothing else.
      const controls = await page
        .locator('.leaflet-control-container .leaflet-control')
        .evaluateAll((els) => els.map((e) => e.className));
      expect(controls).toHaveLength(2);
      expect(controls.some((c) => c.includes('leaflet-control-zoom'))).toBe(true);
      expect(controls.some((c) => c.includes('leaflet-control-attribution'))).toBe(true);
      expect(await page.locator('.leaflet-control-attribution').textContent()).toContain('Test Tiles');
      // The translucent blue radius circle.
      const circle = page.locator('.leaflet-overlay-pane path');
      expect(await circle.count()).toBe(1);
      expect(await circle.getAttribute('fill-opacity')).toBe('0.12');
      expect(await circle.getAttribute('fill')).toBe('#339af0');

      // Scan: two businesses from Google Places, one rated and open, one neither.
      await page.getByLabel('Address').fill('94108');
      await page.getByRole('button', { name: 'Set Address' }).click();
      await page.getByTestId('location-label').getByText('San Francisco, CA 94108').waitFor();
      await page.getByTestId('scan-button').click();
      await expect.poll(() => page.getByTestId('prospect-card').count(), POLL).toBe(2);

      // The numbers sit in the middle of their markers.
      const marker = page.locator('.leaflet-marker-icon.prospect-marker').first();
      const [outer, inner] = [(await marker.boundingBox())!, (await marker.locator('span').boundingBox())!];
      expect(Math.abs(outer.x + outer.width / 2 - (inner.x + inner.width / 2))).toBeLessThanOrEqual(1.5);
      expect(Math.abs(outer.y + outer.height / 2 - (inner.y + inner.height / 2))).toBeLessThanOrEqual(1.5);

      const dentalCard = page
        .getByTestId('prospect-card')
        .filter({ has: page.getByText('Golden Gate Dental', { exact: true }) });
      const score = (await dentalCard.locator('.mantine-Badge-root[aria-label^="Score"]').textContent())!;
      await page.locator('.leaflet-marker-icon.prospect-marker[title$=". Golden Gate Dental"]').click();
      const info = page.getByTestId('info-card');
      await info.waitFor();
      await info.getByText('Golden Gate Dental', { exact: true }).waitFor();
      await info.getByText('Dental', { exact: true }).waitFor();
      await info.getByText('450 Sutter St, San Francisco, CA 94108', { exact: true }).waitFor();
      await info.getByText(score, { exact: true }).waitFor();
      await info.getByLabel('Rating 4.6').waitFor();
      await info.getByText('Open Now', { exact: true }).waitFor();
      await page.waitForFunction(
        () => getComputedStyle(document.querySelector('.leaflet-popup')!).opacity === '1',
      );
      await keepScreenshot(page, 'map-info-card-1440');
      // Every badge of the card readable, Open Now included (real data shows it only during opening hours).
      expect(await axeViolations(page, '.info-card')).toEqual([]);

      await page.locator('.leaflet-marker-icon.prospect-marker[title$=". Mission Plumbing Co"]').click();
      // One info card at a time: the dental one has closed.
      const plumbing = info.filter({ hasText: 'Mission Plumbing Co' });
      await plumbing.getByText('1 Market St, San Francisco, CA 94108', { exact: true }).waitFor();
      await expect.poll(() => info.count(), POLL).toBe(1);
      expect(await plumbing.getByLabel(/^Rating/).count()).toBe(0);
      expect(await plumbing.getByText('Open Now').count()).toBe(0);
      expect(b.pageErrors).toEqual([]);
    } finally {
      await b.close();
    }
  });
});
