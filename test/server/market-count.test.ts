// The market's rebuild counts in the database: a business's distinct places by its name, the businesses whose places
// (by name or website domain) span several cities, and remakes only the places whose count, cities or rank changed.
// Rows are written as an import writes them (staged, then committed), on SQLite or PostgreSQL per TEST_DATABASE.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { commitStaged, stageRows, storedRow, type PlaceSource } from '../../src/server/places/local-store.js';
import { refreshMarket } from '../../src/server/places/market.js';
import { placeRank, ruleOfCode } from '../../src/server/places/ranks.js';
import { rowToBusiness } from '../../src/server/places/local.js';
import { writeEvidence } from '../../src/server/websites/repository.js';
import { getBrandIndex } from '../../src/core/scoring/nsi.js';
import { profileVersion } from '../../src/core/scoring/profile.js';
import { RULES_VERSION } from '../../src/core/websites/rules.js';
import type { WebsiteEvidence } from '../../src/core/websites/signals.js';
import type { Db } from '../../src/server/db/database.js';
import { openPlacesDb } from '../helpers/places-db.js';

const SF = { lat: 37.7749, lng: -122.4194 };
const OAKLAND = { lat: 37.8044, lng: -122.2712 };
const LA = { lat: 34.0522, lng: -118.2437 };

function place(id: string, name: string, at: { lat: number; lng: number }, extra: Partial<PlaceSource> = {}) {
  return {
    id,
    name,
    lat: at.lat,
    lng: at.lng,
    types: ['dentist'],
    category: 'Dentist',
    address: `${id.length} Market Street`,
    city: null,
    state: null,
    zip: null,
    phone: '(415) 555-0100',
    website: null,
    openingHours: null,
    brand: null,
    brandWikidata: null,
    tags: { name, amenity: 'dentist' },
    ...extra,
  } satisfies PlaceSource;
}

const PLACES: PlaceSource[] = [
  // Three offices of one local practice in the Bay Area; the third mapped twice (its node and its building).
  place('t:1', 'Bright Smile Dental', SF),
  place('t:2', 'Bright Smile Dental', OAKLAND),
  place('t:3', 'Bright Smile Dental', { lat: SF.lat + 0.02, lng: SF.lng }),
  place('t:4', 'Bright Smile Dental', { lat: SF.lat + 0.0201, lng: SF.lng + 0.0001 }),
  // Two names, one website, in two cities 350 miles apart: a chain by its domain.
  place('t:5', 'Coastal Dental Care', SF, { website: 'https://www.coastaldentalcare.com/sf' }),
  place('t:6', 'Coastal Dental of Los Angeles', LA, { website: 'https://coastaldentalcare.com/la' }),
  // One name in two cities: a chain by its name.
  place('t:7', 'Pacific Orthodontics', SF),
  place('t:8', 'Pacific Orthodontics', LA),
  // A business of its own, with a website that will be checked.
  place('t:9', 'Mission Family Dentistry', { lat: SF.lat - 0.01, lng: SF.lng }, { website: 'https://missionfamilydentistry.com' }),
  // A name that says only what it is: never one business.
  place('t:10', 'Dentist', SF),
  place('t:11', 'Dentist', LA),
]; // prettier-ignore

async function importRows(db: Db, sources: readonly PlaceSource[]): Promise<void> {
  const id = randomUUID();
  const at = new Date().toISOString();
  await stageRows(
    db.kysely,
    id,
    sources.map((s) => storedRow(s, at, getBrandIndex())),
  );
  await commitStaged(db.kysely, id);
}

const rowsById = async (db: Db) =>
  new Map((await db.kysely.selectFrom('places').selectAll().execute()).map((r) => [r.id, r]));

let places: Awaited<ReturnType<typeof openPlacesDb>>;
let db: Db;
beforeAll(async () => {
  places = await openPlacesDb();
  db = places.db;
  await importRows(db, PLACES);
}, 60_000);
afterAll(() => places.close());

describe('the market counted by the database', () => {
  it('counts distinct places by name, the node and building of one office once', async () => {
    const summary = await refreshMarket(db, getBrandIndex());
    const rows = await rowsById(db);
    for (const id of ['t:1', 't:2', 't:3', 't:4']) expect(rows.get(id)?.locations, id).toBe(3);
    expect(rows.get('t:9')?.locations).toBe(1);
    // Generic names are not one business.
    expect(rows.get('t:10')?.locations).toBe(1);
    expect(rows.get('t:10')?.many_cities).toBe(0);
    expect(summary.multiLocation).toBe(6);
  });

  it('finds the businesses in several cities by name or by website domain, not one metro area', async () => {
    const rows = await rowsById(db);
    expect(['t:1', 't:2', 't:3', 't:4'].map((id) => rows.get(id)?.many_cities)).toEqual([0, 0, 0, 0]);
    expect(['t:5', 't:6', 't:7', 't:8'].map((id) => rows.get(id)?.many_cities)).toEqual([1, 1, 1, 1]);
    expect(ruleOfCode(rows.get('t:5')!.rank_rule)).toBe('chain');
    expect(rows.get('t:9')?.many_cities).toBe(0);
  });

  it('stores the rank the place has with its market', async () => {
    const version = profileVersion(getBrandIndex());
    for (const row of (await rowsById(db)).values()) {
      const business = rowToBusiness(row, undefined, undefined, version);
      expect(placeRank(business, getBrandIndex()), row.id).toEqual({
        rank_score: row.rank_score,
        rank_rule: row.rank_rule,
      });
    }
  });

  it('a second rebuild changes nothing', async () => {
    const summary = await refreshMarket(db, getBrandIndex());
    expect(summary).toMatchObject({ profilesMade: 0, ranksChanged: 0 });
  });

  it('a re-import of one office writes it as single; the rebuild counts it again', async () => {
    await importRows(db, [PLACES[1]!]);
    expect((await rowsById(db)).get('t:2')?.locations).toBe(1);
    await refreshMarket(db, getBrandIndex());
    expect((await rowsById(db)).get('t:2')?.locations).toBe(3);
  });

  it('an office that closes lowers the count of the others', async () => {
    await db.kysely.deleteFrom('places').where('id', '=', 't:2').execute();
    await refreshMarket(db, getBrandIndex());
    const rows = await rowsById(db);
    expect(rows.get('t:1')?.locations).toBe(2);
    await importRows(db, [PLACES[1]!]);
    await refreshMarket(db, getBrandIndex());
  });

  it("keeps a checked website's evidence in the rank through a re-import of the place", async () => {
    const evidence: WebsiteEvidence = {
      status: 'checked',
      reason: null,
      url: 'https://missionfamilydentistry.com/',
      checkedAt: new Date().toISOString(),
      signals: ['google_ads', 'meta_pixel'].map((kind) => ({
        kind: kind as 'google_ads',
        label: kind,
        url: 'https://missionfamilydentistry.com/',
        seenAt: new Date().toISOString(),
      })),
      facts: {},
      rules: RULES_VERSION,
    };
    const before = (await rowsById(db)).get('t:9')!;
    const business = rowToBusiness(before, undefined, undefined, profileVersion(getBrandIndex()));
    await writeEvidence(db.kysely, 'place_t:9', business.website!, evidence, business);
    const raised = placeRank(business, getBrandIndex(), evidence).rank_score!;
    expect(raised).toBeGreaterThan(before.rank_score!);

    await importRows(db, [PLACES[8]!]);
    expect((await rowsById(db)).get('t:9')?.rank_score).toBe(before.rank_score);
    await refreshMarket(db, getBrandIndex());
    expect((await rowsById(db)).get('t:9')?.rank_score).toBe(raised);
  });

  it('remakes the profiles and keys of places imported under other rules', async () => {
    await db.kysely
      .updateTable('places')
      .set({ profile: null, name_key: null, site_domain: null, rank_score: null, rank_rule: null })
      .execute();
    const summary = await refreshMarket(db, getBrandIndex());
    expect(summary.profilesMade).toBe(PLACES.length);
    const rows = await rowsById(db);
    expect(rows.get('t:1')?.name_key).toBe('bright smile dental');
    expect(rows.get('t:5')?.site_domain).toBe('coastaldentalcare.com');
    expect(rows.get('t:1')?.locations).toBe(3);
    expect(rows.get('t:7')?.many_cities).toBe(1);
  });
});
