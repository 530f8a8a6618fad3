// The radius query's reads (places/local-store.ts): the nearest places' records, read on SQLite by the row number
// the grid index gives and checked against the id, so a row number that no longer belongs to the place found (the
// table changed between the two reads) never hands back another place's record; on PostgreSQL through the grid
// index over the pass's area, and by id for any chosen place no longer in it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openPlacesDb } from '../helpers/places-db.js';
import type { Db } from '../../src/server/db/database.js';
import {
  commitStaged,
  firstPassMiles,
  placeRecords,
  placeRow,
  queryRadius,
  stageRows,
} from '../../src/server/places/local-store.js';
import { haversineMiles } from '../../src/core/geo.js';

const CENTER = { lat: 33.5186, lng: -86.8104 };

let db: Db;
let opened: Awaited<ReturnType<typeof openPlacesDb>>;

/** 40 dentists on a spiral around the centre, each 0.02 mile further out than the one before. */
const places = Array.from({ length: 40 }, (_, i) => {
  const miles = 0.05 + i * 0.02;
  const angle = i * 2.4;
  return placeRow(
    {
      id: `osm:node/${1000 + i}`,
      lat: CENTER.lat + (miles / 69) * Math.cos(angle),
      lng: CENTER.lng + (miles / (69 * Math.cos((CENTER.lat * Math.PI) / 180))) * Math.sin(angle),
      tags: { name: `Dentist ${i}`, amenity: 'dentist', phone: `+1 205 555 ${String(1000 + i)}` },
    },
    '2026-11-27T00:00:00.000Z',
  );
});

beforeAll(async () => {
  opened = await openPlacesDb();
  db = opened.db;
  await stageRows(db.kysely, 'test-import', places);
  await commitStaged(db.kysely, 'test-import');
});

afterAll(async () => {
  await opened.close();
});

describe('radius query reads', () => {
  it('an import writes the places in the grid index order, so those of one area share pages', async () => {
    const physical =
      db.kind === 'sqlite'
        ? (db.sqlite!.prepare('SELECT id FROM places ORDER BY rowid').all() as { id: string }[])
        : (await sql<{ id: string }>`SELECT id FROM places ORDER BY ctid`.execute(db.kysely)).rows;
    const byGrid = [...places].sort((a, b) => a.cell_lat - b.cell_lat || a.lng - b.lng);
    expect(physical.map((r) => r.id)).toEqual(byGrid.map((p) => p.id));
    // The staging order (OpenStreetMap ids) is not that order, so the test can tell.
    expect(byGrid.map((p) => p.id)).not.toEqual(places.map((p) => p.id));
  });

  it('answers the nearest places with their own records, nearest first', async () => {
    const found = await queryRadius(db, { ...CENTER, radiusMiles: 0.5, types: ['dentist'], limit: 10 });
    expect(found.map((f) => f.row.name)).toEqual(Array.from({ length: 10 }, (_, i) => `Dentist ${i}`));
    for (const { row, miles } of found) {
      const source = places.find((p) => p.id === row.id)!;
      expect(row).toMatchObject({
        name: source.name,
        phone: source.phone,
        tags: source.tags,
        types: source.types,
      });
      expect(miles).toBeCloseTo(haversineMiles(CENTER, source), 9);
    }
  });

  it('reads a place by its id when the row number it was found with belongs to another place or none', async () => {
    const ids = places.slice(0, 6).map((p) => p.id);
    const rowids =
      db.kind === 'sqlite'
        ? (db
            .sqlite!.prepare(
              `SELECT id, rowid AS n FROM places WHERE id IN (${ids.map(() => '?').join(',')})`,
            )
            .all(...ids) as { id: string; n: number }[])
        : ids.map((id, i) => ({ id, n: i + 1 }));
    const numberOf = new Map(rowids.map((r) => [r.id, r.n]));
    // Each of the first five carries the next one's row number; the sixth a row number no row has.
    const chosen = ids.map((id, i) => ({ id, rowid: i < 5 ? numberOf.get(ids[i + 1]!)! : 9_999_999 }));
    const records = await placeRecords(db, chosen);
    expect([...records.keys()].sort()).toEqual([...ids].sort());
    for (const id of ids) {
      expect(records.get(id)).toMatchObject({ id, name: places.find((p) => p.id === id)!.name });
    }
  });

  it('leaves out a candidate whose place is gone (deleted after the candidate pass)', async () => {
    const records = await placeRecords(db, [
      { id: places[0]!.id },
      { id: 'osm:node/999999', rowid: 9_999_998 },
    ]);
    expect([...records.keys()]).toEqual([places[0]!.id]);
  });

  it('reads a chosen place by its id when it is no longer in the area of the pass that found it', async () => {
    // The first five dentists lie within 0.15 mile; the two others are further out than the area given.
    const chosen = [...places.slice(0, 5), places[30]!, places[39]!].map((p) => ({ id: p.id }));
    const records = await placeRecords(db, chosen, { center: CENTER, radiusMiles: 0.15 });
    expect([...records.keys()].sort()).toEqual(chosen.map((c) => c.id).sort());
    expect(records.get(places[39]!.id)).toMatchObject({ name: 'Dentist 39', profile: places[39]!.profile });
  });
});

describe('where a radius query starts', () => {
  // Its own spot in the memo (the words are part of it): the queries above left theirs.
  const query = { ...CENTER, radiusMiles: 2, types: ['dentist'], text: 'dentist', limit: 10 };
  const nearest = (n: number) => Array.from({ length: n }, (_, i) => `Dentist ${i}`);
  const names = async (q: typeof query) => (await queryRadius(db, q)).map((f) => f.row.name);

  it('starts small where nothing is known of the area, then where its density says the limit lies', async () => {
    expect(firstPassMiles(db, query)).toBe(0.5);
    expect(await names(query)).toEqual(nearest(10));
    // 23 dentists lie within the first half mile: 10 should lie within about 0.38 mile (margin included), and do
    // (the 17 within 0.38: each 0.02 mile further out than the one before, from 0.05).
    const start = firstPassMiles(db, query);
    expect(start).toBeGreaterThan(0.23);
    expect(start).toBeLessThan(0.5);
    expect(await names(query)).toEqual(nearest(10));
    // Per set of types: another kind of query here knows nothing yet.
    expect(firstPassMiles(db, { ...query, types: ['dentist', 'lawyer'] })).toBe(0.5);
  });

  it('answers the same nearest places whatever it remembered: a start too small is widened', async () => {
    await names(query);
    // The start for 10 holds fewer than 30: widened until it holds them, the 30 nearest in order.
    expect(firstPassMiles(db, { ...query, limit: 30 })).toBeLessThan(0.05 + 29 * 0.02);
    expect(await names({ ...query, limit: 30 })).toEqual(nearest(30));
    // Having seen the sparser outskirts, it starts wider; a smaller limit still answers its own nearest.
    expect(await names({ ...query, limit: 3 })).toEqual(nearest(3));
    expect(await names({ ...query, limit: 40 })).toEqual(nearest(40));
    // More than there are: widened to the whole circle, and nothing more than there is; then known sparse, the
    // next such query reads the whole circle at once.
    expect(await names({ ...query, limit: 100 })).toEqual(nearest(40));
    expect(firstPassMiles(db, { ...query, limit: 100 })).toBe(2);
    expect(await names({ ...query, limit: 100 })).toEqual(nearest(40));
  });
});
