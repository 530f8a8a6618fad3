// The scoring model of SPEC.md §9: classify each business, apply the rule scores, compute the weighted raw
// score, add the batch's quality-spread bonus, shape it onto the 10-90 display range, and explain it.
// Pure: the brand index comes in as data (see ./nsi.ts for the loader), the clock as an option.
import { businessHash, type ProspectAnalysis, type ScoreBreakdown } from '../types';
import { VERTICAL_LABELS, type Vertical } from '../verticals';
import type { BrandIndex } from './brand-index';
import {
  buildReference,
  INTRINSIC_WEIGHT,
  sourceFields,
  standingOf,
  type ScoreReference,
} from './calibration';
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
  KEYWORD_LABELS,
  MODEL_VERSION,
  NOT_A_PROSPECT,
  PRESENCE,
  RECOMMEND_THRESHOLD,
  RULE_SCORES,
  WEIGHTS,
  type KeywordGroup,
  type Propensity,
  type ScoreRule,
} from './constants';
import { websiteEffect, type WebsiteEvidenceInput } from './website-evidence';
import { classify, placeTraits, profileVersion, type PlaceProfile, type PlaceTraits } from './profile';

export { classify, LABEL_VERTICALS } from './profile';

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

/** SPEC.md §3 "Business-analysis input", plus optional OSM tags and brand. */
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
  /** Raw OpenStreetMap tags, when known. */
  tags?: Readonly<Record<string, string>> | null;
  brand?: string | null;
  brandWikidata?: string | null;
  /** The data source ('local', 'osm', 'google', 'demo'): which fields it carries, which reference calibrates it. */
  source?: string | null;
  /** Places of the same business in the market (the imported extract), when the source knows it. */
  locations?: number | null;
  /** What a check of its website found (issue 17; ./website-evidence.ts), when checked. */
  websiteEvidence?: WebsiteEvidenceInput | null;
  /** The place's stored profile (./profile.ts): used when made under the scorer's rules and brand index. */
  profile?: PlaceProfile | null;
}

export interface AnalyzeOptions {
  /** Brand lookup from name-suggestion-index; without it only OSM brand tags mark chains. */
  brandIndex?: BrandIndex;
  /**
   * Reference populations by data source (docs/SCORING.md "Calibration"). A business whose source has one is
   * scored by its quantile in it; without one, on the absolute scale.
   */
  references?: Readonly<Partial<Record<string, ScoreReference>>>;
  /** Clock for analyzedAt (default: now). */
  now?: Date;
  /** The quality spread to give instead of the batch's: a business scored again later keeps its scan's. */
  qualitySpread?: number;
}

/** The analysis of one business: SPEC.md §3 "AI analysis result" plus the breakdown. */
export type AnalysisResult = ProspectAnalysis;

/** The rule that decides a score outright, if any, in this order. */
export function scoreRule(
  vertical: Vertical,
  evidence: Pick<PlaceTraits, 'brand' | 'tagged'>,
): ScoreRule | null {
  if (vertical === 'low_propensity') return 'lowPropensity';
  if (evidence.brand?.national) return 'nationalChain';
  if (vertical === 'auto_repair') return 'autoRepair';
  if (evidence.brand || evidence.tagged) return 'chain';
  if (vertical === 'gas_station') return 'gasStation';
  if (vertical === 'government') return 'government';
  if (vertical === 'nonprofit') return 'nonProfit';
  return null;
}

// ---- display, texts --------------------------------------------------------------------------------------------

/** Raw 0..1 to the display score: round(10 + 80 * raw^1.3), within 10..90. */
export function displayScore(raw: number): number {
  const r = raw <= 0 ? 0 : raw >= 1 ? 1 : raw;
  return Math.round(DISPLAY.min + (DISPLAY.max - DISPLAY.min) * r ** DISPLAY.exponent);
}

export type Band = 'excellent' | 'good' | 'decent' | 'poor';

/** >= 80 excellent, >= 60 good, >= 40 decent, else poor. */
export function band(score: number): Band {
  if (score >= BANDS.excellent) return 'excellent';
  if (score >= BANDS.good) return 'good';
  if (score >= BANDS.decent) return 'decent';
  return 'poor';
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

const BAND_TEXT: Record<Band, string> = {
  excellent: 'Excellent prospect',
  good: 'Good prospect',
  decent: 'Decent prospect',
  poor: 'Poor prospect',
};

const RULE_TEXT: Record<ScoreRule, string> = {
  nationalChain: 'National chain: its advertising is bought nationally, not by the local business.',
  lowPropensity: 'This kind of place does not buy local advertising.',
  autoRepair: 'Independent auto repair shops rarely buy local TV or video advertising.',
  chain: 'Part of a chain: marketing decisions are usually made at regional or head office level.',
  gasStation: 'Gas stations rarely buy local advertising.',
  government: 'Government office: not a local advertising buyer.',
  nonProfit: 'Non-profit: small or no paid-media budget.',
};

const pct = (x: number): string => `${Math.round(x * 100)}%`;

// The channel-fit sentence depends only on the vertical and the dealer-group bonus: build each once.
const fitSentences = new Map<string, string>();
function fitSentence(vertical: Vertical, fit: number, p: Propensity, dealerGroup: boolean): string {
  const key = dealerGroup ? `${vertical}+` : vertical;
  let text = fitSentences.get(key);
  if (text === undefined) {
    text =
      `${VERTICAL_LABELS[vertical]} businesses: channel fit ${pct(fit)} (CTV ${pct(p.ctv)}, ` +
      `online video ${pct(p.olv)}, display ${pct(p.display)}, search ${pct(p.sem)}).`;
    fitSentences.set(key, text);
  }
  return text;
}

/** What the data left unknown or missing, as the confidence sentence says it. */
function missingText(input: AnalysisInput, b: ScoreBreakdown): string {
  let text = '';
  const add = (s: string) => (text += (text ? '; ' : '') + s);
  const unknown = b.unknown ?? [];
  if (unknown.length > 0) add(`this data source carries no ${unknown.join(' or ')}`);
  if (!hasText(input.website)) add('no website on record');
  if (!hasText(input.phone)) add('no phone on record');
  if (b.vertical === 'other') add('its kind of business is not one the model knows');
  return text;
}

function reasoningText(
  score: number,
  conf: number,
  vertical: Vertical,
  input: AnalysisInput,
  b: ScoreBreakdown,
  rule: ScoreRule | null,
): string {
  // Plain concatenation: this runs for every business of a scan, so no arrays or joins.
  let text: string;
  if (rule) {
    text = `${BAND_TEXT.poor} (${score}/100). ${b.brand ? `${RULE_TEXT[rule]} Brand: ${b.brand}.` : RULE_TEXT[rule]}`;
  } else {
    text = `${BAND_TEXT[band(score)]} (${score}/100). ${fitSentence(vertical, b.fit, b.propensity, b.dealerGroup)}`;
    let facts = '';
    if (hasText(input.website)) facts = 'website';
    if (hasText(input.phone)) facts += facts ? ', phone' : 'phone';
    if (typeof input.rating === 'number' && input.rating > 0) {
      facts += `${facts ? ', ' : ''}${input.rating.toFixed(1)} stars from ${input.reviewCount ?? 0} reviews`;
    } else if ((input.reviewCount ?? 0) > 0) facts += `${facts ? ', ' : ''}${input.reviewCount} reviews`;
    for (const e of b.evidence ?? []) facts += `${facts ? ', ' : ''}${e}`;
    text += facts
      ? ` Online presence ${pct(b.presence)}: ${facts}.`
      : ` Online presence ${pct(b.presence)}: no website, phone or reviews on record.`;
    if (b.website) text += ` ${b.website}`;
    if ((b.locations ?? 1) > 1) text += ` ${b.locations} locations in this market.`;
    if (b.dealerGroup) text += ' Named franchised-dealer group.';
    if (b.keywordMatches.length > 0) {
      let signals = '';
      for (const k of b.keywordMatches)
        signals += (signals ? ', ' : '') + (KEYWORD_LABELS[k as KeywordGroup] ?? k);
      text += ` Name signals: ${signals}.`;
    }
    if (b.quantile !== undefined && b.quantile !== null && b.reference) {
      text += ` Market standing ${Math.round(b.quantile * 100)}/100 among ${b.reference.population.toLocaleString('en-US')} businesses here.`;
    }
    text +=
      typeof input.distance === 'number' && Number.isFinite(input.distance)
        ? ` ${input.distance.toFixed(1)} mi away.`
        : ' Distance unknown.';
    const missing = missingText(input, b);
    if (missing) text += ` Confidence ${conf}%: ${missing}.`;
  }
  if (score < BANDS.notProspect) text += ` ${NOT_A_PROSPECT}.`;
  return text;
}

// ---- the model -------------------------------------------------------------------------------------------------

/** A business with its components computed; the batch's spread, raw score and texts are added by BatchScore. */
interface Scored {
  input: AnalysisInput;
  /** Complete except qualitySpread, contributions.qualitySpread, raw and points (filled by BatchScore). */
  breakdown: ScoreBreakdown;
  /** Weighted sum without the spread bonus, 0..0.9. */
  base: number;
}

/** Rating and review count, in the words of the confidence sentence, for a source that lacks them. */
function unknownFields(fields: { rating: boolean; reviews: boolean }): string[] {
  const out: string[] = [];
  if (!fields.rating) out.push('ratings');
  if (!fields.reviews) out.push('review counts');
  return out;
}

function scoreComponents(input: AnalysisInput, index: BrandIndex | undefined): Scored {
  // The place's stored profile when it was made under these rules and this brand index, else its traits now.
  const made = input.profile?.v === profileVersion(index) ? input.profile : undefined;
  const traits = made ?? placeTraits(input, index);
  const { vertical, dealerGroup } = traits;
  const rule = scoreRule(vertical, traits);
  const propensity = propensityFor(vertical);
  const fit = fitScore(propensity, dealerGroup);
  const fields = sourceFields(input.source);
  // The website check's evidence (./website-evidence.ts): inputs of the components, never their constants.
  const web = websiteEffect(input.websiteEvidence, fields);
  const siteReviews = web.reviewCount;
  const listing =
    fields.reviews || siteReviews !== undefined ? null : (made?.listing ?? listingEvidence(input.tags));
  const presence = Math.min(
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
  );
  const marketLocations =
    typeof input.locations === 'number' && Number.isFinite(input.locations) && input.locations > 1
      ? Math.floor(input.locations)
      : 1;
  // Scale counts the locations the website lists too (the reasoning names those apart from the market's).
  const locations = Math.max(marketLocations, web.locations ?? 1);
  // Scale: review counts where the source has them; a local multi-location business (not a chain: chains are
  // rule-scored) scales with its places in the market; without either, a single place of unknown size.
  // What a single place's tags say of its size counts only where neither reviews nor places measure it.
  const size = fields.reviews || locations > 1 ? null : (made?.size ?? sizeEvidence(input.tags, input.name));
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
      propensity, // a frozen row of PROPENSITY_ROWS, shared
      dealerGroup,
      brand: traits.brand?.name ?? input.brand ?? input.tags?.brand ?? null,
      keywordMatches: kw.matches,
      unknown: unknownFields(fields),
      evidence: [...(listing?.found ?? []), ...(size?.found ?? []), ...web.evidence],
      locations: marketLocations,
      website: web.sentence,
    },
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

/**
 * A business of a batch with its score settled (the quality spread added, the market's standing read, the
 * display score): what ranking reads. Its explanation (display points, confidence, reasoning, recommendations)
 * is made the first time {@link BatchScore.analysis} is asked for: a scan ranks up to 500 and shows 100, and the
 * texts of the other 400 were most of the model's allocations, collected in the scan's own waits.
 */
export class BatchScore {
  /** The display score, 0-100 (a rule's score for a business a rule decides). */
  readonly score: number;
  /** The rule that decided the score, null for a score of the model. */
  readonly rule: ScoreRule | null;
  private readonly input: AnalysisInput;
  private readonly breakdown: ScoreBreakdown;
  /** calibrated / intrinsic: the share of the intrinsic components in the calibrated raw score. */
  private readonly calibration: number;
  private readonly analyzedAt: string;
  private explained: AnalysisResult | undefined;

  constructor(s: Scored, spread: number, analyzedAt: string, references: AnalyzeOptions['references']) {
    const b = s.breakdown;
    const c = b.contributions;
    b.qualitySpread = spread;
    c.qualitySpread = WEIGHTS.qualitySpread * spread;
    const intrinsic = b.intrinsic ?? s.base - c.distance;
    const reference = b.rule === null ? references?.[s.input.source ?? ''] : undefined;
    // The quantile reading of SPEC §9 (docs/SCORING.md "Calibration"): the business's standing in its market
    // replaces its intrinsic score, on the same share of the raw score; distance and spread stay as they are.
    const quantile = reference ? standingOf(reference, intrinsic) : null;
    const calibrated = quantile === null ? intrinsic : INTRINSIC_WEIGHT * quantile;
    b.quantile = quantile;
    b.reference = reference ? { source: reference.source, population: reference.population } : null;
    b.raw = calibrated + c.distance + c.qualitySpread;
    this.rule = b.rule as ScoreRule | null;
    this.score = this.rule ? RULE_SCORES[this.rule] : displayScore(b.raw);
    this.input = s.input;
    this.breakdown = b;
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
      reasoning: reasoningText(score, conf, b.vertical, input, b, this.rule),
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
    (s) => new BatchScore(s, s.breakdown.rule === null ? spread : 0, analyzedAt, opts.references),
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
 * The intrinsic score (fit, presence, scale and keywords, weighted: what a business carries wherever it is scanned
 * from) of a model-scored business, or null for one a rule decides. What a reference population is built from.
 */
export function intrinsicScore(
  input: AnalysisInput,
  opts: Pick<AnalyzeOptions, 'brandIndex'> = {},
): number | null {
  const s = scoreComponents(input, opts.brandIndex);
  return s.breakdown.rule === null ? (s.breakdown.intrinsic ?? null) : null;
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

/** Verticals with their own fallback score (SPEC.md §9); every other vertical is 'Other'. */
export const FALLBACK_CATEGORY_OF: Readonly<Partial<Record<Vertical, keyof typeof FALLBACK_SCORES>>> = {
  auto_dealer: 'Auto Dealer',
  hvac: 'HVAC',
  orthodontics: 'Orthodontics',
  dental: 'Dental',
  plumbing: 'Plumbing',
  roofing: 'Roofing',
};

/** The fallback category of a vertical (the keys of SPEC.md §9's fallback scores). */
export const fallbackCategory = (vertical: Vertical): keyof typeof FALLBACK_SCORES =>
  FALLBACK_CATEGORY_OF[vertical] ?? 'Other';

/**
 * SPEC.md §9 fallback when analysis fails: Auto Dealer 0.8, HVAC 0.7, Orthodontics 0.7, Dental 0.6, Plumbing 0.6,
 * Roofing 0.6, Other 0.4; +0.1 with a website, +0.1 with a rating above 4; capped at 1. Returns 0..1.
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
