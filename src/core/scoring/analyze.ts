// The scoring model: classify each business, apply the rule scores, compute the weighted raw score, read its
// standing in the reference market, add the batch's quality-spread bonus, shape it onto the 10-90 display range,
// and explain it (./reasoning.ts). Pure: the brand index comes in as data (see ./nsi.ts for the loader), the clock
// as an option.
import { businessHash, type ProspectAnalysis, type ScoreBreakdown } from '../types';
import type { Vertical } from '../verticals';
import type { BrandIndex, PlaceArea } from './brand-index';
import {
  buildReference,
  INTRINSIC_WEIGHT,
  sourceFields,
  standingOf,
  type ScoreReference,
} from './calibration';
import { REFERENCE_MARKET } from './reference-market';
import { BAND_TEXT, band, reasoningText } from './reasoning';
import {
  distanceScore,
  fitScore,
  listingEvidence,
  locationScale,
  sizeEvidence,
  presenceScore,
  propensityFor,
  qualitySpread,
  ratingPart,
  reviewPart,
  reviewBenchmark,
  scaleScore,
} from './components';
import {
  AD_SOLUTIONS,
  BANDS,
  CONFIDENCE_WEIGHTS,
  DISPLAY,
  FALLBACK_BONUS,
  FALLBACK_SCORES,
  MODEL_VERSION,
  NOT_A_PROSPECT,
  PRESENCE,
  RECOMMEND_THRESHOLD,
  RULE_SCORES,
  WEIGHTS,
  type Propensity,
  type ScoreRule,
} from './constants';
import { websiteEffect, type WebsiteEvidenceInput } from './website-evidence';
import { classify, placeTraits, profileVersion, type PlaceProfile, type PlaceTraits } from './profile';

export { classify, LABEL_VERTICALS } from './profile';
export { band, BAND_TEXT, type Band } from './reasoning';

/**
 * The cache key an analysis is stamped with: a scan's (`businessCacheKey`), the place id, else the provider's id,
 * else the hash of name, address and category. A provider id saves the SHA-1 (about 4 µs a business).
 */
const cacheKey = (i: AnalysisInput) =>
  businessHash({
    placeId: i.placeId?.trim() || i.id,
    name: i.name,
    address: i.address,
    category: i.category,
  });

/** A business as the scorer reads it: the product's business record, plus what the data source knows of it. */
export interface AnalysisInput {
  id?: string | null;
  placeId?: string | null;
  name: string;
  /** Friendly category label ('Dental', 'Auto Repair', ...). */
  category?: string | null;
  rating?: number | null;
  reviewCount?: number | null;
  address?: string | null;
  /** Miles from the scan centre; unknown when absent. */
  distance?: number | null;
  types?: readonly string[] | null;
  website?: string | null;
  phone?: string | null;
  /** 'Open' or 'Closed'. Not scored (an hour of the day says nothing of advertising potential). */
  businessStatus?: string | null;
  /** Raw OpenStreetMap tags (or a source's fields written as such), when known. */
  tags?: Readonly<Record<string, string>> | null;
  brand?: string | null;
  brandWikidata?: string | null;
  /** The data source ('local', 'osm', 'google', 'demo'): which fields it carries. */
  source?: string | null;
  /** Places of the same business in the market (the imported data), when the source knows it. */
  locations?: number | null;
  /**
   * The same business (its name or its website's domain) has places in several cities of the imported data: an
   * outlet of a chain the brand lists do not know.
   */
  manyCities?: boolean | null;
  /** What a check of its website found (./website-evidence.ts), when checked. */
  websiteEvidence?: WebsiteEvidenceInput | null;
  /** The place's stored profile (./profile.ts): used when made under the scorer's rules and brand index. */
  profile?: PlaceProfile | null;
  /** Where the place stands, for the chain check (see PlaceArea); the United States when absent. */
  area?: PlaceArea;
}

export interface AnalyzeOptions {
  /** Brand lookup from name-suggestion-index; without it only OSM brand tags mark chains. */
  brandIndex?: BrandIndex;
  /**
   * The reference market a source without ratings is calibrated against (docs/SCORING.md, "One scale for
   * every market: the reference market"); default the one shipped with the model, null for the absolute
   * scale.
   */
  reference?: ScoreReference | null;
  /** Clock for analyzedAt (default: now). */
  now?: Date;
  /** The quality spread to give instead of the batch's: a business scored again later keeps its scan's. */
  qualitySpread?: number;
}

/** The analysis of one business: score, reasoning, confidence, recommendations and the breakdown. */
export type AnalysisResult = ProspectAnalysis;

/** What decides a rule, beyond the vertical: the place's chain evidence. */
type RuleEvidence = Pick<PlaceTraits, 'brand' | 'tagged' | 'chainSite'> & { manyCities?: boolean | null };

/** The rule that decides a score outright, if any, in this order. */
export function scoreRule(vertical: Vertical, evidence: RuleEvidence): ScoreRule | null {
  if (vertical === 'low_propensity') return 'lowPropensity';
  if (evidence.brand?.national) return 'nationalChain';
  if (vertical === 'auto_repair') return 'autoRepair';
  if (evidence.brand || evidence.tagged || evidence.chainSite || evidence.manyCities) return 'chain';
  if (vertical === 'restricted') return 'restricted';
  if (vertical === 'gas_station') return 'gasStation';
  if (vertical === 'government') return 'government';
  if (vertical === 'hospital') return 'hospital';
  if (vertical === 'nonprofit') return 'nonProfit';
  return null;
}

// ---- display, texts --------------------------------------------------------------------------------------------

/** Raw 0..1 to the display score: round(10 + 80 * raw^1.3), within 10..90. */
export function displayScore(raw: number): number {
  return Math.round(exactDisplay(raw));
}

/** The display score before rounding (ranking compares these). */
export function exactDisplay(raw: number): number {
  const r = raw <= 0 ? 0 : raw >= 1 ? 1 : raw;
  return DISPLAY.min + (DISPLAY.max - DISPLAY.min) * r ** DISPLAY.exponent;
}

const hasText = (s: string | null | undefined): boolean => typeof s === 'string' && s.trim().length > 0;

/** Confidence 0-100 from data completeness: category known 40; rating 15 + reviews 15; website 15 + phone 15. */
export function confidence(input: AnalysisInput, vertical: Vertical): number {
  const categoryKnown =
    vertical !== 'other' || (hasText(input.category) && input.category?.trim().toLowerCase() !== 'business');
  const ratingKnown = typeof input.rating === 'number' && Number.isFinite(input.rating) && input.rating > 0;
  const reviewsKnown = typeof input.reviewCount === 'number' && input.reviewCount > 0;
  return Math.round(
    (categoryKnown ? CONFIDENCE_WEIGHTS.category : 0) +
      CONFIDENCE_WEIGHTS.reputation * ((ratingKnown ? 0.5 : 0) + (reviewsKnown ? 0.5 : 0)) +
      CONFIDENCE_WEIGHTS.contact * ((hasText(input.website) ? 0.5 : 0) + (hasText(input.phone) ? 0.5 : 0)),
  );
}

/**
 * Recommended ad solutions: under 30 only 'Not a local advertising prospect'. Otherwise Linear TV when CTV
 * propensity is at least 0.85, then each channel whose propensity is at least 0.7, in the order Streaming TV/CTV,
 * Online Video, Display, Search Engine Marketing; if none reaches 0.7, the single strongest channel.
 */
export function recommendations(score: number, p: Propensity): string[] {
  if (score < BANDS.notProspect) return [NOT_A_PROSPECT];
  const out: string[] = [];
  if (p.ctv >= RECOMMEND_THRESHOLD.linearTv) out.push(AD_SOLUTIONS.linearTv);
  for (const [k, label] of CHANNELS) if (p[k] >= RECOMMEND_THRESHOLD.channel) out.push(label);
  if (out.length === 0) {
    let best: (typeof CHANNELS)[number] = CHANNELS[0];
    for (const c of CHANNELS) if (p[c[0]] > p[best[0]]) best = c;
    out.push(best[1]);
  }
  return out;
}

const CHANNELS = [
  ['ctv', AD_SOLUTIONS.ctv],
  ['olv', AD_SOLUTIONS.olv],
  ['display', AD_SOLUTIONS.display],
  ['sem', AD_SOLUTIONS.sem],
] as const;

// ---- the model -------------------------------------------------------------------------------------------------

/** A business with its components computed; the batch's spread, raw score and texts are added by BatchScore. */
interface Scored {
  input: AnalysisInput;
  /** Complete except qualitySpread, contributions.qualitySpread, raw and points (filled by BatchScore). */
  breakdown: ScoreBreakdown;
  /** Weighted sum without the spread bonus, 0..0.9. */
  base: number;
  /** What the reasoning says of it, gathered while scoring. */
  facts: Facts;
}

/** Rating and review count, in the words of the confidence sentence, for a source that lacks them. */
function unknownFields(fields: { rating: boolean; reviews: boolean }): string[] {
  const out: string[] = [];
  if (!fields.rating) out.push('ratings');
  if (!fields.reviews) out.push('review counts');
  return out;
}

/** The facts the reasoning is written from (./reasoning.ts). */
export interface Facts {
  traits: PlaceTraits;
  /** What the listing shows of its presence ('social profiles', 'opening hours', ...). */
  presence: string[];
  /** What says how big it is ('its own building', "a make's franchised dealership", ...). */
  size: string[];
  /** Ad platforms its website carries tags of. */
  advertising: string[];
  /** Call tracking on its website (it measures its advertising). */
  callTracking: boolean;
  /** The website check's own sentence, when it has one ("Its website did not answer when checked..."). */
  websiteSentence: string | null;
  /** Places of the same business in this market, and locations its website lists. */
  locations: number;
  siteLocations: number;
}

function scoreComponents(input: AnalysisInput, index: BrandIndex | undefined): Scored {
  // The place's stored profile when it was made under these rules and this brand index, else its traits now.
  const made = input.profile?.v === profileVersion(index) ? input.profile : undefined;
  const traits = made ?? placeTraits(input, index);
  const { vertical, dealerGroup } = traits;
  const rule = scoreRule(vertical, { ...traits, manyCities: input.manyCities ?? false });
  const fields = sourceFields(input.source);
  // The website check's evidence (./website-evidence.ts): inputs of the components, never their weights.
  const web = websiteEffect(input.websiteEvidence, fields);
  const propensity = observedPropensity(propensityFor(vertical), web.channels);
  const fit = fitScore(propensity, dealerGroup);
  const siteReviews = web.reviewCount;
  const listing =
    fields.reviews || siteReviews !== undefined ? null : (made?.listing ?? listingEvidence(input.tags));
  const presence =
    Math.min(
      PRESENCE.cap,
      presenceScore({
        website: hasText(input.website) && web.websiteCounts,
        phone: hasText(input.phone),
        rating: fields.rating ? input.rating : web.rating,
        reviews: fields.reviews ? input.reviewCount : siteReviews,
        vertical,
        dealerGroup,
        ratingUnknown: !fields.rating && web.rating === undefined,
        reviewsUnknown: !fields.reviews && siteReviews === undefined,
        ...(listing ? { reviewStandIn: listing.value } : {}),
      }) + web.presenceBonus,
    ) + web.advertisingBonus;
  const marketLocations =
    typeof input.locations === 'number' && Number.isFinite(input.locations) && input.locations > 1
      ? Math.floor(input.locations)
      : 1;
  // Scale counts the locations the website lists too (the reasoning names those apart from the market's).
  const locations = Math.max(marketLocations, web.locations ?? 1);
  // Scale: review counts where the source has them; a local multi-location business (not a chain: chains are
  // rule-scored) scales with its places in the market; without either, a single place of unknown size plus what
  // its record says of its size.
  const size =
    fields.reviews || locations > 1
      ? null
      : (made?.size ?? sizeEvidence(input.tags, input.name, { vertical, make: traits.make }));
  const scale = fields.reviews
    ? Math.max(scaleScore(input.reviewCount, vertical), locations > 1 ? locationScale(locations) : 0)
    : Math.max(locationScale(locations, size?.value ?? 0), scaleScore(siteReviews, vertical));
  const kw = traits.keywords;
  const distance = distanceScore(input.distance);
  const contributions = {
    fit: WEIGHTS.fit * fit,
    presence: WEIGHTS.presence * presence,
    scale: WEIGHTS.scale * scale,
    keywords: WEIGHTS.keywords * kw.score,
    distance: WEIGHTS.distance * distance,
    qualitySpread: 0,
  };
  const intrinsic = contributions.fit + contributions.presence + contributions.scale + contributions.keywords;
  return {
    input,
    base: intrinsic + contributions.distance,
    facts: {
      traits,
      presence: [...(listing?.found ?? []), ...web.evidence],
      size: size?.found ?? [],
      advertising: web.platforms,
      callTracking: web.callTracking,
      websiteSentence: web.sentence,
      locations: marketLocations,
      siteLocations: web.locations ?? 1,
    },
    // One object per business, filled in place by BatchScore: a scan scores hundreds, so no copies.
    breakdown: {
      vertical,
      rule,
      fit,
      presence,
      scale,
      keywords: kw.score,
      distance,
      qualitySpread: 0,
      contributions,
      raw: intrinsic + contributions.distance,
      intrinsic,
      quantile: null,
      reference: null,
      points: null,
      propensity,
      dealerGroup,
      brand: traits.brand?.name ?? input.brand ?? input.tags?.brand ?? null,
      keywordMatches: kw.matches,
      unknown: unknownFields(fields),
      evidence: [...(listing?.found ?? []), ...(size?.found ?? []), ...web.evidence],
      locations: marketLocations,
      website: web.sentence,
      restricted: traits.restricted,
    },
  };
}

/**
 * The channel propensities of a business: its vertical's, raised to certainty for the channels its website shows it
 * buys today (a Google Ads tag is search and display bought, a streaming-TV pixel is CTV bought). What a business
 * is seen to buy says more of it than what its kind of business usually buys.
 */
function observedPropensity(p: Propensity, bought: ReadonlySet<keyof Propensity>): Propensity {
  if (bought.size === 0) return p;
  return {
    ctv: bought.has('ctv') ? 1 : p.ctv,
    olv: bought.has('olv') ? 1 : p.olv,
    display: bought.has('display') ? 1 : p.display,
    sem: bought.has('sem') ? 1 : p.sem,
  };
}

const POINT_KEYS = ['fit', 'presence', 'scale', 'keywords', 'distance', 'qualitySpread'] as const;

/**
 * The display points of each component, integers that add up to the score: the score above the display floor
 * (10) shared out in proportion to what each component put into the calibrated raw score (largest remainder).
 */
export function displayPoints(
  score: number,
  parts: Readonly<Record<(typeof POINT_KEYS)[number], number>>,
): NonNullable<ScoreBreakdown['points']> {
  const total = Math.max(0, score - DISPLAY.min);
  const sum = POINT_KEYS.reduce((s, k) => s + Math.max(0, parts[k]), 0);
  const exact = POINT_KEYS.map((k) => (sum > 0 ? (total * Math.max(0, parts[k])) / sum : 0));
  const floors = exact.map(Math.floor);
  let left = total - floors.reduce((a, b) => a + b, 0);
  const order = exact
    .map((x, i) => [x - Math.floor(x), i] as const)
    .sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of order) {
    if (left <= 0) break;
    floors[i] = (floors[i] ?? 0) + 1;
    left--;
  }
  const points = { base: score - total } as NonNullable<ScoreBreakdown['points']>;
  POINT_KEYS.forEach((k, i) => (points[k] = floors[i] ?? 0));
  return points;
}

/** The intrinsic share of the raw score: the standing in the reference market, on the same weight (or as it is). */
function calibratedIntrinsic(intrinsic: number, reference: ScoreReference | null): number {
  return reference ? INTRINSIC_WEIGHT * standingOf(reference, intrinsic) : intrinsic;
}

/**
 * The display score (before rounding) the model gives a business of an imported source with this intrinsic score at
 * this distance in a batch of this quality spread, before what only its record says (no phone or website on
 * record lowers it, a website check may raise it): what a scan ranks the places of its circle by before it reads
 * their records (server/places/local-store.ts). The same formula as {@link BatchScore}'s.
 */
export function placeScore(
  intrinsic: number,
  miles: number,
  spread: number,
  reference: ScoreReference = REFERENCE_MARKET,
): number {
  return exactDisplay(
    calibratedIntrinsic(intrinsic, reference) +
      WEIGHTS.distance * distanceScore(miles) +
      WEIGHTS.qualitySpread * spread,
  );
}

/** The reference a business is calibrated against: the shipped market for sources without ratings, else none. */
function referenceFor(input: AnalysisInput, opts: AnalyzeOptions): ScoreReference | null {
  if (opts.reference === null) return null;
  if (sourceFields(input.source).rating) return null;
  return opts.reference ?? REFERENCE_MARKET;
}

/** A business nobody can reach from its record (no phone, no website) is never shown as a green prospect. */
const unreachable = (input: AnalysisInput) => !hasText(input.phone) && !hasText(input.website);

/**
 * A business of a batch with its score settled (the quality spread added, its standing in the reference market
 * read, the display score): what ranking reads. Its explanation (display points, confidence, reasoning,
 * recommendations) is made the first time {@link BatchScore.analysis} is asked for: a scan ranks many and shows 100.
 */
export class BatchScore {
  /** The display score, 0-100 (a rule's score for a business a rule decides). */
  readonly score: number;
  /** The display score before rounding: what ranking compares. */
  readonly exact: number;
  /** The rule that decided the score, null for a score of the model. */
  readonly rule: ScoreRule | null;
  private readonly input: AnalysisInput;
  private readonly breakdown: ScoreBreakdown;
  private readonly facts: Facts;
  /** calibrated / intrinsic: the share of the intrinsic components in the calibrated raw score. */
  private readonly calibration: number;
  private readonly analyzedAt: string;
  private explained: AnalysisResult | undefined;

  constructor(s: Scored, spread: number, analyzedAt: string, reference: ScoreReference | null) {
    const b = s.breakdown;
    const c = b.contributions;
    b.qualitySpread = spread;
    c.qualitySpread = WEIGHTS.qualitySpread * spread;
    const intrinsic = b.intrinsic ?? s.base - c.distance;
    const ref = b.rule === null ? reference : null;
    // The business's standing in the reference market replaces its intrinsic score, on the same share of the raw
    // score; distance and spread stay as they are.
    const quantile = ref ? standingOf(ref, intrinsic) : null;
    const calibrated = calibratedIntrinsic(intrinsic, ref);
    b.quantile = quantile;
    b.reference = ref ? { source: ref.source, population: ref.population } : null;
    b.raw = calibrated + c.distance + c.qualitySpread;
    this.rule = b.rule as ScoreRule | null;
    let exact = this.rule ? RULE_SCORES[this.rule] : exactDisplay(b.raw);
    if (!this.rule && unreachable(s.input)) exact = withoutContact(exact);
    this.exact = exact;
    this.score = Math.round(exact);
    this.input = s.input;
    this.breakdown = b;
    this.facts = s.facts;
    this.calibration = intrinsic > 0 ? calibrated / intrinsic : 0;
    this.analyzedAt = analyzedAt;
  }

  /** The whole analysis: the breakdown with its display points, the confidence, reasoning and recommendations. */
  analysis(): AnalysisResult {
    if (this.explained) return this.explained;
    const { score, breakdown: b, input } = this;
    const c = b.contributions;
    if (!b.rule) {
      const k = this.calibration;
      b.points = displayPoints(score, {
        fit: c.fit * k,
        presence: c.presence * k,
        scale: c.scale * k,
        keywords: c.keywords * k,
        distance: c.distance,
        qualitySpread: c.qualitySpread,
      });
    }
    const conf = confidence(input, b.vertical);
    this.explained = {
      score,
      reasoning: reasoningText({ score, confidence: conf, input, breakdown: b, facts: this.facts }),
      confidence: conf,
      recommendations: recommendations(score, b.propensity),
      breakdown: b,
      analyzedAt: this.analyzedAt,
      businessHash: cacheKey(input),
      modelVersion: MODEL_VERSION,
    };
    return this.explained;
  }
}

/**
 * A business with no phone and no website on record is worth less to a rep, who must find a number before calling
 * it, and never shows as green. It keeps `share` of its score above the display floor, and a score above `from` is
 * pressed into `from`..`top` (the top of amber): such businesses keep the order of their own merits, a strong one
 * stays near the top of its list (finding its number is worth the time), and one with a phone on record comes
 * before an otherwise equal one without.
 */
export const NO_CONTACT = { share: 0.9, from: 60, top: 70 } as const;

/** The display score of a business without a phone or a website: see NO_CONTACT. */
export function withoutContact(exact: number): number {
  const shared = DISPLAY.min + (exact - DISPLAY.min) * NO_CONTACT.share;
  if (exact <= NO_CONTACT.from) return shared;
  const span = DISPLAY.max - NO_CONTACT.from;
  return Math.min(
    shared,
    NO_CONTACT.from + ((exact - NO_CONTACT.from) * (NO_CONTACT.top - NO_CONTACT.from)) / span,
  );
}

/**
 * Score a batch (one scan's candidates). The quality-spread bonus is computed from the model-scored businesses
 * of this batch: spread = (p75 - p25) / 100 of their base scores on the 0-100 scale, and every one of them gets
 * 0.10 * spread. Rule-scored businesses (chains, gas stations, ...) neither count nor get it. Output order =
 * input order; each explains itself when asked ({@link BatchScore.analysis}).
 */
export function scoreBatch(inputs: readonly AnalysisInput[], opts: AnalyzeOptions = {}): BatchScore[] {
  const analyzedAt = (opts.now ?? new Date()).toISOString();
  const scored = inputs.map((i) => scoreComponents(i, opts.brandIndex));
  const spread =
    opts.qualitySpread ??
    qualitySpread(scored.filter((s) => s.breakdown.rule === null).map((s) => s.base * 100));
  return scored.map(
    (s) => new BatchScore(s, s.breakdown.rule === null ? spread : 0, analyzedAt, referenceFor(s.input, opts)),
  );
}

/** {@link scoreBatch}, every business explained: the analyses of a batch, in input order. */
export function analyzeBatch(inputs: readonly AnalysisInput[], opts: AnalyzeOptions = {}): AnalysisResult[] {
  return scoreBatch(inputs, opts).map((s) => s.analysis());
}

/** Score one business on its own (a batch of one: the spread of a single score is 0). */
export function analyzeOne(input: AnalysisInput, opts: AnalyzeOptions = {}): AnalysisResult {
  const [r] = analyzeBatch([input], opts);
  if (!r) throw new Error('unreachable: a batch of one yields one result');
  return r;
}

/**
 * What a business carries wherever it is scanned from: its intrinsic score (fit, presence, scale and keywords,
 * weighted) when the model scores it, or the rule that decides it. The imported table keeps this with each place
 * so a scan can rank every business of its circle from an index (server/places/ranks.ts).
 */
export function intrinsicOf(
  input: AnalysisInput,
  opts: Pick<AnalyzeOptions, 'brandIndex'> = {},
): { intrinsic: number; rule: null } | { intrinsic: null; rule: ScoreRule } {
  const s = scoreComponents(input, opts.brandIndex);
  const rule = s.breakdown.rule as ScoreRule | null;
  return rule === null ? { intrinsic: s.breakdown.intrinsic ?? 0, rule: null } : { intrinsic: null, rule };
}

/** The intrinsic score of a model-scored business, or null for one a rule decides (see {@link intrinsicOf}). */
export function intrinsicScore(
  input: AnalysisInput,
  opts: Pick<AnalyzeOptions, 'brandIndex'> = {},
): number | null {
  return intrinsicOf(input, opts).intrinsic;
}

/** The reference population of a market: the quantiles of its model-scored businesses' intrinsic scores. */
export function buildMarketReference(
  inputs: Iterable<AnalysisInput>,
  source: string,
  opts: Pick<AnalyzeOptions, 'brandIndex' | 'now'> = {},
): ScoreReference | null {
  const values: number[] = [];
  for (const input of inputs) {
    const x = intrinsicScore(input, opts);
    if (x !== null) values.push(x);
  }
  return buildReference(source, values, (opts.now ?? new Date()).toISOString());
}

/**
 * Sort by score descending. Ties: nearer first (unknown distance last), then name (case-insensitive), then
 * the input order. Returns a new array.
 */
export function rankProspects<T extends { score: number; distance?: number | null; name?: string }>(
  items: readonly T[],
): T[] {
  const dist = (x: T) =>
    typeof x.distance === 'number' && Number.isFinite(x.distance) ? x.distance : Infinity;
  return items
    .map((item, index) => ({ item, index }))
    .sort(
      (a, b) =>
        b.item.score - a.item.score ||
        dist(a.item) - dist(b.item) ||
        (a.item.name ?? '').toLowerCase().localeCompare((b.item.name ?? '').toLowerCase()) ||
        a.index - b.index,
    )
    .map((x) => x.item);
}

// ---- fallback ----------------------------------------------------------------------------------------------------

/** Verticals with their own fallback score; every other vertical is 'Other'. */
export const FALLBACK_CATEGORY_OF: Readonly<Partial<Record<Vertical, keyof typeof FALLBACK_SCORES>>> = {
  auto_dealer: 'Auto Dealer',
  hvac: 'HVAC',
  orthodontics: 'Orthodontics',
  dental: 'Dental',
  plumbing: 'Plumbing',
  roofing: 'Roofing',
};

/** The fallback category of a vertical (the keys of FALLBACK_SCORES). */
export const fallbackCategory = (vertical: Vertical): keyof typeof FALLBACK_SCORES =>
  FALLBACK_CATEGORY_OF[vertical] ?? 'Other';

/**
 * The fallback score when analysis fails: Auto Dealer 0.8, HVAC 0.7, Orthodontics 0.7, Dental 0.6, Plumbing
 * 0.6, Roofing 0.6, Other 0.4; +0.1 with a website, +0.1 with a rating above 4; capped at 1. Returns 0..1.
 */
export function fallbackCategoryScore(input: AnalysisInput): number {
  const base = FALLBACK_SCORES[fallbackCategory(classify(input))];
  const web = hasText(input.website) ? FALLBACK_BONUS.website : 0;
  const rated =
    typeof input.rating === 'number' && input.rating > FALLBACK_BONUS.ratingThreshold
      ? FALLBACK_BONUS.ratingAbove4
      : 0;
  return Math.min(FALLBACK_BONUS.cap, Math.round((base + web + rated) * 100) / 100);
}

/** A complete analysis built from the fallback category score (score = 100 x fallback). */
export function fallbackAnalysis(input: AnalysisInput, opts: { now?: Date } = {}): AnalysisResult {
  const vertical = classify(input);
  const category = fallbackCategory(vertical);
  const value = fallbackCategoryScore(input);
  const score = Math.round(value * 100);
  const propensity = propensityFor(vertical);
  const extras = [
    hasText(input.website) ? '+0.1 for a website' : null,
    typeof input.rating === 'number' && input.rating > FALLBACK_BONUS.ratingThreshold
      ? '+0.1 for a rating above 4'
      : null,
  ].filter((x): x is string => x !== null);
  const reasoning =
    `${BAND_TEXT[band(score)]} (${score}/100, category estimate: detailed analysis unavailable). ` +
    `${category} base ${FALLBACK_SCORES[category]}${extras.length ? `, ${extras.join(', ')}` : ''}.` +
    (score < BANDS.notProspect ? ` ${NOT_A_PROSPECT}.` : '');
  return {
    score,
    reasoning,
    confidence: confidence(input, vertical),
    recommendations: recommendations(score, propensity),
    breakdown: {
      vertical,
      rule: 'fallback',
      fit: fitScore(propensity),
      presence: 0,
      scale: 0,
      keywords: 0,
      distance: distanceScore(input.distance),
      qualitySpread: 0,
      contributions: { fit: 0, presence: 0, scale: 0, keywords: 0, distance: 0, qualitySpread: 0 },
      raw: value,
      propensity: { ...propensity },
      dealerGroup: false,
      brand: null,
      keywordMatches: [],
    },
    analyzedAt: (opts.now ?? new Date()).toISOString(),
    businessHash: cacheKey(input),
    modelVersion: MODEL_VERSION,
  };
}

// Re-exported for explanations.
export { ratingPart, reviewPart, reviewBenchmark };
