import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';
import {
  advertiserPhoneKey as phoneKey,
  streetKey,
  websiteKey,
  NO_HEADER,
} from '../../src/server/advertisers/import.js';
import { recordTeamProspects } from '../../src/server/scans/team-list.js';
import type { Prospect } from '../../src/core/types.js';

let t: TestContext;
let admin: TestUser;
let rep: TestUser;
let root: TestUser;

interface Report {
  matched: { row: number; businessId: string; label: string; rule: string; alreadyMarked: boolean }[];
  unmatched: { row: number; reason: string }[];
  newlyMarked: number;
}

async function addPlace(p: {
  id: string;
  name: string;
  address: string;
  city?: string;
  state?: string;
  zip?: string;
  phone?: string;
  website?: string;
}) {
  await t.db.kysely
    .insertInto('places')
    .values({
      id: p.id,
      name: p.name,
      lat: 37.79,
      lng: -122.4,
      cell_lat: 3779,
      type_mask: 0,
      types: '[]',
      category: 'Business',
      address: p.address,
      city: p.city ?? 'San Francisco',
      state: p.state ?? 'CA',
      zip: p.zip ?? '94105',
      phone: p.phone ?? null,
      website: p.website ?? null,
      opening_hours: null,
      brand: null,
      brand_wikidata: null,
      tags: '{}',
      imported_at: new Date().toISOString(),
    })
    .execute();
}

beforeAll(async () => {
  t = await createTestContext();
  admin = await t.newUser('admin', { name: 'Ada Admin' });
  rep = await t.newUser('user', { name: 'Rita Rep' });
  root = await t.newUser('SuperAdmin');
  await addPlace({
    id: 'osm:node/1',
    name: 'Bay Dental',
    address: '1 Market St, San Francisco, CA 94105',
    phone: '415-555-0101',
  });
  await addPlace({
    id: 'osm:node/2',
    name: 'Blue Bottle Coffee',
    address: '66 Mint St, San Francisco, CA 94103',
    zip: '94103',
    website: 'https://bluebottle.example/',
  });
  await addPlace({ id: 'osm:way/3', name: 'Joes Plumbing', address: '123 Main St, San Francisco, CA 94105' });
  await addPlace({
    id: 'osm:node/4',
    name: 'Chain Burger Mission',
    address: '900 Mission St, San Francisco, CA 94103',
    zip: '94103',
    phone: '800-555-0199',
  });
  await addPlace({
    id: 'osm:node/5',
    name: 'Chain Burger Castro',
    address: '400 Castro St, San Francisco, CA 94114',
    zip: '94114',
    phone: '800-555-0199',
  });
  await addPlace({ id: 'osm:node/6', name: 'Unique Florist', address: 'Somewhere without a number' });
  await addPlace({
    id: 'osm:node/7',
    name: 'Oakland Tires',
    address: '50 Broadway, Oakland, CA 94607',
    city: 'Oakland',
    zip: '94607',
  });
  await addPlace({
    id: 'osm:node/8',
    name: 'Quote, "Comma" & Co',
    address: '8 Pine St, San Francisco, CA 94104',
    zip: '94104',
    phone: '(415) 555-0808',
  });
  // A prospect only known from the team's scans (e.g. from the maps service), recorded as a scan records it.
  await recordTeamProspects(t.db.kysely, rep.id, [
    {
      id: 'place_ChIJscan',
      name: 'Scan Only Auto',
      category: 'Auto Dealer',
      address: '77 Van Ness Ave',
      city: 'San Francisco',
      state: 'CA',
      zip: '94102',
      score: 0.9,
      lat: 37.77,
      lng: -122.42,
    } as unknown as Prospect,
  ]);
  // Already marked before the import: the mark is kept as it is.
  await t.request({
    method: 'POST',
    url: '/api/current-advertisers',
    payload: { businessId: 'osm:node/2', label: 'Blue Bottle' },
    as: rep,
  });
});
afterAll(() => t.close());

const importCsv = (csv: string, as: TestUser = admin, contentType = 'text/csv') =>
  t.request({
    method: 'POST',
    url: '/api/current-advertisers/import',
    payload: csv,
    headers: { 'content-type': contentType },
    as,
  });

describe('match keys', () => {
  it('phone: digits only, last 10', () => {
    expect(phoneKey('+1 (415) 555-0101')).toBe('4155550101');
    expect(phoneKey('415.555.0101')).toBe('4155550101');
    expect(phoneKey('555-0101')).toBe('');
  });
  it('website: host without www', () => {
    expect(websiteKey('https://WWW.BlueBottle.example/menu?x=1')).toBe('bluebottle.example');
    expect(websiteKey('bluebottle.example')).toBe('bluebottle.example');
    expect(websiteKey('not a site')).toBe('');
  });
  it('street: address normalisation of the street part for de-duplication, with a house number', () => {
    expect(streetKey('123 Main Street, San Francisco, CA')).toBe(streetKey('123 Main St'));
    expect(streetKey('Main Street')).toBe('');
  });
});

describe('customer list import', () => {
  it('matches rows by phone, name and address, website, address and name; marks them; reports the rest', async () => {
    const csv =
      '\uFEFFBusiness Name,ADDRESS,City,Phone,Website\r\n' +
      'Bay Dental Group,,,+1 (415) 555-0101,\r\n' + // 2 phone
      'Blue Bottle,,,,WWW.BlueBottle.example/menu\r\n' + // 3 website (already marked)
      '"Joe\'s Plumbing Co., Inc.","123 Main Street, San Francisco, CA 94105",,,\r\n' + // 4 name and address
      'Someone Else,"123 Main St.",San Francisco,,\r\n' + // 5 address alone (same normalised address)
      'Oakland Tires,"50 Broadway",San Francisco,,\r\n' + // 6 address in another town, name only matches
      'Chain Burger,,,800-555-0199,\r\n' + // 7 phone shared by two places
      'Unique Florist,,,,\r\n' + // 8 name alone
      'Scan Only Auto,77 Van Ness Avenue,San Francisco,,\r\n' + // 9 prospect of a latest scan
      'Nobody Known,1 Nowhere Rd,,,\r\n' + // 10 unmatched
      ',,,,\r\n' + // 11 empty row
      'Too,many,fields,here,x,extra\r\n' + // 12 malformed
      '"Quote, ""Comma""\nand Co",,,415 555 0808,\r\n'; // 13 quoted name over two lines, phone
    const res = await importCsv(csv);
    expect(res.statusCode).toBe(200);
    const report = res.json<Report>();
    expect(report.matched).toEqual([
      { row: 2, businessId: 'osm:node/1', label: 'Bay Dental', rule: 'phone', alreadyMarked: false },
      { row: 3, businessId: 'osm:node/2', label: 'Blue Bottle Coffee', rule: 'website', alreadyMarked: true },
      {
        row: 4,
        businessId: 'osm:way/3',
        label: 'Joes Plumbing',
        rule: 'name-and-address',
        alreadyMarked: false,
      },
      { row: 5, businessId: 'osm:way/3', label: 'Joes Plumbing', rule: 'address', alreadyMarked: false },
      { row: 6, businessId: 'osm:node/7', label: 'Oakland Tires', rule: 'name', alreadyMarked: false },
      { row: 8, businessId: 'osm:node/6', label: 'Unique Florist', rule: 'name', alreadyMarked: false },
      {
        row: 9,
        businessId: 'place_ChIJscan',
        label: 'Scan Only Auto',
        rule: 'name-and-address',
        alreadyMarked: false,
      },
      {
        row: 13,
        businessId: 'osm:node/8',
        label: 'Quote, "Comma" & Co',
        rule: 'phone',
        alreadyMarked: false,
      },
    ]);
    expect(report.unmatched).toEqual([
      { row: 7, reason: expect.stringContaining('phone matches several businesses') as string },
      { row: 10, reason: 'No known business matches this name, address, phone or website' },
      { row: 11, reason: 'Row has no name, address, phone or website' },
      {
        row: 12,
        reason: expect.stringContaining('Row has 6 values but the header names 5 columns') as string,
      },
    ]);
    expect(report.newlyMarked).toBe(6);

    const list = await t.request({ method: 'GET', url: '/api/current-advertisers', as: rep });
    const marks = list.json<{ advertisers: { businessId: string; markedBy: string; label: string }[] }>()
      .advertisers;
    expect(marks.find((m) => m.businessId === 'osm:node/1')).toMatchObject({
      markedBy: admin.id,
      label: 'Bay Dental',
    });
    // The rep's mark made before the import is kept, under the name of the business's record.
    expect(marks.find((m) => m.businessId === 'osm:node/2')).toMatchObject({
      markedBy: rep.id,
      label: 'Blue Bottle Coffee',
    });
    expect(marks.some((m) => m.businessId === 'osm:node/4' || m.businessId === 'osm:node/5')).toBe(false);

    const audit = await t.request({ method: 'GET', url: '/api/audit?pageSize=1', as: root });
    expect(audit.json<{ entries: unknown[] }>().entries[0]).toMatchObject({
      action: 'advertisers.import',
      actor: { id: admin.id },
      details: { rows: 12, matched: 8, unmatched: 4, newlyMarked: 6 },
    });
  });

  it('narrows a shared phone by the name, and accepts JSON {csv}', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/current-advertisers/import',
      payload: { csv: 'name,phone\nChain Burger Castro,(800) 555-0199\n' },
      as: admin,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<Report>().matched).toEqual([
      { row: 2, businessId: 'osm:node/5', label: 'Chain Burger Castro', rule: 'phone', alreadyMarked: false },
    ]);
  });

  it('explains a file it cannot read, never with a 500', async () => {
    const noHeader = await importCsv('foo,bar\n1,2\n');
    expect(noHeader.statusCode).toBe(400);
    expect(noHeader.json()).toEqual({ error: NO_HEADER });
    const empty = await importCsv('\uFEFF');
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ error: 'The file is empty.' });
    const open = await importCsv('name,phone\nFine,415-555-0101\n"Broken,1\nMore,2\n');
    expect(open.statusCode).toBe(200);
    expect(open.json<Report>().unmatched).toEqual([
      { row: 3, reason: expect.stringContaining('Unterminated quoted field') as string },
    ]);
    const garbage = await importCsv('\u0000\u0001,"""\r\r\n\n,,"', admin, 'text/plain');
    expect(garbage.statusCode).toBeLessThan(500);
    const notCsv = await t.request({
      method: 'POST',
      url: '/api/current-advertisers/import',
      payload: { nope: 1 },
      as: admin,
    });
    expect(notCsv.statusCode).toBe(400);
  });

  it('takes lists larger than the general body limit, and caps the rows', async () => {
    const rows = Array.from(
      { length: 10_001 },
      (_, i) =>
        `Business number ${i} with a long name,${i} Long Street Name Avenue,4155550${String(i % 1000).padStart(3, '0')},https://www.business-number-${i}.example.com/about-us`,
    );
    const csv = `name,address,phone,website\n${rows.join('\n')}\n`;
    expect(csv.length).toBeGreaterThan(t.config.bodyLimit);
    const res = await importCsv(csv);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'The file has more than 10000 rows; split it into smaller files.' });
  });

  it('is for admins only', async () => {
    const res = await importCsv('name\nBay Dental\n', rep);
    expect(res.statusCode).toBe(403);
  });
});
