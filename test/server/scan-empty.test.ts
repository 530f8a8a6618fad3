// An empty scan says why. With businesses imported around Union Square only, a scan there for a
// category nobody has answers nothing (the area is covered), and a scan in Birmingham answers nothing with
// `noLocalData` (no imported data covers it, while other areas have some).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeRow } from '../../src/server/places/local-store.js';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';

const UNION_SQUARE = { lat: 37.788, lng: -122.4075 };
const BIRMINGHAM = { lat: 33.5186, lng: -86.8104 };

let t: TestContext;
let rep: TestUser;
beforeAll(async () => {
  t = await createTestContext({ SCAN_COOLDOWN_MS: '0' });
  const at = new Date().toISOString();
  await t.db.kysely
    .insertInto('places')
    .values([
      placeRow(
        {
          id: 'osm:node/1',
          lat: UNION_SQUARE.lat + 0.001,
          lng: UNION_SQUARE.lng,
          tags: { name: 'Union Dental', amenity: 'dentist' },
        },
        at,
      ),
      placeRow(
        {
          id: 'osm:node/2',
          lat: UNION_SQUARE.lat - 0.001,
          lng: UNION_SQUARE.lng,
          tags: { name: 'Square Plumbing', craft: 'plumber' },
        },
        at,
      ),
    ])
    .execute();
  rep = await t.newUser('user');
});
afterAll(() => t.close());

interface Answer {
  total: number;
  prospects: unknown[];
  demo: boolean;
  noLocalData?: boolean;
}
const scan = async (body: Record<string, unknown>) => {
  const res = await t.request({ method: 'POST', url: '/api/scans', payload: body, as: rep });
  expect(res.statusCode).toBe(200);
  return res.json<Answer>();
};

describe('an empty scan', () => {
  it('finds the imported businesses where there are some, without the flag', async () => {
    const found = await scan({ ...UNION_SQUARE, radiusMiles: 1, count: 20 });
    expect(found.total).toBe(2);
    expect(found.demo).toBe(false);
    expect(found).not.toHaveProperty('noLocalData');
  });

  it('in a covered area with no business of the chosen categories: empty, without the flag', async () => {
    const empty = await scan({ ...UNION_SQUARE, radiusMiles: 1, count: 20, categories: ['furniture'] });
    expect(empty.total).toBe(0);
    expect(empty.prospects).toEqual([]);
    expect(empty).not.toHaveProperty('noLocalData');
  });

  it('in an area no imported extract covers: empty, with noLocalData', async () => {
    const empty = await scan({ ...BIRMINGHAM, radiusMiles: 1, count: 20 });
    expect(empty.total).toBe(0);
    expect(empty.demo).toBe(false);
    expect(empty.noLocalData).toBe(true);
  });
});
