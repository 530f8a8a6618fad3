// A place's profile: what scoring (SPEC.md §9) and de-duplication (§5) read of a business that depends on the
// business alone — its vertical, brand, normalised name and address keys, keyword bonus, the evidence of its
// tags — and not on the scan (centre, batch, website check). The imported table stores each place's profile,
// made at import (server/places/local-store.ts), so a scan of 500 spends its time on what the scan changes
// (issue 21). A profile names the rules and the brand index it was made under (`profileVersion`): one made
// under others is never used, the scan derives the same values afresh, and the server remakes stale ones.
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
import { OSM_VERTICALS, institutionFromTags, osmVertical } from '../osm-tags';
import {
  HISTORICAL_NAME,
  INSTITUTION_NAME_RULES,
  NAME_VERTICAL_RULES,
  TYPE_VERTICALS,
  VERTICAL_PRIORITY,
  institutionByName,
  refineVerticalByName,
  schoolOperator,
  type Vertical,
} from '../verticals';
import { CAR_MAKES, findBrand, isCarMake, type BrandIndex, type BrandMatch } from './brand-index';
import { GROUP_PRACTICE, LISTING_EVIDENCE, OPEN_HOURS_SIZE, SIZE_EVIDENCE } from './calibration';
import { keywordScore, listingEvidence, sizeEvidence } from './components';
import {
  DEALER_GROUP_PATTERN,
  KEYWORD_BONUS,
  KEYWORD_PATTERNS,
  MODEL_VERSION,
  type KeywordGroup,
} from './constants';

/** Bump when a profile's code reads a place differently (the tables are fingerprinted on their own). */
const PROFILE_RULES = 1;

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
  /** The NSI brand it matched, if any. */
  brand: { name: string; national: boolean } | null;
  /** Carries a brand:wikidata tag (not a car make's). */
  tagged: boolean;
  dealerGroup: boolean;
  keywords: { score: number; matches: KeywordGroup[] };
}

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
  if (vertical === 'low_propensity') return vertical;
  const institution = (input.tags ? institutionFromTags(input.tags) : null) ?? institutionByName(input.name);
  if (institution) return institution;
  // A K-12 school (not a college, a university or a school of a trade) is public unless its name says otherwise.
  if (vertical === 'education' && isK12(input.types)) vertical = schoolOperator(input.name);
  return vertical;
}

const isK12 = (types: readonly string[] | null | undefined): boolean =>
  !!types && types.includes('school') && !types.includes('college') && !types.includes('university');

const CAR_MAKE_SET: ReadonlySet<string> = new Set(CAR_MAKES);

/** The brand evidence of a business: an NSI match and/or an OSM brand:wikidata tag (car makes excluded). */
function brandEvidence(
  input: PlaceFields,
  normalizedName: string,
  index: BrandIndex | undefined,
): { match: BrandMatch | null; tagged: boolean; brandWikidata: string | null } {
  const brand = input.brand ?? input.tags?.brand ?? null;
  const brandWikidata = input.brandWikidata ?? input.tags?.['brand:wikidata'] ?? null;
  const makeTag = isCarMake(index, brandWikidata) || (!!brand && CAR_MAKE_SET.has(normalizeName(brand)));
  const match = index
    ? findBrand(index, {
        name: input.name,
        normalizedName,
        brand: makeTag ? null : brand,
        brandWikidata: makeTag ? null : brandWikidata,
      })
    : null;
  // A brand:wikidata tag is strong evidence of a chain; a bare `brand` tag is not (mappers also put it on
  // one-off local shops), so on its own it only counts when NSI knows the brand (findBrand above).
  const tagged = !makeTag && !!brandWikidata;
  return { match, tagged, brandWikidata };
}

/** The traits of a business (what {@link placeProfile} keeps of scoring's reading), made now. */
export function placeTraits(input: PlaceFields, index: BrandIndex | undefined): PlaceTraits {
  const vertical = classify(input);
  const name = normalizeName(input.name);
  const { match, tagged } = brandEvidence(input, name, index);
  return {
    name,
    vertical,
    brand: match ? { name: match.brand.name, national: match.brand.national } : null,
    tagged,
    dealerGroup: vertical === 'auto_dealer' && DEALER_GROUP_PATTERN.test(name),
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
    size: sizeEvidence(input.tags, input.name),
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
          INSTITUTION_NAME_RULES,
          String(HISTORICAL_NAME),
          CAR_MAKES,
          DEALER_GROUP_PATTERN,
          KEYWORD_PATTERNS,
          KEYWORD_BONUS,
          LISTING_EVIDENCE,
          SIZE_EVIDENCE,
          GROUP_PRACTICE,
          OPEN_HOURS_SIZE,
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
    p.brand?.name ?? null,
    p.brand?.national ? 1 : 0,
    p.tagged ? 1 : 0,
    p.dealerGroup ? 1 : 0,
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

const STORED_FIELDS = 16;

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
  const [
    v,
    name,
    vertical,
    brand,
    national,
    tagged,
    dealerGroup,
    kwScore,
    kwMatches,
    addressKey,
    street,
    campus,
  ] = a as [
    string,
    string,
    Vertical,
    string | null,
    number,
    number,
    number,
    number,
    KeywordGroup[],
    string,
    string,
    string,
  ];
  return {
    v,
    name,
    vertical,
    brand: brand === null ? null : { name: brand, national: national === 1 },
    tagged: tagged === 1,
    dealerGroup: dealerGroup === 1,
    keywords: { score: kwScore, matches: kwMatches },
    addressKey,
    street,
    campus,
    listing: { value: a[12] as number, found: a[13] as string[] },
    size: { value: a[14] as number, found: a[15] as string[] },
  };
}
