// A name is one line. Typed by a user (a profile or registration name), a name with a line break or another
// control character is refused with a 400 naming the field, and nothing is stored; a business's name (sent with a
// call log or a saved card, read from a file such as an OSM or Overture import or a customer list, or from a
// place provider) is cleaned: each run of them becomes one space. A pipeline claim stores the server's own name. A line break in a name would otherwise
// start a new property in a calendar file, a new row in a CSV export or a new header in an e-mail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';
import { cleanName, isOneLine } from '../../src/core/api/common.js';
import { prospectInputSchema } from '../../src/core/api/prospect.js';
import { placeRow, storedRow, type PlaceSource } from '../../src/server/places/local-store.js';
import { parseImport } from '../../src/server/advertisers/import.js';
import { osmElementToBusiness } from '../../src/server/places/osm.js';
import { googlePlaceToBusiness } from '../../src/server/places/google.js';

let t: TestContext;
let rep: TestUser;

beforeAll(async () => {
  t = await createTestContext();
  rep = await t.newUser('user');
});
afterAll(() => t.close());

const BROKEN = [
  'Acme Dental\r\nDTSTART:19700101T000000Z',
  'Acme\nDental',
  'Acme\rDental',
  'Acme\tDental',
  'Acme\u0085Dental',
  'Acme\u2028Dental',
  'Acme\u001bDental',
];
const ONE_LINE = 'must be one line, without line breaks or control characters';

describe('names sent through the API', () => {
  it("stores a call log's business name as one line: a name comes from the data, so it is cleaned, not refused", async () => {
    for (const name of BROKEN) {
      const res = await t.request({
        method: 'POST',
        url: '/api/call-logs',
        as: rep,
        payload: { prospectId: 'osm:node/1', name, outcome: 'Called' },
      });
      expect(res.statusCode).toBe(201);
      expect(res.json<{ callLog: { name: string } }>().callLog.name).toBe(cleanName(name));
    }
    const stored = await t.db.kysely
      .selectFrom('call_logs')
      .select('name')
      .where('user_id', '=', rep.id)
      .execute();
    expect(stored).toHaveLength(BROKEN.length);
    for (const row of stored) expect(isOneLine(row.name)).toBe(true);
  });

  it("makes a saved card's or strategy's business name one line", () => {
    for (const name of BROKEN) {
      const parsed = prospectInputSchema.shape.name.safeParse(name);
      expect(parsed.success, name).toBe(true);
      expect(parsed.data).toBe(cleanName(name));
    }
    expect(prospectInputSchema.shape.name.parse('Acme Dental')).toBe('Acme Dental');
  });

  it('refuses a profile name of more than one line, and keeps the old one', async () => {
    for (const name of BROKEN) {
      const res = await t.request({ method: 'PATCH', url: '/api/me', as: rep, payload: { name } });
      expect({ name, status: res.statusCode, body: res.json<unknown>() }).toEqual({
        name,
        status: 400,
        body: { error: `Invalid body: name: ${ONE_LINE}` },
      });
    }
    const me = await t.request({ method: 'GET', url: '/api/me', as: rep });
    expect(me.json<{ user: { name: string } }>().user.name).toBe(rep.name);
  });

  it('refuses a registration name of more than one line', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/register',
      payload: { name: 'Eve\r\nBcc: all@example.com', email: 'eve@example.com', password: 'password-12' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: `Invalid body: name: ${ONE_LINE}` });
    const accounts = await t.db.kysely
      .selectFrom('user')
      .select('id')
      .where('email', '=', 'eve@example.com')
      .execute();
    expect(accounts).toEqual([]);
  });
});

describe('names read from files and place providers', () => {
  it('makes each run of control characters one space, and trims', () => {
    expect(cleanName(' Acme\r\n\tDental\u2028Lab\u0000 ')).toBe('Acme Dental Lab');
    expect(cleanName('Acme Dental')).toBe('Acme Dental');
  });

  it('stores an imported OSM or Overture name as one line', () => {
    const row = placeRow(
      { id: 'osm:node/9', lat: 33.5, lng: -86.8, tags: { name: 'Acme\r\nDental', amenity: 'dentist' } },
      '2026-01-01T00:00:00.000Z',
    );
    expect(row.name).toBe('Acme Dental');
    const source: PlaceSource = {
      id: 'overture:1',
      name: 'Overture\nPlace\u0085Inc',
      lat: 33.5,
      lng: -86.8,
      types: ['dentist'],
      category: 'Dental',
      address: '',
      city: null,
      state: null,
      zip: null,
      phone: null,
      website: null,
      openingHours: null,
      brand: null,
      brandWikidata: null,
      tags: {},
    };
    expect(storedRow(source, '2026-01-01T00:00:00.000Z').name).toBe('Overture Place Inc');
  });

  it("reads a customer list's multi-line quoted name as one line", () => {
    const parsed = parseImport('name,phone\n"Acme\r\nDental",205-555-0101\n');
    expect('error' in parsed).toBe(false);
    if ('error' in parsed) return;
    expect(parsed.rows[0]?.name).toBe('Acme Dental');
  });

  it('cleans the names of live OpenStreetMap and Google results', () => {
    const osm = osmElementToBusiness({
      type: 'node',
      id: 5,
      lat: 33.5,
      lon: -86.8,
      tags: { name: 'Live\nDental', amenity: 'dentist' },
    });
    expect(osm?.name).toBe('Live Dental');
    const google = googlePlaceToBusiness({
      id: 'g1',
      displayName: { text: 'Google\r\nDental' },
      location: { latitude: 33.5, longitude: -86.8 },
    });
    expect(google?.name).toBe('Google Dental');
  });
});
