// The areas that have business data (the `place_areas` table): written by every import (the CLI and the Admin
// Panel's region refresh), read by the Admin Panel, which draws them on a map. An area is a named region of the
// download mirror (refreshable: downloaded again by name) or a file given to `import:osm`; importing the same
// region or file again updates its row.
import { basename } from 'node:path';
import type { Kysely, Selectable } from 'kysely';
import type { Database, PlaceAreaTable } from '../db/schema.js';
import { regionPath } from './osm-download.js';
import { OSM_CREDIT, OVERTURE_CREDIT } from '../../core/attribution.js';

export type AreaRow = Selectable<PlaceAreaTable>;

export interface Box {
  minLat: number;
  minLng: number;
  maxLat: number;
  maxLng: number;
}

/** The key and name of an import: by region (its canonical path on the mirror) or by file name. */
export function areaIdentity(
  file: string,
  region?: string,
): { key: string; name: string; region: string | null } {
  if (region !== undefined && /^https?:\/\//i.test(region.trim())) {
    // A full URL given to the CLI: listed by its URL, refreshed from the CLI only (the panel takes region names).
    return {
      key: `url:${region.trim()}`,
      name: basename(new URL(region.trim()).pathname) || region.trim(),
      region: null,
    };
  }
  if (region !== undefined) {
    return { key: regionPath(region), name: region.trim().replace(/^\/+|\/+$/g, ''), region: region.trim() };
  }
  const name = basename(file);
  return { key: `file:${name}`, name, region: null };
}

/** The smallest box holding every point added (null until one is). */
export class BoxBuilder {
  private box: Box | null = null;
  add(lat: number, lng: number): void {
    if (!Number.isFinite(lat) || !Number.isFinite(lng)) return;
    const b = this.box;
    if (!b) {
      this.box = { minLat: lat, minLng: lng, maxLat: lat, maxLng: lng };
      return;
    }
    if (lat < b.minLat) b.minLat = lat;
    if (lat > b.maxLat) b.maxLat = lat;
    if (lng < b.minLng) b.minLng = lng;
    if (lng > b.maxLng) b.maxLng = lng;
  }
  get(): Box | null {
    return this.box && { ...this.box };
  }
}

export interface AreaRecord {
  key: string;
  name: string;
  region: string | null;
  source: string;
  box: Box | null;
  businesses: number;
  dataDate: string | null;
  importedAt: string;
}

/** Insert or update an area after a successful import. */
export async function recordArea(db: Kysely<Database>, a: AreaRecord): Promise<void> {
  const row = {
    key: a.key,
    name: a.name,
    region: a.region,
    source: a.source,
    min_lat: a.box?.minLat ?? null,
    min_lng: a.box?.minLng ?? null,
    max_lat: a.box?.maxLat ?? null,
    max_lng: a.box?.maxLng ?? null,
    businesses: a.businesses,
    data_date: a.dataDate,
    imported_at: a.importedAt,
  };
  await db
    .insertInto('place_areas')
    .values(row)
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        name: row.name,
        region: row.region,
        source: row.source,
        min_lat: row.min_lat,
        min_lng: row.min_lng,
        max_lat: row.max_lat,
        max_lng: row.max_lng,
        businesses: row.businesses,
        data_date: row.data_date,
        imported_at: row.imported_at,
      }),
    )
    .execute();
}

/** Every area, most recently imported first. */
export async function listAreas(db: Kysely<Database>): Promise<AreaRow[]> {
  return db.selectFrom('place_areas').selectAll().orderBy('imported_at', 'desc').orderBy('key').execute();
}

export async function getArea(db: Kysely<Database>, key: string): Promise<AreaRow | undefined> {
  return db.selectFrom('place_areas').selectAll().where('key', '=', key).executeTakeFirst();
}

/** The credit the imported business data calls for (core/attribution.ts): '' before any import. */
export async function dataAttribution(db: Kysely<Database>): Promise<string> {
  const keys = await db.selectFrom('place_areas').select('key').execute();
  if (keys.length === 0) return '';
  return keys.some((k) => k.key.startsWith('overture:')) ? OVERTURE_CREDIT : OSM_CREDIT;
}
