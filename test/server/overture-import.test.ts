// Importing Overture places into the `places` table (src/server/places/overture-import.ts), on SQLite or
// PostgreSQL (TEST_DATABASE=postgres): the row of a place, upserts on re-import, a failed import leaving the
// earlier data as it was, a box of a multi-file release read from a local mirror with a connection cut once, the
// CLI's summary, and the real SoMa sample where the shared data folder has it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Db } from '../../src/server/db/database.js';
import { openPlacesDb } from '../helpers/places-db.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { countPlaces, getPlace } from '../../src/server/places/local-store.js';
import { getArea } from '../../src/server/places/areas.js';
import {
  importOvertureFiles,
  importOvertureRelease,
  overtureRow,
} from '../../src/server/places/overture-import.js';
import { OvertureFormatError } from '../../src/server/places/overture-reader.js';
import { decodeProfile, profileVersion } from '../../src/core/scoring/profile.js';
import { getBrandIndex } from '../../src/core/scoring/nsi.js';
import { writeOvertureParquet, type FixturePlace } from '../fixtures/overture/parquet-writer.js';
import { townPlaces } from '../fixtures/overture/places.js';
import { startOvertureMirror, type OvertureMirror } from '../helpers/overture-mirror.js';
import { describeWithOverture, overtureFile } from '../helpers/overture-data.js';

let opened: Awaited<ReturnType<typeof openPlacesDb>>;
let db: Db;
let dir: string;

beforeAll(async () => {
  opened = await openPlacesDb();
  db = opened.db;
  dir = mkdtempSync(join(tmpdir(), 'pf-overture-import-'));
});
afterAll(async () => {
  await opened.close();
  rmSync(dir, { recursive: true, force: true });
});

const LAWYER: FixturePlace = {
  id: '5ecef47a-68f7-4c6b-936f-e4b148b87b83',
  lng: -122.40432,
  lat: 37.78342,
  name: 'Mission Injury Lawyers',
  category: 'personal_injury_law',
  alternates: ['lawyer', 'legal_services'],
  confidence: 0.87,
  phones: ['+14155550100', '(415) 555-0199'],
  websites: ['https://missioninjury.example/', 'https://missioninjury.example/es'],
  socials: [
    'https://www.facebook.com/missioninjury',
    'https://www.instagram.com/missioninjury',
    'https://mastodon.example/@mi',
  ],
  emails: ['intake@missioninjury.example'],
  brand: null,
  addresses: [
    { freeform: '2 Holland Ct', locality: 'San Francisco', postcode: '94103', region: 'CA', country: 'US' },
  ],
  sources: [
    { dataset: 'meta', record_id: '539526829567282', license: 'CDLA-Permissive-2.0' },
    { dataset: 'Foursquare', record_id: '4b88', license: 'Apache-2.0' },
  ],
};

async function write(name: string, places: FixturePlace[], rowGroupSize = 1000): Promise<string> {
  const file = join(dir, name);
  await writeOvertureParquet(file, places, { rowGroupSize });
  return file;
}

describe('importOvertureFiles', () => {
  it('stores a place as the OSM import stores a business, with its Overture fields as tags', async () => {
    const file = await write('one.parquet', [
      LAWYER,
      { ...LAWYER, id: 'closed', operatingStatus: 'permanently_closed' },
    ]);
    const r = await importOvertureFiles(db, [file]);
    expect(r).toMatchObject({
      files: 1,
      read: 2,
      imported: 1,
      notOpen: 1,
      lowConfidence: 0,
      uncategorised: 0,
    });
    const row = await getPlace(db.kysely, `overture:${LAWYER.id}`);
    expect(row).toMatchObject({
      name: 'Mission Injury Lawyers',
      category: 'Legal Services',
      address: '2 Holland Ct, San Francisco, CA 94103',
      city: 'San Francisco',
      state: 'CA',
      zip: '94103',
      phone: '+14155550100',
      website: 'https://missioninjury.example/',
      brand: null,
      opening_hours: null,
    });
    expect(JSON.parse(row?.types ?? '[]')).toEqual(['lawyer']);
    expect(JSON.parse(row?.tags ?? '{}')).toEqual({
      name: 'Mission Injury Lawyers',
      phone: '+14155550100;(415) 555-0199',
      website: 'https://missioninjury.example/',
      email: 'intake@missioninjury.example',
      'contact:facebook': 'https://www.facebook.com/missioninjury',
      'contact:instagram': 'https://www.instagram.com/missioninjury',
      'addr:housenumber': '2',
      'addr:street': 'Holland Ct',
      'addr:city': 'San Francisco',
      'addr:state': 'CA',
      'addr:postcode': '94103',
      'addr:country': 'US',
      'overture:category': 'personal_injury_law',
      'overture:alternate': 'lawyer;legal_services',
      'overture:confidence': '0.87',
      'overture:sources': 'meta;Foursquare',
      'overture:licenses': 'CDLA-Permissive-2.0;Apache-2.0',
      'overture:socials': 'https://mastodon.example/@mi',
      'overture:websites': 'https://missioninjury.example/es',
    });
    // The profile is made at import, as placeRow makes it: the scoring evidence read the OSM-like tags.
    const profile = decodeProfile(row?.profile ?? null, profileVersion(getBrandIndex()));
    // Overture's personal_injury_law says the kind of law the firm practises.
    expect(profile?.vertical).toBe('injury_law');
    expect(profile?.listing.found).toEqual(
      expect.arrayContaining([
        'social profiles',
        'e-mail at its own domain',
        'a street address',
        'listed by 2 directories',
      ]),
    );
    const area = await getArea(db.kysely, 'overture:file:one.parquet');
    expect(area).toMatchObject({ businesses: 1, region: null });
    expect(area?.min_lat).toBeCloseTo(37.7834, 3);
  });

  it('upserts the same ids when the same file is imported again', async () => {
    const places = townPlaces('re', 60, { lat: 37.7, lng: -122.3 });
    const file = await write('again.parquet', places);
    const first = await importOvertureFiles(db, [file]);
    const total = await countPlaces(db.kysely);
    const second = await importOvertureFiles(db, [file]);
    expect(second.imported).toBe(first.imported);
    expect(await countPlaces(db.kysely)).toBe(total);
  });

  it('leaves the earlier data exactly as it was when an import fails', async () => {
    const before = await countPlaces(db.kysely);
    const sample = await getPlace(db.kysely, `overture:${LAWYER.id}`);
    const good = await write('good-then-bad.parquet', townPlaces('gb', 50, { lat: 37.6, lng: -122.2 }));
    const bad = join(dir, 'bad.parquet');
    writeFileSync(bad, 'not parquet');
    // The bad file is found before anything is staged; a file damaged in a row group fails later, after staging.
    await expect(importOvertureFiles(db, [good, bad])).rejects.toBeInstanceOf(OvertureFormatError);
    const bytes = readFileSync(good);
    const damaged = Buffer.from(bytes);
    damaged.fill(0x55, 200, Math.floor(bytes.length / 2));
    const damagedFile = join(dir, 'damaged.parquet');
    writeFileSync(damagedFile, damaged);
    await expect(importOvertureFiles(db, [damagedFile])).rejects.toBeInstanceOf(OvertureFormatError);
    expect(await countPlaces(db.kysely)).toBe(before);
    expect(await getPlace(db.kysely, `overture:${LAWYER.id}`)).toEqual(sample);
    const staged = await db.kysely
      .selectFrom('places_staging')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(staged.n)).toBe(0);
  });

  it('keeps the row shape of the reader-made row', () => {
    const row = overtureRow(
      {
        id: 'x',
        name: 'Ground Floor Cafe',
        lat: 1,
        lng: 2,
        categories: { primary: 'cafe', alternates: [], basic: null, hierarchy: [] },
        confidence: null,
        phones: [],
        websites: [],
        socials: [],
        emails: [],
        brand: { name: 'Blue Bottle', wikidata: 'Q4927907' },
        address: { freeform: 'Ground Floor at Virgin Hotels, 250 4th St.', locality: null, postcode: null, region: 'US-CA', country: 'US' },
        operatingStatus: null,
        sources: [],
        placed: { types: ['cafe'], label: 'Cafe', by: 'primary' },
      },
      '2026-01-01T00:00:00.000Z',
    ); // prettier-ignore
    expect(row).toMatchObject({ id: 'overture:x', brand: 'Blue Bottle', brand_wikidata: 'Q4927907', state: 'CA', phone: null });
    expect(JSON.parse(row.tags)).toMatchObject({ 'addr:full': 'Ground Floor at Virgin Hotels, 250 4th St.', brand: 'Blue Bottle', 'brand:wikidata': 'Q4927907' });
    expect(row.address).toBe('Ground Floor at Virgin Hotels, 250 4th St., CA');
  }); // prettier-ignore
});

describe('importOvertureRelease: a box from a release on a mirror', () => {
  let mirror: OvertureMirror;
  const FOLDER = '2025-12-17.0/theme=places/type=place';
  beforeAll(async () => {
    mirror = await startOvertureMirror();
    const towns = [
      { name: 'near', lat: 38.58, lng: -121.49 },
      ...Array.from({ length: 7 }, (_, i) => ({ name: `far${i}`, lat: 30 + i, lng: -90 - i })),
    ];
    for (const [i, part] of ['part-00000.parquet', 'part-00001.parquet'].entries()) {
      const file = await write(
        part,
        towns.slice(i * 4, i * 4 + 4).flatMap((t) => townPlaces(t.name, 2000, t)),
        2000,
      );
      mirror.set(`${FOLDER}/${part}`, readFileSync(file));
    }
  });
  afterAll(() => mirror.close());

  it('reads only the row groups meeting the box, resuming a cut connection, and records the area', async () => {
    mirror.cutOnce(`${FOLDER}/part-00000.parquet`, 5000);
    const box = { west: -121.51, south: 38.56, east: -121.47, north: 38.6 };
    const r = await importOvertureRelease(db, { box, releaseUrl: mirror.releaseUrl, region: 'test-town', retryDelayMs: 10 });
    expect(r.rowGroups).toEqual({ total: 8, read: 1 });
    expect(r.imported).toBeGreaterThan(1000);
    expect(r.transfer?.retries).toBe(1);
    const served = ['part-00000.parquet', 'part-00001.parquet'].map((p) => readFileSync(join(dir, p)).length);
    expect(mirror.bytesSent()).toBeLessThan((served[0]! + served[1]!) / 3);
    const area = await getArea(db.kysely, 'overture:region:test-town');
    expect(area).toMatchObject({ name: 'Overture test-town', businesses: r.imported, data_date: '2025-12-17T00:00:00.000Z' });
    expect(area?.source).toBe(`${mirror.releaseUrl}/2025-12-17.0/theme=places/type=place`);
  }); // prettier-ignore
});

// Each run starts tsx (several seconds on a loaded machine): the CLI's tests get more than the default 30 s.
describe('npm run import:overture', { timeout: 120_000 }, () => {
  let testDb: TestDatabase;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    testDb = await createTestDatabase();
    env = {
      ...process.env,
      NODE_ENV: 'test',
      DATA_DIR: testDb.dataDir,
      DATABASE_URL: testDb.database.kind === 'postgres' ? testDb.database.url : '',
    };
  });
  afterAll(() => testDb.drop());

  async function cli(...args: string[]) {
    try {
      const { stdout, stderr } = await promisify(execFile)('npx', ['tsx', 'src/server/cli/import-overture.ts', ...args], { env, timeout: 60_000 }); // prettier-ignore
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code?: number; stdout?: string; stderr?: string };
      return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
    }
  }

  it('imports a file and prints what it read, left out and stored', async () => {
    const file = await write('cli.parquet', [
      LAWYER,
      { ...LAWYER, id: 'unsure', confidence: 0.3 },
      { ...LAWYER, id: 'odd', category: 'toy_drone_club' },
    ]);
    const r = await cli(file, '--min-confidence', '0.5');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Done in [\d.]+ s: 3 places read from 1 of 1 row groups; 2 imported, 2 businesses stored\./);
    expect(r.stdout).toContain('Left out: 0 not open, 1 under the confidence threshold, 0 uncategorised.');
    expect(r.stdout).toContain('1 categories are not in the category table (1 places, stored by their alternates or under the category\'s own name): toy_drone_club 1');
  }); // prettier-ignore

  it('exits non-zero with one line for a file that is not Overture places, and for a bad box', async () => {
    const bad = join(dir, 'cli-bad.parquet');
    writeFileSync(bad, 'not parquet');
    const [r, box, region] = await Promise.all([
      cli(bad),
      cli('--bbox', '1,2,3'),
      cli('--region', 'europe/atlantis'),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Import failed: .*cli-bad\.parquet is not a readable parquet file/);
    expect(r.stderr).toContain('The businesses imported before are unchanged.');
    expect(box.code).toBe(2);
    expect(box.stderr).toContain('is not a box');
    expect(region.code).toBe(2);
    expect(region.stderr).toContain('No box is known for region "europe/atlantis"');
  });
});

describeWithOverture('sf-soma.parquet', 'importing the real SoMa sample', () => {
  it('stores its places with a phone for at least 85 % of them', async () => {
    const r = await importOvertureFiles(db, [overtureFile('sf-soma.parquet')]);
    expect(r).toMatchObject({ read: 1849, imported: 1650, lowConfidence: 199 });
    const rows = await db.kysely
      .selectFrom('places')
      .select(['phone', 'website', 'types'])
      .where('id', 'like', 'overture:%')
      .where('imported_at', '=', r.area.importedAt)
      .execute();
    expect(rows.length).toBe(1650);
    expect(rows.filter((p) => p.phone).length / rows.length).toBeGreaterThanOrEqual(0.85);
    expect(rows.filter((p) => p.website).length / rows.length).toBeGreaterThan(0.8);
  });
});
