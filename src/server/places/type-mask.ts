// Place types as bits, so the radius query can filter by type inside the index (no table lookups).
// The first 39 bits are the place types of the category groups (core/categories.ts) in a FIXED order
// (stored masks depend on it: append, never reorder). Any other type ('restaurant', 'clothes') hashes onto
// one of the 13 bits above them, which makes the SQL filter a superset for those types; the exact check runs
// on the stored type list afterwards.

/** Frozen bit order of the category groups' place types. Never reorder: imported rows store masks of it. */
export const TYPE_BITS: readonly string[] = [
  'lawyer',
  'dentist', 'doctor', 'hospital', 'physiotherapist', 'veterinary_care', 'pharmacy',
  'beauty_salon', 'hair_care', 'spa', 'gym', 'massage_therapist',
  'plumber', 'electrician', 'general_contractor', 'roofing_contractor', 'cleaning_service', 'landscaper',
  'moving_company', 'painter',
  'movie_theater', 'bowling_alley', 'museum', 'art_gallery', 'amusement_park',
  'school', 'college', 'university',
  'car_dealer', 'car_repair', 'car_wash', 'auto_parts_store', 'gas_station',
  'bank', 'credit_union', 'atm', 'insurance_agency', 'accounting',
  'furniture_store',
]; // prettier-ignore

const INDEX = new Map(TYPE_BITS.map((t, i) => [t, i]));
/** Bits 39..51 take hashed types of no category group; 2^52 keeps every mask an exact JavaScript number. */
const HASHED_BITS = 13;

function bitOf(type: string): number {
  const known = INDEX.get(type);
  if (known !== undefined) return known;
  let h = 2166136261;
  for (let i = 0; i < type.length; i++) {
    h ^= type.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return TYPE_BITS.length + ((h >>> 0) % HASHED_BITS);
}

/** True when the type has its own bit (a filter on it is exact). */
export const hasExactBit = (type: string): boolean => INDEX.has(type);

/** The bit mask of a list of types (a plain number below 2^52). */
export function typeMask(types: readonly string[]): number {
  let mask = 0n;
  for (const t of types) mask |= 1n << BigInt(bitOf(t));
  return Number(mask);
}

/** The bits of the category groups' place types: a place of none is never a scan result (index places_scan). */
export const SCAN_TYPES_MASK = 2 ** TYPE_BITS.length - 1;

/** The condition of the index places_scan, written the same wherever it is used (so planners match it). */
export const SCANNED_KINDS_SQL = `(type_mask & ${SCAN_TYPES_MASK}) <> 0`;
