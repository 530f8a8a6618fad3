// De-duplication of scan candidates, exactly by SPEC.md §5, in O(n) expected time (hash maps and a coordinate
// grid, never all pairs).
//
// Which entry wins: always the FIRST one in input order. Callers pass candidates best-sourced first (the
// imported extract or the maps service before the open-map top-up, nearest first within a provider), so the
// kept record is the best-sourced, earliest one. The dropped duplicate contributes nothing to the kept one.
//
// Note on SPEC.md's same-address rule: businesses sharing one street address (an office tower, a mall) are
// merged unless their addresses carry different suite/unit numbers, which normalisation keeps. The address
// rules apply only to addresses whose street line has a house number: OSM data often gives just "CA",
// "San Francisco" or "Grant Avenue, San Francisco, CA", and treating those as one address merged a library
// with a theatre 0.8 mile away and every shop of a street into one.

/** What de-duplication reads from a candidate. */
export interface DedupCandidate {
  id?: string | null;
  placeId?: string | null;
  name: string;
  lat: number;
  lng: number;
  address?: string | null;
}

/** Coordinates closer than this (degrees, in both latitude and longitude) count as the same place. */
export const CLOSE_DEGREES = 0.001;
/** ...and this for storage-type names (self-storage sites are large and geocoded loosely). */
export const STORAGE_CLOSE_DEGREES = 0.005;
/** Open-map top-up: a result this close (degrees, both axes) to an existing one is dropped. */
export const TOP_UP_CLOSE_DEGREES = 0.001;

// Floating point: 37.001 - 37 is 0.00099999999999767; treat "within 0.001" inclusively.
const EPS = 1e-9;

/** Legal-form suffixes removed from the end of a name (SPEC.md §5). */
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
 * SPEC.md §5 name normalisation: lower-case, punctuation stripped, trailing legal suffixes (inc, llc, corp, co,
 * ltd) removed. "Joe's Plumbing Co., Inc." -> "joes plumbing". A name made only of suffixes is kept as is.
 */
export function normalizeName(name: string): string {
  const w = words(name);
  let end = w.length;
  while (end > 1 && NAME_SUFFIX_SET.has(w[end - 1] ?? '')) end--;
  if (end < w.length) w.length = end;
  return w.join(' ');
}

/** SPEC.md §5 address normalisation: lower-case, punctuation stripped, street-type words removed. */
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
 * The normalised address the address rules of SPEC.md §5 compare: {@link normalizeAddress} of an address whose
 * street line has a house number, else '' (never matches). Without the house number an address names an area
 * or a whole street ("CA", "Grant Avenue, San Francisco, CA"), and "the same address" would merge unrelated
 * businesses far apart.
 */
export function addressKey(address: string | null | undefined): string {
  return hasHouseNumber(address) ? normalizeAddress(address) : '';
}

/** True for storage-type names, which use the wider 0.005° closeness. */
export function isStorageName(normalizedName: string): boolean {
  return STORAGE_NAME.test(normalizedName);
}

/** Which SPEC.md §5 rule made an entry a duplicate. */
export type DedupRule =
  | 'same-id'
  | 'name-and-coordinates'
  | 'name-and-address'
  | 'coordinates-and-address'
  | 'same-address'
  | 'identical-six-decimals';

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

  find(prefix: string, lat: number, lng: number, test: (v: T) => boolean): T | undefined {
    const byCell = this.cells.get(prefix);
    if (!byCell) return undefined;
    const cLat = this.cell(lat);
    const cLng = this.cell(lng);
    for (let i = -1; i <= 1; i++) {
      for (let j = -1; j <= 1; j++) {
        const list = byCell.get(Grid.key(cLat + i, cLng + j));
        if (!list) continue;
        for (const v of list) if (test(v)) return v;
      }
    }
    return undefined;
  }
}

const within = (a: number, b: number, limit: number): boolean => Math.abs(a - b) <= limit + EPS;

interface Kept<T> {
  item: T;
  name: string;
  lat: number;
  lng: number;
}

/**
 * Remove duplicates by the rules of SPEC.md §5, keeping the first of each set (see the note at the top).
 * Two entries are the same when
 *  - they share a place id or provider id;
 *  - their normalised names match and their coordinates are within 0.001° in both latitude and longitude
 *    (0.005° for storage-type names);
 *  - their non-empty normalised addresses match (this covers "names and addresses match" and "coordinates and
 *    addresses match": any two with the same non-empty normalised address are duplicates) — only for addresses
 *    whose street line has a house number ({@link addressKey}); "CA" or "Grant Avenue" is no address to share;
 *  - finally, their lower-cased name, address and coordinates to six decimals are identical.
 * Empty names never match by name and empty addresses never match by address.
 */
export function dedupeDetailed<T extends DedupCandidate>(items: readonly T[]): DedupResult<T> {
  const kept: T[] = [];
  const dropped: DroppedDuplicate<T>[] = [];
  const byId = new Map<string, T>();
  const byAddress = new Map<string, Kept<T>>();
  const near = new Grid<Kept<T>>(CLOSE_DEGREES);
  const nearStorage = new Grid<Kept<T>>(STORAGE_CLOSE_DEGREES);
  const exact = new Map<string, T>();

  for (const item of items) {
    const ids = [item.placeId, item.id].filter((v): v is string => typeof v === 'string' && v.length > 0);
    const name = normalizeName(item.name);
    const address = addressKey(item.address);
    const storage = name.length > 0 && isStorageName(name);
    const limit = storage ? STORAGE_CLOSE_DEGREES : CLOSE_DEGREES;
    const grid = storage ? nearStorage : near;
    const exactKey = `${item.name.trim().toLowerCase()}|${(item.address ?? '').trim().toLowerCase()}|${item.lat.toFixed(6)}|${item.lng.toFixed(6)}`;

    let hit: { of: T; rule: DedupRule } | undefined;
    for (const id of ids) {
      const of = byId.get(id);
      if (of) {
        hit = { of, rule: 'same-id' };
        break;
      }
    }
    if (!hit && name) {
      const of = grid.find(
        name,
        item.lat,
        item.lng,
        (k) => k.name === name && within(k.lat, item.lat, limit) && within(k.lng, item.lng, limit),
      );
      if (of) hit = { of: of.item, rule: 'name-and-coordinates' };
    }
    if (!hit && address) {
      const of = byAddress.get(address);
      if (of) {
        const rule: DedupRule =
          name && of.name === name
            ? 'name-and-address'
            : within(of.lat, item.lat, limit) && within(of.lng, item.lng, limit)
              ? 'coordinates-and-address'
              : 'same-address';
        hit = { of: of.item, rule };
      }
    }
    if (!hit) {
      const of = exact.get(exactKey);
      if (of) hit = { of, rule: 'identical-six-decimals' };
    }

    if (hit) {
      dropped.push({ item, duplicateOf: hit.of, rule: hit.rule });
      continue;
    }
    kept.push(item);
    const record: Kept<T> = { item, name, lat: item.lat, lng: item.lng };
    for (const id of ids) byId.set(id, item);
    if (name) grid.add(name, item.lat, item.lng, record);
    if (address) byAddress.set(address, record);
    exact.set(exactKey, item);
  }
  return { kept, dropped };
}

/** {@link dedupeDetailed} returning only the kept entries, in input order. */
export function dedupe<T extends DedupCandidate>(items: readonly T[]): T[] {
  return dedupeDetailed(items).kept;
}

/** SPEC.md §5: results without a name or a usable location are dropped. */
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
 * The open-map top-up of SPEC.md §5: append `extra` results to `existing`, dropping any whose name matches an
 * existing (or already appended) result case-insensitively, or that lies within 0.001° of one in both latitude
 * and longitude. Stops once the list holds `maxTotal` entries (default: no limit). Existing entries always win.
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
