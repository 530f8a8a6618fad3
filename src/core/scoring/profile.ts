// A place's profile: what scoring and de-duplication read of a business that depends on the business alone (and
// where it stands) — its vertical, the chain or operator it belongs to, what its website address says, its
// normalised name and address keys, keyword bonus, the evidence of its tags — and not on the scan (centre, batch,
// website check). The imported table stores each place's profile, made at import (server/places/local-store.ts), so
// a scan spends its time on what the scan changes. A profile names the rules and the brand index it was made under
// (`profileVersion`): one made under others is never used, the scan derives the same values afresh, and the server
// remakes stale ones.
//
// Change what one of these reads or how (the tables below and their code), and bump PROFILE_RULES.
import { sha1 } from '@noble/hashes/legacy.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { PLACE_TYPE_LABELS } from '../categories';
import {
  ADDRESS_NOISE_WORDS,
  INSTITUTION_TYPES,
  NAME_SUFFIXES,
  addressKeys,
  institutionKey,
  normalizeName,
  type DedupKeys,
} from '../dedup';
import {
  COMPANY_SELLER_RULES,
  OSM_VERTICALS,
  institutionFromTags,
  osmVertical,
  sellsToCompanies,
} from '../osm-tags';
import {
  HISTORICAL_NAME,
  INJURY_WORDS,
  OVERTURE_CATEGORY_VERTICALS,
  INSTITUTION_NAME_RULES,
  NAME_VERTICAL_RULES,
  TYPE_VERTICALS,
  VERTICAL_PRIORITY,
  institutionByName,
  refineVerticalByName,
  schoolOperator,
  type Vertical,
} from '../verticals';
import {
  BRANCH_WORDS,
  CAR_MAKES,
  CATEGORY_WORDS,
  findBrand,
  isCarMake,
  OPERATOR_CATEGORIES,
  type BrandIndex,
  type BrandMatch,
  type PlaceArea,
} from './brand-index';
import {
  DIRECTORY_EVIDENCE,
  FRANCHISE_DEALER_SIZE,
  GROUP_PRACTICE,
  LISTING_EVIDENCE,
  SIZE_EVIDENCE,
} from './calibration';
import { domainKind, domainLabel, isLocationPage, isPlatformSite, WEB_ADDRESS_RULES } from '../web-address';

/** The verticals a website's .gov or .org domain may overrule (not a hospital, a restricted or a public place). */
const INSTITUTION_DOMAIN_OVER: ReadonlySet<Vertical> = new Set(
  VERTICAL_PRIORITY.filter(
    (v) => !['hospital', 'restricted', 'government', 'nonprofit', 'low_propensity'].includes(v),
  ),
);
import { keywordScore, listingEvidence, sizeEvidence } from './components';
import {
  DEALER_GROUP_PATTERN,
  KEYWORD_BONUS,
  KEYWORD_PATTERNS,
  MODEL_VERSION,
  type KeywordGroup,
} from './constants';

/** Bump when a profile's code reads a place differently (the tables are fingerprinted on their own). */
const PROFILE_RULES = 2;

/** What a profile is made from: a business's own fields (an AnalysisInput or a Business has them all). */
export interface PlaceFields {
  name: string;
  /** Friendly category label ('Dental', 'Auto Repair', ...). */
  category?: string | null;
  address?: string | null;
  types?: readonly string[] | null;
  /** Raw OpenStreetMap tags, when known. */
  tags?: Readonly<Record<string, string>> | null;
  brand?: string | null;
  brandWikidata?: string | null;
  website?: string | null;
  /** Where the place stands, for the chain check (the brands present there); default the United States. */
  area?: PlaceArea;
}

/** Tag-read evidence: the value it adds and the labels of what was found. */
interface Evidence {
  value: number;
  found: string[];
}

/** The scoring model's reading of a business's own fields (the scan adds distance, presence, the batch). */
export interface PlaceTraits {
  /** normalizeName of the name. */
  name: string;
  vertical: Vertical;
  /** The NSI brand or operator it matched, if any, how, and what it is ('chain', 'hospital system'...). */
  brand: { name: string; national: boolean; via: BrandMatch['via']; noun: string } | null;
  /** Carries a brand:wikidata tag (not a car make's). */
  tagged: boolean;
  /** Its website is one location's page on a larger business's site: a chain's outlet. */
  chainSite: boolean;
  dealerGroup: boolean;
  /** The car make a franchised dealer sells ("Subaru"), from its brand tag or its name. */
  make: string | null;
  /** What a restricted category is ('cannabis', 'firearms', 'adult'), else null. */
  restricted: RestrictedKind | null;
  keywords: { score: number; matches: KeywordGroup[] };
}

export type RestrictedKind = 'cannabis' | 'firearms' | 'adult';

/** A place's profile: its traits, its de-duplication keys and its tags' evidence, under `v`. */
export interface PlaceProfile extends PlaceTraits, DedupKeys {
  /** The `profileVersion` it was made under. */
  v: string;
  listing: Evidence;
  size: Evidence;
}

/** Friendly labels (lower case) to verticals: the labels of the place types, plus a few common ones. */
export const LABEL_VERTICALS: ReadonlyMap<string, Vertical> = new Map<string, Vertical>([
  ...Object.entries(PLACE_TYPE_LABELS).flatMap(([type, label]): Array<[string, Vertical]> => {
    const v = TYPE_VERTICALS[type];
    return v ? [[label.toLowerCase(), v]] : [];
  }),
  ['hvac', 'hvac'],
  ['orthodontics', 'orthodontics'],
  ['orthodontist', 'orthodontics'],
  ['restaurant', 'restaurant'],
  ['bar', 'bar'],
  ['pub', 'bar'],
  ['night club', 'bar'],
  ['brewery', 'bar'],
  ['hotel', 'hotel'],
  ['motel', 'hotel'],
  ['lodging', 'hotel'],
  ['fast food', 'qsr'],
  ['cafe', 'qsr'],
  ['coffee shop', 'qsr'],
  ['real estate', 'real_estate'],
  ['real estate agency', 'real_estate'],
  ['legal', 'legal'],
  ['auto dealer', 'auto_dealer'],
  ['car dealer', 'auto_dealer'],
]);

const VERTICAL_RANK: ReadonlyMap<Vertical, number> = new Map(VERTICAL_PRIORITY.map((v, i) => [v, i]));

const higher = (a: Vertical, b: Vertical | undefined): Vertical =>
  b !== undefined && (VERTICAL_RANK.get(b) ?? Infinity) < (VERTICAL_RANK.get(a) ?? Infinity) ? b : a;

/**
 * The vertical of a business from its OSM tags, place types, category label and name. A public or non-profit
 * operator (by its tags or its name) is government or non-profit whatever its type; a place marked historical
 * no longer exists.
 */
export function classify(input: PlaceFields): Vertical {
  if (HISTORICAL_NAME.test(input.name)) return 'low_propensity';
  // The highest-priority vertical among the tags, types and label (no Set or closure: this runs per business).
  let best: Vertical = 'other';
  if (input.tags) best = higher(best, osmVertical(input.tags, input.name));
  for (const t of input.types ?? []) best = higher(best, TYPE_VERTICALS[t]);
  if (input.category) best = higher(best, LABEL_VERTICALS.get(input.category.trim().toLowerCase()));
  let vertical = refineVerticalByName(best, input.name);
  if (vertical === 'low_propensity' || vertical === 'restricted') return vertical;
  if (input.tags && sellsToCompanies(input.tags, vertical)) vertical = 'business_services';
  // A garage named after the make it sells ("Putnam Subaru", "Toyota of Oakland") is that make's dealer, however
  // its map record is typed; an independent garage says what it repairs ("Subaru Repair", "Toyota Specialists").
  if ((vertical === 'auto_repair' || vertical === 'other') && makeInName(input.name) && !GARAGE_WORDS.test(input.name)) {
    vertical = 'auto_dealer';
  }
  const institution = (input.tags ? institutionFromTags(input.tags) : null) ?? institutionByName(input.name);
  if (institution) return institution;
  // A K-12 school (not a college, a university or a school of a trade) is public unless its name says otherwise.
  if (vertical === 'education' && isK12(input.types)) vertical = schoolOperator(input.name);
  return vertical;
} // prettier-ignore

const isK12 = (types: readonly string[] | null | undefined): boolean =>
  !!types && types.includes('school') && !types.includes('college') && !types.includes('university');

const CAR_MAKE_SET: ReadonlySet<string> = new Set(CAR_MAKES);

/** A car make named in a business name, as a whole word ("putnam subaru" -> "subaru"). */
const MAKE_IN_NAME = new RegExp(`\\b(${[...CAR_MAKES].sort((a, b) => b.length - a.length).join('|')})\\b`);

/** Words of an independent garage's name: what it repairs or sells besides cars. */
const GARAGE_WORDS =
  /\b(repairs?|service|services|care|maintenance|clinic|works|specialists?|specialty|independent|parts|body|collision|tires?|tyres|glass|detail(ing)?|wash|smog|transmission|mechanic|garage|motorcycles?|scooters?|rental|rent)\b/i;

/** The make a name carries, normalised ("subaru"), or null. "Mini Mart" and "Smart Cleaners" carry none. */
function makeInName(name: string): string | null {
  const n = normalizeName(name);
  const m = MAKE_IN_NAME.exec(n);
  if (!m?.[1]) return null;
  if ((m[1] === 'mini' || m[1] === 'smart' || m[1] === 'seat' || m[1] === 'ram' || m[1] === 'genesis') && n !== m[1]) {
    // Makes that are also common words count only in a dealer's usual name: "Mini of San Francisco".
    return new RegExp(`^${m[1]} (of|dealer|dealership|motors|cars)\\b|\\b${m[1]} (dealer|dealership)\\b`).test(n)
      ? m[1]
      : null;
  }
  return m[1];
} // prettier-ignore

/** What a restricted category is, from its vertical's source: its tags, else its name. */
export function restrictedKind(input: PlaceFields): RestrictedKind | null {
  const t = input.tags ?? {};
  const text = `${input.name} ${input.category ?? ''} ${(input.types ?? []).join(' ')} ${t['overture:category'] ?? ''}`;
  if (t.shop === 'cannabis' || /\b(cannabis|marijuana|dispensary|dispensaries|thc)\b/i.test(text)) return 'cannabis';
  if (t.shop === 'weapons' || t.craft === 'gunsmith' || /\b(guns?|firearms?|gunsmith|ammo|ammunition|shooting)\b/i.test(text)) {
    return 'firearms';
  }
  if (t.amenity === 'stripclub' || t.amenity === 'brothel' || t.shop === 'erotic' || t.shop === 'sex' || /\b(adult|strip|erotic|sex)\b/i.test(text)) {
    return 'adult';
  }
  return null;
} // prettier-ignore

/**
 * The chain evidence of a business: an NSI brand or operator present where it stands (by its Wikidata, brand or
 * operator tags, its name or its website's domain), and an OSM brand:wikidata tag (car makes excluded).
 */
function brandEvidence(
  input: PlaceFields,
  normalizedName: string,
  index: BrandIndex | undefined,
): { match: BrandMatch | null; tagged: boolean; make: string | null } {
  const t = input.tags;
  const brand = input.brand ?? t?.brand ?? null;
  const brandWikidata = input.brandWikidata ?? t?.['brand:wikidata'] ?? null;
  const brandMake = isCarMake(index, brandWikidata) || (!!brand && CAR_MAKE_SET.has(normalizeName(brand)));
  const website = input.website ?? t?.website ?? t?.['contact:website'] ?? null;
  const match = index
    ? findBrand(index, {
        name: input.name,
        normalizedName,
        brand: brandMake ? null : brand,
        brandWikidata: brandMake ? null : brandWikidata,
        operator: t?.operator ?? null,
        operatorWikidata: t?.['operator:wikidata'] ?? null,
        domainLabel: website && !isPlatformSite(website) ? domainLabel(website) : null,
        ...(input.area ? { area: input.area } : {}),
      })
    : null;
  // A brand:wikidata tag is strong evidence of a chain; a bare `brand` tag is not (mappers also put it on
  // one-off local shops), so on its own it only counts when NSI knows the brand (findBrand above).
  const tagged = !brandMake && !!brandWikidata;
  const make = brandMake && brand ? normalizeName(brand) : makeInName(input.name);
  return { match, tagged, make };
}

/** What a matched brand or operator is, as a rep says it: a chain, a hospital system, a clinic chain, a public body. */
function chainNoun(match: BrandMatch): string {
  const { kind, categories } = match.brand;
  if (kind === 'public') return 'public body';
  if (kind === 'chain' && categories.includes('amenity/hospital')) return 'hospital system';
  if (kind === 'chain' && categories.some((c) => c === 'amenity/clinic' || c === 'amenity/doctors')) {
    return 'clinic chain';
  }
  return 'chain';
}

/** The traits of a business (what {@link placeProfile} keeps of scoring's reading), made now. */
export function placeTraits(input: PlaceFields, index: BrandIndex | undefined): PlaceTraits {
  let vertical = classify(input);
  const name = normalizeName(input.name);
  const { match, tagged, make } = brandEvidence(input, name, index);
  // A place a public body runs (a school district, a city) is a public institution, whatever else it is.
  if (match?.brand.kind === 'public' && vertical !== 'low_propensity') vertical = 'government';
  const website = input.website ?? input.tags?.website ?? input.tags?.['contact:website'] ?? null;
  // Its website's domain says who runs it: a .gov site a public body's, a .org site a non-profit's or an
  // association's (a private school's .org leaves it a school: many private schools are non-profits that advertise).
  const runBy = INSTITUTION_DOMAIN_OVER.has(vertical) ? domainKind(website) : null;
  if (runBy === 'public') vertical = 'government';
  else if (runBy === 'nonprofit' && vertical !== 'education') vertical = 'nonprofit';
  return {
    name,
    vertical,
    brand: match
      ? { name: match.brand.name, national: match.national, via: match.via, noun: chainNoun(match) }
      : null,
    tagged,
    chainSite: isLocationPage(website),
    dealerGroup: vertical === 'auto_dealer' && DEALER_GROUP_PATTERN.test(name),
    make: vertical === 'auto_dealer' ? make : null,
    restricted: vertical === 'restricted' ? (restrictedKind(input) ?? 'adult') : null,
    keywords: keywordScore(name),
  };
}

/** The whole profile of a place, under the brand index given. */
export function placeProfile(input: PlaceFields, index: BrandIndex | undefined): PlaceProfile {
  const traits = placeTraits(input, index);
  const { key, street } = addressKeys(input.address);
  return {
    v: profileVersion(index),
    ...traits,
    addressKey: key,
    street,
    campus: traits.name ? institutionKey(input.name, input.types, traits.name) : '',
    listing: listingEvidence(input.tags),
    size: sizeEvidence(input.tags, input.name, traits),
  };
}

/** Regular expressions as their source in the fingerprint (JSON.stringify writes `{}` for them). */
const withPatterns = (_key: string, value: unknown) => (value instanceof RegExp ? String(value) : value);

/** A fingerprint of the tables a profile reads: an edit of one makes every stored profile stale by itself. */
const TABLES = bytesToHex(
  sha1(
    utf8ToBytes(
      JSON.stringify(
        [
          PROFILE_RULES,
          MODEL_VERSION,
          [...LABEL_VERTICALS],
          TYPE_VERTICALS,
          OSM_VERTICALS,
          VERTICAL_PRIORITY,
          NAME_VERTICAL_RULES,
          OVERTURE_CATEGORY_VERTICALS,
          String(INJURY_WORDS),
          COMPANY_SELLER_RULES,
          [...INSTITUTION_DOMAIN_OVER],
          INSTITUTION_NAME_RULES,
          String(HISTORICAL_NAME),
          CAR_MAKES,
          String(GARAGE_WORDS),
          BRANCH_WORDS,
          CATEGORY_WORDS,
          OPERATOR_CATEGORIES,
          WEB_ADDRESS_RULES,
          DEALER_GROUP_PATTERN,
          KEYWORD_PATTERNS,
          KEYWORD_BONUS,
          LISTING_EVIDENCE,
          DIRECTORY_EVIDENCE,
          FRANCHISE_DEALER_SIZE,
          SIZE_EVIDENCE,
          GROUP_PRACTICE,
          NAME_SUFFIXES,
          ADDRESS_NOISE_WORDS,
          INSTITUTION_TYPES,
        ],
        withPatterns,
      ),
    ),
  ),
);

const versionOf = (indexId: string) => bytesToHex(sha1(utf8ToBytes(`${TABLES}|${indexId}`))).slice(0, 10);

const versions = new WeakMap<BrandIndex, string>();
const WITHOUT_INDEX = versionOf('no-brand-index');

/**
 * The version of the profiles made now under `index`: the rules, the tables and the brand index's data. Hashed
 * once per index (the scorer asks for each business it scores).
 */
export function profileVersion(index: BrandIndex | undefined): string {
  if (!index) return WITHOUT_INDEX;
  let v = versions.get(index);
  if (v === undefined) {
    v = versionOf(index.id);
    versions.set(index, v);
  }
  return v;
}

/**
 * A profile as stored: one JSON array (a place's row carries it; the field names would be most of its bytes).
 * The version leads, so a stale one is told from its first characters without parsing it.
 */
export function encodeProfile(p: PlaceProfile): string {
  return JSON.stringify([
    p.v,
    p.name,
    p.vertical,
    p.brand ? [p.brand.name, p.brand.national ? 1 : 0, p.brand.via, p.brand.noun] : null,
    p.tagged ? 1 : 0,
    p.chainSite ? 1 : 0,
    p.dealerGroup ? 1 : 0,
    p.make,
    p.restricted,
    p.keywords.score,
    p.keywords.matches,
    p.addressKey,
    p.street,
    p.campus,
    p.listing.value,
    p.listing.found,
    p.size.value,
    p.size.found,
  ]);
}

const STORED_FIELDS = 18;

/** The stored profile when it was made under `version`, else undefined (absent, stale or not a profile). */
export function decodeProfile(stored: string | null | undefined, version: string): PlaceProfile | undefined {
  if (!stored?.startsWith(`["${version}",`)) return undefined;
  let a: unknown;
  try {
    a = JSON.parse(stored);
  } catch {
    return undefined;
  }
  if (!Array.isArray(a) || a.length !== STORED_FIELDS) return undefined;
  const [v, name, vertical, brand, tagged, chainSite, dealerGroup, make, restricted, kwScore, kwMatches] =
    a as [
      string,
      string,
      Vertical,
      [string, number, BrandMatch['via'], string] | null,
      number,
      number,
      number,
      string | null,
      RestrictedKind | null,
      number,
      KeywordGroup[],
    ];
  return {
    v,
    name,
    vertical,
    brand:
      brand === null ? null : { name: brand[0], national: brand[1] === 1, via: brand[2], noun: brand[3] },
    tagged: tagged === 1,
    chainSite: chainSite === 1,
    dealerGroup: dealerGroup === 1,
    make,
    restricted,
    keywords: { score: kwScore, matches: kwMatches },
    addressKey: a[11] as string,
    street: a[12] as string,
    campus: a[13] as string,
    listing: { value: a[14] as number, found: a[15] as string[] },
    size: { value: a[16] as number, found: a[17] as string[] },
  };
}
