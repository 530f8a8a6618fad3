// Calibration: how the raw score becomes the 10-90 display score (exponent 1.3), read as a quantile against a
// reference population of the same data source, and what each source carries. Pure data and functions;
// docs/SCORING.md, "One scale for every market: the reference market", explains the reading.
import type { BusinessSource } from '../types';
import { WEIGHTS } from './constants';

/**
 * The fields a data source carries at all. A field the source never carries is unknown for every business from
 * it: it lowers confidence and is scored at a neutral value, never as zero (an OpenStreetMap extract has no
 * ratings or review counts). A field the source carries but a business lacks (no website in OSM) counts against it.
 */
export interface SourceFields {
  rating: boolean;
  reviews: boolean;
  /** The source knows how many places of the same business exist in the market (an imported extract does). */
  locations: boolean;
}

export const SOURCE_FIELDS: Readonly<Record<BusinessSource, SourceFields>> = {
  local: { rating: false, reviews: false, locations: true },
  osm: { rating: false, reviews: false, locations: false },
  google: { rating: true, reviews: true, locations: false },
  demo: { rating: true, reviews: true, locations: false },
};

/** A caller that names no source: everything a source could carry is taken as carried. */
export const DEFAULT_SOURCE_FIELDS: SourceFields = { rating: true, reviews: true, locations: false };

export const sourceFields = (source: string | null | undefined): SourceFields =>
  (source && SOURCE_FIELDS[source as BusinessSource]) || DEFAULT_SOURCE_FIELDS;

/** The value an unknown rating or review part takes: the middle of its 0..1 range, neither credit nor penalty. */
export const UNKNOWN_PART = 0.5;

/**
 * Where a source has no review counts, the listing's own evidence of an actively kept presence stands in for the
 * review part: it starts at the neutral {@link UNKNOWN_PART} and each piece of evidence adds its share, up to
 * 1. OSM keys; each is read once.
 */
export const LISTING_EVIDENCE = [
  {
    label: 'social profiles',
    keys: ['contact:facebook', 'contact:instagram', 'contact:twitter', 'contact:youtube', 'contact:tiktok', 'contact:linkedin', 'contact:yelp', 'facebook', 'instagram', 'twitter'],
    part: 0.15,
  },
  { label: 'a Wikipedia or Wikidata entry', keys: ['wikidata', 'wikipedia'], part: 0.12 },
  { label: 'e-mail at its own domain', keys: ['email', 'contact:email'], part: 0.1, weaker: { label: 'a free-mail address', when: 'free-mail' } },
  { label: 'opening hours', keys: ['opening_hours'], part: 0.08 },
  { label: 'a street address', keys: ['addr:housenumber'], part: 0.06, weaker: { label: 'a street without a number', when: 'addr:street' } },
  { label: 'a description', keys: ['description'], part: 0.05 },
  { label: 'a recent check of the listing', keys: ['check_date', 'survey:date'], part: 0.04 },
  { label: 'a founding year', keys: ['start_date'], part: 0.03 },
  { label: 'payment options', keys: ['payment:visa', 'payment:mastercard', 'payment:credit_cards', 'payment:cash', 'payment:debit_cards', 'payment:contactless', 'payment:american_express'], part: 0.025 },
  { label: 'accessibility details', keys: ['wheelchair'], part: 0.015 },
  { label: 'names in other languages', keys: ['name:en', 'name:es', 'name:fr', 'name:zh', 'name:de', 'name:it', 'alt_name'], part: 0.02 },
] as const; // prettier-ignore

/**
 * A place several independent directories list (Overture's sources: Meta, Foursquare, Microsoft...) keeps a presence
 * others can find: each directory beyond the first adds `part`, up to `cap`.
 */
export const DIRECTORY_EVIDENCE = { key: 'overture:sources', part: 0.04, cap: 0.08 } as const;

/**
 * A weaker form of a piece of listing evidence counts this share of its part: a street named without a house
 * number counts half. An e-mail at a free-mail provider counts nothing: anyone can open one, so it says nothing of
 * a kept presence (the address is still shown with the contact details).
 */
export const WEAKER_EVIDENCE_SHARE = { 'addr:street': 0.5, 'free-mail': 0 } as const;

/** Free-mail providers: an address there says less of a kept presence than one at the business's own domain. */
export const FREE_MAIL_DOMAINS: ReadonlySet<string> = new Set([
  'gmail.com', 'googlemail.com', 'yahoo.com', 'ymail.com', 'hotmail.com', 'outlook.com', 'live.com', 'msn.com',
  'aol.com', 'icloud.com', 'me.com', 'mac.com', 'proton.me', 'protonmail.com', 'gmx.com', 'gmx.net', 'mail.com',
  'comcast.net', 'att.net', 'sbcglobal.net', 'verizon.net', 'yandex.com', 'zoho.com', 'orange.fr', 'free.fr',
  'wanadoo.fr', 'laposte.net', 'libero.it', 'web.de', 'qq.com', '163.com',
]); // prettier-ignore

/**
 * Where a source has no review counts, what a single place's own tags say of its size stands in for scale: each
 * adds its share to the single-location 0.15 (a clinic's emergency department and beds, several storeys, a
 * cinema's screens, a business mapped as a whole building of its own rather than a unit in one). Beds count by
 * their number, the share for every tenfold (10 beds 0.1, 100 beds 0.2), and only for a clinic or a vet: a hotel's
 * beds say nothing of a medical practice's size. Opening hours are not size: an office open every day may be one
 * person with a phone.
 */
export const SIZE_EVIDENCE = [
  { label: 'an emergency department', keys: ['emergency'], values: ['yes'], part: 0.15, verticals: ['medical', 'veterinary'] },
  { label: 'beds', keys: ['beds'], values: null, part: 0.1, perTenfold: true, verticals: ['medical', 'veterinary'] },
  { label: 'several storeys', keys: ['building:levels'], values: null, minimum: 3, part: 0.05 },
  { label: 'screens', keys: ['screen'], values: null, part: 0.05 },
  { label: 'its own building', keys: ['building'], values: null, part: 0.1 },
] as const; // prettier-ignore

/**
 * A make's franchised dealership (a dealer carrying a make's brand or named after it) is a big local business: a lot,
 * a showroom, a service department and dozens of staff, and the make's co-op money behind its local advertising.
 */
export const FRANCHISE_DEALER_SIZE = { label: "a make's franchised dealership", part: 0.35 } as const;

/** A name that says several practitioners work there ("Dental Group", "& Associates"): a size share of 0.1. */
export const GROUP_PRACTICE = { pattern: /\b(group|associates|partners|centers|network)\b/i, label: 'a group practice', part: 0.1 } as const; // prettier-ignore
export const LISTING_EVIDENCE_CAP = 1;

/**
 * Scale from the number of places the same business has in the market (a local multi-location business; national
 * chains never get here): one place 0.15 (a single location of unknown size), rising with the log of the count to
 * 1 at five places.
 */
export const LOCATION_SCALE = { single: 0.15, full: 5 } as const;

/** The share of the raw score a business carries wherever it is scanned from: everything but distance and spread. */
export const INTRINSIC_WEIGHT = 1 - WEIGHTS.distance - WEIGHTS.qualitySpread;

/** Points kept in a reference: quantiles at every 0.5 %. */
export const REFERENCE_POINTS = 200;

/** Below this many businesses a population is too small to calibrate against; the absolute scale is used. */
export const MIN_REFERENCE_POPULATION = 10;

/**
 * A reference population, reduced to its quantiles: `quantiles[i]` is the intrinsic score (0..INTRINSIC_WEIGHT)
 * below which i / REFERENCE_POINTS of the population lies. Built by {@link buildReference}.
 */
export interface ScoreReference {
  /** The data source the population comes from ('local', 'demo', ...). */
  source: string;
  /** How many model-scored businesses it was built from. */
  population: number;
  quantiles: number[];
  /** ISO time it was built. */
  builtAt: string;
}

/** The quantiles of a population's intrinsic scores (null when it is too small to calibrate against). */
export function buildReference(
  source: string,
  intrinsic: readonly number[],
  builtAt: string,
): ScoreReference | null {
  const values = intrinsic.filter((x) => Number.isFinite(x));
  if (values.length < MIN_REFERENCE_POPULATION) return null;
  const sorted = Float64Array.from(values).sort();
  const quantiles: number[] = [];
  for (let i = 0; i <= REFERENCE_POINTS; i++) {
    const pos = ((sorted.length - 1) * i) / REFERENCE_POINTS;
    const lo = Math.floor(pos);
    const a = sorted[lo] ?? 0;
    const b = sorted[Math.min(sorted.length - 1, lo + 1)] ?? a;
    quantiles.push(Math.round((a + (b - a) * (pos - lo)) * 1e6) / 1e6);
  }
  return { source, population: values.length, quantiles, builtAt };
}

/**
 * Where an intrinsic score stands in a reference, 0..1: the share of the population below it, counting half of
 * those equal to it (mid-rank, so a block of identical businesses sits in the middle of its block), interpolated
 * linearly between quantile points. Above the best of the population 1, below the worst 0.
 */
export function quantileOf(ref: Pick<ScoreReference, 'quantiles'>, x: number): number {
  const q = ref.quantiles;
  const n = q.length - 1;
  if (n < 1) return 0.5;
  const EPS = 1e-9;
  if (x < (q[0] ?? 0) - EPS) return 0;
  if (x > (q[n] ?? 1) + EPS) return 1;
  // first index with q[i] >= x - EPS, last index with q[i] <= x + EPS
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((q[mid] ?? 0) >= x - EPS) hi = mid;
    else lo = mid + 1;
  }
  const first = lo;
  lo = 0;
  hi = n;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((q[mid] ?? 0) <= x + EPS) lo = mid;
    else hi = mid - 1;
  }
  const last = lo;
  if (first <= last) return (first + last) / 2 / n;
  // strictly between q[last] and q[first] (first = last + 1)
  const a = q[last] ?? 0;
  const b = q[first] ?? a;
  return (last + (b > a ? (x - a) / (b - a) : 0.5)) / n;
}

/**
 * The standing of an intrinsic score in the reference market, 0..1 and beyond: half its rank (the quantile, which
 * spreads the crowded middle apart) and half its spread (where it lies, linearly, from the reference's 10th
 * percentile to its best business), which keeps apart the best businesses a rank alone would squeeze into its last
 * percent. The spread starts at the 10th percentile so that a few empty records at the bottom do not squeeze the
 * rest together, and goes on rising past the reference's best: a business stronger than any of the reference (one
 * already buying ads, which no record of the reference shows) stands higher still, up to the display's top.
 */
export function standingOf(ref: Pick<ScoreReference, 'quantiles'>, x: number): number {
  const q = ref.quantiles;
  const weakest = q[Math.round(STANDING.spreadFrom * (q.length - 1))] ?? 0;
  const best = q[q.length - 1] ?? 1;
  const spread = best > weakest ? Math.max(0, (x - weakest) / (best - weakest)) : 0.5;
  return STANDING.rank * quantileOf(ref, x) + (1 - STANDING.rank) * spread;
}

/** The share of rank in the standing (the rest is spread), and the quantile the spread is measured from. */
export const STANDING = { rank: 0.5, spreadFrom: 0.1 } as const;

/** True when a value has the shape of a ScoreReference (for references read back from storage). */
export function isScoreReference(value: unknown): value is ScoreReference {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  return (
    typeof r.source === 'string' &&
    typeof r.population === 'number' &&
    typeof r.builtAt === 'string' &&
    Array.isArray(r.quantiles) &&
    r.quantiles.length === REFERENCE_POINTS + 1 &&
    r.quantiles.every(
      (x, i, a) => typeof x === 'number' && Number.isFinite(x) && (i === 0 || x >= (a[i - 1] as number)),
    )
  );
}
