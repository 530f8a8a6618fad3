// The components of the raw score (docs/SCORING.md, "The components"), each a pure function on the 0..1
// scale.
import type { Vertical } from '../verticals';
import {
  DEALER_GROUP_BONUS,
  DEFAULT_REVIEW_BENCHMARK,
  DISTANCE,
  FIT_WEIGHTS,
  KEYWORD_BONUS,
  KEYWORD_CAP,
  KEYWORD_PATTERNS,
  LOW_INTENT_PRESENCE_VERTICALS,
  PRESENCE,
  PROPENSITY_ROWS,
  QUALITY_SPREAD,
  RATING_PART,
  REVIEW_BENCHMARKS,
  VERTICAL_PROPENSITY_ROW,
  type KeywordGroup,
  type Propensity,
} from './constants';
import {
  DIRECTORY_EVIDENCE,
  FRANCHISE_DEALER_SIZE,
  FREE_MAIL_DOMAINS,
  GROUP_PRACTICE,
  LISTING_EVIDENCE,
  LISTING_EVIDENCE_CAP,
  LOCATION_SCALE,
  SIZE_EVIDENCE,
  UNKNOWN_PART,
  WEAKER_EVIDENCE_SHARE,
} from './calibration';

export const clamp01 = (x: number): number => (x < 0 ? 0 : x > 1 ? 1 : x);

const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/** Channel propensities of a vertical. */
export function propensityFor(vertical: Vertical): Propensity {
  return PROPENSITY_ROWS[VERTICAL_PROPENSITY_ROW[vertical]];
}

/** Fit = 0.4 CTV + 0.25 OLV + 0.15 display + 0.2 SEM; a named dealer group adds 0.03 (max 1). */
export function fitScore(p: Propensity, dealerGroup = false): number {
  const base =
    FIT_WEIGHTS.ctv * p.ctv +
    FIT_WEIGHTS.olv * p.olv +
    FIT_WEIGHTS.display * p.display +
    FIT_WEIGHTS.sem * p.sem;
  return dealerGroup ? Math.min(DEALER_GROUP_BONUS.fitCap, base + DEALER_GROUP_BONUS.fit) : base;
}

/** Rating part = (min(rating, 4.8) - 3.5) / 1.3, clamped 0..1; 0 without a rating. */
export function ratingPart(rating: number | null | undefined): number {
  if (!isNum(rating)) return 0;
  return clamp01((Math.min(rating, RATING_PART.ceiling) - RATING_PART.floor) / RATING_PART.span);
}

/** The review-count benchmark of a vertical. */
export const reviewBenchmark = (vertical: Vertical): number =>
  REVIEW_BENCHMARKS[vertical] ?? DEFAULT_REVIEW_BENCHMARK;

/**
 * Review part: the log ratio ln(1 + reviews) / ln(1 + benchmark), clamped 0..1. 0 reviews give 0, the benchmark
 * gives 1; every tenfold more reviews adds the same amount.
 */
export function reviewPart(reviews: number | null | undefined, benchmark: number): number {
  if (!isNum(reviews) || reviews <= 0) return 0;
  return clamp01(Math.log1p(reviews) / Math.log1p(benchmark));
}

export interface PresenceInput {
  website: boolean;
  phone: boolean;
  rating: number | null | undefined;
  reviews: number | null | undefined;
  vertical: Vertical;
  dealerGroup?: boolean;
  /** The source carries no ratings: the rating part is unknown (neutral), not zero. Default false. */
  ratingUnknown?: boolean;
  /**
   * The source carries no review counts: the review part is this stand-in instead (the listing evidence, see
   * listingEvidence), or neutral when absent. Default: reviews are known.
   */
  reviewsUnknown?: boolean;
  reviewStandIn?: number;
}

/**
 * Presence = website .25 + phone .05 + .25 rating part + .25 review part; times 0.7 for bar, brewery,
 * quick-service and hotel; plus 0.03 for a named dealer group; capped at 0.8. A part the data source never
 * carries is neutral (UNKNOWN_PART), not zero.
 */
export function presenceScore(i: PresenceInput): number {
  const rating = i.ratingUnknown ? UNKNOWN_PART : ratingPart(i.rating);
  const reviews = i.reviewsUnknown
    ? (i.reviewStandIn ?? UNKNOWN_PART)
    : reviewPart(i.reviews, reviewBenchmark(i.vertical));
  let p =
    (i.website ? PRESENCE.website : 0) +
    (i.phone ? PRESENCE.phone : 0) +
    PRESENCE.rating * rating +
    PRESENCE.reviews * reviews;
  if (LOW_INTENT_PRESENCE_VERTICALS.has(i.vertical)) p *= PRESENCE.lowIntentMultiplier;
  if (i.dealerGroup) p += DEALER_GROUP_BONUS.presence;
  return Math.min(PRESENCE.cap, p);
}

/** Scale: how big the operation is against its vertical's benchmark, min(1, reviews / benchmark). */
export function scaleScore(reviews: number | null | undefined, vertical: Vertical): number {
  if (!isNum(reviews) || reviews <= 0) return 0;
  return Math.min(1, reviews / reviewBenchmark(vertical));
}

/**
 * Scale from the places one business has in the market: 0.15 for one (plus `singleSize`, what its tags say of its
 * size: sizeEvidence), then the log of the count up to 1 at five (two 0.52, three 0.73, four 0.88).
 */
export function locationScale(locations: number | null | undefined, singleSize = 0): number {
  const n = isNum(locations) && locations >= 1 ? Math.floor(locations) : 1;
  if (n <= 1) return Math.min(1, LOCATION_SCALE.single + singleSize);
  return Math.min(
    1,
    LOCATION_SCALE.single + (1 - LOCATION_SCALE.single) * (Math.log(n) / Math.log(LOCATION_SCALE.full)),
  );
}

/** Every tag key the size evidence reads. */
const SIZE_KEYS: ReadonlySet<string> = new Set(SIZE_EVIDENCE.flatMap((e) => e.keys));

/** Every tag key the listing evidence reads, its own or its weaker form's. */
const LISTING_KEYS: ReadonlySet<string> = new Set(
  LISTING_EVIDENCE.flatMap((e) => ['weaker' in e ? [e.weaker.when] : [], e.keys].flat()),
);

/**
 * The non-empty, trimmed values of the tags among `wanted`. One pass over the tags' own keys (about a dozen on
 * a listing) instead of a lookup of every wanted key: OSM tags objects each have their own shape, and looking up
 * ~35 mostly absent keys in each costs about 7 ms a scan of 500.
 */
function presentValues(tags: Readonly<Record<string, string>>, wanted: ReadonlySet<string>) {
  const values = new Map<string, string>();
  for (const k of Object.keys(tags)) {
    if (!wanted.has(k)) continue;
    const v = tags[k]?.trim();
    if (v) values.set(k, v);
  }
  return values;
}

const firstValue = (values: ReadonlyMap<string, string>, keys: readonly string[]): string => {
  for (const k of keys) {
    const v = values.get(k);
    if (v !== undefined) return v;
  }
  return '';
};

/**
 * What a single place says of its size (SIZE_EVIDENCE): its tags, a name that says several practitioners work
 * there, and for a car dealer the make it is a franchise of. The sum of the shares found, and their labels.
 */
export function sizeEvidence(
  tags: Readonly<Record<string, string>> | null | undefined,
  name = tags?.name ?? '',
  of: { vertical?: Vertical; make?: string | null } = {},
): {
  value: number;
  found: string[];
} {
  let value = 0;
  const found: string[] = [];
  if (GROUP_PRACTICE.pattern.test(name)) {
    value += GROUP_PRACTICE.part;
    found.push(GROUP_PRACTICE.label);
  }
  if (of.vertical === 'auto_dealer' && of.make) {
    value += FRANCHISE_DEALER_SIZE.part;
    found.push(FRANCHISE_DEALER_SIZE.label);
  }
  if (!tags) return { value, found };
  const values = presentValues(tags, SIZE_KEYS);
  for (const e of SIZE_EVIDENCE) {
    if ('verticals' in e && !(e.verticals as readonly string[]).includes(of.vertical ?? '')) continue;
    const raw = firstValue(values, e.keys).toLowerCase();
    if (!raw) continue;
    if (e.values && !(e.values as readonly string[]).includes(raw)) continue;
    if ('minimum' in e && !(Number(raw) >= e.minimum)) continue;
    if (e.values === null && !('minimum' in e) && (raw === 'no' || raw === '0')) continue;
    if ('perTenfold' in e) {
      const n = Number.parseFloat(raw);
      if (!(n >= 1)) continue;
      value += e.part * Math.min(3, Math.log10(n));
    } else value += e.part;
    found.push(e.label);
  }
  return { value, found };
}

/** True when every address in an e-mail value (`;`-separated in OSM) is at a free-mail provider. */
export function isFreeMail(value: string): boolean {
  const domains = value
    .split(/[;,\s]+/)
    .filter((a) => a.includes('@'))
    .map((a) => a.slice(a.lastIndexOf('@') + 1).toLowerCase());
  return domains.length > 0 && domains.every((d) => FREE_MAIL_DOMAINS.has(d));
}

/**
 * The listing's evidence of an actively kept presence (OSM tags), standing in for the review part of a source
 * without review counts: neutral 0.5 plus each piece of evidence found, at most 1. A weaker form of a piece (a
 * free-mail address, a street without a house number) counts its WEAKER_EVIDENCE_SHARE of its part. Returns the value
 * and the labels of what was found.
 */
export function listingEvidence(tags: Readonly<Record<string, string>> | null | undefined): {
  value: number;
  found: string[];
} {
  let value = UNKNOWN_PART;
  const found: string[] = [];
  if (tags) {
    const values = presentValues(tags, LISTING_KEYS);
    for (const e of LISTING_EVIDENCE) {
      const own = firstValue(values, e.keys);
      const weak = 'weaker' in e ? e.weaker : null;
      const weaker =
        weak !== null &&
        (weak.when === 'free-mail' ? own !== '' && isFreeMail(own) : own === '' && values.has(weak.when));
      if (weaker) {
        const share = WEAKER_EVIDENCE_SHARE[weak.when];
        value += e.part * share;
        if (share > 0) found.push(weak.label);
      } else if (own !== '') {
        value += e.part;
        found.push(e.label);
      }
    }
    const directories = (tags[DIRECTORY_EVIDENCE.key] ?? '').split(';').filter((d) => d.trim()).length;
    if (directories >= 2) {
      value += Math.min(DIRECTORY_EVIDENCE.cap, DIRECTORY_EVIDENCE.part * (directories - 1));
      found.push(`listed by ${directories} directories`);
    }
  }
  return { value: Math.min(LISTING_EVIDENCE_CAP, value), found };
}

const KEYWORD_GROUPS = Object.keys(KEYWORD_PATTERNS) as KeywordGroup[];

/** Keyword groups matched by a normalised name, and their bonus summed and capped at 1. */
export function keywordScore(normalizedName: string): { score: number; matches: KeywordGroup[] } {
  const matches = KEYWORD_GROUPS.filter((g) => KEYWORD_PATTERNS[g].test(normalizedName));
  const score = Math.min(
    KEYWORD_CAP,
    matches.reduce((s, g) => s + KEYWORD_BONUS[g], 0),
  );
  return { score, matches };
}

/**
 * Distance score: 0.55 when unknown; 0.2 at or beyond 3 miles; otherwise a half-cosine falloff centred at 2.1
 * miles, symmetric so that it ends exactly at 3 miles: 1 up to 1.2 miles, 0.6 at 2.1 miles, 0.2 at 3 miles.
 */
export function distanceScore(miles: number | null | undefined): number {
  if (!isNum(miles) || miles < 0) return DISTANCE.unknown;
  if (miles >= DISTANCE.farMiles) return DISTANCE.far;
  const halfWidth = DISTANCE.farMiles - DISTANCE.centreMiles; // 0.9
  const start = DISTANCE.centreMiles - halfWidth; // 1.2
  if (miles <= start) return DISTANCE.near;
  const t = (miles - start) / (2 * halfWidth); // 0..1
  return DISTANCE.far + (DISTANCE.near - DISTANCE.far) * ((1 + Math.cos(Math.PI * t)) / 2);
}

/** Percentile with linear interpolation between closest ranks (p in 0..1) of an ascending-sorted list. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const pos = (sorted.length - 1) * p;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  const a = sorted[lo] ?? 0;
  const b = sorted[hi] ?? a;
  return a + (b - a) * (pos - lo);
}

/** Quality spread of 0-100 scores: 0.5 for an empty list, else (p75 - p25) / 100 clamped 0..1. */
export function qualitySpread(scores: readonly number[]): number {
  if (scores.length === 0) return QUALITY_SPREAD.empty;
  const sorted = [...scores].sort((a, b) => a - b);
  return clamp01(
    (percentile(sorted, QUALITY_SPREAD.high) - percentile(sorted, QUALITY_SPREAD.low)) /
      QUALITY_SPREAD.divisor,
  );
}
