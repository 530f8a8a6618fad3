// A Google place's photos on the card: the scan keeps up to 3 photo names (with their authors) per Google
// prospect, and GET /api/photos fetches one from Google with the key, server side, so the
// key never reaches the browser. Google is a local stand-in speaking the Places API (New) protocol.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { Prospect } from '../../src/core/types.js';
import { PHOTOS_NEED_GOOGLE, TOO_MANY_PHOTOS } from '../../src/server/photos/routes.js';
import { PHOTO_FAILED, PHOTO_GONE } from '../../src/server/places/google-photos.js';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';
import {
  answerPhoto,
  json,
  solidPng,
  startFakeService,
  type FakePhoto,
  type FakeService,
} from '../helpers/places-http.js';

const KEY = `AIza${'k3'.repeat(17)}Z`; // 39 characters, shaped like a real key
const CENTER = { lat: 37.7897, lng: -122.4003 };
const PLACE = 'ChIJphotoDental01';
const name = (ref: string) => `places/${PLACE}/photos/${ref}`;
/** The address the card loads a photo from. */
const photoPath = (ref: string) => `/api/photos?ref=${encodeURIComponent(ref)}`;
const PNG = solidPng(40, 30, [200, 60, 60]);

const photos = new Map<string, FakePhoto>([
  [name('AUc7front'), { body: PNG, contentType: 'image/png' }],
  [name('AUc7inside'), { body: solidPng(30, 40, [60, 160, 60]), contentType: 'image/png; charset=binary' }],
  [name('AUc7team'), { body: solidPng(20, 20, [60, 60, 200]), contentType: 'image/jpeg' }],
  [
    name('AUc7svg'),
    {
      body: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      contentType: 'image/svg+xml',
    },
  ],
  [name('AUc7html'), { body: '<html>login</html>', contentType: 'text/html' }],
  [name('AUc7huge'), { body: Buffer.alloc(2 * 1024 * 1024 + 1, 1), contentType: 'image/jpeg' }],
]);

/** A Places API (New) place with `photoList` as Google sends its photos. */
function place(id: string, displayName: string, dLat: number, photoList: unknown[]) {
  return {
    id,
    displayName: { text: displayName, languageCode: 'en' },
    formattedAddress: '450 Sutter St, San Francisco, CA 94108, USA',
    location: { latitude: CENTER.lat + dLat, longitude: CENTER.lng },
    types: ['dentist', 'health', 'point_of_interest', 'establishment'],
    rating: 4.6,
    userRatingCount: 120,
    nationalPhoneNumber: '(415) 555-0100',
    websiteUri: `https://${id.toLowerCase()}.example/`,
    businessStatus: 'OPERATIONAL',
    ...(photoList.length > 0 && { photos: photoList }),
  };
}

const photo = (
  ref: string,
  authors: unknown[] = [{ displayName: 'Ana Lens', uri: 'https://maps.google.com/maps/contrib/1' }],
) => ({
  name: ref,
  widthPx: 4032,
  heightPx: 3024,
  authorAttributions: authors.map((a) => ({
    photoUri: '//lh3.googleusercontent.com/a/x=s100',
    ...(a as object),
  })),
});

const PLACES = [
  place(PLACE, 'Golden Gate Dental', 0.002, [
    photo(name('AUc7front')),
    // Not a Google photo name: left out, the next one takes its place.
    photo(`places/${PLACE}/photos/../../evil`),
    // A link that is not https is not shown; the author still is.
    photo(name('AUc7inside'), [{ displayName: 'Bo Snap', uri: 'javascript:alert(1)' }]),
    photo(name('AUc7team'), [{ displayName: 'Cy Frame', uri: '//maps.google.com/maps/contrib/3' }]),
    photo(name('AUc7extra')),
  ]),
  place('ChIJnoPhotos0002', 'Mission Plumbing Co', -0.002, []),
];

let google: FakeService;
let t: TestContext;
let rep: TestUser;

const get = (path: string, as: TestUser | null = rep) => t.request({ method: 'GET', url: path, as });

/** Everything an answer carries: status line, headers and body. */
const whole = (res: LightMyRequestResponse) => `${res.statusCode} ${JSON.stringify(res.headers)} ${res.body}`;

beforeAll(async () => {
  google = await startFakeService((req, res) => {
    if (answerPhoto(req, res, photos, KEY)) return;
    if (req.path === '/v1/places:searchNearby') {
      const mask = String(req.headers['x-goog-fieldmask'] ?? '');
      json(res, 200, {
        places: mask.includes('places.photos') ? PLACES : PLACES.map(({ photos: _p, ...p }) => p),
      });
      return;
    }
    json(res, 200, { status: 'ZERO_RESULTS', results: [] });
  });
  t = await createTestContext({
    PLACE_PROVIDERS: 'google',
    GOOGLE_MAPS_API_KEY: KEY,
    GOOGLE_PLACES_URL: google.url,
    GOOGLE_GEOCODING_URL: google.url,
    GOOGLE_DETAILS_LIMIT: '0',
    SCAN_COOLDOWN_MS: '0',
    PHOTO_RATE_LIMIT: '12',
  });
  rep = await t.newUser();
});
afterAll(async () => {
  await t?.close();
  await google?.close();
});

async function scan(): Promise<{ res: LightMyRequestResponse; prospects: Prospect[] }> {
  const res = await t.request({
    method: 'POST',
    url: '/api/scans',
    payload: { ...CENTER, radiusMiles: 1, count: 10 },
    as: rep,
  });
  expect(res.statusCode).toBe(200);
  return { res, prospects: res.json<{ prospects: Prospect[] }>().prospects };
}

describe('the photos of a Google prospect', () => {
  it('keeps up to 3 photo names with their authors, never the key', async () => {
    const { res, prospects } = await scan();
    const dental = prospects.find((p) => p.name === 'Golden Gate Dental');
    expect(dental?.photos).toEqual([
      {
        ref: name('AUc7front'),
        authors: [{ displayName: 'Ana Lens', uri: 'https://maps.google.com/maps/contrib/1' }],
      },
      { ref: name('AUc7inside'), authors: [{ displayName: 'Bo Snap' }] },
      {
        ref: name('AUc7team'),
        authors: [{ displayName: 'Cy Frame', uri: 'https://maps.google.com/maps/contrib/3' }],
      },
    ]);
    // A place without photos has none, not an empty list.
    expect(prospects.find((p) => p.name === 'Mission Plumbing Co')).not.toHaveProperty('photos');
    expect(whole(res)).not.toContain(KEY);
    // The latest results read back keep them.
    const latest = await get('/api/scans/latest');
    expect(
      latest.json<{ prospects: Prospect[] }>().prospects.find((p) => p.id === PLACE)?.photos,
    ).toHaveLength(3);
    expect(whole(latest)).not.toContain(KEY);
  });

  it('keeps them on a saved card, and refuses a saved card whose photo is not a Google photo name', async () => {
    const { prospects } = await scan();
    const dental = prospects.find((p) => p.id === PLACE)!;
    const saved = await t.request({
      method: 'POST',
      url: '/api/saved',
      payload: { prospect: dental },
      as: rep,
    });
    expect(saved.statusCode).toBe(201);
    const list = await get('/api/saved');
    const items = list.json<{ saved: { prospect: Prospect }[] }>().saved;
    expect(items.find((s) => s.prospect.id === PLACE)?.prospect.photos).toEqual(dental.photos);

    for (const ref of [
      'https://evil.example/x.jpg',
      'places/a/photos/b/../../c',
      `places/${PLACE}/photos/x?key=1`,
    ]) {
      const bad = await t.request({
        method: 'POST',
        url: '/api/saved',
        payload: { prospect: { ...dental, id: 'other', photos: [{ ref, authors: [] }] } },
        as: rep,
      });
      expect(bad.statusCode, ref).toBe(400);
      expect(bad.json<{ error: string }>().error).toMatch(/photos/);
    }
    const badLink = await t.request({
      method: 'POST',
      url: '/api/saved',
      payload: {
        prospect: {
          ...dental,
          id: 'other',
          photos: [{ ref: name('AUc7front'), authors: [{ displayName: 'X', uri: 'javascript:alert(1)' }] }],
        },
      },
      as: rep,
    });
    expect(badLink.statusCode).toBe(400);
  });

  it('still lists a saved card stored with photos of an older shape, without them', async () => {
    const u = await t.newUser();
    const { prospects } = await scan();
    const dental = prospects.find((p) => p.id === PLACE)!;
    expect(
      (await t.request({ method: 'POST', url: '/api/saved', payload: { prospect: dental }, as: u }))
        .statusCode,
    ).toBe(201);
    // Photo links as plain strings, the shape the field had before photos were Google photo names.
    await t.db.kysely
      .updateTable('saved_prospects')
      .set({ prospect: JSON.stringify({ ...dental, photos: ['https://old.example/a.jpg'] }) })
      .where('user_id', '=', u.id)
      .execute();
    const items = (await get('/api/saved', u)).json<{ saved: { prospect: Prospect }[] }>().saved;
    expect(items.map((s) => s.prospect.id)).toEqual([PLACE]);
    expect(items[0]?.prospect).not.toHaveProperty('photos');
    expect(items[0]?.prospect.name).toBe('Golden Gate Dental');
  });

  it('sends a photo fetched with the key at 400x400, kept a day by the browser, the key nowhere in the answer', async () => {
    const before = google.requests.length;
    const res = await get(photoPath(name('AUc7front')));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe('private, max-age=86400');
    expect(res.rawPayload.equals(PNG)).toBe(true);
    expect(whole(res)).not.toContain(KEY);

    const asked = google.requests.slice(before);
    const media = asked.find((r) => r.path.endsWith('/media'))!;
    expect(media.path).toBe(`/v1/${name('AUc7front')}/media`);
    expect(media.headers['x-goog-api-key']).toBe(KEY);
    expect(media.url.searchParams.get('maxWidthPx')).toBe('400');
    expect(media.url.searchParams.get('maxHeightPx')).toBe('400');
    expect(media.url.searchParams.has('key')).toBe(false);
    // The image itself is read without the key.
    const image = asked.find((r) => r.path.startsWith('/photo-content/'))!;
    expect(JSON.stringify(image.headers) + image.url.search).not.toContain(KEY);

    // A media type with parameters is passed on as its bare type.
    const inside = await get(photoPath(name('AUc7inside')));
    expect(inside.statusCode).toBe(200);
    expect(inside.headers['content-type']).toBe('image/png');
  });

  it('refuses what is not a picture, too large or gone, saying so, the key nowhere', async () => {
    const cases: [string, number, string][] = [
      ['AUc7svg', 502, PHOTO_FAILED],
      ['AUc7html', 502, PHOTO_FAILED],
      ['AUc7huge', 502, PHOTO_FAILED],
      ['AUc7nothere', 404, PHOTO_GONE],
    ];
    for (const [ref, status, message] of cases) {
      const res = await get(photoPath(name(ref)));
      expect(res.statusCode, ref).toBe(status);
      expect(res.json<{ error: string }>().error).toBe(message);
      expect(whole(res)).not.toContain(KEY);
    }
  });

  it('takes only a Google photo name: nothing that can steer the request elsewhere reaches Google', async () => {
    const before = google.requests.length;
    for (const ref of [
      name('a.b'),
      name('a/../../x'),
      name('a?key=x'),
      name('a#x'),
      `places/../../v1/photos/x`,
      `places/${PLACE}/photos/`,
      name('a'.repeat(1001)),
      'https://evil.example/photo.jpg',
      `//evil.example/${name('x')}`,
      `${name('x')}\n`,
    ]) {
      const res = await get(photoPath(ref));
      expect(res.statusCode, ref).toBe(400);
      expect(res.json<{ error: string }>().error).toMatch(/ref: must be a Google photo name|ref: Too big/);
    }
    // A ref given twice is refused too, never one of them picked.
    const twice = await get(
      `/api/photos?ref=${encodeURIComponent(name('AUc7front'))}&ref=${encodeURIComponent(name('x'))}`,
    );
    expect(twice.statusCode).toBe(400);
    expect(google.requests.length).toBe(before);
  });

  it('needs a signed-in user', async () => {
    const res = await get(photoPath(name('AUc7front')), null);
    expect(res.statusCode).toBe(401);
  });

  it('limits the photos one user loads per hour; another user still gets theirs', async () => {
    const other = await t.newUser();
    let status = 200;
    let tries = 0;
    while (status === 200 && tries < 20) {
      status = (await get(photoPath(name('AUc7team')), other)).statusCode;
      tries++;
    }
    expect(status).toBe(429);
    expect(tries).toBe(13); // PHOTO_RATE_LIMIT=12
    const refused = await get(photoPath(name('AUc7team')), other);
    expect(refused.json<{ error: string }>().error).toBe(TOO_MANY_PHOTOS);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const third = await t.newUser();
    expect((await get(photoPath(name('AUc7team')), third)).statusCode).toBe(200);
  });
});

describe('photos without a Google key', () => {
  let plain: TestContext;
  beforeAll(async () => {
    plain = await createTestContext({ PLACE_PROVIDERS: 'demo' });
  });
  afterAll(() => plain?.close());

  it('answers 404 saying that photos need Google', async () => {
    const user = await plain.newUser();
    const res = await plain.request({ method: 'GET', url: photoPath(name('AUc7front')), as: user });
    expect(res.statusCode).toBe(404);
    expect(res.json<{ error: string }>().error).toBe(PHOTOS_NEED_GOOGLE);
  });
});
