// One business, once: OpenStreetMap and Overture Maps records of the same business become one place
// (src/server/places/conflate.ts), whichever source is imported first, and re-importing either updates that place
// instead of adding one. On SQLite or PostgreSQL (TEST_DATABASE=postgres).
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '../../src/server/db/database.js';
import { openPlacesDb } from '../helpers/places-db.js';
import { countPlaces, getPlace } from '../../src/server/places/local-store.js';
import { importOsmFile } from '../../src/server/places/osm-import.js';
import { importOvertureFiles } from '../../src/server/places/overture-import.js';
import { rowToBusiness } from '../../src/server/places/local.js';
import { toProspect } from '../../src/core/prospect.js';
import { writeOvertureParquet, type FixturePlace } from '../fixtures/overture/parquet-writer.js';

let dir: string;
let opened: Awaited<ReturnType<typeof openPlacesDb>> | undefined;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pf-conflation-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await opened?.close();
  opened = undefined;
});

async function freshDb(): Promise<Db> {
  opened = await openPlacesDb();
  return opened.db;
}

interface OsmNode {
  id: number;
  lat: number;
  lng: number;
  tags: Record<string, string>;
}

const escape = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function writeOsm(name: string, nodes: OsmNode[]): string {
  const file = join(dir, name);
  const body = nodes
    .map(
      (n) =>
        `  <node id="${n.id}" lat="${n.lat}" lon="${n.lng}" version="1">\n` +
        Object.entries(n.tags)
          .map(([k, v]) => `    <tag k="${escape(k)}" v="${escape(v)}"/>\n`)
          .join('') +
        '  </node>\n',
    )
    .join('');
  writeFileSync(
    file,
    `<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6" generator="test">\n${body}</osm>\n`,
  );
  return file;
}

async function writeOverture(name: string, places: FixturePlace[]): Promise<string> {
  const file = join(dir, name);
  await writeOvertureParquet(file, places, { rowGroupSize: 100 });
  return file;
}

// OpenStreetMap: a law firm without a phone, a dental practice with one, a pizzeria.
const LAW_OSM: OsmNode = {
  id: 101,
  lat: 37.785,
  lng: -122.401,
  tags: {
    name: 'Hooshmand Law Group',
    office: 'lawyer',
    'addr:housenumber': '22',
    'addr:street': 'Battery Street',
    'addr:city': 'San Francisco',
    opening_hours: 'Mo-Fr 09:00-17:00',
  },
};
const DENTAL_OSM: OsmNode = {
  id: 102,
  lat: 37.7862,
  lng: -122.4031,
  tags: { name: 'Union Square Dental', amenity: 'dentist', phone: '+1 415 555 0101' },
};
const PIZZA_OSM: OsmNode = {
  id: 103,
  lat: 37.7871,
  lng: -122.4001,
  tags: { name: "Joe's Pizza", amenity: 'restaurant' },
};

const overturePlace = (
  p: Partial<FixturePlace> & Pick<FixturePlace, 'id' | 'name' | 'lat' | 'lng'>,
): FixturePlace => ({
  category: 'lawyer',
  alternates: null,
  confidence: 0.9,
  phones: [],
  websites: [],
  socials: [],
  emails: [],
  brand: null,
  addresses: [],
  sources: [{ dataset: 'meta', record_id: '1', license: 'CDLA-Permissive-2.0' }],
  ...p,
});

// Overture: the same law firm 30 m away with a phone and a website; a dental lab beside the practice (a different
// business, with its own phone); a barber beside the pizzeria; a med spa only Overture has.
const LAW_OVERTURE = overturePlace({
  id: 'law',
  name: 'Hooshmand Law Group, APC',
  lat: 37.78527,
  lng: -122.401,
  category: 'personal_injury_law',
  phones: ['+14155550111'],
  websites: ['https://hooshmandlaw.example/'],
  addresses: [
    { freeform: '22 Battery St', locality: 'San Francisco', postcode: '94111', region: 'CA', country: 'US' },
  ],
});
const LAB_OVERTURE = overturePlace({
  id: 'lab',
  name: 'Union Square Dental Lab',
  lat: 37.78621,
  lng: -122.40311,
  category: 'dentist',
  phones: ['+14155550199'],
});
const BARBER_OVERTURE = overturePlace({
  id: 'barber',
  name: "Joe's Barber Shop",
  lat: 37.78712,
  lng: -122.4001,
  category: 'barber',
});
const SPA_OVERTURE = overturePlace({
  id: 'spa',
  name: 'Serenity MedSpa',
  lat: 37.7855,
  lng: -122.402,
  category: 'medical_spa',
  phones: ['+14155550123'],
  sources: [{ dataset: 'Foursquare', record_id: '2', license: 'Apache-2.0' }],
});

const OVERTURE = [LAW_OVERTURE, LAB_OVERTURE, BARBER_OVERTURE, SPA_OVERTURE];
const OSM = [LAW_OSM, DENTAL_OSM, PIZZA_OSM];

const sourcesOf = async (db: Db, id: string) => {
  const row = await getPlace(db.kysely, id);
  if (!row) throw new Error(`no place ${id}`);
  return { row, prospect: toProspect(rowToBusiness(row), { distance: 0 }) };
};

describe('conflation of OpenStreetMap and Overture', () => {
  it('makes one place of one business, each field from the better source, and says which', async () => {
    const db = await freshDb();
    await importOsmFile(db, writeOsm('a.osm', OSM));
    const r = await importOvertureFiles(db, [await writeOverture('a.parquet', OVERTURE)]);
    expect(r.merged).toEqual({ merged: 1, remerged: 0 });
    // 3 OpenStreetMap businesses and 4 Overture places, one of them the same law firm.
    expect(await countPlaces(db.kysely)).toBe(6);
    expect(await getPlace(db.kysely, 'overture:law')).toBeUndefined();
    const { row, prospect } = await sourcesOf(db, 'osm:node/101');
    expect(row).toMatchObject({
      name: 'Hooshmand Law Group',
      lat: LAW_OSM.lat,
      phone: '+14155550111',
      website: 'https://hooshmandlaw.example/',
      opening_hours: 'Mo-Fr 09:00-17:00',
      address: '22 Battery Street, San Francisco',
    });
    expect(prospect.sources).toEqual({
      name: 'OpenStreetMap',
      address: 'OpenStreetMap',
      phone: 'Overture (Meta)',
      website: 'Overture (Meta)',
      hours: 'OpenStreetMap',
    });
    // The near-twins stay businesses of their own, and a place of one source names it.
    expect(await getPlace(db.kysely, 'overture:lab')).toMatchObject({ phone: '+14155550199' });
    expect(await getPlace(db.kysely, 'overture:barber')).toBeDefined();
    expect((await sourcesOf(db, 'overture:spa')).prospect.sources).toEqual({
      name: 'Overture (Foursquare)',
      phone: 'Overture (Foursquare)',
    });
    expect((await sourcesOf(db, 'osm:node/102')).prospect.sources).toMatchObject({ phone: 'OpenStreetMap' });
  });

  it('updates the merged place when either source is imported again, never adding one', async () => {
    const db = await freshDb();
    await importOsmFile(db, writeOsm('b.osm', OSM));
    await importOvertureFiles(db, [await writeOverture('b.parquet', OVERTURE)]);
    // Overture again, with a new phone for the firm.
    const again = await importOvertureFiles(db, [
      await writeOverture('b2.parquet', [
        { ...LAW_OVERTURE, phones: ['+14155550222'] },
        ...OVERTURE.slice(1),
      ]),
    ]);
    expect(again.merged).toEqual({ merged: 0, remerged: 1 });
    expect(await countPlaces(db.kysely)).toBe(6);
    expect(await getPlace(db.kysely, 'osm:node/101')).toMatchObject({ phone: '+14155550222' });
    // OpenStreetMap again, now with a phone of its own for the firm: the surveyed one wins.
    const osmAgain = await importOsmFile(
      db,
      writeOsm('b2.osm', [
        { ...LAW_OSM, tags: { ...LAW_OSM.tags, phone: '+1 415 555 0333' } },
        DENTAL_OSM,
        PIZZA_OSM,
      ]),
    );
    expect(osmAgain.merged).toEqual({ merged: 0, remerged: 1 });
    expect(await countPlaces(db.kysely)).toBe(6);
    const { row, prospect } = await sourcesOf(db, 'osm:node/101');
    expect(row).toMatchObject({ phone: '+1 415 555 0333', website: 'https://hooshmandlaw.example/' });
    expect(prospect.sources).toMatchObject({ phone: 'OpenStreetMap', website: 'Overture (Meta)' });
  });

  it('merges the same way when Overture comes first', async () => {
    const db = await freshDb();
    await importOvertureFiles(db, [await writeOverture('c.parquet', OVERTURE)]);
    const r = await importOsmFile(db, writeOsm('c.osm', OSM));
    expect(r.merged).toEqual({ merged: 1, remerged: 0 });
    expect(await countPlaces(db.kysely)).toBe(6);
    expect(await getPlace(db.kysely, 'osm:node/101')).toBeUndefined();
    const { row, prospect } = await sourcesOf(db, 'overture:law');
    expect(row).toMatchObject({ name: 'Hooshmand Law Group', phone: '+14155550111' });
    expect(prospect.sources).toMatchObject({ name: 'OpenStreetMap', phone: 'Overture (Meta)' });
    // Both again: still six.
    await importOsmFile(db, writeOsm('c2.osm', OSM));
    await importOvertureFiles(db, [await writeOverture('c2.parquet', OVERTURE)]);
    expect(await countPlaces(db.kysely)).toBe(6);
  });

  it("takes Overture's brand into the chain check of the merged place", async () => {
    const db = await freshDb();
    const shop: OsmNode = { id: 201, lat: 37.79, lng: -122.41, tags: { name: 'Mattress Firm', shop: 'bed' } };
    await importOsmFile(db, writeOsm('d.osm', [shop]));
    await importOvertureFiles(db, [
      await writeOverture('d.parquet', [
        overturePlace({
          id: 'mf',
          name: 'Mattress Firm',
          lat: 37.79001,
          lng: -122.41,
          category: 'mattress_store',
          brand: { name: 'Mattress Firm', wikidata: 'Q6791878' },
        }),
      ]),
    ]);
    expect(await getPlace(db.kysely, 'osm:node/201')).toMatchObject({
      brand: 'Mattress Firm',
      brand_wikidata: 'Q6791878',
    });
  });

  it('credits the sources of the imported data on every map (GET /api/config)', async () => {
    const db = await freshDb();
    const credit = async () => {
      const res = await opened!.ctx.request({ method: 'GET', url: '/api/config' });
      return res.json<{ map: { dataAttribution: string } }>().map.dataAttribution;
    };
    expect(await credit()).toBe('');
    await importOsmFile(db, writeOsm('e.osm', OSM));
    expect(await credit()).toBe('© OpenStreetMap contributors');
    await importOvertureFiles(db, [await writeOverture('e.parquet', OVERTURE)]);
    expect(await credit()).toBe('© OpenStreetMap contributors, Overture Maps Foundation');
  });
});
