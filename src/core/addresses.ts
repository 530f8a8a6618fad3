// Street addresses as a rep types them and as the map data holds them, reduced to keys that compare equal when
// they name the same street: "333 Post St, San Francisco, CA 94108" and "333 post street, san francisco" give
// the house number 333 and the street key "post street". Street types and directions are spelled out the one
// way (St, St., Str -> street; Ave -> avenue; N -> north), case and punctuation dropped. The same keys are
// made from OpenStreetMap's addr:* tags and Overture's address fields at import, so a typed address finds a
// stored one by equality.

/** Spelled-out street types, from the abbreviations the US Postal Service lists and common variants. */
const STREET_TYPES: Record<string, string> = {
  st: 'street',
  str: 'street',
  ave: 'avenue',
  av: 'avenue',
  avn: 'avenue',
  blvd: 'boulevard',
  boul: 'boulevard',
  rd: 'road',
  dr: 'drive',
  ln: 'lane',
  ct: 'court',
  pl: 'place',
  sq: 'square',
  ter: 'terrace',
  terr: 'terrace',
  hwy: 'highway',
  pkwy: 'parkway',
  pky: 'parkway',
  cir: 'circle',
  aly: 'alley',
  plz: 'plaza',
  hts: 'heights',
  trl: 'trail',
  expy: 'expressway',
  fwy: 'freeway',
  mt: 'mount',
  ctr: 'center',
  cres: 'crescent',
};

const DIRECTIONS: Record<string, string> = {
  n: 'north',
  s: 'south',
  e: 'east',
  w: 'west',
  ne: 'northeast',
  nw: 'northwest',
  se: 'southeast',
  sw: 'southwest',
};

const words = (s: string): string[] =>
  s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .split(' ')
    .filter((w) => w !== '');

/**
 * The key two spellings of one street share: "Post St." and "post street" -> "post street"; "N Main St" ->
 * "north main street"; ordinals as written ("3rd Ave" -> "3rd avenue"). Directions are spelled out only at
 * either end, so "N Street" (a street named N) keeps its name.
 */
export function streetKey(street: string): string {
  const w = words(street);
  return w
    .map((word, i) => {
      const last = i === w.length - 1;
      if (last && i > 0 && STREET_TYPES[word]) return STREET_TYPES[word];
      if ((i === 0 || last) && w.length > 2 && DIRECTIONS[word]) return DIRECTIONS[word];
      return word;
    })
    .join(' ');
}

/** A house number's key: "12A" -> "12a", "1 - 3" -> "1-3". */
export const houseNumberKey = (n: string): string => n.toLowerCase().replace(/\s+/g, '');

/** The number a house number starts with, for the nearest one on a street ("12A" -> 12); null without digits. */
export function houseNumberValue(n: string): number | null {
  const m = /^\s*(\d{1,7})/.exec(n);
  return m ? Number(m[1]) : null;
}

/** A city's key: "San Francisco" and "san francisco" -> "san francisco"; "St. Louis" -> "saint louis". */
export function cityKey(city: string): string {
  const w = words(city);
  if (w[0] === 'st' || w[0] === 'ste') w[0] = w[0] === 'st' ? 'saint' : 'sainte';
  if (w[0] === 'ft') w[0] = 'fort';
  if (w[0] === 'mt') w[0] = 'mount';
  return w.join(' ');
}

/** What a typed address names: a house number and street, and the place they are in, when given. */
export interface AddressQuery {
  number: string | null;
  street: string;
  /** The rest after the street ("San Francisco, CA 94108"), for the city lookup; empty when none was typed. */
  place: string;
  /** The city part alone ("San Francisco"), without a state or ZIP; null when none was typed. */
  city: string | null;
  zip: string | null;
}

const US_STATE = /^[A-Za-z]{2}$/;
const ZIP = /^\d{5}(?:-\d{4})?$/;

/**
 * Reads "333 Post St, San Francisco, CA 94108" as number 333, street "Post St", city "San Francisco", ZIP 94108.
 * The street is the first comma-separated part; a trailing state, ZIP or "USA" is recognised and dropped from
 * the city. Null when the first part holds no street (only a number, or nothing).
 */
export function parseAddressQuery(text: string): AddressQuery | null {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const first = parts[0];
  if (!first) return null;
  const m = /^(\d{1,7}[A-Za-z]?(?:\s*-\s*\d{1,7}[A-Za-z]?)?)\s+(.+)$/.exec(first);
  const number = m ? m[1]!.replace(/\s+/g, '') : null;
  const street = (m ? m[2]! : first).trim();
  if (!/\p{L}/u.test(street)) return null;
  const rest = parts.slice(1);
  let zip: string | null = null;
  const cityParts: string[] = [];
  for (const part of rest) {
    const tokens = part.split(/\s+/);
    const kept: string[] = [];
    for (const token of tokens) {
      if (ZIP.test(token)) zip = token.slice(0, 5);
      else if (/^(usa|us|united states)$/i.test(token)) continue;
      else kept.push(token);
    }
    const joined = kept.join(' ');
    // "CA" after the city is a state; a lone two-letter part after the first is too.
    if (joined && !(cityParts.length > 0 && US_STATE.test(joined))) cityParts.push(joined);
  }
  const city = cityParts[0] ?? null;
  return { number, street, place: rest.join(', '), city, zip };
}

/** Typed coordinates, "37.7879,-122.4066" or "37.7879 -122.4066": the point; null for anything else. */
export function parseCoordinates(text: string): { lat: number; lng: number } | null {
  const m = /^\s*(-?\d{1,2}(?:\.\d+)?)\s*[,\s]\s*(-?\d{1,3}(?:\.\d+)?)\s*$/.exec(text);
  if (!m) return null;
  const lat = Number(m[1]);
  const lng = Number(m[2]);
  if (!(Math.abs(lat) <= 90 && Math.abs(lng) <= 180)) return null;
  return { lat, lng };
}

/** How exactly a typed location was found, from the most exact to the least. */
export type GeocodePrecision = 'coordinates' | 'address' | 'nearby-address' | 'street' | 'city';

/** What the rep is told beside the location label, so a city centre is never taken for the address. */
export const PRECISION_NOTES: Record<GeocodePrecision, string> = {
  coordinates: 'Exact point',
  address: 'Street-level',
  'nearby-address': 'Street-level: the nearest house number found',
  street: 'Street: drop a pin to be exact',
  city: 'City centre: drop a pin to be exact',
};
