// Brand (chain) detection from the name-suggestion-index (NSI) data, as a pure lookup built from the parsed
// `name-suggestion-index/dist/json/nsi.json`. The loader that reads the file lives in ./nsi.ts so everything
// here stays testable with small hand-made data.
import { normalizeName } from '../dedup';

/** The parts of NSI's nsi.json this module reads. */
export interface NsiData {
  /** The file's own stamp (name-suggestion-index writes its version and a hash of its content). */
  _meta?: { version?: string; hash?: string };
  nsi: Record<
    string,
    {
      properties?: { exclude?: { generic?: string[] } };
      items: Array<{
        displayName?: string;
        locationSet?: { include?: unknown[]; exclude?: unknown[] };
        matchNames?: string[];
        tags?: Record<string, string>;
      }>;
    }
  >;
}

export interface BrandEntry {
  /** Display name of the brand ("McDonald's"). */
  name: string;
  /** brand:wikidata, when NSI has one. */
  wikidata: string | null;
  /** Present in the whole country (or worldwide) rather than a region of it. */
  national: boolean;
  /** NSI category paths the brand appears under ('amenity/fast_food'). */
  categories: string[];
}

export interface BrandIndex {
  /** Normalised name (see normalizeName) -> brand. */
  byName: ReadonlyMap<string, BrandEntry>;
  /**
   * The same names without their spaces ({@link compactKey}): "Orange Theory Fitness" and "Wal-Mart" are written
   * with spaces or punctuation NSI's names do not have ("orangetheory fitness", "walmart").
   */
  byCompact: ReadonlyMap<string, BrandEntry>;
  /** brand:wikidata -> brand. */
  byWikidata: ReadonlyMap<string, BrandEntry>;
  /** Wikidata ids of car makes: a dealer carrying a make's brand is a local franchise, not a chain. */
  carMakeWikidata: ReadonlySet<string>;
  /** The country the index was built for. */
  country: string;
  /**
   * Which data the index was built from: the country and the NSI file's hash (an index of data without one gets
   * an id of its own). Stored place profiles name it (./profile.ts), so a new NSI release makes them stale.
   */
  id: string;
}

let unstamped = 0;

/** NSI key paths read: brands of businesses only (not transit, flags, operators or advertising totems). */
const BUSINESS_KEYS = new Set(['amenity', 'shop', 'office', 'craft', 'healthcare', 'leisure', 'tourism']);

/**
 * Car makes are the worldwide brands under shop=car plus these (NSI lists some makes for a few countries only).
 * Dealer chains under shop=car (CarMax, AutoNation...) are ordinary national chains.
 */
export const CAR_MAKES: readonly string[] = [
  'acura', 'alfa romeo', 'audi', 'bmw', 'buick', 'cadillac', 'chevrolet', 'chevy', 'chrysler', 'dodge', 'fiat',
  'ford', 'genesis', 'gmc', 'honda', 'hyundai', 'infiniti', 'jaguar', 'jeep', 'kia', 'land rover', 'lexus',
  'lincoln', 'lucid', 'maserati', 'mazda', 'mercedes', 'mercedes benz', 'mitsubishi', 'nissan', 'polestar',
  'porsche', 'rivian', 'subaru', 'tesla', 'toyota', 'volkswagen', 'vw', 'volvo',
]; // prettier-ignore
const CAR_MAKE_SET: ReadonlySet<string> = new Set(CAR_MAKES);

type Presence = 'national' | 'regional' | 'absent';

/** Where a brand is present relative to a country, from its NSI locationSet. */
export function presenceIn(
  locationSet: NsiData['nsi'][string]['items'][number]['locationSet'],
  country: string,
): Presence {
  const include = (locationSet?.include ?? [])
    .filter((x): x is string => typeof x === 'string')
    .map((x) => x.toLowerCase());
  const exclude = (locationSet?.exclude ?? [])
    .filter((x): x is string => typeof x === 'string')
    .map((x) => x.toLowerCase());
  if (exclude.includes(country)) return 'absent';
  if (include.includes(country) || include.includes('001')) return 'national';
  if (include.some((x) => x.startsWith(`${country}-`))) return 'regional';
  return 'absent';
}

/** Build the lookup for one country (ISO 3166-1 alpha-2, lower case; default 'us'). */
export function buildBrandIndex(data: NsiData, country = 'us'): BrandIndex {
  const cc = country.toLowerCase();
  const byName = new Map<string, BrandEntry>();
  const byWikidata = new Map<string, BrandEntry>();
  const carMakeWikidata = new Set<string>();

  for (const [path, group] of Object.entries(data.nsi)) {
    const [kind, key, value] = path.split('/');
    if (kind !== 'brands' || !key || !value || !BUSINESS_KEYS.has(key)) continue;
    const category = `${key}/${value}`;
    // NSI's own list of generic names for this category ("mini mart", "bank"): never brand names.
    const generic = (group.properties?.exclude?.generic ?? []).flatMap((src) => {
      try {
        return [new RegExp(src, 'iu')];
      } catch {
        return [];
      }
    });
    const isGeneric = (n: string) => generic.some((re) => re.test(n));
    for (const item of group.items) {
      const tags = item.tags ?? {};
      const name = tags.brand ?? item.displayName ?? tags.name;
      if (!name) continue;
      const wikidata = tags['brand:wikidata'] ?? null;
      const isCarDealerPath = category === 'shop/car' || category === 'shop/motorcycle';
      const worldwide = (item.locationSet?.include ?? []).includes('001');
      if (isCarDealerPath && (worldwide || CAR_MAKE_SET.has(normalizeName(name)))) {
        if (wikidata) carMakeWikidata.add(wikidata);
        continue;
      }
      const presence = presenceIn(item.locationSet, cc);
      if (presence === 'absent') continue;
      const national = presence === 'national';

      const existing = (wikidata ? byWikidata.get(wikidata) : undefined) ?? byName.get(normalizeName(name));
      const entry: BrandEntry = existing ?? { name, wikidata, national, categories: [] };
      entry.national ||= national;
      if (!entry.categories.includes(category)) entry.categories.push(category);
      if (wikidata) byWikidata.set(wikidata, entry);

      const names = [
        name,
        tags.brand,
        tags.name,
        tags['brand:en'],
        tags['name:en'],
        ...(item.matchNames ?? []),
      ];
      for (const n of names) {
        if (!n || isGeneric(n.trim().toLowerCase())) continue;
        const key2 = normalizeName(n);
        if (key2.length < 2 || isGeneric(key2)) continue;
        const other = byName.get(key2);
        // A national brand wins a name shared with a regional one.
        if (!other || (!other.national && entry.national)) byName.set(key2, entry);
      }
    }
  }
  // A car make's name is never a chain name, whatever other NSI categories list it under.
  for (const make of CAR_MAKES) byName.delete(make);
  for (const id of carMakeWikidata) byWikidata.delete(id);
  // ... nor is a name NSI gives the make's Wikidata id elsewhere (McLaren is also a "car_repair" brand).
  for (const [name, entry] of byName)
    if (entry.wikidata && carMakeWikidata.has(entry.wikidata)) byName.delete(name);
  const byCompact = new Map<string, BrandEntry>();
  for (const [name, entry] of byName) {
    const key = compactKey(name);
    if (key.length < MIN_COMPACT_LENGTH) continue;
    const other = byCompact.get(key);
    if (!other || (!other.national && entry.national)) byCompact.set(key, entry);
  }
  // A car make's name without spaces ("land rover", "mercedes benz") is no chain name either.
  for (const make of CAR_MAKES) byCompact.delete(compactKey(make));
  const id = `${cc}:${data._meta?.hash ?? `unstamped-${++unstamped}`}`;
  return { byName, byCompact, byWikidata, carMakeWikidata, country: cc, id };
}

/** A normalised name without its spaces: "orange theory fitness" -> "orangetheoryfitness". */
export const compactKey = (normalizedName: string): string =>
  normalizedName.includes(' ') ? normalizedName.replaceAll(' ', '') : normalizedName;

/**
 * Spacing is only ignored for names this long without spaces: shorter ones ("a and w", "t j") are initials or
 * generic words run together, where a space changes the meaning.
 */
export const MIN_COMPACT_LENGTH = 6;

/**
 * A store number after a name: "Walgreens Store 1234", "Chase Branch 12", "Walgreens 05432" (a '#' already
 * starts a branch suffix). The name before it is looked up when the whole name is not a brand. A bare number
 * needs three digits: one or two are part of many a name ("Avenue 31", "Studio 54", "Forever 21", "Motel 6").
 * A word before the number that is also a branch word must fit the brand: "Store 12" follows shops only, so
 * "Dollar Store 123" is not Dollar (car rental).
 */
const STORE_NUMBER = / (?:(store|shop|location|unit|branch|site|no|number) \d{1,6}|\d{3,6})$/;

/**
 * Words a branch adds after a brand name ("Chase Bank", "Walgreens Pharmacy", "Hilton Hotel & Suites"), each
 * with the NSI categories (prefixes of 'key/value') of brands it may follow; '*' means any brand. "Wendy's Salon"
 * is therefore not Wendy's: 'salon' may only follow hairdresser and beauty brands.
 */
export const BRANCH_WORDS: Readonly<Record<string, readonly string[] | '*'>> = {
  express: '*',
  downtown: '*',
  location: '*',
  bank: ['amenity/bank', 'amenity/atm'],
  atm: ['amenity/bank', 'amenity/atm'],
  branch: ['amenity/bank', 'office/'],
  financial: ['amenity/bank', 'office/'],
  center: ['amenity/bank', 'office/', 'shop/', 'healthcare/', 'amenity/doctors', 'amenity/clinic'],
  centre: ['amenity/bank', 'office/', 'shop/', 'healthcare/', 'amenity/doctors', 'amenity/clinic'],
  pharmacy: ['amenity/pharmacy', 'shop/chemist', 'healthcare/pharmacy'],
  drugstore: ['amenity/pharmacy', 'shop/chemist'],
  rx: ['amenity/pharmacy', 'shop/chemist'],
  hotel: ['tourism/'],
  hotels: ['tourism/'],
  inn: ['tourism/'],
  suites: ['tourism/'],
  resort: ['tourism/'],
  cafe: ['amenity/cafe'],
  coffee: ['amenity/cafe'],
  restaurant: ['amenity/restaurant', 'amenity/fast_food'],
  gas: ['amenity/fuel'],
  station: ['amenity/fuel'],
  fuel: ['amenity/fuel'],
  store: ['shop/'],
  shop: ['shop/'],
  outlet: ['shop/'],
  supermarket: ['shop/supermarket'],
  grocery: ['shop/supermarket', 'shop/convenience'],
  auto: ['shop/car_repair', 'shop/tyres', 'shop/car_parts'],
  service: ['shop/car_repair', 'shop/tyres'],
  tire: ['shop/tyres', 'shop/car_repair'],
  tires: ['shop/tyres', 'shop/car_repair'],
  insurance: ['office/insurance'],
  agency: ['office/insurance', 'office/estate_agent'],
  dental: ['amenity/dentist', 'healthcare/dentist'],
  salon: ['shop/hairdresser', 'shop/beauty'],
  fitness: ['leisure/fitness_centre'],
  gym: ['leisure/fitness_centre'],
};

const branchWordFits = (word: string, brand: BrandEntry): boolean => {
  const allowed = BRANCH_WORDS[word];
  if (!allowed) return false;
  return allowed === '*' || brand.categories.some((c) => allowed.some((prefix) => c.startsWith(prefix)));
};

const BRANCH_SEPARATOR = /\s[-–—|@]\s|\s?\(|#|:/;

export interface BrandMatch {
  brand: BrandEntry;
  /** How it matched: the OSM brand:wikidata tag, the brand tag, or the business name. */
  via: 'wikidata' | 'brand-tag' | 'name';
}

/**
 * Find the brand of a business: by its brand:wikidata tag, by its brand tag, or by its name (exactly, by the
 * part before a ' - ', '|', '@', ':', '#' or '(' branch suffix, or by a brand name followed only by branch words such as
 * "Bank" or "Pharmacy"). Names match whatever their spacing and punctuation ("Orange Theory Fitness" is
 * Orangetheory Fitness, "Wal-Mart" Walmart; names of at least MIN_COMPACT_LENGTH letters and digits) and
 * without a trailing store number ("Walgreens Store 1234", "CVS Pharmacy #0123"). Null when it is not a known
 * brand.
 */
export function findBrand(
  index: BrandIndex,
  input: { name: string; brand?: string | null; brandWikidata?: string | null; normalizedName?: string },
): BrandMatch | null {
  if (input.brandWikidata) {
    const b = index.byWikidata.get(input.brandWikidata);
    if (b) return { brand: b, via: 'wikidata' };
  }
  if (input.brand) {
    const b = index.byName.get(normalizeName(input.brand));
    if (b) return { brand: b, via: 'brand-tag' };
  }
  const full = input.normalizedName ?? normalizeName(input.name);
  const hit = matchNormalized(index, full);
  if (hit) return hit;
  if (!BRANCH_SEPARATOR.test(input.name)) return null;
  const head = input.name.split(BRANCH_SEPARATOR)[0];
  if (!head) return null;
  const normalizedHead = normalizeName(head);
  return normalizedHead && normalizedHead !== full ? matchNormalized(index, normalizedHead) : null;
}

/**
 * The brand a normalised name is: the name itself, else the name without a trailing store number ("walgreens
 * store 1234"). See {@link matchName}.
 */
function matchNormalized(index: BrandIndex, name: string): BrandMatch | null {
  if (!name) return null;
  const hit = matchName(index, name);
  if (hit) return hit;
  const last = name.charCodeAt(name.length - 1);
  if (last < 48 || last > 57) return null; // no trailing digit, no store number
  const number = STORE_NUMBER.exec(name);
  if (!number || number.index === 0) return null;
  const head = matchName(index, name.slice(0, number.index));
  const word = number[1];
  return head && (!word || !(word in BRANCH_WORDS) || branchWordFits(word, head.brand)) ? head : null;
}

/** A brand by its normalised name, or by that name without spaces when it has them (see byCompact). */
function lookup(index: BrandIndex, name: string): BrandEntry | undefined {
  const exact = index.byName.get(name);
  if (exact) return exact;
  const compact = compactKey(name);
  return compact.length >= MIN_COMPACT_LENGTH ? index.byCompact.get(compact) : undefined;
}

/** Exact match of a normalised name (spacing aside), else a brand name followed only by branch words that fit it. */
function matchName(index: BrandIndex, name: string): BrandMatch | null {
  const exact = lookup(index, name);
  if (exact) return { brand: exact, via: 'name' };
  // Cheap pre-check before splitting: the last word must be a branch word.
  if (!(name.slice(name.lastIndexOf(' ') + 1) in BRANCH_WORDS)) return null;
  const words = name.split(' ');
  for (let cut = words.length - 1; cut >= 1; cut--) {
    const tail = words.slice(cut);
    if (!tail.every((w) => w in BRANCH_WORDS)) break;
    const b = lookup(index, words.slice(0, cut).join(' '));
    if (b && tail.every((w) => branchWordFits(w, b))) return { brand: b, via: 'name' };
  }
  return null;
}

/** True when a brand:wikidata id names a car make (its dealers are local franchises). */
export const isCarMake = (index: BrandIndex | undefined, wikidata: string | null | undefined): boolean =>
  !!wikidata && !!index?.carMakeWikidata.has(wikidata);
