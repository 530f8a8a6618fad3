// Importing every OpenStreetMap format: the Prairie Junction fixture as a PBF with dense nodes, with plain nodes,
// as OSM XML, gzipped and bzip2-compressed stores the same rows; an XML file's <bounds> and timestamp make its
// area; and a broken file of any of them leaves the places imported before as they were.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { openPlacesDb } from '../helpers/places-db.js';
import type { Db } from '../../src/server/db/database.js';
import { importOsmFile } from '../../src/server/places/osm-import.js';
import { countPlaces } from '../../src/server/places/local-store.js';
import { OsmFormatError } from '../../src/server/places/osm-format.js';
import type { PbfProgress } from '../../src/server/places/pbf-reader.js';
import { ALL_NODES, BUSINESS_NODES, WAYS } from '../fixtures/osm/prairie-junction.js';
import { writePbf, type PbfNode } from '../fixtures/osm/pbf-writer.js';
import { writeOsmXml } from '../fixtures/osm/osm-xml-writer.js';
import { FIXTURE_XML_BZ2 } from '../fixtures/osm/make-fixture.js';

const IMPORTED = BUSINESS_NODES.length + WAYS.length - 1; // every business but the way missing a node
const BBOX = { minLat: 40.1, minLng: -100.8, maxLat: 40.3, maxLng: -100.5 };
const TAKEN = '2026-11-20T21:14:02Z';

let opened: Awaited<ReturnType<typeof openPlacesDb>>;
let db: Db;
let dir: string;
const file = (name: string) => join(dir, name);

/** Every stored column of every place but the import's time, tags parsed (PostgreSQL keeps JSON its own way). */
async function rows() {
  const all = await db.kysely.selectFrom('places').selectAll().orderBy('id').execute();
  return all.map(({ imported_at: _importedAt, tags, ...row }) => ({
    ...row,
    tags: JSON.parse(tags) as Record<string, string>,
  }));
}

async function importAlone(name: string) {
  await db.kysely.deleteFrom('places').execute();
  return importOsmFile(db, file(name));
}

beforeAll(async () => {
  opened = await openPlacesDb();
  db = opened.db;
  dir = mkdtempSync(join(tmpdir(), 'pf-formats-'));
  writeFileSync(file('town.osm.pbf'), writePbf(ALL_NODES, WAYS, 'formats-test'));
  writeFileSync(file('plain.osm.pbf'), writePbf(ALL_NODES, WAYS, 'formats-test', {}, { denseNodes: false }));
  writeFileSync(file('town.osm'), writeOsmXml(ALL_NODES, WAYS, { bbox: BBOX, timestamp: TAKEN }));
  writeFileSync(file('town.osm.gz'), gzipSync(writeOsmXml(ALL_NODES, WAYS)));
  copyFileSync(FIXTURE_XML_BZ2, file('town.osm.bz2'));
});

afterAll(async () => {
  await opened.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('importing each OpenStreetMap format', () => {
  let want: Awaited<ReturnType<typeof rows>>;

  beforeAll(async () => {
    const r = await importAlone('town.osm.pbf');
    expect(r).toMatchObject({ nodes: BUSINESS_NODES.length, ways: 2, skippedWays: 1, upserted: IMPORTED });
    want = await rows();
    expect(want.length).toBe(IMPORTED);
  });

  it.each(['plain.osm.pbf', 'town.osm', 'town.osm.gz', 'town.osm.bz2'])(
    'stores %s as the same rows as the dense PBF',
    async (name) => {
      const r = await importAlone(name);
      expect(r).toMatchObject({ nodes: BUSINESS_NODES.length, ways: 2, skippedWays: 1, upserted: IMPORTED });
      const got = await rows();
      expect(got).toEqual(want);
    },
  );

  it("records an XML file's <bounds> and timestamp as its area, else the box of its businesses", async () => {
    const withBounds = await importAlone('town.osm');
    expect(withBounds.area).toMatchObject({
      key: 'file:town.osm',
      box: BBOX,
      dataDate: '2026-11-20T21:14:02.000Z',
      businesses: IMPORTED,
    });
    const bare = await importAlone('town.osm.gz');
    const stored = await rows();
    expect(bare.area).toMatchObject({
      key: 'file:town.osm.gz',
      box: {
        minLat: Math.min(...stored.map((p) => p.lat)),
        minLng: Math.min(...stored.map((p) => p.lng)),
        maxLat: Math.max(...stored.map((p) => p.lat)),
        maxLng: Math.max(...stored.map((p) => p.lng)),
      },
      dataDate: null,
    });
  });
});

describe('a broken file', () => {
  async function snapshot() {
    const staged = await db.kysely
      .selectFrom('places_staging')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    const areas = await db.kysely.selectFrom('place_areas').selectAll().orderBy('key').execute();
    return { rows: await rows(), count: await countPlaces(db.kysely), staged: Number(staged.n), areas };
  }

  beforeAll(async () => {
    await importAlone('town.osm.pbf');
  });

  const xml = writeOsmXml(ALL_NODES, WAYS);
  const gz = gzipSync(xml);
  const corruptBz2 = () => {
    const bytes = Buffer.from(readFileSync(FIXTURE_XML_BZ2));
    bytes.fill(0x55, 100, 140);
    return bytes;
  };
  const cases: [name: string, content: () => string | Buffer, message: RegExp][] = [
    ['malformed.osm', () => xml.replace('</way>', '</wya>'), /^malformed XML at line \d+, column \d+: /],
    ['cut.osm.gz', () => gz.subarray(0, gz.length >> 1), /^the gzip data ends early: the file is truncated$/],
    [
      'page.osm',
      () => '<?xml version="1.0"?>\n<html><body>502 Bad Gateway</body></html>\n',
      /^not an OpenStreetMap XML file: its root element is <html>, not <osm>$/,
    ],
    ['text.osm', () => 'name,lat,lng\nA,1,2\n', /^not an OpenStreetMap XML file: /],
    ['bad.osm.bz2', corruptBz2, /^cannot decompress the bzip2 file: /],
  ];

  it.each(cases)(
    '%s is refused with its reason, the places before left as they were',
    async (name, content, message) => {
      const before = await snapshot();
      writeFileSync(file(name), content());
      const error = await importOsmFile(db, file(name)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OsmFormatError);
      expect((error as Error).message).toMatch(message);
      expect(await snapshot()).toEqual(before);
    },
  );

  it('an XML file cut short after its first batches were staged: they are discarded', async () => {
    // 2,500 businesses: the first 1,000-row batch is staged long before the cut near the end is found.
    const shops: PbfNode[] = Array.from({ length: 2500 }, (_, i) => ({
      id: 900_000 + i,
      lat: 40.1 + i * 1e-5,
      lon: -100.7 + i * 1e-5,
      tags: { name: `Corner Shop ${i}`, shop: 'convenience' },
    }));
    const text = writeOsmXml(shops, []);
    const before = await snapshot();
    writeFileSync(file('long-cut.osm'), text.slice(0, Math.floor(text.length * 0.95)));
    const progress: PbfProgress[] = [];
    await expect(importOsmFile(db, file('long-cut.osm'), (p) => progress.push(p))).rejects.toThrow(
      /^the XML ends early, the file is truncated: /,
    );
    // A pass-one report of 1,000 businesses or more means a full batch went to staging before the error.
    expect(progress.some((p) => p.pass === 1 && p.businesses >= 1000)).toBe(true);
    expect(await snapshot()).toEqual(before);
  });
});
