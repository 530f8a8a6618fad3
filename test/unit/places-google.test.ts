import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGoogleProvider, isUsableGoogleKey, splitCircle } from '../../src/server/places/google.js';
import { haversineMiles, METERS_PER_MILE } from '../../src/core/geo.js';
import { fetchGooglePhoto, type PhotoError } from '../../src/server/places/google-photos.js';
import {
  answerPhoto,
  json,
  solidPng,
  startFakeService,
  type FakeService,
  type RecordedRequest,
} from '../helpers/places-http.js';

const KEY = 'AIzaSyTest-key-0123456789';
const CENTER = { lat: 37.7879, lng: -122.4066 };

/** A Places API (New) place in the real response format. */
function googlePlace(i: number, lat: number, lng: number, withContact = true) {
  return {
    id: `ChIJplace${i}`,
    types:
      i % 2 === 0
        ? ['dentist', 'health', 'point_of_interest', 'establishment']
        : ['bank', 'finance', 'point_of_interest', 'establishment'],
    formattedAddress: `${100 + i} Market St, San Francisco, CA 94105, USA`,
    addressComponents: [
      { longText: `${100 + i}`, shortText: `${100 + i}`, types: ['street_number'], languageCode: 'en-US' },
      { longText: 'Market Street', shortText: 'Market St', types: ['route'], languageCode: 'en' },
      { longText: 'San Francisco', shortText: 'SF', types: ['locality', 'political'], languageCode: 'en' },
      {
        longText: 'California',
        shortText: 'CA',
        types: ['administrative_area_level_1', 'political'],
        languageCode: 'en',
      },
      { longText: '94105', shortText: '94105', types: ['postal_code'], languageCode: 'en-US' },
    ],
    location: { latitude: lat, longitude: lng },
    rating: 4.1 + (i % 8) / 10,
    userRatingCount: 10 * i,
    businessStatus: 'OPERATIONAL',
    displayName: { text: `Place ${i}`, languageCode: 'en' },
    currentOpeningHours: { openNow: i % 3 !== 0, periods: [], weekdayDescriptions: [] },
    ...(withContact && {
      nationalPhoneNumber: `(415) 555-01${String(i % 100).padStart(2, '0')}`,
      websiteUri: `https://place${i}.example.com/`,
    }),
    priceLevel: 'PRICE_LEVEL_MODERATE',
  };
}

/** 70 places on a spiral inside a 1-mile circle, plus 5 just outside it. */
const WORLD = Array.from({ length: 75 }, (_, i) => {
  const miles = i < 70 ? 0.05 + (0.9 * i) / 70 : 1.05;
  const angle = i * 2.4;
  return googlePlace(
    i,
    CENTER.lat + (miles / 69.09) * Math.sin(angle),
    CENTER.lng + (miles / (69.09 * Math.cos((CENTER.lat * Math.PI) / 180))) * Math.cos(angle),
  );
});

interface NearbyBody {
  includedTypes?: string[];
  maxResultCount: number;
  rankPreference: string;
  locationRestriction: { circle: { center: { latitude: number; longitude: number }; radius: number } };
}

/** searchNearby as Google answers it: the places in the circle, nearest first, at most maxResultCount. */
function answerNearby(req: RecordedRequest, world: ReturnType<typeof googlePlace>[]) {
  const body = JSON.parse(req.body) as NearbyBody;
  const c = body.locationRestriction.circle;
  const center = { lat: c.center.latitude, lng: c.center.longitude };
  const inside = world
    .filter((p) => !body.includedTypes || p.types.some((t) => body.includedTypes?.includes(t)))
    .map((p) => ({
      p,
      d: haversineMiles(center, { lat: p.location.latitude, lng: p.location.longitude }) * METERS_PER_MILE,
    }))
    .filter((x) => x.d <= c.radius)
    .sort((a, b) => a.d - b.d)
    .slice(0, body.maxResultCount)
    .map((x) => x.p);
  return inside.length > 0 ? { places: inside } : {};
}

let google: FakeService;
const signal = () => AbortSignal.timeout(5000);
const provider = (detailsLimit = 0, maxRequests?: number) =>
  createGoogleProvider({
    apiKey: KEY,
    placesUrl: google.url,
    geocodingUrl: google.url,
    detailsLimit,
    ...(maxRequests !== undefined && { maxRequests }),
  });

beforeAll(async () => {
  google = await startFakeService();
});
afterAll(() => google.close());
beforeEach(() => {
  google.requests.length = 0;
});

describe('google key', () => {
  it('treats missing, short and placeholder keys as unconfigured', () => {
    for (const k of [
      '',
      '   ',
      'abc123',
      'YOUR_API_KEY',
      'your-google-maps-api-key',
      'YOUR_GOOGLE_MAPS_API_KEY',
      'xxxxxxxxxxxx',
      '<api key here>',
      'placeholder-key-0001',
    ]) {
      expect(isUsableGoogleKey(k), k).toBe(false);
    }
    expect(isUsableGoogleKey(KEY)).toBe(true);
  });
});

describe('google nearby search', () => {
  it('covers the whole circle: a cell that comes back full (20) is split, and the answers merged by id', async () => {
    google.handle((req, res) => json(res, 200, answerNearby(req, WORLD)));
    const found = await provider().nearby({ ...CENTER, radiusMiles: 1, types: [], limit: 500 }, signal());
    expect(found.length).toBe(70);
    expect(new Set(found.map((b) => b.id)).size).toBe(70);
    let last = 0;
    for (const b of found) {
      const d = haversineMiles(CENTER, b);
      expect(d).toBeLessThan(1);
      expect(d).toBeGreaterThanOrEqual(last);
      last = d;
    }
    const nearby = google.requests.filter((r) => r.path === '/v1/places:searchNearby');
    expect(nearby.length).toBeGreaterThan(1);
    const first = JSON.parse(nearby[0]?.body ?? '{}') as NearbyBody;
    expect(first).toMatchObject({ maxResultCount: 20, rankPreference: 'DISTANCE' });
    expect(first.locationRestriction.circle.radius).toBeCloseTo(METERS_PER_MILE, 3);
    expect(first.includedTypes).toBeUndefined();
    expect(nearby[0]?.headers['x-goog-api-key']).toBe(KEY);
    expect(nearby[0]?.headers['x-goog-fieldmask']).toContain('places.displayName');
    expect(nearby[0]?.headers['x-goog-fieldmask']).toContain('places.currentOpeningHours.openNow');
  });

  it('stops splitting at the request budget and keeps what it found', async () => {
    google.handle((req, res) => json(res, 200, answerNearby(req, WORLD)));
    const found = await provider(0, 1).nearby({ ...CENTER, radiusMiles: 1, types: [], limit: 500 }, signal());
    expect(found.length).toBe(20);
    expect(google.requests.length).toBe(1);
  });

  it('spends a small budget on the cells nearest the centre first', async () => {
    // Asymmetric: a crowd at the centre fills the first circle and reaches into all four quarters, a dense far
    // north-west and a near south-east fill theirs. With 9 requests (the circle, its 4 quarters and 4 of their
    // 16 cells) creation order spent the last 4 on the north-west quarter's cells, its far corner among them,
    // and missed the near south-east places; nearest first asks the 4 innermost cells.
    const at = (miles: number, bearingDeg: number) => {
      const a = (bearingDeg * Math.PI) / 180;
      return {
        lat: CENTER.lat + (miles / 69.09) * Math.cos(a),
        lng: CENTER.lng + (miles / (69.09 * Math.cos((CENTER.lat * Math.PI) / 180))) * Math.sin(a),
      };
    };
    const spots = [
      ...Array.from({ length: 25 }, (_, i) => at(0.02 + i * 0.002, i * 37)),
      ...Array.from({ length: 60 }, (_, i) => at(0.6 + (i % 10) * 0.035, 280 + Math.floor(i / 10) * 9)),
      ...Array.from({ length: 60 }, (_, i) => at(0.12 + (i % 10) * 0.035, 100 + Math.floor(i / 10) * 14)),
    ];
    const world = spots.map((p, i) => googlePlace(i, p.lat, p.lng));
    google.handle((req, res) => json(res, 200, answerNearby(req, world)));
    const found = await provider(0, 9).nearby({ ...CENTER, radiusMiles: 1, types: [], limit: 500 }, signal());
    const asked = google.requests.map((r) => {
      const c = (JSON.parse(r.body) as NearbyBody).locationRestriction.circle.center;
      return haversineMiles(CENTER, { lat: c.latitude, lng: c.longitude });
    });
    expect(asked).toHaveLength(9);
    // Within each level, nearer cells first; the last level never asks a far corner (1.06 R) before an inner one.
    const last = asked.slice(5);
    expect(last).toEqual([...last].sort((a, b) => a - b));
    expect(Math.max(...last)).toBeLessThan(0.8);
    // The near south-east places (within 0.45 mi) are found.
    const ids = new Set(found.map((b) => b.id));
    const nearSouthEast = world.filter((_, i) => i >= 85 && haversineMiles(CENTER, spots[i]!) <= 0.45);
    expect(nearSouthEast.length).toBeGreaterThan(20);
    for (const p of nearSouthEast) expect(ids.has(p.id), p.id).toBe(true);
  });

  it('maps the real response fields onto the Business shape, and asks only for the requested types', async () => {
    google.handle((req, res) => json(res, 200, answerNearby(req, WORLD)));
    const found = await provider().nearby(
      { ...CENTER, radiusMiles: 0.3, types: ['dentist'], limit: 5 },
      signal(),
    );
    expect(found.length).toBe(5);
    const body = JSON.parse(google.requests[0]?.body ?? '{}') as NearbyBody;
    expect(body.includedTypes).toEqual(['dentist']);
    const b = found[0];
    const i = Number(b?.id.replace('ChIJplace', ''));
    expect(b).toMatchObject({
      id: `ChIJplace${i}`,
      placeId: `ChIJplace${i}`,
      name: `Place ${i}`,
      category: 'Dental',
      address: `${100 + i} Market St, San Francisco, CA 94105, USA`,
      city: 'San Francisco',
      state: 'CA',
      zip: '94105',
      phone: `(415) 555-01${String(i % 100).padStart(2, '0')}`,
      website: `https://place${i}.example.com/`,
      reviews: 10 * i,
      openNow: i % 3 !== 0,
      priceLevel: 2,
      source: 'google',
    });
    expect(b?.types).toContain('dentist');
  });

  it('fetches details (phone, website) for the first N results only', async () => {
    const bare = WORLD.map((p, i) => ({
      ...googlePlace(i, p.location.latitude, p.location.longitude, false),
      addressComponents: [],
    }));
    google.handle((req, res) => {
      if (req.path === '/v1/places:searchNearby') return json(res, 200, answerNearby(req, bare));
      const id = decodeURIComponent(req.path.replace('/v1/places/', ''));
      const i = Number(id.replace('ChIJplace', ''));
      const full = WORLD[i];
      if (!full) return json(res, 404, { error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } });
      const { id: _id, nationalPhoneNumber, websiteUri, formattedAddress, addressComponents } = full;
      return json(res, 200, { id, nationalPhoneNumber, websiteUri, formattedAddress, addressComponents });
    });
    const found = await provider(3).nearby({ ...CENTER, radiusMiles: 0.5, types: [], limit: 10 }, signal());
    expect(found.length).toBe(10);
    const details = google.requests.filter((r) => r.method === 'GET');
    expect(details.length).toBe(3);
    expect(details[0]?.headers['x-goog-fieldmask']).toBe(
      'id,formattedAddress,nationalPhoneNumber,websiteUri,addressComponents',
    );
    expect(found.slice(0, 3).every((b) => b.phone && b.website && b.zip === '94105')).toBe(true);
    expect(found.slice(3).every((b) => !b.phone && !b.website)).toBe(true);
  });

  it('keeps the basic record when a details call fails', async () => {
    const bare = WORLD.map((p, i) => googlePlace(i, p.location.latitude, p.location.longitude, false));
    google.handle((req, res) => {
      if (req.path === '/v1/places:searchNearby') return json(res, 200, answerNearby(req, bare));
      return json(res, 500, { error: { code: 500, message: 'Internal error', status: 'INTERNAL' } });
    });
    const found = await provider(2).nearby({ ...CENTER, radiusMiles: 0.5, types: [], limit: 4 }, signal());
    expect(found.length).toBe(4);
    expect(found[0]?.phone).toBeUndefined();
  });

  it('falls back to one request per type when the combined request is refused, skipping the failing type', async () => {
    google.handle((req, res) => {
      const body = JSON.parse(req.body) as NearbyBody;
      const types = body.includedTypes ?? [];
      if (types.length > 1 || types.includes('landscaper')) {
        return json(res, 400, {
          error: { code: 400, message: 'Unsupported types: landscaper.', status: 'INVALID_ARGUMENT' },
        });
      }
      return json(res, 200, answerNearby(req, WORLD));
    });
    const found = await provider().nearby(
      { ...CENTER, radiusMiles: 0.3, types: ['dentist', 'landscaper', 'bank'], limit: 500 },
      signal(),
    );
    expect(found.length).toBeGreaterThan(0);
    expect(found.some((b) => b.types.includes('dentist'))).toBe(true);
    expect(found.some((b) => b.types.includes('bank'))).toBe(true);
    // One combined request, then one per type, at least 100 ms apart.
    const perType = google.requests
      .slice(1)
      .map((r) => ({ at: r.at, types: (JSON.parse(r.body) as NearbyBody).includedTypes }));
    expect(perType.map((r) => r.types)).toEqual([['dentist'], ['landscaper'], ['bank']]);
    for (let i = 1; i < perType.length; i++)
      expect((perType[i]?.at ?? 0) - (perType[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(95);
  });

  it('shares one request budget across the per-type requests, each type getting its share', async () => {
    google.handle((req, res) => {
      const types = (JSON.parse(req.body) as NearbyBody).includedTypes ?? [];
      if (types.length > 1) {
        return json(res, 400, {
          error: { code: 400, message: 'Unsupported types: landscaper.', status: 'INVALID_ARGUMENT' },
        });
      }
      return json(res, 200, answerNearby(req, WORLD));
    });
    // WORLD is dense enough that each type's circle comes back full and would split again and again.
    const found = await provider(0, 7).nearby(
      { ...CENTER, radiusMiles: 1, types: ['dentist', 'bank'], limit: 500 },
      signal(),
    );
    const types = google.requests.map((r) => (JSON.parse(r.body) as NearbyBody).includedTypes?.join());
    // The refused combined request counts too: 1 + 3 for dentists + 3 for banks = 7, not 1 + 7 + 7.
    expect(types).toEqual(['dentist,bank', 'dentist', 'dentist', 'dentist', 'bank', 'bank', 'bank']);
    expect(found.some((b) => b.types.includes('dentist'))).toBe(true);
    expect(found.some((b) => b.types.includes('bank'))).toBe(true);
  });

  it('fails with the status on a 500, and on a body that is not JSON or not the expected shape', async () => {
    google.handle((_req, res) =>
      json(res, 500, { error: { code: 500, message: 'Backend error', status: 'INTERNAL' } }),
    );
    await expect(
      provider().nearby({ ...CENTER, radiusMiles: 1, types: [], limit: 10 }, signal()),
    ).rejects.toThrow('google: HTTP 500: Backend error');
    google.handle((_req, res) => json(res, 200, '{"places": [ {"id": '));
    await expect(
      provider().nearby({ ...CENTER, radiusMiles: 1, types: [], limit: 10 }, signal()),
    ).rejects.toThrow('google: answer is not valid JSON');
    google.handle((_req, res) => json(res, 200, { places: 'nope' }));
    await expect(
      provider().nearby({ ...CENTER, radiusMiles: 1, types: [], limit: 10 }, signal()),
    ).rejects.toThrow('unexpected shape');
  });

  it('gives up when the signal fires while the service hangs', async () => {
    google.handle(() => undefined);
    await expect(
      provider().nearby({ ...CENTER, radiusMiles: 1, types: [], limit: 10 }, AbortSignal.timeout(150)),
    ).rejects.toMatchObject({ name: 'TimeoutError' });
  });
});

describe('google text search and geocoding', () => {
  it('text-searches with a location bias and keeps only results inside the radius', async () => {
    google.handle((req, res) => {
      const body = JSON.parse(req.body) as { textQuery: string };
      expect(body.textQuery).toBe('Place 3');
      json(res, 200, { places: [WORLD[3], WORLD[72]] });
    });
    const found = await provider().textSearch?.({ query: 'Place 3', ...CENTER, radiusMiles: 1 }, signal());
    expect(found?.map((b) => b.name)).toEqual(['Place 3']);
    expect(google.requests[0]?.path).toBe('/v1/places:searchText');
    expect(JSON.parse(google.requests[0]?.body ?? '{}')).toMatchObject({
      locationBias: { circle: { radius: METERS_PER_MILE } },
    });
  });

  it('geocodes with the Geocoding API; any status other than OK is an empty result', async () => {
    google.handle((req, res) => {
      const address = req.url.searchParams.get('address');
      const latlng = req.url.searchParams.get('latlng');
      expect(req.url.searchParams.get('key')).toBe(KEY);
      if (address === '1 Dr Carlton B Goodlett Pl, San Francisco') {
        return json(res, 200, {
          results: [
            {
              formatted_address: '1 Dr Carlton B Goodlett Pl, San Francisco, CA 94102, USA',
              geometry: { location: { lat: 37.7792, lng: -122.4191 }, location_type: 'ROOFTOP' },
              address_components: [],
              place_id: 'ChIJcityhall',
              types: ['street_address'],
            },
          ],
          status: 'OK',
        });
      }
      if (latlng) {
        return json(res, 200, {
          results: [
            {
              formatted_address: '450 Sutter St, San Francisco, CA 94108, USA',
              geometry: { location: { lat: 37.7899, lng: -122.4075 } },
              address_components: [
                { long_name: 'San Francisco', short_name: 'SF', types: ['locality', 'political'] },
                {
                  long_name: 'California',
                  short_name: 'CA',
                  types: ['administrative_area_level_1', 'political'],
                },
              ],
            },
          ],
          status: 'OK',
        });
      }
      if (address === 'denied')
        return json(res, 200, {
          error_message: 'The provided API key is invalid.',
          results: [],
          status: 'REQUEST_DENIED',
        });
      return json(res, 200, { results: [], status: 'ZERO_RESULTS' });
    });
    const p = provider();
    expect(await p.geocode('1 Dr Carlton B Goodlett Pl, San Francisco', signal())).toEqual({
      lat: 37.7792,
      lng: -122.4191,
      label: '1 Dr Carlton B Goodlett Pl, San Francisco, CA 94102, USA',
    });
    expect(await p.geocode('nowhere at all', signal())).toBeNull();
    expect(await p.geocode('denied', signal())).toBeNull();
    expect(await p.reverse(37.7899, -122.4075, signal())).toBe('San Francisco, CA');
    expect(google.requests[0]?.path).toBe('/maps/api/geocode/json');
  });
});

describe('circle split', () => {
  it('covers the circle with four smaller ones', () => {
    const parts = splitCircle(CENTER, 1000);
    expect(parts.length).toBe(4);
    // Every point of the original circle lies in at least one part.
    for (let k = 0; k < 64; k++) {
      const a = (k / 64) * 2 * Math.PI;
      for (const f of [0.2, 0.6, 0.99]) {
        const m = (1000 * f) / METERS_PER_MILE;
        const p = {
          lat: CENTER.lat + (m / 69) * Math.sin(a),
          lng: CENTER.lng + (m / (69 * Math.cos((CENTER.lat * Math.PI) / 180))) * Math.cos(a),
        };
        expect(parts.some((c) => haversineMiles(c.center, p) * METERS_PER_MILE <= c.radiusM)).toBe(true);
      }
    }
    expect(parts[0]?.radiusM).toBeLessThan(1000);
  });
});

describe('google place photos', () => {
  const PHOTO = 'places/ChIJplace1/photos/AUc7first';
  const png = solidPng(4, 4, [10, 20, 30]);
  const fetchPhoto = (ref: string, timeoutMs?: number) =>
    fetchGooglePhoto(ref, { apiKey: KEY, placesUrl: google.url, ...(timeoutMs && { timeoutMs }) });
  /** The error a photo fetch ends in. */
  const failure = (ref: string, timeoutMs?: number) =>
    fetchPhoto(ref, timeoutMs).then(
      () => null,
      (error: unknown) => error as PhotoError,
    );

  it('asks the nearby and text searches for the photos, and keeps the first 3 a card can credit', async () => {
    const withPhotos = {
      ...googlePlace(1, CENTER.lat, CENTER.lng),
      photos: [
        {
          name: 'places/ChIJplace1/photos/A',
          authorAttributions: [{ displayName: 'Ana', uri: 'https://x.example/a' }],
        },
        { name: 'places/ChIJplace1/photos/B', authorAttributions: [{ uri: 'https://x.example/nameless' }] },
        { name: 'places/ChIJplace1/photos/C?key=1', authorAttributions: [] },
        {
          name: 'places/ChIJplace1/photos/D',
          authorAttributions: [{ displayName: 'Di', uri: 'data:text/html,x' }],
        },
        { name: 42 },
        { name: 'places/ChIJplace1/photos/E' },
        { name: 'places/ChIJplace1/photos/F' },
      ],
    };
    google.handle((_req, res) => json(res, 200, { places: [withPhotos] }));
    const [nearby] = await provider().nearby({ ...CENTER, radiusMiles: 1, types: [], limit: 5 }, signal());
    const [text] = await provider().textSearch!({ query: 'Place 1', ...CENTER, radiusMiles: 1 }, signal());
    for (const request of google.requests)
      expect(String(request.headers['x-goog-fieldmask']).split(',')).toContain('places.photos');
    for (const b of [nearby, text])
      expect(b?.photos).toEqual([
        { ref: 'places/ChIJplace1/photos/A', authors: [{ displayName: 'Ana', uri: 'https://x.example/a' }] },
        { ref: 'places/ChIJplace1/photos/D', authors: [{ displayName: 'Di' }] },
        { ref: 'places/ChIJplace1/photos/E', authors: [] },
      ]);
    // Photos of a shape Google never sends leave the place as it is, without photos.
    google.handle((_req, res) => json(res, 200, { places: [{ ...withPhotos, photos: 'nope' }] }));
    const [plain] = await provider().nearby({ ...CENTER, radiusMiles: 1, types: [], limit: 5 }, signal());
    expect(plain?.name).toBe('Place 1');
    expect(plain).not.toHaveProperty('photos');
  });

  it("reads the photo's address with the key in a header, then the image without it", async () => {
    const photos = new Map([[PHOTO, { body: png, contentType: 'image/png' }]]);
    google.handle((req, res) => void answerPhoto(req, res, photos, KEY));
    const photo = await fetchPhoto(PHOTO);
    expect(photo.contentType).toBe('image/png');
    expect(photo.body.equals(png)).toBe(true);
    const [media, image] = google.requests;
    expect(media?.url.searchParams.get('skipHttpRedirect')).toBe('true');
    expect(media?.headers['x-goog-api-key']).toBe(KEY);
    expect(image?.headers['x-goog-api-key']).toBeUndefined();
  });

  it('follows a redirect to the image, and refuses an address outside Google or of another scheme unasked', async () => {
    const served: string[] = [];
    const outside = await startFakeService((req, res) => {
      served.push(req.path);
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(png);
    });
    try {
      for (const target of [
        `${outside.url}/photo.png`,
        'file:///etc/passwd',
        'javascript:alert(1)',
        'ftp://x/y',
      ]) {
        google.handle((req, res) => {
          if (req.path.endsWith('/media')) json(res, 200, { name: `${PHOTO}/media`, photoUri: target });
          else json(res, 404, {});
        });
        expect((await failure(PHOTO))?.status, target).toBe(502);
      }
      // Google's own answer moving on to the outside address: refused as well.
      google.handle((req, res) => {
        if (req.path.endsWith('/media')) json(res, 200, { name: `${PHOTO}/media`, photoUri: '/hop' });
        else {
          res.writeHead(302, { location: `${outside.url}/photo.png` });
          res.end();
        }
      });
      expect((await failure(PHOTO))?.status).toBe(502);
      expect(served).toEqual([]);
      // A redirect within Google is followed.
      google.handle((req, res) => {
        if (req.path.endsWith('/media')) json(res, 200, { name: `${PHOTO}/media`, photoUri: '/hop' });
        else if (req.path === '/hop') {
          res.writeHead(302, { location: '/image' });
          res.end();
        } else {
          res.writeHead(200, { 'content-type': 'image/jpeg' });
          res.end(png);
        }
      });
      expect((await fetchPhoto(PHOTO)).contentType).toBe('image/jpeg');
    } finally {
      await outside.close();
    }
  });

  it('gives up on a photo Google does not send in time (504), and on a key Google refuses (502)', async () => {
    google.handle(() => undefined);
    expect((await failure(PHOTO, 200))?.status).toBe(504);
    google.handle((req, res) => void answerPhoto(req, res, new Map(), 'another-key-0123456789'));
    expect((await failure(PHOTO))?.status).toBe(502);
    // A name that is not a Google photo name is never asked for.
    google.requests.length = 0;
    expect((await failure('places/x/photos/../../y'))?.status).toBe(404);
    expect(google.requests).toEqual([]);
  });
});
