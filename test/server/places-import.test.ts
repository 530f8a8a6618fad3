import { afterAll, beforeAll, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openPlacesDb } from '../helpers/places-db.js';
import { describeWithOsm, osmExtractPath } from '../helpers/osm-data.js';
import type { Db } from '../../src/server/db/database.js';
import { importOsmFile } from '../../src/server/places/osm-import.js';
import { candidateQuery, countPlaces } from '../../src/server/places/local-store.js';
import { createLocalProvider } from '../../src/server/places/local.js';
import { haversineMiles } from '../../src/core/geo.js';
import { OSM_BUSINESS_KEYS } from '../../src/core/osm-tags.js';

const SF = osmExtractPath('sf-downtown.osm.pbf'); // every test is inside describeWithOsm
const CENTER = { lat: 37.7879, lng: -122.4066 };

let db: Db;
let opened: Awaited<ReturnType<typeof openPlacesDb>>;
let dir: string;
const signal = new AbortController().signal;

beforeAll(async () => {
  opened = await openPlacesDb();
  db = opened.db;
  dir = mkdtempSync(join(tmpdir(), 'pf-places-'));
  await importOsmFile(db, SF);
});

afterAll(async () => {
  await opened.close();
  rmSync(dir, { recursive: true, force: true });
});

async function snapshot(): Promise<{ count: number; staged: number; sample: string | undefined }> {
  const staged = await db.kysely
    .selectFrom('places_staging')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  const sample = await db.kysely
    .selectFrom('places')
    .select('name')
    .where('id', '=', 'osm:node/10114362321')
    .executeTakeFirst();
  return { count: await countPlaces(db.kysely), staged: Number(staged.n), sample: sample?.name };
}

describeWithOsm(SF, 'OSM import of the San Francisco extract', () => {
  it('stores every named business node and way, the README POIs among them', async () => {
    const rows = await db.kysely.selectFrom('places').select(['id', 'tags', 'lat', 'lng', 'name']).execute();
    // 4,007: the POIs plus the hotels, gyms, spas, museums… tagged only with tourism or leisure.
    expect(rows.length).toBe(4007);
    // The README counts the elements with shop, amenity, office, craft or healthcare: 3,697.
    const pois = rows.filter((r) => {
      const tags = JSON.parse(r.tags) as Record<string, string>;
      return OSM_BUSINESS_KEYS.some((k) => tags[k] !== undefined);
    });
    expect(pois.length).toBe(3697);
    expect(rows.filter((r) => r.id.startsWith('osm:way/')).length).toBe(693);
    for (const r of rows) expect(r.name.trim()).not.toBe('');
    // Nodes and way centroids together sit where the README says the POIs are (median 37.78793, -122.40658).
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
    expect(median(rows.map((r) => r.lat))).toBeCloseTo(37.78793, 2);
    expect(median(rows.map((r) => r.lng))).toBeCloseTo(-122.40658, 2);
  });

  it('keeps address parts, phone, website, opening hours and brand', async () => {
    const withAll = await db.kysely
      .selectFrom('places')
      .selectAll()
      .where('phone', 'is not', null)
      .where('website', 'is not', null)
      .where('zip', 'is not', null)
      .where('opening_hours', 'is not', null)
      .orderBy('id')
      .limit(1)
      .executeTakeFirstOrThrow();
    const tags = JSON.parse(withAll.tags) as Record<string, string>;
    expect(withAll.address).toContain(tags['addr:street'] ?? '');
    expect(withAll.zip).toBe(tags['addr:postcode']);
    expect(withAll.opening_hours).toBe(tags.opening_hours);
    const branded = await db.kysely
      .selectFrom('places')
      .select(['brand', 'brand_wikidata', 'tags'])
      .where('brand_wikidata', 'is not', null)
      .limit(5)
      .execute();
    expect(branded.length).toBe(5);
    for (const b of branded)
      expect(b.brand_wikidata).toBe((JSON.parse(b.tags) as Record<string, string>)['brand:wikidata']);
  });

  it('re-imports idempotently: same rows, hand edits overwritten from the file', async () => {
    const before = await snapshot();
    await db.kysely
      .updateTable('places')
      .set({ name: 'Edited' })
      .where('id', '=', 'osm:node/10114362321')
      .execute();
    const again = await importOsmFile(db, SF);
    expect(again.upserted).toBe(4007);
    const after = await snapshot();
    expect(after).toEqual(before);
    expect(after.staged).toBe(0);
  });

  it('rejects a truncated file and leaves the previous import intact', async () => {
    const before = await snapshot();
    const truncated = join(dir, 'truncated.osm.pbf');
    writeFileSync(truncated, readFileSync(SF).subarray(0, 1_000_000));
    await expect(importOsmFile(db, truncated)).rejects.toThrow(/truncated at byte/);
    expect(await snapshot()).toEqual(before);
  });

  it('rejects a file that is not OpenStreetMap data and leaves the previous import intact', async () => {
    const before = await snapshot();
    // Content decides the format (OSM XML named .osm.pbf is read as XML); what is neither is refused by its name.
    const text = join(dir, 'not-pbf.osm.pbf');
    writeFileSync(text, 'name,lat,lng\nCorner Shop,37.79,-122.41\n');
    await expect(importOsmFile(db, text)).rejects.toThrow('not an OpenStreetMap PBF file');
    expect(await snapshot()).toEqual(before);
  });

  it('rejects a file whose data is corrupt half-way, after staging began, and discards what was staged', async () => {
    const before = await snapshot();
    const corrupt = join(dir, 'corrupt.osm.pbf');
    const bytes = Buffer.from(readFileSync(SF));
    bytes.fill(0x55, 1_200_000, 1_200_400);
    writeFileSync(corrupt, bytes);
    await expect(importOsmFile(db, corrupt)).rejects.toThrow(/cannot decode the file/);
    expect(await snapshot()).toEqual(before);
  });
});

describeWithOsm(SF, 'local provider radius query', () => {
  const local = () => createLocalProvider(db, () => new Date('2026-11-23T18:30:00Z'));

  it('returns businesses strictly within 1 mile, nearest first, at most 500', async () => {
    const found = await local().nearby({ ...CENTER, radiusMiles: 1, types: [], limit: 500 }, signal);
    expect(found.length).toBe(500);
    let last = 0;
    for (const b of found) {
      const d = haversineMiles(CENTER, b);
      expect(d).toBeLessThan(1);
      expect(d).toBeGreaterThanOrEqual(last);
      last = d;
      expect(b.source).toBe('local');
    }
    expect(new Set(found.map((b) => b.id)).size).toBe(500);
  });

  it('returns the exact nearest set (compared with a brute-force pass over every row)', async () => {
    const all = await db.kysely.selectFrom('places').select(['id', 'lat', 'lng', 'types']).execute();
    const center = { lat: 37.7937, lng: -122.3965 };
    const want = all
      .filter((r) => (JSON.parse(r.types) as string[]).some((t) => t === 'bank' || t === 'dentist'))
      .map((r) => ({ id: r.id, d: haversineMiles(center, r) }))
      .filter((r) => r.d < 0.8)
      .sort((a, b) => a.d - b.d)
      .slice(0, 25)
      .map((r) => r.id);
    const found = await local().nearby(
      { ...center, radiusMiles: 0.8, types: ['bank', 'dentist'], limit: 25 },
      signal,
    );
    expect(found.map((b) => b.id)).toEqual(want);
    for (const b of found) expect(b.types.some((t) => t === 'bank' || t === 'dentist')).toBe(true);
  });

  it('maps a row to the core Business with open-now from opening_hours at local time', async () => {
    const found = await local().nearby({ ...CENTER, radiusMiles: 1, types: ['bank'], limit: 100 }, signal);
    expect(found.length).toBeGreaterThan(20);
    const withHours = found.filter((b) => b.tags?.opening_hours);
    expect(withHours.length).toBeGreaterThan(0);
    // Monday 10:30 in San Francisco: banks with hours are known open or closed, never left unknown.
    expect(withHours.some((b) => b.openNow === true)).toBe(true);
    const noHours = found.find((b) => !b.tags?.opening_hours);
    expect(noHours?.openNow ?? null).toBeNull();
    expect(found.every((b) => b.category === 'Financial' || b.types.includes('bank'))).toBe(true);
  });

  it('answers details and text search from the imported data', async () => {
    const provider = local();
    const [first] = await provider.nearby(
      { ...CENTER, radiusMiles: 1, types: ['dentist'], limit: 1 },
      signal,
    );
    expect(first).toBeDefined();
    const row = await db.kysely
      .selectFrom('places')
      .selectAll()
      .where('phone', 'is not', null)
      .limit(1)
      .executeTakeFirstOrThrow();
    const details = await provider.details?.(row.id, signal);
    expect(details?.phone).toBe(row.phone);
    expect(await provider.details?.('osm:node/1', signal)).toBeNull();
    const hits = await provider.textSearch?.(
      { query: row.name, lat: row.lat, lng: row.lng, radiusMiles: 0.5 },
      signal,
    );
    expect(hits?.[0]?.name).toBe(row.name);
  });

  it('reads the radius candidates through the grid index, never a table scan', async () => {
    const query = candidateQuery(db.kysely, CENTER, 0.5, {
      ...CENTER,
      radiusMiles: 0.5,
      types: ['dentist'],
      limit: 50,
    }).compile();
    if (db.kind === 'sqlite') {
      const plan = (db.sqlite?.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...query.parameters) ?? []) as {
        detail: string;
      }[];
      const details = plan.map((p) => p.detail).join('\n');
      expect(details).toMatch(
        /SEARCH places USING COVERING INDEX places_grid \(cell_lat=\? AND lng>\? AND lng<\?\)/,
      );
      expect(details).not.toMatch(/SCAN places/);
    } else {
      const { rows } = await sql<{
        'QUERY PLAN': unknown;
      }>`${sql.raw(`EXPLAIN (FORMAT JSON) ${query.sql.replace(/\$(\d+)/g, (_, n: string) => literal(query.parameters[Number(n) - 1]))}`)}`.execute(
        db.kysely,
      );
      const plan = JSON.stringify(rows[0]?.['QUERY PLAN']);
      expect(plan).toContain('"Index Name":"places_grid"');
      expect(plan).not.toContain('"Node Type":"Seq Scan"');
    }
  });
});

function literal(v: unknown): string {
  if (typeof v === 'number') return String(v);
  return `'${String(v).replace(/'/g, "''")}'`;
}
