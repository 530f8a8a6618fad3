import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';
import { parseCsv } from '../../src/core/csv.js';
import type { Prospect } from '../../src/core/types.js';
import { recordTeamProspects } from '../../src/server/scans/team-list.js';

let t: TestContext;
let admin: TestUser;
let superAdmin: TestUser;
let repA: TestUser;
let repB: TestUser;
beforeAll(async () => {
  t = await createTestContext();
  admin = await t.newUser('admin');
  superAdmin = await t.newUser('SuperAdmin', { name: 'Sue Super' });
  repA = await t.newUser('user', { name: 'Rep A' });
  repB = await t.newUser('user', { name: 'Rep B' });
});
afterAll(() => t.close());

const prospect = (id: string, over: Record<string, unknown> = {}) => ({
  id,
  name: `Business ${id}`,
  category: 'Dental',
  address: '10 Elm St',
  city: 'Birmingham',
  state: 'AL',
  zip: '35203',
  phone: '205-555-0101',
  website: 'https://example.com',
  lat: 33.52,
  lng: -86.8,
  rating: 4.5,
  reviews: 120,
  score: 0.82,
  aiAnalysis: {
    score: 82,
    reasoning: 'Strong fit',
    confidence: 70,
    recommendations: ['CTV', 'Search'],
    breakdown: {},
  },
  ...over,
});

async function setLatestScan(user: TestUser, prospects: unknown, createdAt: string) {
  await t.db.kysely.deleteFrom('latest_scans').where('user_id', '=', user.id).execute();
  await t.db.kysely
    .insertInto('latest_scans')
    .values({
      user_id: user.id,
      search_id: null,
      prospects: typeof prospects === 'string' ? prospects : JSON.stringify(prospects),
      total: Array.isArray(prospects) ? prospects.length : 0,
      created_at: createdAt,
    })
    .execute();
}
/** What a scan records for the team (scans/service.ts keepAndPage), at a given time. */
const recordTeam = (user: TestUser, prospects: Record<string, unknown>[], at: string) =>
  recordTeamProspects(t.db.kysely, user.id, prospects as unknown as Prospect[], at);
const clearScans = async () => {
  await t.db.kysely.deleteFrom('latest_scans').execute();
  await t.db.kysely.deleteFrom('team_prospects').execute();
};
const get = (url: string, as: TestUser) => t.request({ method: 'GET', url, as });

describe('team prospects and exports', () => {
  it('answers "No prospects to export" when nobody has scanned', async () => {
    await clearScans();
    for (const url of ['/api/exports/all-prospects.csv', '/api/exports/prospects.csv']) {
      const res = await get(url, admin);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'No prospects to export' });
    }
    expect((await get('/api/admin/all-prospects', admin)).json()).toEqual({ prospects: [], total: 0 });
  });

  it('lists every scanned prospect across the team, de-duplicated by id (newest scan wins), blocked left out', async () => {
    await clearScans();
    await recordTeam(
      repA,
      [prospect('a1'), prospect('shared', { name: 'Old Name' }), prospect('blocked-1')],
      '2026-05-01T10:00:00.000Z',
    );
    await recordTeam(
      repB,
      [prospect('shared', { name: 'New Name' }), prospect('b1', { score: 0.41 })],
      '2026-05-02T10:00:00.000Z',
    );
    await t.request({
      method: 'POST',
      url: '/api/blocklist',
      payload: { businessId: 'blocked-1', label: 'X' },
      as: admin,
    });

    const res = await get('/api/admin/all-prospects', admin);
    expect(res.statusCode).toBe(200);
    const body = res.json<{
      prospects: { id: string; name: string; scannedBy: { name: string } }[];
      total: number;
    }>();
    // By score, then name: 'Business a1' and 'New Name' share 0.82.
    expect(body.prospects.map((p) => p.id)).toEqual(['a1', 'shared', 'b1']);
    expect(body.total).toBe(3);
    expect(body.prospects[1]).toMatchObject({
      name: 'New Name',
      scannedBy: { id: repB.id, name: 'Rep B' },
      scannedAt: '2026-05-02T10:00:00.000Z',
    });
    expect((await get('/api/admin/all-prospects', repA)).statusCode).toBe(403);
  });

  it('drops malformed stored data instead of failing', async () => {
    await clearScans();
    const row = (id: string, json: string) => ({
      business_id: id,
      prospect: json,
      name: id,
      score: 0.5,
      analysis_hash: '',
      business_hash: '',
      scanned_by: repA.id,
      scanned_at: '2026-05-01T10:00:00.000Z',
    });
    await t.db.kysely
      .insertInto('team_prospects')
      .values([
        row('bad-json', 'not json'),
        row('no-id', JSON.stringify({ name: 'no id' })),
        row('number', '42'),
        row('ok', JSON.stringify(prospect('ok', { score: 'high', rating: null }))),
      ])
      .execute();
    const res = await get('/api/admin/all-prospects', admin);
    expect(res.statusCode).toBe(200);
    expect(res.json<{ prospects: { id: string; score: number }[] }>().prospects).toEqual([
      expect.objectContaining({ id: 'ok', score: 0 }),
    ]);
  });

  it('writes all_prospects_summary_{date}.csv with Name, Category, Address, Rating, Score, safely quoted', async () => {
    await clearScans();
    await recordTeam(
      repA,
      [
        prospect('h', { name: '=HYPERLINK("http://x","y")', score: 0.9 }),
        prospect('c', { name: 'Smith, Jones & "Sons"\nDental', rating: undefined, score: 0.456 }),
        prospect('addr', { address: '5 Oak Ave, Birmingham, AL 35203', category: 'Legal Services' }),
      ],
      '2026-05-03T10:00:00.000Z',
    );
    const res = await get('/api/exports/all-prospects.csv', admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const today = new Date().toISOString().slice(0, 10);
    expect(res.headers['content-disposition']).toContain(`filename="all_prospects_summary_${today}.csv"`);
    expect(res.body.startsWith('\uFEFFName,Category,Address,Rating,Score\r\n')).toBe(true);
    expect(res.body).toContain(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(parseCsv(res.body).records).toEqual([
      ['Name', 'Category', 'Address', 'Rating', 'Score'],
      [`'=HYPERLINK("http://x","y")`, 'Dental', '10 Elm St, Birmingham, AL 35203', '4.5', '90'],
      ['Business addr', 'Legal Services', '5 Oak Ave, Birmingham, AL 35203', '4.5', '82'],
      ['Smith, Jones & "Sons"\nDental', 'Dental', '10 Elm St, Birmingham, AL 35203', '', '46'],
    ]);
    expect((await get('/api/exports/all-prospects.csv', repA)).statusCode).toBe(403);
  });

  it('writes prospects_{date}.csv with every column; the current-scan export is for SuperAdmins', async () => {
    await clearScans();
    await recordTeam(repA, [prospect('p1')], '2026-05-03T10:00:00.000Z');
    await recordTeam(superAdmin, [prospect('mine-1', { name: 'Mine' })], '2026-05-04T10:00:00.000Z');
    await setLatestScan(superAdmin, [prospect('mine-1', { name: 'Mine' })], '2026-05-04T10:00:00.000Z');
    const res = await get('/api/exports/prospects.csv', admin);
    expect(res.statusCode).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(res.headers['content-disposition']).toContain(`filename="prospects_${today}.csv"`);
    const rows = parseCsv(res.body).records;
    expect(rows[0]).toEqual([
      'Name', 'Category', 'Address', 'City', 'State', 'Zip', 'Phone', 'Website', 'Rating', 'Reviews', 'Score',
      'Confidence', 'Reasoning', 'Recommendations', 'Latitude', 'Longitude', 'Scanned By', 'Scanned At', 'Id',
      'Time Zone',
    ]); // prettier-ignore
    expect(rows.slice(1).map((r) => r[0])).toEqual(['Business p1', 'Mine']);
    expect(rows[1]).toEqual([
      'Business p1', 'Dental', '10 Elm St', 'Birmingham', 'AL', '35203', '(205) 555-0101', 'https://example.com',
      '4.5', '120', '82', '70', 'Strong fit', 'CTV; Search', '33.52', '-86.8', 'Rep A', '2026-05-03 10:00', 'p1',
      'UTC',
    ]); // prettier-ignore

    const denied = await get('/api/exports/prospects.csv?scope=current', admin);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ error: 'Only SuperAdmins can export the current scan' });
    const current = await get('/api/exports/prospects.csv?scope=current', superAdmin);
    expect(current.statusCode).toBe(200);
    expect(
      parseCsv(current.body)
        .records.slice(1)
        .map((r) => r[0]),
    ).toEqual(['Mine']);
  });

  it('credits the open business data in a last column when a row came from it', async () => {
    await clearScans();
    await recordTeam(
      repA,
      [
        prospect('ov', { sources: { name: 'OpenStreetMap', phone: 'Overture (Meta)' } }),
        prospect('osm', { sources: { name: 'OpenStreetMap' } }),
        prospect('g'),
      ],
      '2026-05-03T10:00:00.000Z',
    );
    for (const url of ['/api/exports/all-prospects.csv', '/api/exports/prospects.csv']) {
      const rows = parseCsv((await get(url, admin)).body).records;
      const col = rows[0]!.indexOf('Data Source');
      expect(col, url).toBe(rows[0]!.length - 1);
      const credit = Object.fromEntries(rows.slice(1).map((r) => [r[0], r[col]]));
      expect(credit).toEqual({
        'Business ov': '© OpenStreetMap contributors, Overture Maps Foundation',
        'Business osm': '© OpenStreetMap contributors',
        'Business g': '',
      });
    }
  });

  it("writes dates in the rep's time zone and phone numbers as a spreadsheet shows them, still guarded", async () => {
    await clearScans();
    await recordTeam(
      repA,
      [
        prospect('us', { phone: '+1 415-555-0101', score: 0.9 }),
        prospect('uk', { phone: '+44 20 7946 0958', score: 0.8 }),
        prospect('evil', { phone: '=HYPERLINK("http://x","call")', score: 0.7 }),
      ],
      '2026-05-03T03:30:00.000Z',
    );
    await setLatestScan(
      superAdmin,
      [prospect('us', { phone: '+1 415-555-0101' })],
      '2026-05-03T03:30:00.000Z',
    );
    const tz = encodeURIComponent('America/Chicago');
    const team = await get(`/api/exports/prospects.csv?tz=${tz}`, superAdmin);
    const current = await get(`/api/exports/prospects.csv?scope=current&tz=${tz}`, superAdmin);
    for (const res of [team, current]) {
      expect(res.statusCode).toBe(200);
      const rows = parseCsv(res.body).records;
      const col = (name: string) => rows[0]!.indexOf(name);
      // 03:30 UTC on 3 May is 22:30 on 2 May in Chicago (summer time, UTC-5).
      expect(rows[1]![col('Scanned At')]).toBe('2026-05-02 22:30');
      expect(rows[1]![col('Time Zone')]).toBe('America/Chicago');
      expect(rows[1]![col('Phone')]).toBe('(415) 555-0101');
    }
    const teamRows = parseCsv(team.body).records;
    const phone = teamRows[0]!.indexOf('Phone');
    expect(teamRows.slice(1).map((r) => r[phone])).toEqual([
      '(415) 555-0101',
      '(+44) 20 7946 0958',
      `'=HYPERLINK("http://x","call")`,
    ]);
    // Export Prospects and Export Current Scan: one file-name pattern, prospects_{date}.csv.
    const name = (res: typeof team) =>
      /filename="([^"]+)"/.exec(String(res.headers['content-disposition']))?.[1];
    expect(name(team)).toMatch(/^prospects_\d{4}-\d{2}-\d{2}\.csv$/);
    expect(name(current)).toBe(name(team));
    // An unknown zone is not an error: the file is written in UTC and says so.
    const unknown = await get('/api/exports/prospects.csv?tz=Mars%2FOlympus', superAdmin);
    const unknownRows = parseCsv(unknown.body).records;
    expect(unknownRows[1]![unknownRows[0]!.indexOf('Scanned At')]).toBe('2026-05-03 03:30');
    expect(unknownRows[1]![unknownRows[0]!.indexOf('Time Zone')]).toBe('UTC');
  });
});
