// A Google prospect's photos on its card: up to 3, loaded through the server (the Google key never reaches the
// page), lazily, each named after the business, with their authors credited under them; a card without photos
// shows nothing of them. Google Places is a local stand-in serving PNGs it draws. At 1440x900 and 375x812.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './axe.js';
import { answerPhoto, json, solidPng, startFakeService, type FakeService } from '../helpers/places-http.js';
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

const KEY = `AIza${'b7'.repeat(17)}W`;
const CENTER = { lat: 37.79, lng: -122.407 };
const PLACE = 'ChIJgoldenGateDental';
const photoName = (ref: string) => `places/${PLACE}/photos/${ref}`;
const PHOTOS = new Map([
  [photoName('AUc7front'), { body: solidPng(400, 300, [214, 92, 72]), contentType: 'image/png' }],
  [photoName('AUc7inside'), { body: solidPng(300, 400, [72, 150, 110]), contentType: 'image/png' }],
  [photoName('AUc7team'), { body: solidPng(400, 400, [70, 110, 200]), contentType: 'image/png' }],
]);

function place(id: string, name: string, dLat: number, photos: unknown[]) {
  return {
    id,
    displayName: { text: name },
    formattedAddress: '450 Sutter St',
    location: { latitude: CENTER.lat + dLat, longitude: CENTER.lng },
    types: ['dentist'],
    rating: 4.6,
    userRatingCount: 230,
    nationalPhoneNumber: '(415) 555-0100',
    websiteUri: `https://${id.toLowerCase()}.example`,
    addressComponents: [
      { longText: 'San Francisco', shortText: 'SF', types: ['locality'] },
      { longText: 'California', shortText: 'CA', types: ['administrative_area_level_1'] },
      { longText: '94108', shortText: '94108', types: ['postal_code'] },
    ],
    ...(photos.length > 0 && { photos }),
  };
}

const PLACES = [
  place(PLACE, 'Golden Gate Dental', 0.002, [
    {
      name: photoName('AUc7front'),
      widthPx: 4032,
      heightPx: 3024,
      authorAttributions: [{ displayName: 'Ana Lens', uri: 'https://maps.google.com/maps/contrib/1' }],
    },
    {
      name: photoName('AUc7inside'),
      widthPx: 3024,
      heightPx: 4032,
      authorAttributions: [
        { displayName: 'Golden Gate Dental', uri: 'https://maps.google.com/maps/contrib/2' },
      ],
    },
    {
      name: photoName('AUc7team'),
      widthPx: 800,
      heightPx: 800,
      authorAttributions: [{ displayName: 'Ana Lens' }],
    },
  ]),
  place('ChIJnoPhotosDentist', 'Sutter Street Smiles', -0.002, []),
];

let server: TestServer;
let google: FakeService;
let owner: ApiSession;

beforeAll(async () => {
  google = await startFakeService((req, res) => {
    if (answerPhoto(req, res, PHOTOS, KEY)) return;
    if (req.path === '/v1/places:searchNearby') {
      json(res, 200, { places: PLACES });
      return;
    }
    json(res, 200, { status: 'ZERO_RESULTS', results: [] });
  });
  server = await startServer({
    PLACE_PROVIDERS: 'google',
    GOOGLE_MAPS_API_KEY: KEY,
    GOOGLE_PLACES_URL: google.url,
    GOOGLE_GEOCODING_URL: google.url,
    GOOGLE_DETAILS_LIMIT: '0',
  });
  owner = await firstAccount(server, {
    name: 'Olive Owner',
    email: 'owner@example.com',
    password: 'owner-pass-1',
  });
});
afterAll(async () => {
  await server?.close();
  await google?.close();
});

describe('the photos on a card', () => {
  for (const [width, height] of [
    [1440, 900],
    [375, 812],
  ] as const) {
    it(`shows up to 3 photos with their credits, within the card and clear of its buttons, at ${width}x${height}`, async () => {
      const b = await openBrowser(server.baseUrl, { width, height }, { touch: width < 500 });
      try {
        const page = b.page;
        const bodies: string[] = [];
        page.on('response', (r) => {
          if (r.url().includes('/api/') && !r.url().includes('/api/photos'))
            void r.text().then(
              (t) => bodies.push(t),
              () => undefined,
            );
        });
        await registerViaApi(
          server,
          b,
          { name: 'Pia Photo', email: `pia${width}@example.com`, password: 'pia-pass-1234' },
          { inviter: owner },
        );
        const settings = await page.request.patch(`${server.baseUrl}/api/me`, {
          data: {
            searchSettings: { ...CENTER, label: 'San Francisco', radiusMiles: 1, count: 20, categories: [] },
          },
        });
        expect(settings.status()).toBe(200);
        await page.goto(server.baseUrl);
        await page.getByTestId('scan-button').getByText('Scan Area').click();
        const card = page.getByTestId('prospect-card').filter({ hasText: 'Golden Gate Dental' });
        await card.waitFor({ timeout: POLL.timeout });

        const images = card.getByTestId('prospect-photos').getByRole('img');
        expect(await images.count()).toBe(3);
        for (const n of [1, 2, 3]) {
          const img = card.getByRole('img', { name: `Golden Gate Dental photo ${n}` });
          expect(await img.getAttribute('loading')).toBe('lazy');
          expect(await img.getAttribute('src')).toMatch(/^\/api\/photos\?ref=places%2F/);
        }
        await card.evaluate((el) => el.scrollIntoView({ block: 'start' }));
        // Every photo loaded (lazy: once scrolled to), at most 400x400 as the server fetched it.
        await expect
          .poll(
            () =>
              images.evaluateAll((els) =>
                els.every(
                  (el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0,
                ),
              ),
            POLL,
          )
          .toBe(true);
        const natural = await images.evaluateAll((els) =>
          els.map((el) => [(el as HTMLImageElement).naturalWidth, (el as HTMLImageElement).naturalHeight]),
        );
        for (const [w, h] of natural) expect(Math.max(w!, h!)).toBeLessThanOrEqual(400);

        const credits = card.getByTestId('photo-credits');
        expect(await credits.textContent()).toBe('Photos by Ana Lens, Golden Gate Dental · Google Maps');
        expect(await credits.getByRole('link', { name: 'Ana Lens' }).getAttribute('href')).toBe(
          'https://maps.google.com/maps/contrib/1',
        );
        expect(await credits.getByRole('link', { name: 'Ana Lens' }).getAttribute('rel')).toBe(
          'noopener noreferrer',
        );

        // Inside the card, side by side, square, above the buttons and clear of them; the page does not scroll
        // sideways.
        const cardBox = (await card.boundingBox())!;
        const boxes = await Promise.all((await images.all()).map(async (img) => (await img.boundingBox())!));
        for (const box of boxes) {
          expect(box.x).toBeGreaterThanOrEqual(cardBox.x);
          expect(box.x + box.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);
          expect(Math.abs(box.width - box.height)).toBeLessThanOrEqual(1);
          expect(box.width).toBeGreaterThan(60);
          expect(box.width).toBeLessThanOrEqual(400);
          expect(Math.abs(box.y - boxes[0]!.y)).toBeLessThanOrEqual(1);
        }
        const creditsBox = (await credits.boundingBox())!;
        const call = (await card.getByRole('link', { name: 'Call Golden Gate Dental' }).boundingBox())!;
        expect(creditsBox.y).toBeGreaterThanOrEqual(boxes[0]!.y + boxes[0]!.height);
        expect(call.y).toBeGreaterThanOrEqual(creditsBox.y + creditsBox.height);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

        // A card without photos shows nothing of them.
        const plain = page.getByTestId('prospect-card').filter({ hasText: 'Sutter Street Smiles' });
        expect(await plain.getByTestId('prospect-photos').count()).toBe(0);

        // The key is nowhere the page can see: not in the page, not in any answer of the API.
        expect(await page.content()).not.toContain(KEY);
        expect(bodies.length).toBeGreaterThan(0);
        for (const body of bodies) expect(body).not.toContain(KEY);

        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        await keepScreenshot(page, `photos-${width}`);
        // The photos' names and the credits' links read right to a screen reader, in colours that read.
        expect(await axeViolations(page, '[data-testid="prospect-photos"]')).toEqual([]);
        expect(b.pageErrors).toEqual([]);
      } finally {
        await b.close();
      }
    });
  }
});
