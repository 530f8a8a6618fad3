// Street addresses with no geocoding service: the OSM import keeps every addressed object, and /api/geocode finds
// a typed address by house number and street, then the nearest number on the street, then the street, then the
// city, saying which; typed coordinates are taken as they are; a dropped pin is named by the nearest address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importOsmFile, type ImportResult } from '../../src/server/places/osm-import.js';
import { haversineMiles } from '../../src/core/geo.js';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';
import { describeWithOsm, fixtureExtract, osmExtract } from '../helpers/osm-data.js';
import { BUSINESS_NODES, OTHER_NODES, WAYS } from '../fixtures/osm/prairie-junction.js';

let t: TestContext;
let rep: TestUser;
let imported: ImportResult;
beforeAll(async () => {
  t = await createTestContext();
  imported = await importOsmFile(t.db, fixtureExtract());
  rep = await t.newUser('user');
}, 60_000);
afterAll(() => t.close());

const geocode = async (q: string) => {
  const res = await t.request({ method: 'GET', url: `/api/geocode?q=${encodeURIComponent(q)}`, as: rep });
  return {
    status: res.statusCode,
    body: res.json<{ lat: number; lng: number; label: string; precision?: string }>(),
  };
};

const addressed = [...BUSINESS_NODES, ...OTHER_NODES].filter(
  (n) => n.tags?.['addr:housenumber'] && n.tags['addr:street'],
);
const onMain = addressed.filter((n) => n.tags!['addr:street'] === 'Main Street');
const numbers = new Set(onMain.map((n) => Number(n.tags!['addr:housenumber'])));

describe('the fixture town', () => {
  it('keeps every addressed node and whole way at import', () => {
    const ways = WAYS.filter((w) => w.tags['addr:housenumber'] && w.tags['addr:street'] && w.id !== 3003);
    expect(imported.addresses).toBe(addressed.length + ways.length);
  });

  it('finds a typed address at its house, in any spelling of the street', async () => {
    const house = onMain[0]!;
    const n = house.tags!['addr:housenumber']!;
    for (const q of [`${n} Main St, Prairie Junction, NE 69001`, `${n} main street`, `${n} MAIN ST.`]) {
      const { status, body } = await geocode(q);
      expect(status).toBe(200);
      expect(body).toMatchObject({ lat: house.lat, lng: house.lon, precision: 'address' });
      expect(body.label).toBe(`${n} Main Street, Prairie Junction, NE`);
    }
  });

  it('falls back to the nearest house number on the street, then the street, then the city', async () => {
    const [first] = [...numbers].sort((a, b) => a - b);
    let missing = first! + 1;
    while (numbers.has(missing)) missing++;
    const near = await geocode(`${missing} Main Street, Prairie Junction`);
    expect(near.body.precision).toBe('nearby-address');
    const nearest = [...numbers].sort((a, b) => Math.abs(a - missing) - Math.abs(b - missing))[0];
    expect(near.body.label).toBe(`${nearest} Main Street, Prairie Junction, NE`);

    const street = await geocode('Main St, Prairie Junction');
    expect(street.body).toMatchObject({ precision: 'street', label: 'Main Street, Prairie Junction, NE' });

    const city = await geocode('5 Nowhere Road, 69001');
    expect(city.status).toBe(200);
    expect(city.body.precision).toBe('city');

    expect((await geocode('5 Nowhere Road')).status).toBe(404);
  });

  it('takes typed coordinates as they are and names a dropped pin by the nearest address', async () => {
    const house = onMain[1]!;
    const { body } = await geocode(`${house.lat},${house.lon}`);
    expect(body).toMatchObject({ lat: house.lat, lng: house.lon, precision: 'coordinates' });
    expect(body.label).toBe(`${house.tags!['addr:housenumber']} Main Street, Prairie Junction, NE`);

    const res = await t.request({
      method: 'GET',
      url: `/api/reverse-geocode?lat=${house.lat + 0.0001}&lng=${house.lon}`,
      as: rep,
    });
    expect(res.json()).toEqual({
      label: `${house.tags!['addr:housenumber']} Main Street, Prairie Junction, NE`,
    });
  });
});

describeWithOsm('sf-downtown.osm.pbf', 'San Francisco addresses', () => {
  beforeAll(async () => {
    await importOsmFile(t.db, osmExtract('sf-downtown.osm.pbf'));
  }, 120_000);

  it.each([
    ['333 Post St, San Francisco, CA', { lat: 37.78812, lng: -122.40749 }],
    ['1 Kearny Street, San Francisco', { lat: 37.78764, lng: -122.40389 }],
  ])('finds "%s" within 0.1 mile of the house', async (q, expected) => {
    const { status, body } = await geocode(q);
    expect(status).toBe(200);
    expect(body.precision).toMatch(/address/);
    expect(haversineMiles(body, expected)).toBeLessThan(0.1);
  });

  it('takes typed coordinates exactly', async () => {
    const { body } = await geocode('37.7879,-122.4066');
    expect(body).toMatchObject({ lat: 37.7879, lng: -122.4066, precision: 'coordinates' });
  });
});
