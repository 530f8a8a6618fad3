// Chain detection from the name-suggestion-index (NSI): its brands and its operators (the companies and public bodies
// that run clinics, hospitals, schools...), each with the countries and regions NSI says it is present in. A
// business is judged against the brands present where it stands (its own country and the countries next to it):
// "Habitat" is a French chain in Monaco and nobody in particular in San Francisco. The loader that reads NSI's file
// lives in ./nsi.ts, so everything here stays testable with small hand-made data.
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

/**
 * Where a place stands, as NSI's location sets name places: the lower-case ISO 3166-1 codes of its country and of
 * the countries around it, and the UN M49 codes of the regions they belong to ('us', '021', '001'...).
 */
export interface PlaceArea {
  codes: ReadonlySet<string>;
  /** The country the place itself lies in: a brand that excludes it is absent there. */
  country: string | null;
  lat?: number;
  lng?: number;
}

/** The United States, for a business whose position is not known (NSI's own default market). */
export const DEFAULT_AREA: PlaceArea = {
  codes: new Set(['us', '840', '021', '003', '019', '001']),
  country: 'us',
};

export type Presence = 'national' | 'regional' | 'absent';

/** What an operator's places are: outlets of a chain (clinics, hospitals) or of a public body (schools, police). */
export type OperatorKind = 'chain' | 'public';

export interface BrandEntry {
  /** Display name of the brand or operator ("McDonald's", "Sutter Health"). */
  name: string;
  /** Its Wikidata id, when NSI has one. */
  wikidata: string | null;
  kind: 'brand' | OperatorKind;
  /** NSI category paths it appears under ('amenity/fast_food'). */
  categories: string[];
  /** Codes of the whole countries and regions it is present in ('us', '150', '001'). */
  include: Set<string>;
  /** Countries it is present in only in part (NSI's 'us-ca.geojson' regions). */
  partly: Set<string>;
  /** Circles it is present in: [longitude, latitude, radius in km]. */
  circles: Array<[number, number, number]>;
  /** Countries and regions it is absent from. */
  exclude: Set<string>;
}

export interface BrandIndex {
  /** Normalised name (see normalizeName) -> brands and operators of that name. */
  byName: ReadonlyMap<string, readonly BrandEntry[]>;
  /**
   * The same names without their spaces ({@link compactKey}): "Orange Theory Fitness" and "Wal-Mart" are written
   * with spaces or punctuation NSI's names do not have ("orangetheory fitness", "walmart").
   */
  byCompact: ReadonlyMap<string, readonly BrandEntry[]>;
  /** Wikidata id -> brand or operator. */
  byWikidata: ReadonlyMap<string, BrandEntry>;
  /** Wikidata ids of car makes: a dealer carrying a make's brand is a local franchise, not a chain. */
  carMakeWikidata: ReadonlySet<string>;
  /**
   * Which data the index was built from: the NSI file's hash (an index of data without one gets an id of its own).
   * Stored place profiles name it (./profile.ts), so a new NSI release makes them stale.
   */
  id: string;
}

let unstamped = 0;

/** A name written in Latin letters (with accents), digits and punctuation only. */
const LATIN = /^[\p{Script=Latin}\p{N}\p{P}\p{Zs}\p{S}]+$/u;

/** NSI brand key paths read: businesses only (not transit, flags or advertising totems). */
const BUSINESS_KEYS = new Set(['amenity', 'shop', 'office', 'craft', 'healthcare', 'leisure', 'tourism']);

/**
 * NSI operator categories read, and what their places are. Clinics, hospitals and practices run by an operator
 * are outlets of a hospital system or a clinic chain; schools, colleges and public offices run by one are a public
 * body's (a school district's, a city's). Power lines, post boxes and the like are no business.
 */
export const OPERATOR_CATEGORIES: Readonly<Record<string, OperatorKind>> = {
  'amenity/hospital': 'chain',
  'amenity/clinic': 'chain',
  'amenity/doctors': 'chain',
  'amenity/veterinary': 'chain',
  'amenity/childcare': 'chain',
  'amenity/kindergarten': 'chain',
  'amenity/pub': 'chain',
  'shop/mobile_phone': 'chain',
  'shop/convenience': 'chain',
  'amenity/school': 'public',
  'amenity/college': 'public',
  'amenity/university': 'public',
  'amenity/library': 'public',
  'amenity/townhall': 'public',
  'amenity/courthouse': 'public',
  'amenity/police': 'public',
  'amenity/fire_station': 'public',
  'amenity/post_office': 'public',
  'amenity/social_facility': 'public',
  'office/government': 'public',
};

/**
 * Car makes: the worldwide brands under NSI's shop=car plus these (NSI lists some makes for a few countries only).
 * Dealer chains under shop=car (CarMax, AutoNation...) are ordinary chains.
 */
export const CAR_MAKES: readonly string[] = [
  'abarth', 'acura', 'alfa romeo', 'alpine', 'aston martin', 'audi', 'bentley', 'bmw', 'bugatti', 'buick', 'byd',
  'cadillac', 'chevrolet', 'chevy', 'chrysler', 'citroen', 'cupra', 'dacia', 'dodge', 'ds automobiles', 'ferrari',
  'fiat', 'fisker', 'ford', 'genesis', 'gmc', 'honda', 'hyundai', 'infiniti', 'isuzu', 'jaguar', 'jeep', 'kia',
  'lamborghini', 'lancia', 'land rover', 'lexus', 'lincoln', 'lotus', 'lucid', 'maserati', 'mazda', 'mc laren',
  'mclaren', 'mercedes', 'mercedes benz', 'mg', 'mini', 'mitsubishi', 'nissan', 'opel', 'peugeot', 'polestar',
  'porsche', 'ram', 'renault', 'rivian', 'rolls royce', 'seat', 'skoda', 'smart', 'subaru', 'suzuki', 'tesla',
  'toyota', 'vauxhall', 'volkswagen', 'vw', 'volvo',
]; // prettier-ignore
const CAR_MAKE_SET: ReadonlySet<string> = new Set(CAR_MAKES);

/** A location-set entry as this module reads it. */
type Where = { code: string } | { partOf: string } | { circle: [number, number, number] } | null;

/** One entry of an NSI location set: a code, a sub-country region file, or a circle [lng, lat, km?]. */
function where(entry: unknown): Where {
  if (typeof entry === 'string') {
    const e = entry.trim().toLowerCase();
    const region = /^([a-z]{2})-[a-z0-9]+\.geojson$/.exec(e);
    if (region?.[1]) return { partOf: region[1] };
    return e && !e.endsWith('.geojson') ? { code: e } : null;
  }
  if (Array.isArray(entry) && entry.length >= 2 && entry.every((x) => typeof x === 'number')) {
    const [lng, lat, km] = entry;
    return { circle: [lng ?? 0, lat ?? 0, km ?? 25] };
  }
  return null;
}

const EARTH_KM = 6371;
function kmBetween(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const toRad = Math.PI / 180;
  const dLat = (lat2 - lat1) * toRad;
  const dLng = (lng2 - lng1) * toRad;
  const a =
    Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * toRad) * Math.cos(lat2 * toRad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/**
 * Where a brand stands relative to a place: present across the place's country or a region around it (national),
 * in part of its country or in a circle around it (regional), or not there at all.
 */
export function presenceOf(entry: BrandEntry, area: PlaceArea = DEFAULT_AREA): Presence {
  if (area.country && entry.exclude.has(area.country)) return 'absent';
  for (const code of entry.include) if (area.codes.has(code)) return 'national';
  for (const code of entry.partly) if (area.codes.has(code)) return 'regional';
  if (area.lat !== undefined && area.lng !== undefined) {
    for (const [lng, lat, km] of entry.circles) {
      if (kmBetween(area.lat, area.lng, lat, lng) <= km) return 'regional';
    }
  }
  return 'absent';
}

/** Where a location set places a brand relative to one place (for tests and tools). */
export function presenceIn(
  locationSet: { include?: unknown[]; exclude?: unknown[] } | undefined,
  area: PlaceArea = DEFAULT_AREA,
): Presence {
  const entry = emptyEntry('', null, 'brand');
  addLocationSet(entry, locationSet);
  return presenceOf(entry, area);
}

function emptyEntry(name: string, wikidata: string | null, kind: BrandEntry['kind']): BrandEntry {
  return {
    name,
    wikidata,
    kind,
    categories: [],
    include: new Set(),
    partly: new Set(),
    circles: [],
    exclude: new Set(),
  };
}

function addLocationSet(
  entry: BrandEntry,
  set: { include?: unknown[]; exclude?: unknown[] } | undefined,
): void {
  for (const raw of set?.include ?? []) {
    const w = where(raw);
    if (!w) continue;
    if ('code' in w) entry.include.add(w.code);
    else if ('partOf' in w) entry.partly.add(w.partOf);
    else entry.circles.push(w.circle);
  }
  for (const raw of set?.exclude ?? []) {
    const w = where(raw);
    if (w && 'code' in w) entry.exclude.add(w.code);
  }
}

/** Build the lookup of every business brand and operator NSI lists, worldwide. */
export function buildBrandIndex(data: NsiData): BrandIndex {
  const byName = new Map<string, BrandEntry[]>();
  const byWikidata = new Map<string, BrandEntry>();
  const carMakeWikidata = new Set<string>();
  const carMakeNames = new Set<string>(CAR_MAKES);

  const addName = (n: string | undefined, entry: BrandEntry, isGeneric: (n: string) => boolean) => {
    if (!n || isGeneric(n.trim().toLowerCase())) return;
    const key = normalizeName(n);
    if (key.length < 2 || isGeneric(key)) return;
    const list = byName.get(key);
    if (!list) byName.set(key, [entry]);
    else if (!list.includes(entry)) list.push(entry);
  };

  for (const [path, group] of Object.entries(data.nsi)) {
    const [kind, key, value] = path.split('/');
    if (!key || !value) continue;
    const category = `${key}/${value}`;
    const operator = kind === 'operators' ? OPERATOR_CATEGORIES[category] : undefined;
    if (kind === 'brands' ? !BUSINESS_KEYS.has(key) : !operator) continue;
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
      const name = operator
        ? (tags.operator ?? item.displayName)
        : (tags.brand ?? item.displayName ?? tags.name);
      if (!name) continue;
      const wikidata = (operator ? tags['operator:wikidata'] : tags['brand:wikidata']) ?? null;
      const worldwide = (item.locationSet?.include ?? []).includes('001');
      if ((category === 'shop/car' || category === 'shop/motorcycle') && !operator) {
        if (worldwide || CAR_MAKE_SET.has(normalizeName(name))) {
          if (wikidata) carMakeWikidata.add(wikidata);
          carMakeNames.add(normalizeName(name));
          continue;
        }
      }
      const entry =
        (wikidata ? byWikidata.get(wikidata) : undefined) ?? emptyEntry(name, wikidata, operator ?? 'brand');
      // One brand listed in several scripts (Starbucks, Старбакс) is named in Latin letters where it has them.
      if (LATIN.test(name) && !LATIN.test(entry.name)) entry.name = name;
      if (!entry.categories.includes(category)) entry.categories.push(category);
      addLocationSet(entry, item.locationSet);
      if (wikidata) byWikidata.set(wikidata, entry);
      const names = operator
        ? [name, item.displayName, tags['operator:en'], ...(item.matchNames ?? [])]
        : [
            name,
            tags.brand,
            tags.name,
            tags['brand:en'],
            tags['name:en'],
            tags.short_name,
            ...(item.matchNames ?? []),
          ];
      for (const n of names) addName(n, entry, isGeneric);
    }
  }
  // A car make's name is never a chain name, whatever other NSI categories list it under (McLaren is also a
  // "car_repair" brand), nor is a name NSI gives the make's Wikidata id elsewhere.
  for (const make of carMakeNames) byName.delete(make);
  for (const id of carMakeWikidata) byWikidata.delete(id);
  for (const [name, entries] of byName) {
    const kept = entries.filter((e) => !(e.wikidata && carMakeWikidata.has(e.wikidata)));
    if (kept.length === 0) byName.delete(name);
    else if (kept.length !== entries.length) byName.set(name, kept);
  }
  const byCompact = new Map<string, BrandEntry[]>();
  for (const [name, entries] of byName) {
    const key = compactKey(name);
    if (key.length < MIN_COMPACT_LENGTH) continue;
    const list = byCompact.get(key) ?? [];
    for (const e of entries) if (!list.includes(e)) list.push(e);
    byCompact.set(key, list);
  }
  // A car make's name without spaces ("land rover", "mercedes benz") is no chain name either.
  for (const make of carMakeNames) byCompact.delete(compactKey(make));
  const id = `nsi:${data._meta?.hash ?? `unstamped-${++unstamped}`}`;
  return { byName, byCompact, byWikidata, carMakeWikidata, id };
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
 * A brand name followed by words that only say what the brand sells ("Arhaus Furniture", "Concentra Urgent
 * Care") is that brand. The brand's own name must be distinctive: at least this many letters, or two words.
 */
export const MIN_PREFIX_BRAND_LENGTH = 5;

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

/**
 * The words that say what a brand of an NSI category sells, beyond the category's own words: "Arhaus Furniture"
 * is Arhaus (shop=furniture), "Concentra Urgent Care" is Concentra (a clinic operator). Keyed by the category's value.
 */
export const CATEGORY_WORDS: Readonly<Record<string, readonly string[]>> = {
  furniture: ['furnishings', 'home', 'mattress', 'mattresses', 'design', 'interiors'],
  bed: ['mattress', 'mattresses', 'sleep', 'beds'],
  dentist: ['dental', 'dentistry', 'dentists', 'orthodontics', 'smiles'],
  doctors: [
    'medical',
    'clinic',
    'health',
    'healthcare',
    'urgent',
    'care',
    'center',
    'centre',
    'primary',
    'family',
  ],
  clinic: [
    'medical',
    'clinic',
    'health',
    'healthcare',
    'urgent',
    'care',
    'center',
    'centre',
    'primary',
    'family',
  ],
  hospital: ['medical', 'center', 'centre', 'health', 'healthcare', 'clinic', 'care'],
  optician: ['optical', 'eyewear', 'optometry', 'vision', 'eyecare', 'eye', 'care'],
  fitness_centre: ['gym', 'club', 'studio'],
  hairdresser: ['salon', 'hair', 'studio', 'barber', 'barbershop'],
  beauty: ['salon', 'spa', 'studio', 'nails'],
  massage: ['spa', 'studio'],
  car_repair: ['auto', 'automotive', 'service', 'care', 'center', 'centre', 'tire', 'tires'],
  tyres: ['tire', 'tires', 'auto', 'service'],
  bank: ['banking'],
  insurance: ['agency', 'agent'],
  estate_agent: ['realty', 'real', 'estate', 'realtors', 'properties', 'homes'],
  pharmacy: ['drugstore', 'drug', 'store'],
  chemist: ['pharmacy', 'drugstore'],
  veterinary: ['animal', 'hospital', 'clinic', 'pet'],
  kindergarten: [
    'learning',
    'center',
    'centre',
    'early',
    'education',
    'school',
    'preschool',
    'child',
    'care',
  ],
  childcare: ['learning', 'center', 'centre', 'early', 'education', 'school', 'preschool', 'child', 'care'],
  tax_advisor: ['tax', 'taxes', 'service', 'services'],
  accountant: ['tax', 'taxes', 'accounting', 'services'],
  cinema: ['theatre', 'theater', 'theatres', 'theaters', 'cinemas'],
  car_rental: ['car', 'rental', 'rent', 'a'],
};

/** True when `word` only says what `brand` sells: its categories' own words and those of CATEGORY_WORDS. */
function describes(word: string, brand: BrandEntry): boolean {
  for (const category of brand.categories) {
    const value = category.slice(category.indexOf('/') + 1);
    if (value.split('_').includes(word) || CATEGORY_WORDS[value]?.includes(word)) return true;
  }
  return false;
}

const branchWordFits = (word: string, brand: BrandEntry): boolean => {
  const allowed = BRANCH_WORDS[word];
  if (!allowed) return false;
  return allowed === '*' || brand.categories.some((c) => allowed.some((prefix) => c.startsWith(prefix)));
};

const BRANCH_SEPARATOR = /\s[-–—|@]\s|\s?\(|#|:/;

export interface BrandMatch {
  brand: BrandEntry;
  /** How it matched: a Wikidata tag, a brand or operator tag, the business name, or its website's domain. */
  via: 'wikidata' | 'brand-tag' | 'operator' | 'name' | 'website';
  /** Present across the place's country or region (else in part of it only, or known elsewhere by a tag). */
  national: boolean;
}

export interface BrandQuery {
  name: string;
  normalizedName?: string;
  brand?: string | null;
  brandWikidata?: string | null;
  /** OSM's `operator` and `operator:wikidata` tags: who runs the place. */
  operator?: string | null;
  operatorWikidata?: string | null;
  /** The domain label of its website ("sutterhealth" of www.sutterhealth.org), when it has one. */
  domainLabel?: string | null;
  /** Where the place stands (default: the United States). */
  area?: PlaceArea;
}

/** The best of several entries of one name for a place: present there, national before regional. */
function presentOne(
  entries: readonly BrandEntry[] | undefined,
  area: PlaceArea,
  via: BrandMatch['via'],
): BrandMatch | null {
  if (!entries) return null;
  let regional: BrandEntry | null = null;
  for (const e of entries) {
    const p = presenceOf(e, area);
    if (p === 'national') return { brand: e, via, national: true };
    if (p === 'regional' && !regional) regional = e;
  }
  return regional ? { brand: regional, via, national: false } : null;
}

/**
 * Find the brand or operator of a business, in this order: its Wikidata tags (a chain wherever NSI says it is), its
 * brand or operator tag, its name, its website's domain. A name matches exactly, by the part before a ' - ', '|',
 * '@', ':', '#' or '(' branch suffix, by a brand name followed only by branch words ("Chase Bank") or by words that
 * say what the brand sells ("Arhaus Furniture"), whatever its spacing and punctuation ("Orange Theory Fitness",
 * "Wal-Mart"; names of at least MIN_COMPACT_LENGTH letters and digits) and without a trailing store number
 * ("Walgreens Store 1234"). Names, tags and domains only match brands present where the place stands. Null when
 * it is not a known chain or operator.
 */
export function findBrand(index: BrandIndex, input: BrandQuery): BrandMatch | null {
  const area = input.area ?? DEFAULT_AREA;
  for (const [id, via] of [
    [input.brandWikidata, 'wikidata'],
    [input.operatorWikidata, 'operator'],
  ] as const) {
    const b = id ? index.byWikidata.get(id) : undefined;
    if (b) return { brand: b, via, national: presenceOf(b, area) === 'national' };
  }
  if (input.brand) {
    const entries = index.byName.get(normalizeName(input.brand));
    const hit = presentOne(entries, area, 'brand-tag');
    if (hit) return hit;
    // A brand tag NSI knows from elsewhere still says the place belongs to that brand.
    if (entries?.[0]) return { brand: entries[0], via: 'brand-tag', national: false };
  }
  if (input.operator) {
    const hit = presentOne(index.byName.get(normalizeName(input.operator)), area, 'operator');
    if (hit) return hit;
  }
  const full = input.normalizedName ?? normalizeName(input.name);
  const named = matchNormalized(index, full, area);
  if (named) return named;
  if (BRANCH_SEPARATOR.test(input.name)) {
    const head = input.name.split(BRANCH_SEPARATOR)[0];
    const normalizedHead = head ? normalizeName(head) : '';
    const hit =
      normalizedHead && normalizedHead !== full ? matchNormalized(index, normalizedHead, area) : null;
    if (hit) return hit;
  }
  const label = input.domainLabel;
  if (label && label.length >= MIN_DOMAIN_LABEL) {
    const hit = presentOne(index.byCompact.get(label) ?? index.byName.get(label), area, 'website');
    if (hit) return hit;
  }
  return null;
}

/** A website's domain label this short ("ace", "bp") is too often a local business's own: never a brand's. */
export const MIN_DOMAIN_LABEL = 4;

/**
 * The brand a normalised name is: the name itself, else the name without a trailing store number ("walgreens
 * store 1234"). See {@link matchName}.
 */
function matchNormalized(index: BrandIndex, name: string, area: PlaceArea): BrandMatch | null {
  if (!name) return null;
  const hit = matchName(index, name, area);
  if (hit) return hit;
  const last = name.charCodeAt(name.length - 1);
  if (last < 48 || last > 57) return null; // no trailing digit, no store number
  const number = STORE_NUMBER.exec(name);
  if (!number || number.index === 0) return null;
  const head = matchName(index, name.slice(0, number.index), area);
  const word = number[1];
  return head && (!word || !(word in BRANCH_WORDS) || branchWordFits(word, head.brand)) ? head : null;
}

/** Brands by a normalised name, or by that name without spaces when it has them (see byCompact). */
function lookup(index: BrandIndex, name: string): readonly BrandEntry[] | undefined {
  const exact = index.byName.get(name);
  if (exact) return exact;
  const compact = compactKey(name);
  return compact.length >= MIN_COMPACT_LENGTH ? index.byCompact.get(compact) : undefined;
}

/**
 * Exact match of a normalised name (spacing aside), else a brand name followed only by branch words that fit it or
 * words that say what it sells (at most three).
 */
function matchName(index: BrandIndex, name: string, area: PlaceArea): BrandMatch | null {
  const exact = presentOne(lookup(index, name), area, 'name');
  if (exact) return exact;
  if (!name.includes(' ')) return null;
  const words = name.split(' ');
  for (let cut = words.length - 1; cut >= 1 && words.length - cut <= 3; cut--) {
    const head = words.slice(0, cut).join(' ');
    const entries = lookup(index, head);
    if (!entries) continue;
    // Words saying what a brand sells only follow a distinctive brand name ("Arhaus Furniture", not "Ace Home").
    const distinctive = cut >= 2 || head.length >= MIN_PREFIX_BRAND_LENGTH;
    const tail = words.slice(cut);
    const fitting = entries.filter((b) =>
      tail.every((w) => branchWordFits(w, b) || (distinctive && describes(w, b))),
    );
    const hit = presentOne(fitting, area, 'name');
    if (hit) return hit;
  }
  return null;
}

/** True when a Wikidata id names a car make (its dealers are local franchises). */
export const isCarMake = (index: BrandIndex | undefined, wikidata: string | null | undefined): boolean =>
  !!wikidata && !!index?.carMakeWikidata.has(wikidata);
