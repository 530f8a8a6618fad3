// Reading Overture places files (src/server/places/overture-reader.ts) written by the tests in each schema
// variant Overture has released: the normalised places, the filters and their counts, the row groups a box
// reads, and the one-line error of a file that is not Overture places.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteFile } from 'hyparquet-writer';
import {
  openOvertureFile,
  OvertureFormatError,
  readOvertureFile,
  type OverturePlace,
  type OvertureReadOptions,
} from '../../src/server/places/overture-reader.js';
import {
  writeOvertureParquet,
  type FixturePlace,
  type OvertureSchemaVariant,
} from '../fixtures/overture/parquet-writer.js';
import { townPlaces } from '../fixtures/overture/places.js';
import { describeWithOverture, overtureFile } from '../helpers/overture-data.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pf-overture-reader-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let seq = 0;
async function read(
  places: FixturePlace[],
  variant: OvertureSchemaVariant = 'categories',
  options: OvertureReadOptions & { rowGroupSize?: number } = {},
) {
  const file = join(dir, `f${++seq}.parquet`);
  await writeOvertureParquet(file, places, { variant, rowGroupSize: options.rowGroupSize ?? 1000 });
  const out: OverturePlace[] = [];
  const summary = await readOvertureFile(
    await openOvertureFile(file),
    file,
    (b) => void out.push(...b),
    options,
  );
  return { out, summary, file };
}

const PLUMBER: FixturePlace = {
  id: '08f2a1c3-aaaa',
  lng: -122.4,
  lat: 37.785,
  name: '  Bay Plumbing Co ',
  category: 'plumbing',
  alternates: ['water_heater_installation_repair'],
  confidence: 0.93,
  phones: ['+14155550100', '(415) 555-0101', '+14155550100'],
  websites: ['https://bayplumbing.example/'],
  socials: ['https://www.facebook.com/bayplumbing', 'https://www.instagram.com/bayplumbing'],
  emails: ['office@bayplumbing.example'],
  brand: { name: 'Bay Plumbing', wikidata: 'Q123' },
  addresses: [
    { freeform: '800 Mission St', locality: 'San Francisco', postcode: '94103', region: 'CA', country: 'US' },
  ],
  sources: [
    { dataset: 'meta', record_id: '539526829567282', license: 'CDLA-Permissive-2.0' },
    { dataset: 'Foursquare', record_id: '4b883255f964a520b4e631e3', license: 'Apache-2.0' },
  ],
};

describe('readOvertureFile: schema variants', () => {
  it('normalises a place of the 2025 schema (categories, operating_status)', async () => {
    const { out, summary } = await read([PLUMBER]);
    expect(summary.schema).toMatchObject({ categories: true, taxonomy: false, operatingStatus: true });
    expect(out).toHaveLength(1);
    const p = out[0]!;
    expect(p).toMatchObject({
      id: '08f2a1c3-aaaa',
      name: 'Bay Plumbing Co',
      categories: {
        primary: 'plumbing',
        alternates: ['water_heater_installation_repair'],
        basic: null,
        hierarchy: [],
      },
      confidence: 0.93,
      phones: ['+14155550100', '(415) 555-0101'],
      websites: ['https://bayplumbing.example/'],
      emails: ['office@bayplumbing.example'],
      brand: { name: 'Bay Plumbing', wikidata: 'Q123' },
      address: {
        freeform: '800 Mission St',
        locality: 'San Francisco',
        postcode: '94103',
        region: 'CA',
        country: 'US',
      },
      operatingStatus: 'open',
      sources: [
        { dataset: 'meta', recordId: '539526829567282', license: 'CDLA-Permissive-2.0' },
        { dataset: 'Foursquare', recordId: '4b883255f964a520b4e631e3', license: 'Apache-2.0' },
      ],
      placed: { types: ['plumber'], label: 'Plumbing', by: 'primary' },
    });
    expect(p.lat).toBeCloseTo(37.785, 9);
    expect(p.lng).toBeCloseTo(-122.4, 9);
    expect(p.socials).toHaveLength(2);
  });

  it('reads an older file without operating_status (every place taken as open)', async () => {
    const { out, summary } = await read(
      [PLUMBER, { ...PLUMBER, id: 'b', operatingStatus: 'permanently_closed' }],
      'older',
    );
    expect(summary.schema.operatingStatus).toBe(false);
    expect(out.map((p) => p.operatingStatus)).toEqual([null, null]);
    expect(summary).toMatchObject({ kept: 2, notOpen: 0 });
  });

  it('reads the changeover schema: taxonomy first, categories beside it', async () => {
    const { out, summary } = await read(
      [
        {
          ...PLUMBER,
          category: 'plumbing',
          hierarchy: ['services_and_business', 'home_service', 'plumbing'],
          basic: 'plumbing_service',
        },
      ],
      'taxonomy',
    );
    expect(summary.schema).toMatchObject({ categories: true, taxonomy: true, basicCategory: true });
    expect(out[0]?.categories).toEqual({
      primary: 'plumbing',
      alternates: ['water_heater_installation_repair'],
      basic: 'plumbing_service',
      hierarchy: ['services_and_business', 'home_service', 'plumbing'],
    });
  });

  it('reads a taxonomy-only file and places a new category by its hierarchy', async () => {
    const { out, summary } = await read(
      [
        {
          ...PLUMBER,
          category: 'gas_station_sushi',
          alternates: null,
          hierarchy: ['food_and_drink', 'restaurant', 'casual_eatery', 'gas_station_sushi'],
          basic: 'casual_eatery',
        },
      ],
      'taxonomy-only',
    );
    expect(summary.schema).toMatchObject({ categories: false, taxonomy: true });
    expect(out[0]?.placed).toMatchObject({ types: ['restaurant'], by: 'hierarchy' });
    expect(summary.unmapped.size).toBe(0);
  });

  it('takes a representative point of a geometry that is not a point', async () => {
    const square = { type: 'Polygon', coordinates: [[[-122.41, 37.78], [-122.39, 37.78], [-122.39, 37.8], [-122.41, 37.8], [-122.41, 37.78]]] };
    const { out } = await read([{ ...PLUMBER, geometry: square }]);
    expect(out[0]?.lng).toBeCloseTo(-122.402, 3);
    expect(out[0]?.lat).toBeCloseTo(37.788, 3);
  }); // prettier-ignore
});

describe('readOvertureFile: filters', () => {
  it('leaves out places not open, under the threshold or uncategorised, and counts each', async () => {
    const places: FixturePlace[] = [
      PLUMBER,
      { ...PLUMBER, id: 'closed', operatingStatus: 'permanently_closed', confidence: 0 },
      { ...PLUMBER, id: 'paused', operatingStatus: 'temporarily_closed' },
      { ...PLUMBER, id: 'unsure', confidence: 0.42 },
      { ...PLUMBER, id: 'no-confidence', confidence: null },
      // No category: kept when an alternate or the name places it.
      { ...PLUMBER, id: 'by-alternate', name: 'Blue Door', category: null, alternates: ['dentist'] },
      { ...PLUMBER, id: 'by-name', name: 'Smile Orthodontics', category: null, alternates: null },
      { ...PLUMBER, id: 'nothing', name: 'Blue Door', category: null, alternates: ['no_such_kind'] },
      { ...PLUMBER, id: 'nameless', name: null },
      { ...PLUMBER, id: 'raw', category: 'toy_drone_club' },
    ];
    const { out, summary } = await read(places);
    expect(out.map((p) => p.id)).toEqual([
      '08f2a1c3-aaaa',
      'no-confidence',
      'by-alternate',
      'by-name',
      'raw',
    ]);
    expect(summary).toMatchObject({
      read: places.length,
      kept: 5,
      notOpen: 2,
      lowConfidence: 1,
      uncategorised: 1,
      invalid: 1,
    });
    expect(out.find((p) => p.id === 'by-alternate')?.placed).toMatchObject({
      types: ['dentist'],
      by: 'alternate',
    });
    expect(out.find((p) => p.id === 'by-name')?.placed).toMatchObject({
      types: ['dentist', 'orthodontist'],
      by: 'name',
    });
    expect([...summary.unmapped]).toEqual([['toy_drone_club', 1]]);
  });

  it('takes the confidence threshold given', async () => {
    const { summary } = await read([PLUMBER, { ...PLUMBER, id: 'x', confidence: 0.7 }], 'categories', {
      minConfidence: 0.8,
    });
    expect(summary).toMatchObject({ kept: 1, lowConfidence: 1 });
  });

  it('reads only the row groups whose bbox statistics meet the box, and keeps the places inside it', async () => {
    const places = [
      ...townPlaces('sf', 300, { lat: 37.78, lng: -122.41 }),
      ...townPlaces('la', 300, { lat: 34.05, lng: -118.24 }),
      ...townPlaces('ny', 300, { lat: 40.71, lng: -74.0 }),
    ];
    const box = { west: -122.42, south: 37.775, east: -122.4, north: 37.79 };
    const { out, summary } = await read(places, 'categories', { box, rowGroupSize: 300 });
    expect(summary.rowGroups).toEqual({ total: 3, read: 1 });
    expect(out.length).toBeGreaterThan(0);
    expect(out.every((p) => p.id.startsWith('sf-'))).toBe(true);
    expect(summary.outsideBox).toBe(300 - out.length - summary.lowConfidence);
    for (const p of out) {
      expect(p.lat).toBeGreaterThanOrEqual(box.south);
      expect(p.lng).toBeLessThanOrEqual(box.east);
    }
  });

  it('hands places on in batches, one row group at a time', async () => {
    const places = townPlaces('b', 2500, { lat: 37.78, lng: -122.41 });
    const file = join(dir, 'batches.parquet');
    await writeOvertureParquet(file, places, { rowGroupSize: 1000 });
    const sizes: number[] = [];
    const progress: number[] = [];
    await readOvertureFile(await openOvertureFile(file), file, (b) => void sizes.push(b.length), {
      batchSize: 400,
      progress: (p) => progress.push(p.rowGroup),
    });
    expect(progress).toEqual([1, 2, 3]);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(400);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(2500);
  });
});

describe('readOvertureFile: files that are not Overture places', () => {
  async function failure(path: string): Promise<unknown> {
    return readOvertureFile(await openOvertureFile(path), path, () => {
      throw new Error('no batch may come from a foreign file');
    }).catch((e: unknown) => e);
  }

  it('refuses a file that is not parquet at all', async () => {
    const path = join(dir, 'text.parquet');
    writeFileSync(path, 'id,name\n1,Joe\n');
    const e = await failure(path);
    expect(e).toBeInstanceOf(OvertureFormatError);
    expect(String((e as Error).message)).toMatch(/is not a readable parquet file/);
    expect((e as Error).message).not.toContain('\n');
  });

  it('refuses a truncated file', async () => {
    const { file } = await read([PLUMBER]);
    const cut = join(dir, 'truncated.parquet');
    const bytes = readFileSync(file);
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    expect(await failure(cut)).toBeInstanceOf(OvertureFormatError);
  });

  it('refuses a parquet file without the Overture columns, naming them', async () => {
    const path = join(dir, 'other.parquet');
    parquetWriteFile({ filename: path, columnData: [{ name: 'id', data: ['a'], type: 'STRING' }, { name: 'city', data: ['SF'], type: 'STRING' }] });
    const e = await failure(path);
    expect(e).toBeInstanceOf(OvertureFormatError);
    expect((e as Error).message).toMatch(/is not an Overture places file: it has no geometry, names column/);
  }); // prettier-ignore

  it('names a missing file', async () => {
    await expect(openOvertureFile(join(dir, 'nope.parquet'))).rejects.toBeInstanceOf(OvertureFormatError);
  });
});

describeWithOverture('sf-soma.parquet', 'readOvertureFile on the real SoMa sample', () => {
  it('reads every place of the release as released and keeps those at the default threshold', async () => {
    const path = overtureFile('sf-soma.parquet');
    const out: OverturePlace[] = [];
    const summary = await readOvertureFile(await openOvertureFile(path), path, (b) => void out.push(...b));
    // The sample's README: 1,849 places, all open, 199 under a confidence of 0.5.
    expect(summary).toMatchObject({ read: 1849, kept: 1650, lowConfidence: 199, notOpen: 0, invalid: 0 });
    expect(out.filter((p) => p.phones.length > 0).length / out.length).toBeGreaterThan(0.85);
    // Nearly every place is placed by the table itself, not by its raw category.
    expect(out.filter((p) => p.placed.by === 'primary').length / out.length).toBeGreaterThan(0.95);
  });
});
