// De-duplication of scan candidates (docs/PRODUCT.md, "The map and the scan"): the base rules (the same id;
// the same name at the same coordinates; the same address) and two proximity rules for one business mapped
// twice (below), in O(n) expected time (hash maps and coordinate grids, never all pairs).
//
// Which entry wins: always the FIRST one in input order, at its place in the list. Callers pass candidates
// best-sourced first (the imported extract or the maps service before the open-map top-up, nearest first within
// a provider), so the kept record is the best-sourced, earliest one. When the two are the same business by name
// (every rule below except the address-only ones and the id rule), the kept entry also takes over what it lacks
// from the duplicate: its phone number, its website, and — when the duplicate lies within 150 m — its address,
// if the kept one has none with a house number (a node carrying the phone and a building outline carrying the
// website and address become one card that has all three). The kept entry's id, name, coordinates, types and
// tags stay its own. An address is not taken over when another kept entry already has it, so two kept entries
// never become duplicates of each other and the result stays idempotent. An entry that takes anything over is
// a shallow copy; the input objects are never changed. Different businesses merged by the address rules (one
// street address) contribute nothing.
//
// The same-address rule: businesses sharing one street address (an office tower, a mall) are
// merged unless their addresses carry different suite/unit numbers, which normalisation keeps. The address
// rules apply only to addresses whose street line has a house number: OSM data often gives just "CA",
// "San Francisco" or "Grant Avenue, San Francisco, CA", and treating those as one address would merge a
// library with a theatre 0.8 mile away and every shop of a street into one.
//
// The proximity rules, so that no business shows twice in one list. The base rules compare coordinates within
// 0.001° (about 90 m east-west here), which alone would let one business mapped twice (a shop node and its
// building outline, an ATM beside its bank, an old node beside a new one) and the buildings of one campus
// through as separate cards:
//  - same-name-nearby: the same normalised name within 150 m (SAME_BUSINESS_METERS) is one business, unless
//    both carry street lines with house numbers and those differ: two branches of a chain on one block, each
//    with its own address, stay two. Further apart the same name is another branch (two Starbucks 0.3 mile
//    apart stay separate), whether or not OSM gave it an address.
//  - same-institution: schools, colleges, universities and hospitals (by place type, or by a word of the name
//    such as "University" or "Hospital") that share an institution name ({@link institutionKey}: the name before
//    a " - Department" part, plural "s" ignored) are one institution, whatever their addresses (the buildings of
//    a campus each carry their own), when they lie within half a mile (CAMPUS_MILES) of a building already
//    merged into the kept entry — so a campus spreading building by building further than half a mile shows
//    once — or, when either is a university or college by type, anywhere in the list: such a name is the
//    institution's own (the Academy of Art University's buildings spread over two miles of downtown San
//    Francisco), while "Lincoln Elementary School" or "Memorial Hospital" may well be two different ones.
// Both compare an entry with the entries already kept (and the buildings merged into them), so no two kept
// entries match either rule.

import { haversineMiles, metersToMiles, milesToLatDegrees } from './geo';

/** What de-duplication reads from a candidate. */
export interface DedupCandidate {
  id?: string | null;
  placeId?: string | null;
  name: string;
  lat: number;
  lng: number;
  address?: string | null;
  /** Place types ('university', 'hospital', ...); they mark institutions for the campus rule. */
  types?: readonly string[] | null;
  /**
   * The data source ('local', 'google', ...). Entries of one source at one street address are one business only
   * when their names say so: the imported places of one building (an office tower) are each their own.
   */
  source?: string | null;
  /** Contact fields a kept entry takes over from a same-name duplicate when it has none. */
  phone?: string | null;
  website?: string | null;
  /** Photos (Google's), which a kept entry without any takes over from a duplicate, as it does a phone. */
  photos?: readonly unknown[] | null;
  /**
   * The keys below made ahead from this entry's own name, address and types (a stored place's profile,
   * scoring/profile.ts); derived here when absent.
   */
  profile?: DedupKeys | null;
}

/** What de-duplication derives from an entry's own fields (its name, address and types). */
export interface DedupKeys {
  /** normalizeName of the name. */
  name: string;
  /** addressKeys of the address. */
  addressKey: string;
  street: string;
  /** institutionKey of the name and types ('' for no name). */
  campus: string;
}

/** Coordinates closer than this (degrees, in both latitude and longitude) count as the same place. */
export const CLOSE_DEGREES = 0.001;
/** ...and this for storage-type names (self-storage sites are large and geocoded loosely). */
export const STORAGE_CLOSE_DEGREES = 0.005;
/** Open-map top-up: a result this close (degrees, both axes) to an existing one is dropped. */
export const TOP_UP_CLOSE_DEGREES = 0.001;

/** The same normalised name within this distance (metres) is one business mapped twice (see the header). */
export const SAME_BUSINESS_METERS = 150;
/** Institutions with the same normalised name within this distance (miles) are one campus. */
export const CAMPUS_MILES = 0.5;

// Floating point: 37.001 - 37 is 0.00099999999999767; treat "within 0.001" inclusively.
const EPS = 1e-9;

/** Legal-form suffixes removed from the end of a name. */
export const NAME_SUFFIXES: readonly string[] = ['inc', 'llc', 'corp', 'co', 'ltd'];
const NAME_SUFFIX_SET: ReadonlySet<string> = new Set(NAME_SUFFIXES);

/** Street-type words removed from addresses (with their usual abbreviations), plus unit and country noise. */
export const ADDRESS_NOISE_WORDS: readonly string[] = [
  'street', 'st', 'avenue', 'ave', 'av', 'road', 'rd', 'boulevard', 'blvd', 'drive', 'dr', 'lane', 'ln',
  'court', 'ct', 'place', 'pl', 'way', 'parkway', 'pkwy', 'highway', 'hwy', 'circle', 'cir', 'terrace', 'ter',
  'trail', 'trl', 'square', 'sq', 'alley', 'aly', 'plaza', 'plz', 'freeway', 'fwy', 'expressway', 'expy',
  'route', 'rte', 'pike', 'row', 'loop', 'crossing', 'xing',
  // unit designators (the number after them is kept, so different suites stay different)
  'suite', 'ste', 'unit', 'apt', 'apartment', 'floor', 'fl', 'room', 'rm',
  // country
  'usa', 'us', 'united', 'states', 'america',
]; // prettier-ignore
const ADDRESS_NOISE_SET: ReadonlySet<string> = new Set(ADDRESS_NOISE_WORDS);

const STORAGE_NAME = /\b(storage|storages|selfstorage|ministorage|uhaul|u haul)\b/;

// eslint-disable-next-line no-control-regex
const ASCII = /^[\x00-\x7f]*$/;

/** Lower-case ASCII words of `text`: letters and digits; '&' is "and"; apostrophes vanish; the rest separates. */
function asciiWords(text: string): string[] {
  const out: string[] = [];
  let start = -1;
  let word = '';
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 32;
    const alnum = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    if (alnum) {
      if (start < 0) start = i;
      continue;
    }
    if (c === 39) {
      // apostrophe: drop it and keep the word going ("Joe's" -> "joes")
      if (start >= 0) word += text.slice(start, i);
      start = -1;
      continue;
    }
    if (start >= 0) word += text.slice(start, i);
    start = -1;
    if (word) out.push(word.toLowerCase());
    word = '';
    if (c === 38) out.push('and');
  }
  return out;
}

function words(text: string): string[] {
  if (ASCII.test(text)) return asciiWords(text);
  // Decompose accents (NFKD is slow, so only for non-ASCII text), then the Unicode-aware path.
  let lower = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  if (lower.includes('&')) lower = lower.replace(/&/g, ' and ');
  if (lower.includes("'") || lower.includes('’')) lower = lower.replace(/['’]/g, '');
  return lower
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .split(' ')
    .filter((w) => w.length > 0);
}

/**
 * Name normalisation: lower-case, punctuation stripped, trailing legal suffixes (inc, llc, corp, co, ltd)
 * removed. "Joe's Plumbing Co., Inc." -> "joes plumbing". A name made only of suffixes is kept as is.
 */
export function normalizeName(name: string): string {
  const w = words(name);
  let end = w.length;
  while (end > 1 && NAME_SUFFIX_SET.has(w[end - 1] ?? '')) end--;
  if (end < w.length) w.length = end;
  return w.join(' ');
}

/** Address normalisation: lower-case, punctuation stripped, street-type words removed. */
export function normalizeAddress(address: string | null | undefined): string {
  if (!address) return '';
  return words(address)
    .filter((w) => !ADDRESS_NOISE_SET.has(w))
    .join(' ');
}

/** A house number: '123', '123A', '123-125', '12/14', '12;14' (not '1st', not a 5-digit ZIP after a word). */
const HOUSE_NUMBER = /^\d+[a-z]?(?:[-/;]\d+[a-z]?)*$/i;
const TRAILING_HOUSE_NUMBER = /^\d{1,4}[a-z]?$/i;
const LETTER = /\p{L}/u;

/**
 * True when the address starts with a street line that carries a house number: "123 Main St, ..." (the number
 * first, as our OSM addresses and US addresses are written), or "Rue Grimaldi 12, ..." (a number of at most
 * four digits after at least two words). "CA", "San Francisco", "Grant Avenue, San Francisco, CA",
 * "CA 94105" and "Pier 39" do not: they name an area or a street, not one building.
 */
export function hasHouseNumber(address: string | null | undefined): boolean {
  if (!address) return false;
  const comma = address.indexOf(',');
  const line = (comma < 0 ? address : address.slice(0, comma)).trim();
  if (!line) return false;
  const tokens = line.split(/\s+/);
  if (tokens.length < 2) return false;
  if (HOUSE_NUMBER.test(tokens[0] ?? '')) return tokens.slice(1).some((t) => LETTER.test(t));
  const last = tokens[tokens.length - 1] ?? '';
  return TRAILING_HOUSE_NUMBER.test(last) && tokens.slice(0, -1).filter((t) => LETTER.test(t)).length >= 2;
}

/**
 * The normalised address the address rules compare: {@link normalizeAddress} of an address whose street line
 * has a house number, else '' (never matches). Without the house number an address names an area or a whole
 * street ("CA", "Grant Avenue, San Francisco, CA"), and "the same address" would merge unrelated businesses
 * far apart.
 */
export function addressKey(address: string | null | undefined): string {
  return hasHouseNumber(address) ? normalizeAddress(address) : '';
}

/**
 * The street line of an address with a house number, normalised ("101 Mission Street, San Francisco, CA" ->
 * "101 mission"); '' without a house number. Two branches with different street lines are two businesses.
 */
export function streetLineKey(address: string | null | undefined): string {
  return addressKeys(address).street;
}

/** {@link addressKey} and {@link streetLineKey} at once (one house-number check, each word normalised once). */
export function addressKeys(address: string | null | undefined): { key: string; street: string } {
  if (!address || !hasHouseNumber(address)) return { key: '', street: '' };
  const comma = address.indexOf(',');
  if (comma < 0) {
    const street = normalizeAddress(address);
    return { key: street, street };
  }
  // Commas only separate words, so the whole address normalises to the street line and the rest joined.
  const street = normalizeAddress(address.slice(0, comma));
  const rest = normalizeAddress(address.slice(comma + 1));
  return { key: street && rest ? `${street} ${rest}` : street || rest, street };
}

/** Place types of institutions whose buildings spread over a campus. */
export const INSTITUTION_TYPES: readonly string[] = [
  'school',
  'primary_school',
  'secondary_school',
  'college',
  'university',
  'hospital',
];
const INSTITUTION_TYPE_SET: ReadonlySet<string> = new Set(INSTITUTION_TYPES);
const INSTITUTION_NAME =
  /\b(university|universities|college|school|academy|institute|campus|hospital|medical center|medical centre)\b/;

/** True for a school, college, university or hospital: by one of its place types or by its normalised name. */
export function isInstitution(normalizedName: string, types?: readonly string[] | null): boolean {
  if (types?.some((t) => INSTITUTION_TYPE_SET.has(t))) return true;
  return INSTITUTION_NAME.test(normalizedName);
}

/** Place types of institutions whose name is their own: one per list, however far apart their buildings. */
export const UNIVERSITY_TYPES: readonly string[] = ['university', 'college'];
const UNIVERSITY_TYPE_SET: ReadonlySet<string> = new Set(UNIVERSITY_TYPES);

/** A department or building after the institution's name: "Academy of Art University - School of Fashion". */
const INSTITUTION_PART = /\s[-–—|@]\s|\s?\(|:/;

/**
 * The name an institution's buildings share: the normalised name before a " - ", ":", "|" or "(" that names a
 * department or building, each word without a plural or possessive "s" ("Academy of Arts University" and
 * "Academy of Art University - Game Development" are "academy of art university"). '' for a non-institution.
 * `normalized` is {@link normalizeName} of `name`, when the caller has it.
 */
export function institutionKey(
  name: string,
  types?: readonly string[] | null,
  normalized: string = normalizeName(name),
): string {
  if (!normalized || !isInstitution(normalized, types)) return '';
  const part = INSTITUTION_PART.exec(name);
  const head = (part ? normalizeName(name.slice(0, part.index)) : '') || normalized;
  return head
    .split(' ')
    .map((w) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w))
    .join(' ');
}

/** True for storage-type names, which use the wider 0.005° closeness. */
export function isStorageName(normalizedName: string): boolean {
  return STORAGE_NAME.test(normalizedName);
}

/** Which rule made an entry a duplicate. */
export type DedupRule =
  | 'same-id'
  | 'name-and-coordinates'
  | 'name-and-address'
  | 'coordinates-and-address'
  | 'same-address'
  | 'identical-six-decimals'
  | 'same-name-nearby'
  | 'same-phone-nearby'
  | 'same-institution';

/** Rules under which the two entries are one business by name: the kept one may take the other's contacts. */
const SAME_BUSINESS_RULES: ReadonlySet<DedupRule> = new Set<DedupRule>([
  'name-and-coordinates',
  'name-and-address',
  'identical-six-decimals',
  'same-name-nearby',
  'same-phone-nearby',
  'same-institution',
]);

export interface DroppedDuplicate<T> {
  item: T;
  duplicateOf: T;
  rule: DedupRule;
}

export interface DedupResult<T> {
  kept: T[];
  dropped: DroppedDuplicate<T>[];
}

/** Grid of kept entries keyed by a prefix and integer cell coordinates; lookups check the 3x3 neighbourhood. */
class Grid<T> {
  // prefix -> numeric cell key -> entries. Numeric keys avoid building 9 key strings per lookup.
  private readonly cells = new Map<string, Map<number, T[]>>();
  constructor(private readonly size: number) {}

  private cell(v: number): number {
    return Math.floor(v / this.size);
  }

  // Cell indices stay below 400,000 in magnitude (180° / 0.0005°), so this key is unique and exact.
  private static key(cLat: number, cLng: number): number {
    return cLat * 1_000_000 + cLng;
  }

  add(prefix: string, lat: number, lng: number, value: T): void {
    let byCell = this.cells.get(prefix);
    if (!byCell) {
      byCell = new Map();
      this.cells.set(prefix, byCell);
    }
    const key = Grid.key(this.cell(lat), this.cell(lng));
    const list = byCell.get(key);
    if (list) list.push(value);
    else byCell.set(key, [value]);
  }

  /**
   * The first entry near (lat, lng) passing `test`: it looks `lngReach` cells either side in longitude (1 for a
   * box in degrees; more for a distance in metres away from the equator, where a degree of longitude shrinks).
   */
  find(prefix: string, lat: number, lng: number, test: (v: T) => boolean, lngReach = 1): T | undefined {
    const byCell = this.cells.get(prefix);
    if (!byCell) return undefined;
    const cLat = this.cell(lat);
    const cLng = this.cell(lng);
    for (let i = -1; i <= 1; i++) {
      for (let j = -lngReach; j <= lngReach; j++) {
        const list = byCell.get(Grid.key(cLat + i, cLng + j));
        if (!list) continue;
        for (const v of list) if (test(v)) return v;
      }
    }
    return undefined;
  }

  /** Of the entries near (lat, lng) passing `test`, the one of least `rank` (as {@link find} looks). */
  least(
    prefix: string,
    lat: number,
    lng: number,
    test: (v: T) => boolean,
    rank: (v: T) => number,
    lngReach = 1,
  ): T | undefined {
    let best: T | undefined;
    this.find(
      prefix,
      lat,
      lng,
      (v) => {
        if (test(v) && (best === undefined || rank(v) < rank(best))) best = v;
        return false;
      },
      lngReach,
    );
    return best;
  }
}

const within = (a: number, b: number, limit: number): boolean => Math.abs(a - b) <= limit + EPS;

interface Kept<T> {
  item: T;
  /** Position in the kept list (the entry there is replaced when it takes a duplicate's contacts). */
  index: number;
  name: string;
  lat: number;
  lng: number;
  street: string;
  /** {@link institutionKey}; '' for a business. */
  campus: string;
  /** The name as the same-name-nearby rule compares it ({@link nearbyNameKey}). */
  nearbyName: string;
  /** A university or college (by its own type or a merged building's): one per list by `campus`. */
  university: boolean;
}

const SAME_BUSINESS_MILES = metersToMiles(SAME_BUSINESS_METERS);
/** Cell sizes (degrees of latitude) of the same-name and campus grids: a little more than their distances. */
const SAME_NAME_CELL_DEGREES = milesToLatDegrees(SAME_BUSINESS_MILES) * 1.05;
const CAMPUS_CELL_DEGREES = milesToLatDegrees(CAMPUS_MILES) * 1.05;
/** Latitude difference (degrees) beyond which two points are surely further apart than SAME_BUSINESS_MILES. */
const SAME_BUSINESS_LAT_DEGREES = SAME_NAME_CELL_DEGREES;

/** Cells either side in longitude that cover a cell's latitude distance at `lat` (a degree of lng shrinks). */
function lngReachAt(lat: number): number {
  const cos = Math.cos((Math.min(Math.abs(lat), 89) * Math.PI) / 180);
  return Math.ceil(1 / cos);
}

/**
 * A normalised name as the same-name-nearby rule compares it: without "and", so "Kaiser & Gornick" and "Kaiser
 * Gornick", as two sources write one firm, are one name.
 */
function nearbyNameKey(name: string): string {
  if (!name.includes('and')) return name;
  const words = name.split(' ').filter((w) => w !== 'and');
  return words.length > 0 ? words.join(' ') : name;
}

/** The last ten digits of a phone number (the national number in North America), null without seven or more. */
export function phoneKey(phone: string | null | undefined): string | null {
  const first = phone?.split(';')[0] ?? '';
  const digits = first.replace(/\D/g, '');
  return digits.length >= 7 ? digits.slice(-10) : null;
}

/** True when `item` is, by the same-name-nearby rule, the business of `p` mapped twice. */
function sameBusinessNearby<T>(p: Point<T>, item: DedupCandidate, street: string): boolean {
  const k = p.of;
  if (street && k.street && street !== k.street) return false;
  return (
    Math.abs(p.lat - item.lat) <= SAME_BUSINESS_LAT_DEGREES && haversineMiles(p, item) <= SAME_BUSINESS_MILES
  );
}

/**
 * `into` with what it lacks taken from `from`, a duplicate of the same business: its phone (unless a kept entry has
 * that number: the two would become duplicates by the phone rule), website, photos, and its
 * address when `into` has none with a house number, `from` lies within 150 m (a campus building further away
 * has an address the kept entry's map marker is not at) and no kept entry has that address yet (else the two
 * kept entries would become duplicates by the address rules). A copy only if anything changes.
 */
function takeOver<T extends DedupCandidate>(
  into: T,
  from: T,
  addressTaken: (key: string) => boolean,
  phoneTaken: (key: string) => boolean,
): T {
  const fromPhone = phoneKey(from.phone);
  const phone = !into.phone && from.phone && !(fromPhone && phoneTaken(fromPhone)) ? from.phone : null;
  const website = !into.website && from.website ? from.website : null;
  const key = addressKey(from.address);
  const address =
    !addressKey(into.address) &&
    key &&
    !addressTaken(key) &&
    haversineMiles(into, from) <= SAME_BUSINESS_MILES
      ? from.address
      : null;
  const photos = !into.photos?.length && from.photos?.length ? from.photos : null;
  if (!phone && !website && !address && !photos) return into;
  // Its keys were made from the address it had: without them, whoever reads it next derives them afresh.
  return {
    ...into,
    ...(phone && { phone }),
    ...(website && { website }),
    ...(photos && { photos }),
    ...(address && { address, ...(into.profile && { profile: null }) }),
  };
}

/** A point of a kept entry in the same-name grid: its own place, or a building of its campus. */
interface Point<T> {
  of: Kept<T>;
  lat: number;
  lng: number;
}

const exactKeyOf = (item: DedupCandidate): string =>
  `${item.name.trim().toLowerCase()}|${(item.address ?? '').trim().toLowerCase()}|${item.lat.toFixed(6)}|${item.lng.toFixed(6)}`;

/**
 * Remove duplicates by the base rules and the two proximity rules, keeping the first of each set (see the
 * note at the top). Two entries are the same when
 *  - they share a place id or provider id;
 *  - their normalised names match and their coordinates are within 0.001° in both latitude and longitude
 *    (0.005° for storage-type names);
 *  - their non-empty normalised addresses match (this covers "names and addresses match" and "coordinates and
 *    addresses match": any two with the same non-empty normalised address are duplicates) — only for addresses
 *    whose street line has a house number ({@link addressKey}); "CA" or "Grant Avenue" is no address to share;
 *  - their lower-cased name, address and coordinates to six decimals are identical;
 *  - their normalised names match within 150 m, unless both street lines carry house numbers and differ
 *    ('same-name-nearby');
 *  - both are schools, colleges, universities or hospitals of one institution name, within half a mile of a
 *    building of the kept one, or anywhere when either is a university or college ('same-institution').
 * Empty names never match by name and empty addresses never match by address. An entry matching several kept
 * ones by name is the duplicate of the earliest. `dropped[].duplicateOf` is the entry as
 * kept (with anything it took over).
 */
export function dedupeDetailed<T extends DedupCandidate>(items: readonly T[]): DedupResult<T> {
  const index = new KeptIndex<T>();
  const drops: { item: T; of: Kept<T>; rule: DedupRule }[] = [];
  for (const item of items) {
    const keys = keysOf(item);
    const hit = index.match(item, keys);
    if (!hit) {
      index.keep(item, keys);
      continue;
    }
    drops.push({ item, of: hit.of, rule: hit.rule });
    if (SAME_BUSINESS_RULES.has(hit.rule)) index.absorb(hit.of, item, keys);
  }
  return {
    kept: index.kept,
    dropped: drops.map((d) => ({ item: d.item, duplicateOf: d.of.item, rule: d.rule })),
  };
}

/** What an entry is compared by, worked out once. */
interface EntryKeys {
  ids: string[];
  name: string;
  address: string;
  street: string;
  nearbyName: string;
  phone: string | null;
  storage: boolean;
  exactKey: string;
  campus: string;
  university: boolean;
}

function keysOf(item: DedupCandidate): EntryKeys {
  const made = item.profile;
  const name = made ? made.name : normalizeName(item.name);
  const { key: address, street } = made
    ? { key: made.addressKey, street: made.street }
    : addressKeys(item.address);
  const campus = made ? made.campus : name ? institutionKey(item.name, item.types, name) : '';
  return {
    ids: [item.placeId, item.id].filter((v): v is string => typeof v === 'string' && v.length > 0),
    name,
    address,
    street,
    nearbyName: nearbyNameKey(name),
    phone: phoneKey(item.phone),
    storage: name.length > 0 && isStorageName(name),
    exactKey: exactKeyOf(item),
    campus,
    university: campus !== '' && !!item.types?.some((t) => UNIVERSITY_TYPE_SET.has(t)),
  };
}

/** The entries kept so far, indexed by every key a later entry may match them on. */
class KeptIndex<T extends DedupCandidate> {
  readonly kept: T[] = [];
  private readonly byId = new Map<string, Kept<T>>();
  private readonly byAddress = new Map<string, Kept<T>[]>();
  private readonly near = new Grid<Kept<T>>(CLOSE_DEGREES);
  private readonly nearStorage = new Grid<Kept<T>>(STORAGE_CLOSE_DEGREES);
  private readonly sameName = new Grid<Point<T>>(SAME_NAME_CELL_DEGREES);
  private readonly samePhone = new Grid<Kept<T>>(SAME_NAME_CELL_DEGREES);
  /** The phone numbers of kept entries, anywhere. */
  private readonly phones = new Set<string>();
  // Institutions by institutionKey: their buildings (points), the first kept, the first university.
  private readonly campusGrid = new Grid<Point<T>>(CAMPUS_CELL_DEGREES);
  private readonly institutions = new Map<string, Kept<T>>();
  private readonly universities = new Map<string, Kept<T>>();
  private readonly exact = new Map<string, Kept<T>>();

  /** The kept entry `item` duplicates, by the first rule that matches, in the order the rules are listed. */
  match(item: T, keys: EntryKeys): { of: Kept<T>; rule: DedupRule } | undefined {
    const { name, address, nearbyName, phone, campus } = keys;
    const limit = keys.storage ? STORAGE_CLOSE_DEGREES : CLOSE_DEGREES;
    const grid = keys.storage ? this.nearStorage : this.near;
    for (const id of keys.ids) {
      const of = this.byId.get(id);
      if (of) return { of, rule: 'same-id' };
    }
    if (name) {
      const of = grid.least(
        name,
        item.lat,
        item.lng,
        (k) => k.name === name && within(k.lat, item.lat, limit) && within(k.lng, item.lng, limit),
        (k) => k.index,
      );
      if (of) return { of, rule: 'name-and-coordinates' };
    }
    if (address) {
      const of = this.byAddress.get(address)?.find((k) => sameAtAddress(k.item, k.name, item, name));
      if (of) {
        const rule: DedupRule =
          name && of.name === name
            ? 'name-and-address'
            : within(of.lat, item.lat, limit) && within(of.lng, item.lng, limit)
              ? 'coordinates-and-address'
              : 'same-address';
        return { of, rule };
      }
    }
    const identical = this.exact.get(keys.exactKey);
    if (identical) return { of: identical, rule: 'identical-six-decimals' };
    if (name) {
      const point = this.sameName.least(
        nearbyName,
        item.lat,
        item.lng,
        (p) => p.of.nearbyName === nearbyName && sameBusinessNearby(p, item, keys.street),
        (p) => p.of.index,
        lngReachAt(item.lat),
      );
      if (point) return { of: point.of, rule: 'same-name-nearby' };
    }
    if (phone) {
      // One number within 150 m is one business to call: a practice listed once per practitioner, a firm by its
      // name and by its people.
      const of = this.samePhone.least(
        phone,
        item.lat,
        item.lng,
        (k) =>
          Math.abs(k.lat - item.lat) <= SAME_BUSINESS_LAT_DEGREES &&
          haversineMiles(k, item) <= SAME_BUSINESS_MILES,
        (k) => k.index,
        lngReachAt(item.lat),
      );
      if (of) return { of, rule: 'same-phone-nearby' };
    }
    if (campus) {
      const point = this.campusGrid.least(
        campus,
        item.lat,
        item.lng,
        (p) => p.of.campus === campus && haversineMiles(p, item) <= CAMPUS_MILES,
        (p) => p.of.index,
        lngReachAt(item.lat),
      );
      const of =
        point?.of ?? (keys.university ? this.institutions.get(campus) : this.universities.get(campus));
      if (of) return { of, rule: 'same-institution' };
    }
    return undefined;
  }

  /** `item` kept as a new business. */
  keep(item: T, keys: EntryKeys): void {
    const { name, nearbyName, phone, campus, university, address } = keys;
    const record: Kept<T> = {
      item,
      index: this.kept.length,
      name,
      lat: item.lat,
      lng: item.lng,
      street: keys.street,
      campus,
      university,
      nearbyName,
    };
    this.kept.push(item);
    for (const id of keys.ids) this.byId.set(id, record);
    if (name) {
      (keys.storage ? this.nearStorage : this.near).add(name, item.lat, item.lng, record);
      this.sameName.add(nearbyName, item.lat, item.lng, { of: record, lat: item.lat, lng: item.lng });
    }
    if (phone) {
      this.phones.add(phone);
      this.samePhone.add(phone, item.lat, item.lng, record);
    }
    if (campus) {
      this.campusGrid.add(campus, item.lat, item.lng, { of: record, lat: item.lat, lng: item.lng });
      if (!this.institutions.has(campus)) this.institutions.set(campus, record);
      if (university && !this.universities.has(campus)) this.universities.set(campus, record);
    }
    if (address) this.atAddress(address, record);
    this.exact.set(keys.exactKey, record);
  }

  /** `item`, a duplicate of the same business as `k`, gives `k` what it lacks and widens its campus. */
  absorb(k: Kept<T>, item: T, { campus, university }: EntryKeys): void {
    const merged = takeOver(
      k.item,
      item,
      (key) => this.byAddress.has(key),
      (key) => this.phones.has(key),
    );
    if (merged !== k.item) {
      const tookPhone = merged.phone !== k.item.phone ? phoneKey(merged.phone) : null;
      if (tookPhone) {
        this.phones.add(tookPhone);
        this.samePhone.add(tookPhone, k.lat, k.lng, k);
      }
      if (merged.address !== k.item.address) {
        // It took over an address: later entries compare with that address as well.
        k.street = streetLineKey(merged.address);
        this.atAddress(addressKey(merged.address), k);
        this.exact.set(exactKeyOf(merged), k);
      }
      k.item = merged;
      this.kept[k.index] = merged;
    }
    // A building of a campus widens the campus: the next building is compared with this one too.
    if (campus && k.campus) {
      this.campusGrid.add(k.campus, item.lat, item.lng, { of: k, lat: item.lat, lng: item.lng });
      if (university && !k.university) {
        k.university = true;
        if (!this.universities.has(k.campus)) this.universities.set(k.campus, k);
      }
    }
  }

  private atAddress(key: string, k: Kept<T>): void {
    const list = this.byAddress.get(key);
    if (!list) this.byAddress.set(key, [k]);
    else if (!list.includes(k)) list.push(k);
  }
}

/**
 * Words of a name that say what a business is rather than which one: two firms of one building named "Law Offices
 * of ..." share them and are still two.
 */
const GENERIC_NAME_WORDS: ReadonlySet<string> = new Set([
  'the', 'and', 'law', 'laws', 'legal', 'office', 'offices', 'group', 'center', 'centre', 'clinic', 'dental',
  'dentistry', 'medical', 'health', 'care', 'services', 'service', 'company', 'studio', 'salon', 'shop', 'store',
  'bank', 'insurance', 'agency', 'realty', 'associates', 'partners', 'firm', 'attorneys', 'lawyers', 'doctor',
  'family', 'beauty', 'hair', 'nails', 'fitness', 'home', 'house', 'san', 'francisco', 'city', 'bay', 'market',
  'street', 'north', 'south', 'east', 'west', 'new', 'first', 'american', 'national', 'international',
]); // prettier-ignore

/** True when two names share a word that says which business it is (four letters or more, not a generic word). */
function shareDistinctiveWord(a: string, b: string): boolean {
  const words = new Set(a.split(' ').filter((w) => w.length >= 4 && !GENERIC_NAME_WORDS.has(w)));
  return b.split(' ').some((w) => words.has(w));
}

/**
 * True when two entries at one street address are one business: always when they come from different sources (two
 * providers describing one place), and within one source only when their names share a distinctive word ("Joe's"
 * and "Joe's Pizza"; not two firms of one office tower).
 */
function sameAtAddress(a: DedupCandidate, aName: string, b: DedupCandidate, bName: string): boolean {
  if (!a.source || !b.source || a.source !== b.source) return true;
  return shareDistinctiveWord(aName, bName);
}

/** {@link dedupeDetailed} returning only the kept entries, in input order. */
export function dedupe<T extends DedupCandidate>(items: readonly T[]): T[] {
  return dedupeDetailed(items).kept;
}

/** Results without a name or a usable location are dropped. */
export function dropIncomplete<T extends { name?: string | null; lat?: number | null; lng?: number | null }>(
  items: readonly T[],
): T[] {
  return items.filter(
    (b) =>
      typeof b.name === 'string' &&
      b.name.trim().length > 0 &&
      typeof b.lat === 'number' &&
      typeof b.lng === 'number' &&
      Number.isFinite(b.lat) &&
      Number.isFinite(b.lng) &&
      Math.abs(b.lat) <= 90 &&
      Math.abs(b.lng) <= 180,
  );
}

/**
 * The open-map top-up: append `extra` results to `existing`, dropping any whose name matches an existing (or
 * already appended) result case-insensitively, or that lies within 0.001° of one in both latitude and
 * longitude. Stops once the list holds `maxTotal` entries (default: no limit). Existing entries always win.
 */
export function topUp<T extends DedupCandidate>(
  existing: readonly T[],
  extra: readonly T[],
  maxTotal: number = Number.POSITIVE_INFINITY,
): T[] {
  const out = [...existing];
  const names = new Set<string>();
  const grid = new Grid<{ lat: number; lng: number }>(TOP_UP_CLOSE_DEGREES);
  const remember = (b: T) => {
    names.add(b.name.trim().toLowerCase());
    grid.add('', b.lat, b.lng, { lat: b.lat, lng: b.lng });
  };
  existing.forEach(remember);
  for (const b of extra) {
    if (out.length >= maxTotal) break;
    if (names.has(b.name.trim().toLowerCase())) continue;
    const close = grid.find(
      '',
      b.lat,
      b.lng,
      (p) => within(p.lat, b.lat, TOP_UP_CLOSE_DEGREES) && within(p.lng, b.lng, TOP_UP_CLOSE_DEGREES),
    );
    if (close) continue;
    out.push(b);
    remember(b);
  }
  return out;
}
