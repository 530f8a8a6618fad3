// The `local` provider: businesses imported from an OpenStreetMap extract into our own database.
import type { Db } from '../db/database.js';
import type { PlaceRecord } from './local-store.js';
import { getPlace, queryRadius, rankCircle } from './local-store.js';
import { openNow } from './open-now.js';
import { singleSourceFields } from './conflate.js';
import type { FieldSources } from '../../core/api/prospect.js';
import { decodeProfile, profileVersion } from '../../core/scoring/profile.js';
import { getBrandIndex } from '../../core/scoring/nsi.js';
import type { FoundBusiness, NearbyQuery, PlaceDetails, PlaceProvider, TextSearchQuery } from './provider.js';

/**
 * A stored row as the core's Business ('Open now' evaluated at `now`), with its stored profile when that was
 * made under `profiles` (the current profileVersion; without it, or when stale, the scan derives it).
 */
export function rowToBusiness(
  row: Omit<PlaceRecord, 'locations' | 'many_cities' | 'profile' | 'field_sources'> & {
    locations?: number;
    many_cities?: number;
    profile?: string | null;
    field_sources?: string | null;
  },
  now: Date = new Date(),
  zoneCache: Map<string, Date> = new Map(),
  profiles?: string,
): FoundBusiness {
  const b: FoundBusiness = {
    id: row.id,
    name: row.name,
    lat: row.lat,
    lng: row.lng,
    types: JSON.parse(row.types) as string[],
    category: row.category,
    address: row.address,
    reviews: 0,
    openNow: openNow(row.opening_hours, { lng: row.lng, state: row.state }, now, zoneCache),
    source: 'local',
    tags: JSON.parse(row.tags) as Record<string, string>,
  };
  b.fieldSources = row.field_sources
    ? (JSON.parse(row.field_sources) as FieldSources)
    : singleSourceFields({
        id: row.id,
        address: row.address,
        phone: row.phone,
        website: row.website,
        openingHours: row.opening_hours,
        tags: b.tags ?? {},
      });
  if (row.city) b.city = row.city;
  if (row.state) b.state = row.state;
  if (row.zip) b.zip = row.zip;
  if (row.phone) b.phone = row.phone;
  if (row.website) b.website = row.website;
  if (row.brand) b.brand = row.brand;
  if (row.brand_wikidata) b.brandWikidata = row.brand_wikidata;
  if (typeof row.locations === 'number' && row.locations > 1) b.locations = row.locations;
  if (row.many_cities === 1) b.manyCities = true;
  const profile = profiles ? decodeProfile(row.profile, profiles) : undefined;
  if (profile) b.profile = profile;
  return b;
}

const TEXT_SEARCH_LIMIT = 20;

export function createLocalProvider(db: Db, clock: () => Date = () => new Date()): PlaceProvider {
  // The profiles a scan can use: those made under the rules and brand index it scores with.
  const profiles = () => profileVersion(getBrandIndex());
  return {
    name: 'local',
    async nearby(q: NearbyQuery, signal: AbortSignal): Promise<FoundBusiness[]> {
      const rows = await queryRadius(db, q);
      signal.throwIfAborted();
      const now = clock();
      const zones = new Map<string, Date>();
      const version = profiles();
      return rows.map(({ row }) => rowToBusiness(row, now, zones, version));
    },
    async rankedNearby(q, signal) {
      const ranking = await rankCircle(db, { ...q, read: q.limit });
      signal.throwIfAborted();
      const now = clock();
      const zones = new Map<string, Date>();
      const version = profiles();
      const { rows, ...circle } = ranking;
      return { businesses: rows.map(({ row }) => rowToBusiness(row, now, zones, version)), ...circle };
    },
    async textSearch(q: TextSearchQuery, signal: AbortSignal): Promise<FoundBusiness[]> {
      const text = q.query.trim();
      if (!text) return [];
      const rows = await queryRadius(db, { ...q, types: [], limit: TEXT_SEARCH_LIMIT, text });
      signal.throwIfAborted();
      const now = clock();
      const zones = new Map<string, Date>();
      const version = profiles();
      return rows.map(({ row }) => rowToBusiness(row, now, zones, version));
    },
    async details(id: string): Promise<PlaceDetails | null> {
      const row = await getPlace(db.kysely, id);
      if (!row) return null;
      return {
        ...(row.phone && { phone: row.phone }),
        ...(row.website && { website: row.website }),
        ...(row.address && { address: row.address }),
        ...(row.city && { city: row.city }),
        ...(row.state && { state: row.state }),
        ...(row.zip && { zip: row.zip }),
      };
    },
  };
}
