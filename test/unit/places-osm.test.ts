import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOsmProvider, overpassQuery } from '../../src/server/places/osm.js';
import { createDemoProvider, demoBusinesses, DEMO_PER_ROW } from '../../src/server/places/demo.js';
import { haversineMiles } from '../../src/core/geo.js';
import { ALL_PLACE_TYPES } from '../../src/core/categories.js';
import { json, startFakeService, type FakeService } from '../helpers/places-http.js';

const UA = 'prospect-finder-test/1.0 (tests@example.com)';
const CENTER = { lat: 37.7879, lng: -122.4066 };

/** An Overpass answer in the real format (out center tags). */
const OVERPASS = {
  version: 0.6,
  generator: 'Overpass API 0.7.62.1 084b4234',
  osm3s: {
    timestamp_osm_base: '2026-11-22T08:00:00Z',
    copyright:
      'The data included in this document is from www.openstreetmap.org. The data is made available under ODbL.',
  },
  elements: [
    {
      type: 'node',
      id: 1001,
      lat: 37.7885,
      lon: -122.4071,
      tags: {
        amenity: 'dentist',
        name: 'Union Square Dental',
        'addr:housenumber': '450',
        'addr:street': 'Sutter Street',
        'addr:city': 'San Francisco',
        'addr:state': 'CA',
        'addr:postcode': '94108',
        phone: '+1 415 555 0100',
        website: 'https://usd.example.com',
        opening_hours: 'Mo-Fr 08:00-17:00',
      },
    },
    {
      type: 'way',
      id: 2002,
      center: { lat: 37.7899, lon: -122.4012 },
      nodes: [1, 2, 3, 1],
      tags: { shop: 'car', name: 'Downtown Motors', brand: 'Toyota', 'brand:wikidata': 'Q53268' },
    },
    {
      type: 'node',
      id: 1003,
      lat: 37.7875,
      lon: -122.4066,
      tags: { amenity: 'bank', name: 'Wells Fargo', 'contact:phone': '+1 415 555 0111' },
    },
    { type: 'node', id: 1004, lat: 37.9, lon: -122.4066, tags: { amenity: 'bank', name: 'Far Away Bank' } },
    { type: 'node', id: 1005, lat: 37.788, lon: -122.4067, tags: { amenity: 'bench' } },
    {
      type: 'relation',
      id: 3003,
      center: { lat: 37.787, lon: -122.405 },
      members: [],
      tags: { amenity: 'hospital', name: 'Saint Francis Memorial Hospital' },
    },
  ],
};

type Tags = Record<string, string | undefined>;
type Element = {
  type: string;
  id: number;
  lat?: number;
  lon?: number;
  center?: { lat: number; lon: number };
  tags?: Record<string, string | undefined>;
};

/**
 * A small Overpass for the fake server: runs the `nwr[...](around:r,lat,lng);` statements of a query the way
 * Overpass does for the filters our queries use — `["k"]`, `["k"~"re"]`, `["k"~"re",i]` and `[~"keyre"~"valre"]` —
 * and answers the union of what they select.
 */
function evaluateOverpass(query: string, elements: readonly Element[]): Element[] {
  const statements = [...query.matchAll(/nwr((?:\[[^\]]*\])+)\(around:([\d.]+),([-\d.]+),([-\d.]+)\);/g)];
  expect(statements.length).toBeGreaterThan(0);
  const selected = new Set<Element>();
  for (const [, filters = '', radius, lat, lng] of statements) {
    const tests = [...filters.matchAll(/\[([^\]]*)\]/g)].map(([, f = '']) => {
      let m = /^~"([^"]*)"~"([^"]*)"(,i)?$/.exec(f);
      if (m) {
        const [k, v] = [new RegExp(m[1]!, m[3] ? 'i' : ''), new RegExp(m[2]!, m[3] ? 'i' : '')];
        return (tags: Tags) =>
          Object.entries(tags).some(([tk, tv]) => tv !== undefined && k.test(tk) && v.test(tv));
      }
      m = /^"([^"]*)"~"([^"]*)"(,i)?$/.exec(f);
      if (m) {
        const [key, v] = [m[1]!, new RegExp(m[2]!, m[3] ? 'i' : '')];
        return (tags: Tags) => tags[key] !== undefined && v.test(tags[key]);
      }
      m = /^"([^"]*)"$/.exec(f);
      if (m) {
        const key = m[1]!;
        return (tags: Tags) => tags[key] !== undefined;
      }
      throw new Error(`filter not understood by the fake Overpass: [${f}]`);
    });
    for (const e of elements) {
      const at = { lat: e.lat ?? e.center?.lat ?? NaN, lng: e.lon ?? e.center?.lon ?? NaN };
      const inside = haversineMiles({ lat: Number(lat), lng: Number(lng) }, at) * 1609.34 <= Number(radius);
      if (inside && tests.every((t) => t(e.tags ?? {}))) selected.add(e);
    }
  }
  return [...selected];
}

let svc: FakeService;
const signal = () => AbortSignal.timeout(5000);
const osm = (nominatimIntervalMs = 0) =>
  createOsmProvider({
    overpassUrl: `${svc.url}/api/interpreter`,
    nominatimUrl: svc.url,
    userAgent: UA,
    nominatimIntervalMs,
    clock: () => new Date('2026-11-23T18:30:00Z'),
  });

beforeAll(async () => {
  svc = await startFakeService();
});
afterAll(() => svc.close());
beforeEach(() => {
  svc.requests.length = 0;
  svc.inFlight.max = 0;
});

describe('osm provider: Overpass', () => {
  it('posts the Overpass QL query with an identifying User-Agent', async () => {
    svc.handle((_req, res) => json(res, 200, OVERPASS));
    await osm().nearby({ ...CENTER, radiusMiles: 1, types: [], limit: 50 }, signal());
    const req = svc.requests[0];
    expect(req?.method).toBe('POST');
    expect(req?.path).toBe('/api/interpreter');
    expect(req?.headers['user-agent']).toBe(UA);
    expect(req?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const data = new URLSearchParams(req?.body).get('data');
    expect(data).toBe(overpassQuery(CENTER.lat, CENTER.lng, 1609.34, 25));
    expect(data).toContain('[out:json]');
    expect(data).toContain(
      'nwr["name"][~"^(shop|amenity|office|craft|healthcare)$"~"."](around:1609,37.787900,-122.406600);',
    );
    expect(data).toMatch(
      /nwr\["name"\]\["leisure"~"\^\([a-z_|]*fitness_centre[a-z_|]*\)\$",i\]\(around:1609,/,
    );
    expect(data).toMatch(/nwr\["name"\]\["tourism"~"\^\([a-z_|]*museum[a-z_|]*\)\$",i\]\(around:1609,/);
    expect(data).toContain('out center tags;');
  });

  it('maps elements to businesses: nodes at their point, ways and relations at their centre, inside the radius only', async () => {
    svc.handle((_req, res) => json(res, 200, OVERPASS));
    const found = await osm().nearby({ ...CENTER, radiusMiles: 1, types: [], limit: 50 }, signal());
    expect(found.map((b) => b.id)).toEqual([
      'osm:node/1003',
      'osm:node/1001',
      'osm:relation/3003',
      'osm:way/2002',
    ]);
    for (const b of found) expect(haversineMiles(CENTER, b)).toBeLessThan(1);
    const dental = found.find((b) => b.id === 'osm:node/1001');
    expect(dental).toMatchObject({
      name: 'Union Square Dental',
      types: ['dentist'],
      category: 'Dental',
      address: '450 Sutter Street, San Francisco, CA 94108',
      city: 'San Francisco',
      state: 'CA',
      zip: '94108',
      phone: '+1 415 555 0100',
      website: 'https://usd.example.com',
      openNow: true,
      source: 'osm',
    });
    expect(found.find((b) => b.id === 'osm:way/2002')).toMatchObject({
      lat: 37.7899,
      lng: -122.4012,
      category: 'Auto Dealer',
      brand: 'Toyota',
      brandWikidata: 'Q53268',
    });
    expect(found.find((b) => b.id === 'osm:node/1003')?.phone).toBe('+1 415 555 0111');
  });

  it('keeps only the requested types', async () => {
    svc.handle((_req, res) => json(res, 200, OVERPASS));
    const found = await osm().nearby(
      { ...CENTER, radiusMiles: 1, types: ['bank', 'car_dealer'], limit: 50 },
      signal(),
    );
    expect(found.map((b) => b.name)).toEqual(['Wells Fargo', 'Downtown Motors']);
  });

  it('reports a server-side runtime error, a 500 (e.g. 504 gateway) and garbage as failures', async () => {
    svc.handle((_req, res) =>
      json(res, 200, {
        ...OVERPASS,
        elements: [],
        remark: 'runtime error: Query timed out in "query" at line 1 after 26 seconds.',
      }),
    );
    await expect(osm().nearby({ ...CENTER, radiusMiles: 1, types: [], limit: 5 }, signal())).rejects.toThrow(
      /Overpass: runtime error/,
    );
    svc.handle((_req, res) => json(res, 504, '<html>Gateway Timeout</html>'));
    await expect(osm().nearby({ ...CENTER, radiusMiles: 1, types: [], limit: 5 }, signal())).rejects.toThrow(
      'osm: HTTP 504',
    );
    svc.handle((_req, res) => json(res, 200, 'not json at all'));
    await expect(osm().nearby({ ...CENTER, radiusMiles: 1, types: [], limit: 5 }, signal())).rejects.toThrow(
      'osm: answer is not valid JSON',
    );
  });

  it('sends Overpass one request at a time', async () => {
    svc.handle((_req, res) => {
      setTimeout(() => json(res, 200, OVERPASS), 30);
    });
    const p = osm();
    await Promise.all(
      [1, 2, 3].map(() => p.nearby({ ...CENTER, radiusMiles: 1, types: [], limit: 5 }, signal())),
    );
    expect(svc.requests.length).toBe(3);
    expect(svc.inFlight.max).toBe(1);
  });

  it('finds gyms, museums and hotels tagged only with leisure or tourism (from the tag table)', async () => {
    const only = (id: number, tags: Record<string, string>, dLat = 0.001) => ({
      type: 'node',
      id,
      lat: CENTER.lat + dLat,
      lon: CENTER.lng,
      tags,
    });
    const world: Element[] = [
      ...OVERPASS.elements,
      only(4001, { leisure: 'fitness_centre', name: 'Iron Works Gym' }),
      only(4002, { tourism: 'museum', name: 'Cartoon Art Museum' }, 0.002),
      only(4003, { tourism: 'hotel', name: 'The Cartwright' }, 0.003),
      only(4004, { leisure: 'park', name: 'Union Square' }, 0.004),
      only(4005, { tourism: 'viewpoint', name: 'Lookout' }, 0.005),
    ];
    svc.handle((req, res) =>
      json(res, 200, {
        ...OVERPASS,
        elements: evaluateOverpass(new URLSearchParams(req.body).get('data') ?? '', world),
      }),
    );
    const found = await osm().nearby({ ...CENTER, radiusMiles: 1, types: [], limit: 50 }, signal());
    const names = found.map((b) => b.name);
    expect(names).toEqual(expect.arrayContaining(['Iron Works Gym', 'Cartoon Art Museum', 'The Cartwright']));
    expect(names).not.toContain('Union Square');
    expect(names).not.toContain('Lookout');
    expect(found.find((b) => b.name === 'Iron Works Gym')).toMatchObject({
      types: ['gym'],
      category: 'Fitness',
    });
    const gyms = await osm().nearby({ ...CENTER, radiusMiles: 1, types: ['gym'], limit: 50 }, signal());
    expect(gyms.map((b) => b.name)).toEqual(['Iron Works Gym']);
  });

  it('finds a business by name words within the radius', async () => {
    svc.handle((_req, res) => json(res, 200, OVERPASS));
    const hits = await osm().textSearch?.({ query: 'downtown motors', ...CENTER, radiusMiles: 1 }, signal());
    expect(hits?.map((b) => b.id)).toEqual(['osm:way/2002']);
  });
});

describe('osm provider: details', () => {
  it('reads one element by its OSM id through Overpass', async () => {
    svc.handle((_req, res) => json(res, 200, { ...OVERPASS, elements: [OVERPASS.elements[0]] }));
    expect(await osm().details?.('osm:node/1001', signal())).toEqual({
      phone: '+1 415 555 0100',
      website: 'https://usd.example.com',
      address: '450 Sutter Street, San Francisco, CA 94108',
      city: 'San Francisco',
      state: 'CA',
      zip: '94108',
    });
    expect(new URLSearchParams(svc.requests[0]?.body).get('data')).toBe(
      '[out:json][timeout:25];node(1001);out center tags;',
    );
    expect(await osm().details?.('ChIJnot-an-osm-id', signal())).toBeNull();
    expect(svc.requests.length).toBe(1);
  });
});

describe('osm provider: Nominatim', () => {
  it('geocodes with /search?format=jsonv2 and reverse-geocodes to "City, ST"', async () => {
    svc.handle((req, res) => {
      if (req.path === '/search') {
        return json(res, 200, [
          {
            place_id: 299_546_104,
            licence: 'Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright',
            osm_type: 'relation',
            osm_id: 111_968,
            lat: '37.7792588',
            lon: '-122.4193286',
            category: 'boundary',
            type: 'administrative',
            place_rank: 16,
            importance: 0.84,
            addresstype: 'city',
            name: 'San Francisco',
            display_name: 'San Francisco, California, United States',
            address: {
              city: 'San Francisco',
              state: 'California',
              'ISO3166-2-lvl4': 'US-CA',
              country: 'United States',
              country_code: 'us',
            },
            boundingbox: ['37.6403143', '37.9298443', '-123.1738249', '-122.2817799'],
          },
        ]);
      }
      if (req.path === '/reverse') {
        if (req.url.searchParams.get('lat') === '0') return json(res, 200, { error: 'Unable to geocode' });
        return json(res, 200, {
          place_id: 1,
          lat: '37.7879',
          lon: '-122.4066',
          display_name: 'San Francisco, California, United States',
          address: {
            city: 'San Francisco',
            county: 'San Francisco',
            state: 'California',
            'ISO3166-2-lvl4': 'US-CA',
            country_code: 'us',
          },
        });
      }
      return json(res, 404, {});
    });
    const p = osm();
    expect(await p.geocode('San Francisco', signal())).toEqual({
      lat: 37.7792588,
      lng: -122.4193286,
      label: 'San Francisco, California, United States',
    });
    const search = svc.requests[0];
    expect(search?.url.searchParams.get('format')).toBe('jsonv2');
    expect(search?.url.searchParams.get('q')).toBe('San Francisco');
    expect(search?.headers['user-agent']).toBe(UA);
    expect(await p.reverse(37.7879, -122.4066, signal())).toBe('San Francisco, CA');
    expect(await p.reverse(0, 0, signal())).toBeNull();
  });

  it('answers an empty search with null and spaces Nominatim requests by the configured interval', async () => {
    svc.handle((_req, res) => json(res, 200, []));
    // When each request leaves (not when the fake service reads it: a loaded machine delays that unevenly).
    const times: number[] = [];
    const p = createOsmProvider({
      overpassUrl: `${svc.url}/api/interpreter`,
      nominatimUrl: svc.url,
      userAgent: UA,
      nominatimIntervalMs: 120,
      fetch: (input, init) => {
        times.push(Date.now());
        return fetch(input, init);
      },
    });
    await Promise.all([p.geocode('a', signal()), p.geocode('b', signal()), p.geocode('c', signal())]);
    expect(svc.requests.length).toBe(3);
    expect(times.length).toBe(3);
    for (let i = 1; i < times.length; i++)
      expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeGreaterThanOrEqual(115);
    expect(await p.geocode('nowhere', signal())).toBeNull();
  });
});

describe('demo provider', () => {
  it('lays the sample businesses out 6 per row, 0.001° apart, around the centre, all marked as demo', () => {
    const all = demoBusinesses({ ...CENTER, types: [] });
    expect(all.length).toBe(ALL_PLACE_TYPES.length * 2);
    const lats = [...new Set(all.map((b) => b.lat.toFixed(6)))];
    const lngs = [...new Set(all.map((b) => b.lng.toFixed(6)))];
    expect(lngs.length).toBe(DEMO_PER_ROW);
    const sortedLng = lngs.map(Number).sort((a, b) => a - b);
    for (let i = 1; i < sortedLng.length; i++)
      expect((sortedLng[i] ?? 0) - (sortedLng[i - 1] ?? 0)).toBeCloseTo(0.001, 9);
    expect(lats.length).toBe(Math.ceil(all.length / DEMO_PER_ROW));
    const meanLat = all.reduce((s, b) => s + b.lat, 0) / all.length;
    expect(Math.abs(meanLat - CENTER.lat)).toBeLessThan(0.001);
    for (const b of all) {
      expect(b.source).toBe('demo');
      expect(b.demo).toBe(true);
      expect(b.id.startsWith('demo:')).toBe(true);
    }
  });

  it('answers nearby with the requested types only, inside the radius, nearest first', async () => {
    const found = await createDemoProvider().nearby(
      { ...CENTER, radiusMiles: 0.5, types: ['dentist', 'lawyer'], limit: 50 },
      signal(),
    );
    expect(found.map((b) => b.name).sort()).toEqual([
      'Bright Smile Family Dental',
      'Hartley & Moss Injury Law',
      'Magic City Orthodontics',
      'Summit Family Law Group',
    ]);
    const all = await createDemoProvider().nearby(
      { ...CENTER, radiusMiles: 0.5, types: [], limit: 500 },
      signal(),
    );
    expect(all.length).toBe(ALL_PLACE_TYPES.length * 2);
    for (let i = 1; i < all.length; i++)
      expect(haversineMiles(CENTER, all[i] ?? CENTER)).toBeGreaterThanOrEqual(
        haversineMiles(CENTER, all[i - 1] ?? CENTER),
      );
  });
});
