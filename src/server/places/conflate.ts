// One business, once. When an import brings a business another source already holds (OpenStreetMap and Overture
// Maps), the two records become one place: its fields from the better source for each (the name, position, kinds,
// address and opening hours from OpenStreetMap, surveyed on the ground; a phone, website or brand from whichever has
// one, OpenStreetMap first), the source of each field kept for the card. Each source's record is kept in
// place_sources under the id its source knows it by, so re-importing either source finds the place and merges it
// again, never adding a second one. Records are matched by core/conflation.ts.
//
// It runs on an import's staged rows, inside the transaction that commits them (local-store.ts commitStaged): a
// staged record already merged is merged again from its place's records; any other is matched against the places
// of the other source around it, band of latitude by band, and on a match staged under that place's id instead.
import type { Kysely, Transaction } from 'kysely';
import type { Database, PlaceSourceTable } from '../db/schema.js';
import { matchScore, MATCH_METERS } from '../../core/conflation.js';
import type { BrandIndex } from '../../core/scoring/brand-index.js';
import { SOURCE_COLUMNS, storedRow, type PlaceRow, type PlaceSource } from './local-store.js';

export type SourceKind = PlaceSourceTable['kind'];

/** The source an id belongs to: 'overture:<GERS id>' or OpenStreetMap's 'osm:node/1'. */
export const sourceKindOf = (id: string): SourceKind => (id.startsWith('overture:') ? 'overture' : 'osm');

/** Which source is preferred for a field when both have it: OpenStreetMap, surveyed by people on the ground. */
const PREFERENCE: readonly SourceKind[] = ['osm', 'overture'];

/** A field of a place whose source the card shows. */
export type SourcedField = 'name' | 'address' | 'phone' | 'website' | 'hours';

/** The words a card names a source by: "OpenStreetMap", "Overture (Meta)" (the first dataset Overture took it from). */
export function sourceLabel(kind: SourceKind, tags: Readonly<Record<string, string>>): string {
  if (kind === 'osm') return 'OpenStreetMap';
  const dataset = tags['overture:sources']?.split(';')[0]?.trim();
  return dataset ? `Overture (${dataset.charAt(0).toUpperCase()}${dataset.slice(1)})` : 'Overture';
}

/** Where each field of a place of one source came from: that source, for each field it has. */
export function singleSourceFields(
  f: Pick<PlaceSource, 'id' | 'address' | 'phone' | 'website' | 'openingHours' | 'tags'>,
): Partial<Record<SourcedField, string>> {
  const label = sourceLabel(sourceKindOf(f.id), f.tags);
  return {
    name: label,
    ...(f.address && { address: label }),
    ...(f.phone && { phone: label }),
    ...(f.website && { website: label }),
    ...(f.openingHours && { hours: label }),
  };
}

/** Tags of the less preferred record a merged place takes: ways to reach it and what it is known as, not its kind. */
const CARRIED_TAG = /^(phone|website|email|brand|brand:wikidata|contact:.+|overture:.+)$/;

/**
 * One place from the records of its sources (at most one per source), under `placeId`: each field from the first
 * record in PREFERENCE order that has it, and which source that was.
 */
export function mergeSources(
  placeId: string,
  records: readonly PlaceSource[],
): { source: PlaceSource; fields: Partial<Record<SourcedField, string>> } {
  const ordered = [...records].sort(
    (a, b) => PREFERENCE.indexOf(sourceKindOf(a.id)) - PREFERENCE.indexOf(sourceKindOf(b.id)),
  );
  const first = ordered[0];
  if (!first) throw new Error('mergeSources needs a record');
  const label = (r: PlaceSource) => sourceLabel(sourceKindOf(r.id), r.tags);
  const pick = <T>(value: (r: PlaceSource) => T | null | undefined) => ordered.find((r) => value(r));
  const withAddress = pick((r) => r.address) ?? first;
  const withPhone = pick((r) => r.phone);
  const withWebsite = pick((r) => r.website);
  const withHours = pick((r) => r.openingHours);
  const withBrand = pick((r) => r.brand ?? r.brandWikidata);
  // The preferred record's tags, then what the others add of ways to reach the business and its brand.
  const tags: Record<string, string> = {};
  for (const r of [...ordered].reverse()) {
    for (const [k, v] of Object.entries(r.tags)) {
      if (r === first || CARRIED_TAG.test(k) || (r === withAddress && k.startsWith('addr:'))) tags[k] = v;
    }
  }
  if (withAddress !== first)
    for (const k of Object.keys(first.tags)) if (k.startsWith('addr:')) delete tags[k];
  for (const k of Object.keys(withAddress.tags)) if (k.startsWith('addr:')) tags[k] = withAddress.tags[k]!;
  const source: PlaceSource = {
    id: placeId,
    name: first.name,
    lat: first.lat,
    lng: first.lng,
    types: first.types.length > 0 ? first.types : (pick((r) => r.types.length > 0)?.types ?? []),
    category: first.category || (pick((r) => r.category)?.category ?? ''),
    address: withAddress.address,
    city: withAddress.city,
    state: withAddress.state,
    zip: withAddress.zip,
    phone: withPhone?.phone ?? null,
    website: withWebsite?.website ?? null,
    openingHours: withHours?.openingHours ?? null,
    brand: withBrand?.brand ?? null,
    brandWikidata: withBrand?.brandWikidata ?? null,
    tags,
  };
  const fields: Partial<Record<SourcedField, string>> = {
    name: label(first),
    ...(withAddress.address && { address: label(withAddress) }),
    ...(withPhone && { phone: label(withPhone) }),
    ...(withWebsite && { website: label(withWebsite) }),
    ...(withHours && { hours: label(withHours) }),
  };
  return { source, fields };
}

/** The columns a source record is made again from. */
type SourceColumns = Pick<PlaceRow, (typeof SOURCE_COLUMNS)[number]>;

/** A stored or staged row of one source, as the record it was made from. */
export function sourceOfRow(r: SourceColumns): PlaceSource {
  return {
    id: r.id,
    name: r.name,
    lat: r.lat,
    lng: r.lng,
    types: JSON.parse(r.types) as string[],
    category: r.category,
    address: r.address,
    city: r.city,
    state: r.state,
    zip: r.zip,
    phone: r.phone,
    website: r.website,
    openingHours: r.opening_hours,
    brand: r.brand,
    brandWikidata: r.brand_wikidata,
    tags: JSON.parse(r.tags) as Record<string, string>,
  };
}

/** What conflating an import did. */
export interface ConflationSummary {
  /** Records of this import merged into a place of the other source for the first time. */
  merged: number;
  /** Records of this import already merged, merged again from their place's records. */
  remerged: number;
}

/** Rows read and written at a time. */
const PAGE = 1000;
/** The width of a latitude band of the staged rows matched at once (`cell_lat` of local-store.ts, 0.01°). */
const MATCH_DEGREES = (MATCH_METERS / 111_000) * 1.05;

type Trx = Transaction<Database> | Kysely<Database>;

/** Stage `row` (the merged place) in place of the staged record `stagedId`. */
async function restage(trx: Trx, importId: string, stagedId: string, row: PlaceRow): Promise<void> {
  await trx
    .deleteFrom('places_staging')
    .where('import_id', '=', importId)
    .where('id', '=', stagedId)
    .execute();
  await trx
    .insertInto('places_staging')
    .values({ ...row, import_id: importId })
    .execute();
}

function mergedRow(
  placeId: string,
  records: readonly PlaceSource[],
  importedAt: string,
  brandIndex: BrandIndex | undefined,
): PlaceRow {
  const { source, fields } = mergeSources(placeId, records);
  return storedRow(source, importedAt, brandIndex, fields);
}

/** Staged records already merged into a place: merge that place again with their new fields. */
async function remergeLinked(
  trx: Trx,
  importId: string,
  kind: SourceKind,
  brandIndex: BrandIndex | undefined,
): Promise<number> {
  let count = 0;
  let after = '';
  for (;;) {
    const page = await trx
      .selectFrom('places_staging as s')
      .innerJoin('place_sources as ps', 'ps.source_id', 's.id')
      .select(SOURCE_COLUMNS.map((c) => `s.${c}` as const))
      .select(['s.imported_at', 'ps.place_id'])
      .where('s.import_id', '=', importId)
      // Of this import's source: a place restaged under another source's id is done.
      .where('ps.kind', '=', kind)
      .where('s.id', '>', after)
      .orderBy('s.id')
      .limit(PAGE)
      .execute();
    if (page.length === 0) return count;
    after = page[page.length - 1]!.id;
    const placeIds = [...new Set(page.map((r) => r.place_id))];
    const others = await trx
      .selectFrom('place_sources')
      .selectAll()
      .where('place_id', 'in', placeIds)
      .execute();
    for (const staged of page) {
      const own = sourceOfRow(staged);
      const records = [
        own,
        ...others
          .filter((o) => o.place_id === staged.place_id && o.source_id !== staged.id)
          .map((o) => JSON.parse(o.record) as PlaceSource),
      ];
      await trx
        .updateTable('place_sources')
        .set({ record: JSON.stringify(own) })
        .where('source_id', '=', staged.id)
        .execute();
      await restage(
        trx,
        importId,
        staged.id,
        mergedRow(staged.place_id, records, staged.imported_at, brandIndex),
      );
      count++;
    }
  }
}

type Candidate = SourceColumns & { imported_at: string };

/** Staged records not merged yet: each matched with the best place of the other source near it, if any. */
async function mergeNew(
  trx: Trx,
  importId: string,
  kind: SourceKind,
  brandIndex: BrandIndex | undefined,
): Promise<number> {
  // The places a record of this import can join: of another source, without a record of this one yet.
  const joinable = () =>
    trx
      .selectFrom('places as p')
      .select(SOURCE_COLUMNS.map((c) => `p.${c}` as const))
      .select('p.imported_at')
      .where('p.id', 'not like', `${kind}:%`)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('place_sources as ps')
              .select('ps.source_id')
              .whereRef('ps.place_id', '=', 'p.id')
              .where('ps.kind', '=', kind),
          ),
        ),
      );
  if (!(await joinable().limit(1).executeTakeFirst())) return 0;
  const bands = await trx
    .selectFrom('places_staging')
    .select('cell_lat')
    .distinct()
    .where('import_id', '=', importId)
    .orderBy('cell_lat')
    .execute();
  let count = 0;
  for (const { cell_lat: band } of bands) {
    const staged: Candidate[] = await trx
      .selectFrom('places_staging as s')
      .select(SOURCE_COLUMNS.map((c) => `s.${c}` as const))
      .select('s.imported_at')
      .where('s.import_id', '=', importId)
      .where('s.cell_lat', '=', band)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb.selectFrom('place_sources as ps').select('ps.source_id').whereRef('ps.source_id', '=', 's.id'),
          ),
        ),
      )
      .execute();
    if (staged.length === 0) continue;
    let minLat = Infinity;
    let maxLat = -Infinity;
    let minLng = Infinity;
    let maxLng = -Infinity;
    for (const s of staged) {
      minLat = Math.min(minLat, s.lat);
      maxLat = Math.max(maxLat, s.lat);
      minLng = Math.min(minLng, s.lng);
      maxLng = Math.max(maxLng, s.lng);
    }
    const lngReach = MATCH_DEGREES / Math.max(0.01, Math.cos((band / 100) * (Math.PI / 180)));
    const near: Candidate[] = await joinable()
      .where('p.cell_lat', '>=', band - 1)
      .where('p.cell_lat', '<=', band + 1)
      .where('p.lat', '>=', minLat - MATCH_DEGREES)
      .where('p.lat', '<=', maxLat + MATCH_DEGREES)
      .where('p.lng', '>=', minLng - lngReach)
      .where('p.lng', '<=', maxLng + lngReach)
      .execute();
    if (near.length === 0) continue;
    near.sort((a, b) => a.lng - b.lng);
    const pairs: { staged: Candidate; place: Candidate; score: number }[] = [];
    for (const s of staged) {
      for (
        let i = lowerBound(near, s.lng - lngReach);
        i < near.length && near[i]!.lng <= s.lng + lngReach;
        i++
      ) {
        const place = near[i]!;
        if (Math.abs(place.lat - s.lat) > MATCH_DEGREES) continue;
        const score = matchScore(s, place);
        if (score !== null) pairs.push({ staged: s, place, score });
      }
    }
    // The best pairs first; a record and a place each take part in one merge.
    pairs.sort((a, b) => b.score - a.score || (a.staged.id < b.staged.id ? -1 : 1));
    const takenStaged = new Set<string>();
    const takenPlaces = new Set<string>();
    for (const { staged: s, place } of pairs) {
      if (takenStaged.has(s.id) || takenPlaces.has(place.id)) continue;
      takenStaged.add(s.id);
      takenPlaces.add(place.id);
      const own = sourceOfRow(s);
      const theirs = sourceOfRow(place);
      await trx
        .insertInto('place_sources')
        .values([
          {
            source_id: place.id,
            place_id: place.id,
            kind: sourceKindOf(place.id),
            record: JSON.stringify(theirs),
          },
          { source_id: s.id, place_id: place.id, kind, record: JSON.stringify(own) },
        ])
        .execute();
      await restage(trx, importId, s.id, mergedRow(place.id, [own, theirs], s.imported_at, brandIndex));
      // An earlier import stored this record as a place of its own: it is this place now.
      await trx.deleteFrom('places').where('id', '=', s.id).execute();
      count++;
    }
  }
  return count;
}

/** The first index of `sorted` (by lng) whose lng is at least `lng`. */
function lowerBound(sorted: readonly { lng: number }[], lng: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]!.lng < lng) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Merge the staged records of an import of `kind` with the places of the other source they describe (see the
 * header). Runs inside the commit's transaction: a failure leaves every place and link as it was.
 */
export async function conflateStaged(
  trx: Trx,
  importId: string,
  kind: SourceKind,
  brandIndex: BrandIndex | undefined,
): Promise<ConflationSummary> {
  const remerged = await remergeLinked(trx, importId, kind, brandIndex);
  const merged = await mergeNew(trx, importId, kind, brandIndex);
  return { merged, remerged };
}
