// The imported addresses as a geocoder: a typed street address is found by its street key and house number; failing
// that, the nearest house number on the same street; then the street itself. A dropped pin is named by the nearest
// address within a short walk. What the import keeps and how keys are made: core/addresses.ts.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import {
  cityKey,
  houseNumberKey,
  houseNumberValue,
  streetKey,
  type AddressQuery,
  type GeocodePrecision,
} from '../../core/addresses.js';
import { haversineMiles } from '../../core/geo.js';
import { gazetteerReverse } from './gazetteer.js';

/** One address as an import hands it over. */
export interface AddressRecord {
  id: string;
  number: string;
  street: string;
  city?: string | null;
  state?: string | null;
  postcode?: string | null;
  lat: number;
  lng: number;
}

/** Rows per insert: 13 values a row stays under SQLite's and PostgreSQL's parameter limits. */
const BATCH = 500;

/** The address rows of OpenStreetMap tags: those with a house number and a street; null otherwise. */
export function addressFromTags(
  id: string,
  lat: number,
  lng: number,
  tags: Record<string, string>,
): AddressRecord | null {
  const number = tags['addr:housenumber']?.trim();
  const street = (tags['addr:street'] ?? tags['addr:place'])?.trim();
  if (!number || !street || !Number.isFinite(lat) || !Number.isFinite(lng)) return null;
  return {
    id,
    number,
    street,
    city: tags['addr:city']?.trim() || null,
    state: tags['addr:state']?.trim() || null,
    postcode: tags['addr:postcode']?.trim() || null,
    lat,
    lng,
  };
}

/** Stores addresses, replacing those of the same id (a re-import updates them). */
export async function writeAddresses(db: Kysely<Database>, records: readonly AddressRecord[]): Promise<void> {
  for (let i = 0; i < records.length; i += BATCH) {
    const rows = records.slice(i, i + BATCH).map((r) => ({
      id: r.id,
      number: r.number.slice(0, 40),
      number_key: houseNumberKey(r.number).slice(0, 40),
      number_value: houseNumberValue(r.number),
      street: r.street.slice(0, 200),
      street_key: streetKey(r.street).slice(0, 200),
      city: r.city?.slice(0, 100) ?? null,
      city_key: r.city ? cityKey(r.city).slice(0, 100) : null,
      state: r.state?.slice(0, 40) ?? null,
      postcode: r.postcode?.slice(0, 20) ?? null,
      lat: r.lat,
      lng: r.lng,
    }));
    await db
      .insertInto('addresses')
      .values(rows)
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          number: eb.ref('excluded.number'),
          number_key: eb.ref('excluded.number_key'),
          number_value: eb.ref('excluded.number_value'),
          street: eb.ref('excluded.street'),
          street_key: eb.ref('excluded.street_key'),
          city: eb.ref('excluded.city'),
          city_key: eb.ref('excluded.city_key'),
          state: eb.ref('excluded.state'),
          postcode: eb.ref('excluded.postcode'),
          lat: eb.ref('excluded.lat'),
          lng: eb.ref('excluded.lng'),
        })),
      )
      .execute();
  }
}

interface Row {
  number: string;
  number_key: string;
  number_value: number | null;
  street: string;
  city: string | null;
  city_key: string | null;
  state: string | null;
  lat: number;
  lng: number;
}

/** A found address: the point, its label and how exactly it matches what was typed. */
export interface AddressHit {
  lat: number;
  lng: number;
  label: string;
  precision: Extract<GeocodePrecision, 'address' | 'nearby-address' | 'street'>;
}

/** "333 Post Street, San Francisco, CA": an address without its city is given the gazetteer's city of its point. */
function labelOf(r: Pick<Row, 'number' | 'street' | 'city' | 'state' | 'lat' | 'lng'>, withNumber = true) {
  const street = withNumber ? `${r.number} ${r.street}` : r.street;
  const place = r.city ? [r.city, r.state] : [gazetteerReverse(r.lat, r.lng)];
  return [street, ...place].filter((p) => p).join(', ');
}

/** Streets of the same name in many cities: a typed city narrows them; a point near that city orders them. */
function closest(rows: Row[], city: string | null, near: { lat: number; lng: number } | null): Row[] {
  const key = city ? cityKey(city) : null;
  const inCity = key ? rows.filter((r) => r.city_key === key) : [];
  const pool = inCity.length > 0 ? inCity : rows;
  if (!near) return pool;
  return [...pool].sort((a, b) => haversineMiles(near, a) - haversineMiles(near, b));
}

/**
 * Finds a typed street address (as parseAddressQuery read it): the house itself, else the nearest house number on that street (in the typed
 * city, or nearest `near`, the city's centre when it is known), else the street's middle address. Null when the
 * street is not among the imported addresses.
 */
export async function findAddress(
  db: Kysely<Database>,
  query: AddressQuery,
  near: { lat: number; lng: number } | null,
): Promise<AddressHit | null> {
  const key = streetKey(query.street);
  if (!key) return null;
  const columns = [
    'number',
    'number_key',
    'number_value',
    'street',
    'city',
    'city_key',
    'state',
    'lat',
    'lng',
  ] as const;
  if (query.number) {
    const exact = await db
      .selectFrom('addresses')
      .select(columns)
      .where('street_key', '=', key)
      .where('number_key', '=', houseNumberKey(query.number))
      .limit(50)
      .execute();
    const best = closest(exact, query.city, near)[0];
    if (best) return { lat: best.lat, lng: best.lng, label: labelOf(best), precision: 'address' };
  }
  const wanted = query.number ? houseNumberValue(query.number) : null;
  const onStreet = await db
    .selectFrom('addresses')
    .select(columns)
    .where('street_key', '=', key)
    .orderBy('number_value')
    .limit(5000)
    .execute();
  if (onStreet.length === 0) return null;
  const pool = closest(onStreet, query.city, near);
  // The same street in the city meant: the part of `pool` within a few miles of its best row.
  const first = pool[0]!;
  const street = pool.filter((r) => haversineMiles(first, r) < 5);
  if (wanted !== null) {
    const numbered = street.filter((r) => r.number_value !== null);
    const nearest = numbered.sort(
      (a, b) => Math.abs(a.number_value! - wanted) - Math.abs(b.number_value! - wanted),
    )[0];
    if (nearest) {
      return { lat: nearest.lat, lng: nearest.lng, label: labelOf(nearest), precision: 'nearby-address' };
    }
  }
  const byNumber = [...street].sort((a, b) => (a.number_value ?? 0) - (b.number_value ?? 0));
  const middle = byNumber[Math.floor(byNumber.length / 2)]!;
  return { lat: middle.lat, lng: middle.lng, label: labelOf(middle, false), precision: 'street' };
}

/** How far a dropped pin may be from an address for the address to name it. */
const NEAREST_MILES = 0.06;

/** The address nearest a point within about 100 m, as a label ("333 Post Street, San Francisco"); null when none. */
export async function nearestAddress(db: Kysely<Database>, lat: number, lng: number): Promise<string | null> {
  const dLat = NEAREST_MILES / 69;
  const dLng = dLat / Math.max(0.1, Math.cos((lat * Math.PI) / 180));
  const rows = await db
    .selectFrom('addresses')
    .select(['number', 'street', 'city', 'state', 'lat', 'lng'])
    .where('lat', '>=', lat - dLat)
    .where('lat', '<=', lat + dLat)
    .where('lng', '>=', lng - dLng)
    .where('lng', '<=', lng + dLng)
    .limit(2000)
    .execute();
  const point = { lat, lng };
  let best: (typeof rows)[number] | undefined;
  let bestMiles = NEAREST_MILES;
  for (const r of rows) {
    const miles = haversineMiles(point, r);
    if (miles <= bestMiles) {
      best = r;
      bestMiles = miles;
    }
  }
  return best ? labelOf(best) : null;
}
