// The `places` table: rows from OSM elements, the staged import (write to a staging table, then one
// transaction moves it into `places`), and the radius query through the `places_grid` index.
import { sql, type Kysely, type Transaction } from 'kysely';
import { inTexts, withSqliteConnection, type Db, inTransaction } from '../db/database.js';
import type { Selectable, SelectQueryBuilder } from 'kysely';
import type { Database, PlaceTable } from '../db/schema.js';
import { osmBusinessTypes, osmCategoryLabel } from '../../core/osm-tags.js';
import { boundingBox, haversineMiles, type BoundingBox, type LatLng } from '../../core/geo.js';
import { hasExactBit, SCANNED_KINDS_SQL, typeMask } from './type-mask.js';
import { MAX_PROVIDER_RESULTS, wantsEveryType, type Within } from './provider.js';
import type { OsmPoi } from './pbf-reader.js';
import { encodeProfile, placeProfile } from '../../core/scoring/profile.js';
import type { BrandIndex } from '../../core/scoring/brand-index.js';
import { getBrandIndex, placeArea } from '../../core/scoring/nsi.js';
import { locationKey, siteKey } from '../../core/market.js';
import { cleanName } from '../../core/api/common.js';
import {
  distanceScore,
  isPrefilteredRule,
  placeScore,
  QUALITY_SPREAD,
  qualitySpread,
  RULE_SCORES,
  WEIGHTS,
  type ScoreRule,
} from '../../core/scoring/index.js';
import { placeRank, ruleOfCode } from './ranks.js';

/** Grid bands per degree of latitude (0.01° ≈ 0.69 mile). */
export const CELLS_PER_DEGREE = 100;
export const cellOf = (lat: number): number => Math.floor(lat * CELLS_PER_DEGREE);

/** A row as an import writes it (locations and cities are counted after the import, by places/market.ts). */
export type PlaceRow = Omit<PlaceTable, 'locations' | 'many_cities'>;
/** A row as read back. */
export type StoredPlace = Selectable<PlaceTable>;

const text = (v: string | undefined): string | null => {
  const t = v?.trim();
  return t ? t : null;
};

/** "123 Main St, San Francisco, CA 94105" from the addr:* tags (whatever parts exist). */
export function formatAddress(tags: Readonly<Record<string, string>>): string {
  const street = [tags['addr:housenumber'], tags['addr:street']]
    .map((s) => s?.trim())
    .filter(Boolean)
    .join(' ');
  const line = street || tags['addr:full']?.trim() || '';
  const region = [tags['addr:state'], tags['addr:postcode']]
    .map((s) => s?.trim())
    .filter(Boolean)
    .join(' ');
  return [line, tags['addr:city']?.trim(), region].filter((s) => s).join(', ');
}

/** What a source says of one business, before the row is made (see storedRow). */
export interface PlaceSource {
  id: string;
  name: string;
  lat: number;
  lng: number;
  types: string[];
  category: string;
  address: string;
  city: string | null;
  state: string | null;
  zip: string | null;
  phone: string | null;
  website: string | null;
  openingHours: string | null;
  brand: string | null;
  brandWikidata: string | null;
  /** OSM tags, or a source's fields written as such (the scoring evidence reads them). */
  tags: Record<string, string>;
}

/**
 * The stored row of one business, with its profile (scoring/profile.ts) made under `brandIndex` and its rank
 * (ranks.ts) as a single place: what a scan would otherwise derive from the same fields each time it finds the
 * place. The market's rebuild after the import corrects the rank of a business with places elsewhere.
 */
export function storedRow(
  source: PlaceSource,
  importedAt: string,
  brandIndex: BrandIndex | undefined = getBrandIndex(),
  fieldSources: Readonly<Record<string, string>> | null = null,
): PlaceRow {
  // A name with a line break in the source file would break out of its line in calendar files, CSV exports
  // and e-mails, and the API refuses one in a call log: it is stored as one line.
  const f = { ...source, name: cleanName(source.name) };
  const profile = placeProfile(
    {
      name: f.name,
      category: f.category,
      address: f.address,
      types: f.types,
      tags: f.tags,
      brand: f.brand,
      brandWikidata: f.brandWikidata,
      website: f.website,
      area: placeArea(f.lat, f.lng),
    },
    brandIndex,
  );
  const rank = placeRank(
    {
      id: f.id,
      name: f.name,
      lat: f.lat,
      lng: f.lng,
      types: f.types,
      category: f.category,
      address: f.address,
      reviews: 0,
      openNow: null,
      source: 'local',
      tags: f.tags,
      profile,
      ...(f.phone && { phone: f.phone }),
      ...(f.website && { website: f.website }),
    },
    brandIndex,
  );
  return {
    id: f.id,
    name: f.name,
    lat: f.lat,
    lng: f.lng,
    cell_lat: cellOf(f.lat),
    type_mask: typeMask(f.types),
    types: JSON.stringify(f.types),
    category: f.category,
    address: f.address,
    city: f.city,
    state: f.state,
    zip: f.zip,
    phone: f.phone,
    website: f.website,
    opening_hours: f.openingHours,
    brand: f.brand,
    brand_wikidata: f.brandWikidata,
    tags: JSON.stringify(f.tags),
    imported_at: importedAt,
    profile: encodeProfile(profile),
    ...rank,
    name_key: locationKey(f.name),
    site_domain: siteKey(f.website),
    field_sources: fieldSources ? JSON.stringify(fieldSources) : null,
  };
}

/** The stored row of one OSM business (see storedRow). */
export function placeRow(
  poi: OsmPoi,
  importedAt: string,
  brandIndex: BrandIndex | undefined = getBrandIndex(),
): PlaceRow {
  const t = poi.tags;
  return storedRow(
    {
      id: poi.id,
      name: (t.name ?? '').trim(),
      lat: poi.lat,
      lng: poi.lng,
      types: osmBusinessTypes(t),
      category: osmCategoryLabel(t),
      address: formatAddress(t),
      city: text(t['addr:city']),
      state: text(t['addr:state']),
      zip: text(t['addr:postcode']),
      phone: text(t.phone ?? t['contact:phone']),
      website: text(t.website ?? t['contact:website'] ?? t.url),
      openingHours: text(t.opening_hours),
      brand: text(t.brand),
      brandWikidata: text(t['brand:wikidata']),
      tags: t,
    },
    importedAt,
    brandIndex,
  );
}

const COLUMNS = [
  'id',
  'name',
  'lat',
  'lng',
  'cell_lat',
  'type_mask',
  'types',
  'category',
  'address',
  'city',
  'state',
  'zip',
  'phone',
  'website',
  'opening_hours',
  'brand',
  'brand_wikidata',
  'tags',
  'imported_at',
  'profile',
  'rank_score',
  'rank_rule',
  'name_key',
  'site_domain',
  'field_sources',
] as const satisfies readonly (keyof PlaceRow)[];

const INSERT_CHUNK = 500;

/** Write a batch of rows into the staging area of one import (nothing visible to queries yet). */
export async function stageRows(
  db: Kysely<Database>,
  importId: string,
  rows: readonly PlaceRow[],
): Promise<void> {
  // One transaction per batch: one durable commit instead of one per statement.
  await inTransaction(db, async (trx) => {
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      const chunk = rows.slice(i, i + INSERT_CHUNK).map((r) => ({ ...r, import_id: importId }));
      await trx
        .insertInto('places_staging')
        .values(chunk)
        .onConflict((oc) => oc.columns(['import_id', 'id']).doNothing())
        .execute();
    }
  });
}

/**
 * Move a staged import into `places` in one transaction: insert new ids, update existing ones. Rows go in in
 * the order of the grid index (latitude band, then longitude), so the places of one area lie on a few pages of the
 * table instead of one page each: a radius query reads its 500 nearest from tens of pages, not hundreds (an
 * extract comes in the order of its OpenStreetMap ids, which is no order on the ground). `prepare` runs first, in
 * the same transaction (the conflation of the staged rows with the places of another source, conflate.ts).
 */
export async function commitStaged(
  db: Kysely<Database>,
  importId: string,
  prepare?: (trx: Transaction<Database>) => Promise<void>,
): Promise<number> {
  return inTransaction(db, async (trx) => {
    await prepare?.(trx);
    const select = trx
      .selectFrom('places_staging')
      .select([...COLUMNS])
      .where('import_id', '=', importId)
      .orderBy('cell_lat')
      .orderBy('lng');
    const result = await trx
      .insertInto('places')
      .columns([...COLUMNS])
      .expression(select)
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => {
          const set: Record<string, unknown> = {};
          for (const c of COLUMNS) if (c !== 'id') set[c] = eb.ref(`excluded.${c}`);
          // The rank written is the place's own; the market's rebuild counts its other places again.
          set.locations = 1;
          set.many_cities = 0;
          return set;
        }),
      )
      .executeTakeFirst();
    await trx.deleteFrom('places_staging').where('import_id', '=', importId).execute();
    return Number(result.numInsertedOrUpdatedRows ?? 0n);
  });
}

/** Drop a failed import's staged rows, and any left behind by imports that died more than a day ago. */
export async function discardStaged(db: Kysely<Database>, importId: string): Promise<void> {
  const dayAgo = new Date(Date.now() - 86_400_000).toISOString();
  await db
    .deleteFrom('places_staging')
    .where((eb) => eb.or([eb('import_id', '=', importId), eb('imported_at', '<', dayAgo)]))
    .execute();
}

export async function countPlaces(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('places')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** True once any business has been imported (drives PLACE_PROVIDERS=auto). */
export async function hasPlaces(db: Kysely<Database>): Promise<boolean> {
  const row = await db.selectFrom('places').select('id').limit(1).executeTakeFirst();
  return row !== undefined;
}

/** True when any imported business (of any type) lies strictly inside the circle. */
export async function hasPlacesNear(db: Db, center: LatLng, radiusMiles: number): Promise<boolean> {
  const rows = await queryRadius(db, { ...center, radiusMiles, types: [], limit: 1 });
  return rows.length > 0;
}

export async function getPlace(db: Kysely<Database>, id: string): Promise<StoredPlace | undefined> {
  return db.selectFrom('places').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface RadiusQuery {
  lat: number;
  lng: number;
  radiusMiles: number;
  types: readonly string[];
  limit: number;
  /** Case-insensitive words every match must contain in its name, category or types (text search). */
  text?: string;
  /** Read each candidate's rank too (rank_score, rank_rule). */
  ranks?: boolean;
  /** A territory: its box bounds the candidate pass instead of the circle's. */
  within?: Within;
}

interface Candidate {
  id: string;
  lat: number;
  lng: number;
  types?: string;
  name?: string;
  category?: string;
  rank_score?: number | null;
  rank_rule?: number | null;
  /** SQLite's row number, where the candidate pass gives it (the grid index carries it). */
  rowid?: number;
}

/** The places inside the bounding box of a circle (or the given box), as the `places_grid` index finds them. */
function inBox<Q extends SelectQueryBuilder<Database, 'places', object>>(
  query: Q,
  center: LatLng,
  radiusMiles: number,
  given?: BoundingBox,
): Q {
  const box = given ?? boundingBox(center, radiusMiles);
  const cells: number[] = [];
  for (let c = cellOf(box.minLat); c <= cellOf(box.maxLat); c++) cells.push(c);
  return query
    .where('cell_lat', 'in', cells)
    .where('lng', '>=', box.minLng)
    .where('lng', '<=', box.maxLng)
    .where('lat', '>=', box.minLat)
    .where('lat', '<=', box.maxLat) as Q;
}

/**
 * The candidates inside the bounding box of a circle, through the `places_grid` index: one index range per
 * 0.01° latitude band (cell_lat = ?, lng between ? and ?), lat and the type mask checked from the index too.
 */
export function candidateQuery(db: Kysely<Database>, center: LatLng, radiusMiles: number, q: RadiusQuery) {
  const every = wantsEveryType(q.types);
  const exact = every || q.types.every(hasExactBit);
  let query = inBox(db.selectFrom('places').select(['id', 'lat', 'lng']), center, radiusMiles, q.within?.box);
  if (!every) query = query.where(sql<boolean>`(type_mask & ${typeMask(q.types)}) <> 0`);
  if (!exact) query = query.select('types');
  if (q.text) query = query.select(['name', 'category', 'types']);
  // A ranked scan reads the index of the places of the scanned kinds (places_scan).
  if (q.ranks) query = query.select(['rank_score', 'rank_rule']).where(sql.raw<boolean>(SCANNED_KINDS_SQL));
  return query;
}

function matchesText(c: Candidate, words: readonly string[]): boolean {
  const hay = `${c.name ?? ''} ${c.category ?? ''} ${(c.types ?? '').replace(/_/g, ' ')}`.toLowerCase();
  return words.every((w) => hay.includes(w));
}

/** The columns a source's record of a place is stored in (conflate.ts makes the record again from them). */
export const SOURCE_COLUMNS = [
  'id',
  'name',
  'lat',
  'lng',
  'types',
  'category',
  'address',
  'city',
  'state',
  'zip',
  'phone',
  'website',
  'opening_hours',
  'brand',
  'brand_wikidata',
  'tags',
] as const satisfies readonly (keyof PlaceTable)[];

/** The columns a business is made of (local.ts rowToBusiness), as a radius query reads them. */
const RECORD_COLUMNS = [
  ...SOURCE_COLUMNS,
  'locations',
  'many_cities',
  'profile',
  'field_sources',
] as const satisfies readonly (keyof PlaceTable)[];

/** A place as a radius query answers it. */
export type PlaceRecord = Pick<StoredPlace, (typeof RECORD_COLUMNS)[number]>;

/**
 * How a radius query reads the database: the candidates of a pass, and the records of the chosen ones. On SQLite
 * both answer arrays (withSqliteConnection) and the records are read by row number, which the grid index
 * carries, instead of through the id index: 500 places in about 2.5 ms instead of 5.6. A row number is checked
 * against the id it was found with, and any that no longer match (the table changed in between) are read by id.
 */
interface PlaceReads {
  candidates(center: LatLng, radiusMiles: number, q: RadiusQuery): Promise<Candidate[]>;
  /** The records of `chosen`, found by a pass over the circle `area` when it is given. */
  records(chosen: readonly Pick<Candidate, 'id' | 'rowid'>[], area?: Area): Promise<PlaceRecord[]>;
}

/** The circle a candidate pass searched. */
export interface Area {
  center: LatLng;
  radiusMiles: number;
}

function recordsById(db: Db, ids: readonly string[]): Promise<PlaceRecord[]> {
  return db.kysely
    .selectFrom('places')
    .select([...RECORD_COLUMNS])
    .where(inTexts(db.kind, 'id', ids))
    .execute();
}

/**
 * PostgreSQL's reads. The records of a pass's candidates are read through the grid index, over the pass's box,
 * keeping the chosen ids (a hashed `= ANY`): the table is stored in grid order, so that is a range of the index
 * and a few heap pages, where looking up 500 ids one by one in the id index took about twice as long (1.8 ms
 * against 3.7 at the median, 1M rows). Any chosen place no longer in the box (the table changed in between) is
 * read by id.
 */
const kyselyReads = (db: Db): PlaceReads => ({
  candidates: (center, r, q) => candidateQuery(db.kysely, center, r, q).execute(),
  async records(chosen, area) {
    const ids = chosen.map((c) => c.id);
    if (!area) return recordsById(db, ids);
    const found = await inBox(
      db.kysely.selectFrom('places').select([...RECORD_COLUMNS]),
      area.center,
      area.radiusMiles,
    )
      .where(inTexts(db.kind, 'id', ids))
      .execute();
    if (found.length === ids.length) return found;
    const missing = new Set(ids);
    for (const r of found) missing.delete(r.id);
    return [...found, ...(await recordsById(db, [...missing]))];
  },
});

const RECORDS_BY_ROWID = `SELECT ${RECORD_COLUMNS.join(', ')} FROM places WHERE rowid IN (SELECT value FROM json_each(?))`;

/** A record from its array of RECORD_COLUMNS. */
function recordOf(v: unknown[]): PlaceRecord {
  return {
    id: v[0] as string,
    name: v[1] as string,
    lat: v[2] as number,
    lng: v[3] as number,
    types: v[4] as string,
    category: v[5] as string,
    address: v[6] as string,
    city: v[7] as string | null,
    state: v[8] as string | null,
    zip: v[9] as string | null,
    phone: v[10] as string | null,
    website: v[11] as string | null,
    opening_hours: v[12] as string | null,
    brand: v[13] as string | null,
    brand_wikidata: v[14] as string | null,
    tags: v[15] as string,
    locations: v[16] as number,
    many_cities: v[17] as number,
    profile: v[18] as string | null,
    field_sources: v[19] as string | null,
  };
}

const sqliteReads = (db: Db): PlaceReads => ({
  async candidates(center, r, q) {
    const compiled = candidateQuery(db.kysely, center, r, q)
      .select(sql<number>`rowid`.as('rowid'))
      .compile();
    return withSqliteConnection(db, (prepare) => {
      const statement = prepare(compiled.sql);
      const names = statement.columns().map((c) => c.name);
      return (statement.all(...compiled.parameters) as unknown[][]).map((values) => {
        const c: Record<string, unknown> = {};
        for (let i = 0; i < names.length; i++) c[names[i]!] = values[i];
        return c as unknown as Candidate;
      });
    });
  },
  async records(chosen) {
    const ids = new Set(chosen.map((c) => c.id));
    const found = await withSqliteConnection(db, (prepare) =>
      (prepare(RECORDS_BY_ROWID).all(JSON.stringify(chosen.map((c) => c.rowid ?? null))) as unknown[][]).map(
        recordOf,
      ),
    );
    const records = found.filter((r) => ids.delete(r.id));
    return ids.size === 0 ? records : [...records, ...(await recordsById(db, [...ids]))];
  },
});

/**
 * The records of candidates found by a radius pass (by id; on SQLite by row number, checked against the id), keyed
 * by id. A candidate whose place is gone is absent.
 */
export async function placeRecords(
  db: Db,
  chosen: readonly Pick<Candidate, 'id' | 'rowid'>[],
  area?: Area,
  reads: PlaceReads = readsOf(db),
): Promise<Map<string, PlaceRecord>> {
  const full = new Map<string, PlaceRecord>();
  for (let i = 0; i < chosen.length; i += INSERT_CHUNK) {
    for (const row of await reads.records(chosen.slice(i, i + INSERT_CHUNK), area)) full.set(row.id, row);
  }
  return full;
}

const readsOf = (db: Db): PlaceReads =>
  db.kind === 'sqlite' && db.sqlite ? sqliteReads(db) : kyselyReads(db);

/**
 * Where a radius query starts, learnt per area: the density of matches (per square mile) the last query of the
 * same kind found near the same spot, per database. Reps scan their own territory again and again, so most
 * queries find their area's density here and start at the circle that should hold their `limit`: one pass,
 * instead of a small circle and then a wider one. Only the start depends on it, never the answer (a first circle
 * that holds fewer than `limit` is widened as before), so a figure gone stale after an import costs at most a
 * pass. Spots are 0.05° squares (about 3.5 miles) per set of types and words; the memo is emptied when it reaches
 * MEMO_SPOTS, and lives as long as the process.
 */
const densities = new WeakMap<Db, Map<string, number>>();
const MEMO_SPOTS = 10_000;
const SPOTS_PER_DEGREE = 20;
/** The first circle where nothing is known of the area: small, so that a dense city costs the rows near the centre. */
const FIRST_PASS_MILES = 0.5;
/** The first circle's radius over the one that should hold `limit` exactly at the remembered density. */
const FIRST_PASS_MARGIN = 1.15;

const wordsOf = (q: RadiusQuery): string[] =>
  (q.text ?? '')
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w.length > 0);

function spotOf(db: Db, q: RadiusQuery): { memo: Map<string, number>; key: string } {
  let memo = densities.get(db);
  if (!memo) densities.set(db, (memo = new Map<string, number>()));
  const types = wantsEveryType(q.types) ? '*' : [...q.types].sort().join(',');
  const key = `${types}|${wordsOf(q).join(' ')}|${Math.floor(q.lat * SPOTS_PER_DEGREE)}|${Math.floor(q.lng * SPOTS_PER_DEGREE)}`;
  return { memo, key };
}

/** The radius of a query's first pass (miles): the circle the area's remembered density says holds its limit. */
export function firstPassMiles(db: Db, q: RadiusQuery): number {
  const { memo, key } = spotOf(db, q);
  const density = memo.get(key);
  const limit = Math.min(q.limit, MAX_PROVIDER_RESULTS);
  const miles = density ? Math.sqrt(limit / (Math.PI * density)) * FIRST_PASS_MARGIN : FIRST_PASS_MILES;
  return Math.min(q.radiusMiles, miles);
}

/** Remember that the query's last pass found `inside` matches within `miles`. */
function learnDensity(db: Db, q: RadiusQuery, inside: number, miles: number): void {
  const { memo, key } = spotOf(db, q);
  if (memo.size >= MEMO_SPOTS) memo.clear();
  if (inside > 0) memo.set(key, inside / (Math.PI * miles * miles));
  else memo.delete(key);
}

/**
 * The nearest businesses strictly inside the circle, nearest first, at most `limit` (<= 500). It searches a
 * small circle first (or the one the area's remembered density says holds `limit`) and widens it until it holds
 * `limit` matches or reaches the radius, so a dense city costs the rows near the centre, not every row of the
 * circle. Returns the records in order, with their distances.
 */
export async function queryRadius(db: Db, q: RadiusQuery): Promise<{ row: PlaceRecord; miles: number }[]> {
  const limit = Math.max(0, Math.min(q.limit, MAX_PROVIDER_RESULTS));
  if (limit === 0 || !(q.radiusMiles > 0)) return [];
  const reads = readsOf(db);
  const center = { lat: q.lat, lng: q.lng };
  const every = wantsEveryType(q.types);
  const exact = every || q.types.every(hasExactBit);
  const words = wordsOf(q);
  let r = firstPassMiles(db, q);
  type Inside = Pick<Candidate, 'id' | 'rowid'> & { miles: number };
  let chosen: Inside[] = [];
  for (;;) {
    const rows = await reads.candidates(center, r, q);
    const inside: Inside[] = [];
    for (const c of rows) {
      const miles = haversineMiles(center, c);
      if (miles >= r || miles >= q.radiusMiles) continue;
      if (!exact && !(JSON.parse(c.types ?? '[]') as string[]).some((t) => q.types.includes(t))) continue;
      if (words.length > 0 && !matchesText(c, words)) continue;
      inside.push({ id: c.id, miles, ...(c.rowid !== undefined && { rowid: c.rowid }) });
    }
    if (inside.length >= limit || r >= q.radiusMiles) {
      learnDensity(db, q, inside.length, r);
      inside.sort((a, b) => a.miles - b.miles || (a.id < b.id ? -1 : 1));
      chosen = inside.slice(0, limit);
      break;
    }
    const grow = inside.length > 0 ? Math.sqrt(limit / inside.length) * 1.25 : 3;
    r = Math.min(q.radiusMiles, r * Math.max(1.5, grow));
  }
  if (chosen.length === 0) return [];
  const full = await placeRecords(db, chosen, { center, radiusMiles: r }, reads);
  return chosen.flatMap((c) => {
    const row = full.get(c.id);
    return row ? [{ row, miles: c.miles }] : [];
  });
}

export interface RankQuery {
  lat: number;
  lng: number;
  radiusMiles: number;
  types: readonly string[];
  /** How many of the best to read the records of. */
  read: number;
  /** Keep the places a rule takes out of the list (chains, institutions...): the "show all prospects" setting. */
  showAll: boolean;
  /** A territory: every place inside it is ranked instead of the circle's (its bounding circle, for distances). */
  within?: Within;
}

/** What ranking a circle found: the records of its best places, and what it knows of the rest. */
export interface CircleRanking {
  /** The best `read` places of the circle, best first, with their distances. */
  rows: { row: PlaceRecord; miles: number }[];
  /** Places of the circle ranked (those a rule takes out of the list left out unless showAll). */
  considered: number;
  /** The places ranked but not read: considered - rows. */
  unread: number;
  /** The highest score any unread place can have (placeScore, before its record lowers it), null when none is left. */
  nextBest: number | null;
  /** The quality spread of the circle's model-scored places (the bonus every one of them gets). */
  spread: number;
}

/**
 * Every place inside the circle, ranked by what it carries (its stored rank, ranks.ts) at its distance, the records
 * of the best `read` read. One pass over the circle's box through the grid index, which carries position, type and
 * rank, so the rest of the circle costs no record read. A place not ranked yet (imported before ranks, the market's
 * rebuild under way) is read first, to be scored from its record.
 */
export async function rankCircle(db: Db, q: RankQuery): Promise<CircleRanking> {
  const none: CircleRanking = { rows: [], considered: 0, unread: 0, nextBest: null, spread: QUALITY_SPREAD.empty };
  if (!(q.radiusMiles > 0)) return none;
  const reads = readsOf(db);
  const center = { lat: q.lat, lng: q.lng };
  const query: RadiusQuery = { ...q, limit: q.read, ranks: true };
  const exact = wantsEveryType(q.types) || q.types.every(hasExactBit);
  type Ranked = Pick<Candidate, 'id' | 'rowid'> & { miles: number; intrinsic: number | null; rule: ScoreRule | null };
  const inside: Ranked[] = [];
  const bases: number[] = [];
  for (const c of await reads.candidates(center, q.radiusMiles, query)) {
    const miles = haversineMiles(center, c);
    if (q.within ? !q.within.contains(c) : miles >= q.radiusMiles) continue;
    if (!exact && !(JSON.parse(c.types ?? '[]') as string[]).some((t) => q.types.includes(t))) continue;
    const rule = ruleOfCode(c.rank_rule ?? null);
    if (rule && !q.showAll && isPrefilteredRule(rule)) continue;
    const intrinsic = c.rank_score ?? null;
    if (intrinsic !== null) bases.push((intrinsic + WEIGHTS.distance * distanceScore(miles)) * 100);
    inside.push({ id: c.id, miles, intrinsic, rule, ...(c.rowid !== undefined && { rowid: c.rowid }) });
  }
  if (inside.length === 0) return none;
  const spread = qualitySpread(bases);
  const key = (p: Ranked) =>
    p.rule ? RULE_SCORES[p.rule] : p.intrinsic === null ? Infinity : placeScore(p.intrinsic, p.miles, spread);
  const keyed = inside.map((p) => ({ p, key: key(p) }));
  keyed.sort((a, b) => b.key - a.key || a.p.miles - b.p.miles || (a.p.id < b.p.id ? -1 : 1));
  const chosen = keyed.slice(0, Math.max(0, q.read));
  // The best of a circle lie anywhere in it: read by id (SQLite: by row number), not over the circle's box.
  const full = chosen.length > 0 ? await placeRecords(db, chosen.map((k) => k.p), undefined, reads) : new Map<string, PlaceRecord>();
  const rows = chosen.flatMap(({ p }) => {
    const row = full.get(p.id);
    return row ? [{ row, miles: p.miles }] : [];
  });
  return {
    rows,
    considered: inside.length,
    unread: inside.length - chosen.length,
    nextBest: keyed[chosen.length]?.key ?? null,
    spread,
  };
} // prettier-ignore
