// Every business inside a scan's circle is ranked, not only the nearest 500: a strong prospect near the edge of a
// crowded circle leads the list, the total counts the whole circle, and a scan whose first read does not fill the
// 100 kept (its best are duplicates of one another) reads more of the best.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { placeRow } from '../../src/server/places/local-store.js';
import { refreshMarket } from '../../src/server/places/market.js';
import { getBrandIndex } from '../../src/core/scoring/nsi.js';
import type { Prospect } from '../../src/core/types.js';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';

const CENTRE = { lat: 40.0, lng: -75.0 };
/** One mile north, in degrees of latitude. */
const MILE = 1 / 69;

let t: TestContext;
let rep: TestUser;

beforeAll(async () => {
  t = await createTestContext({ SCAN_COOLDOWN_MS: '0' });
  rep = await t.newUser('user');
  const at = new Date().toISOString();
  const rows = [];
  // 600 hair salons within a fifth of a mile of the centre: the nearest 500 of the circle.
  for (let i = 0; i < 600; i++) {
    const angle = (i / 600) * 2 * Math.PI;
    const r = 0.2 * MILE * ((i % 10) + 1) * 0.1;
    rows.push(
      placeRow(
        {
          id: `osm:node/${1000 + i}`,
          lat: CENTRE.lat + r * Math.sin(angle),
          lng: CENTRE.lng + r * Math.cos(angle),
          tags: { name: `Salon ${i}`, shop: 'hairdresser', 'addr:housenumber': String(i + 1) },
        },
        at,
      ),
    );
  }
  // 150 copies of one dental practice, mapped twice each at one point: the best of the circle, all duplicates.
  for (let i = 0; i < 150; i++) {
    rows.push(
      placeRow(
        {
          id: `osm:node/${5000 + i}`,
          lat: CENTRE.lat - 0.5 * MILE,
          lng: CENTRE.lng,
          tags: {
            name: 'Twin Smiles Dental',
            amenity: 'dentist',
            phone: '+1 555 555 0142',
            website: 'https://twin-smiles.example/',
            'addr:housenumber': '42',
            'addr:street': 'Main Street',
          },
        },
        at,
      ),
    );
  }
  // Near the edge of a one-mile circle: an injury firm with a phone and a website.
  rows.push(
    placeRow(
      {
        id: 'osm:node/9',
        lat: CENTRE.lat + 0.9 * MILE,
        lng: CENTRE.lng,
        tags: {
          name: 'Edge Injury Law',
          office: 'lawyer',
          phone: '+1 555 555 0199',
          website: 'https://edge-injury.example/',
          'addr:housenumber': '9',
          'addr:street': 'Edge Road',
        },
      },
      at,
    ),
  );
  for (let i = 0; i < rows.length; i += 200) {
    await t.db.kysely
      .insertInto('places')
      .values(rows.slice(i, i + 200))
      .execute();
  }
  await refreshMarket(t.db, getBrandIndex());
}, 120_000);
afterAll(() => t?.close());

it('ranks every business of the circle: the best near its edge leads, the total counts them all', async () => {
  const res = await t.request({
    method: 'POST',
    url: '/api/scans',
    payload: { ...CENTRE, radiusMiles: 1, count: 20 },
    as: rep,
  });
  expect(res.statusCode, res.body).toBe(200);
  const page = res.json<{ total: number; prospects: Prospect[] }>();
  expect(page.prospects[0]!.name).toBe('Edge Injury Law');
  expect(page.prospects[0]!.distance).toBeGreaterThan(0.85);
  // 600 salons, the dental practice once (its 150 records are one business) and the firm.
  expect(page.prospects.filter((p) => p.name === 'Twin Smiles Dental')).toHaveLength(1);
  expect(page.total).toBe(602);
  // Load Next reaches the 100 kept: the scan read past the duplicates that filled its first read.
  const next = await t.request({ method: 'GET', url: '/api/scans/latest?offset=0&limit=100', as: rep });
  expect(next.json<{ prospects: Prospect[] }>().prospects).toHaveLength(100);
});
