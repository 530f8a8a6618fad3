// Every constant of the scoring model (docs/SCORING.md), in one place. Each is pinned by constants.test.ts.
import type { Vertical } from '../verticals';

/**
 * The analysis model version stored with cached analyses: an analysis or a place profile of another version is
 * stale and made again. Raise it with every change of the model that changes a score, a reasoning text or a
 * profile.
 */
export const MODEL_VERSION = 'v4';

/** Weights of the raw score. They sum to 1. */
export const WEIGHTS = {
  fit: 0.45,
  presence: 0.2,
  scale: 0.1,
  keywords: 0.09,
  distance: 0.06,
  qualitySpread: 0.1,
} as const;

/** Fit = 0.4 CTV + 0.25 online video + 0.15 display + 0.2 search. */
export const FIT_WEIGHTS = { ctv: 0.4, olv: 0.25, display: 0.15, sem: 0.2 } as const;

export interface Propensity {
  ctv: number;
  olv: number;
  display: number;
  sem: number;
}

/** The channel-propensity rows (CTV / online video / display / SEM), one per kind of business. */
export const PROPENSITY_ROWS = {
  auto_dealer: { ctv: 0.95, olv: 0.9, display: 0.85, sem: 0.9 },
  legal_injury: { ctv: 0.9, olv: 0.85, display: 0.9, sem: 0.95 },
  /**
   * Law offices that do not take injury cases (family, criminal, immigration, estates): they buy search above all,
   * some display and video, little TV; injury firms are the ones on TV.
   */
  legal_consumer: { ctv: 0.55, olv: 0.55, display: 0.7, sem: 0.9 },
  home_services: { ctv: 0.9, olv: 0.85, display: 0.8, sem: 0.9 },
  dental_medical: { ctv: 0.85, olv: 0.8, display: 0.75, sem: 0.95 },
  furniture: { ctv: 0.85, olv: 0.8, display: 0.85, sem: 0.75 },
  insurance: { ctv: 0.75, olv: 0.7, display: 0.7, sem: 0.8 },
  fitness: { ctv: 0.7, olv: 0.75, display: 0.7, sem: 0.7 },
  full_service_restaurant: { ctv: 0.45, olv: 0.5, display: 0.55, sem: 0.45 },
  bar_brewery: { ctv: 0.3, olv: 0.35, display: 0.4, sem: 0.35 },
  hotel_chain: { ctv: 0.2, olv: 0.25, display: 0.35, sem: 0.3 },
  quick_service_restaurant: { ctv: 0.1, olv: 0.15, display: 0.2, sem: 0.15 },
  real_estate: { ctv: 0.65, olv: 0.6, display: 0.75, sem: 0.7 },
  other: { ctv: 0.35, olv: 0.3, display: 0.35, sem: 0.4 },
  /**
   * Businesses that sell to companies and investors (venture capital, software, corporate services): they reach
   * their buyers through trade media and sales teams, a little search and display, hardly any local video.
   */
  business_to_business: { ctv: 0.1, olv: 0.15, display: 0.3, sem: 0.35 },
} as const satisfies Record<string, Propensity>;

export type PropensityRow = keyof typeof PROPENSITY_ROWS;
// Rows are shared by every analysis's breakdown: nobody may change them.
for (const row of Object.values(PROPENSITY_ROWS)) Object.freeze(row);
Object.freeze(PROPENSITY_ROWS);

/** Which propensity row each vertical uses. */
export const VERTICAL_PROPENSITY_ROW: Readonly<Record<Vertical, PropensityRow>> = {
  auto_dealer: 'auto_dealer',
  auto_repair: 'other',
  injury_law: 'legal_injury',
  legal: 'legal_consumer',
  legal_corporate: 'business_to_business',
  business_services: 'business_to_business',
  hvac: 'home_services',
  plumbing: 'home_services',
  roofing: 'home_services',
  home_services: 'home_services',
  dental: 'dental_medical',
  orthodontics: 'dental_medical',
  medical: 'dental_medical',
  hospital: 'dental_medical',
  // Counsellors and therapists fill their books through referrals and directories, with some search and video.
  therapy: 'fitness',
  veterinary: 'fitness',
  furniture: 'furniture',
  insurance: 'insurance',
  finance: 'insurance',
  education: 'real_estate',
  fitness: 'fitness',
  wellness: 'fitness',
  beauty: 'other',
  entertainment: 'full_service_restaurant',
  pharmacy: 'other',
  restaurant: 'full_service_restaurant',
  bar: 'bar_brewery',
  hotel: 'hotel_chain',
  qsr: 'quick_service_restaurant',
  real_estate: 'real_estate',
  gas_station: 'other',
  government: 'other',
  nonprofit: 'other',
  restricted: 'other',
  low_propensity: 'other',
  other: 'other',
};

/** Presence parts: website .25 + phone .05 + .25 rating part + .25 review part. */
export const PRESENCE = {
  website: 0.25,
  phone: 0.05,
  rating: 0.25,
  reviews: 0.25,
  /** Multiplier for bar, brewery, quick-service and hotel. */
  lowIntentMultiplier: 0.7,
  cap: 0.8,
} as const;

/** Verticals whose presence is multiplied by 0.7. */
export const LOW_INTENT_PRESENCE_VERTICALS: ReadonlySet<Vertical> = new Set<Vertical>([
  'bar',
  'qsr',
  'hotel',
]);

/** Rating part = (min(rating, 4.8) - 3.5) / 1.3, clamped 0..1. */
export const RATING_PART = { ceiling: 4.8, floor: 3.5, span: 1.3 } as const;

/**
 * Review-count benchmarks by vertical; 500 for anything else. A vertical placed on another vertical's
 * propensity row takes that row's benchmark (home services 400 like HVAC, banking 200 like insurance, ...).
 */
export const REVIEW_BENCHMARKS: Readonly<Record<Vertical, number>> = {
  auto_dealer: 800,
  auto_repair: 800,
  injury_law: 600,
  legal: 600,
  legal_corporate: 600,
  business_services: 500,
  hvac: 400,
  plumbing: 400,
  roofing: 400,
  home_services: 400,
  dental: 500,
  orthodontics: 500,
  medical: 600,
  hospital: 600,
  therapy: 400,
  veterinary: 400,
  furniture: 300,
  insurance: 200,
  finance: 200,
  education: 500,
  fitness: 400,
  wellness: 400,
  beauty: 500,
  entertainment: 800,
  pharmacy: 500,
  restaurant: 800,
  bar: 600,
  hotel: 1000,
  qsr: 1200,
  real_estate: 500,
  gas_station: 500,
  government: 500,
  nonprofit: 500,
  restricted: 500,
  low_propensity: 500,
  other: 500,
};
export const DEFAULT_REVIEW_BENCHMARK = 500;

/** Keyword bonuses on the business name; their sum is capped at 1. */
export const KEYWORD_BONUS = {
  legal: 0.25,
  autoBrand: 0.2,
  dentalMedical: 0.15,
  homeServices: 0.15,
  furniture: 0.1,
} as const;
export const KEYWORD_CAP = 1;
export type KeywordGroup = keyof typeof KEYWORD_BONUS;

/** Keyword groups as a rep reads them (reasoning texts and the card's breakdown). */
export const KEYWORD_LABELS: Readonly<Record<KeywordGroup, string>> = {
  legal: 'legal',
  autoBrand: 'auto brand',
  dentalMedical: 'dental/medical',
  homeServices: 'home services',
  furniture: 'furniture',
};

/** Whole-word patterns of each keyword group (applied to the normalised name). */
export const KEYWORD_PATTERNS: Readonly<Record<KeywordGroup, RegExp>> = {
  legal:
    /\b(law|laws|lawyers?|attorneys?|legal|injury|injuries|accident|accidents|esq|counsel|litigation|trial)\b/,
  autoBrand:
    /\b(acura|alfa romeo|aston martin|audi|bentley|bmw|buick|cadillac|chevrolet|chevy|chrysler|citroen|cupra|dacia|dodge|ferrari|fiat|ford|genesis|gmc|honda|hyundai|infiniti|jaguar|jeep|kia|lamborghini|land rover|lexus|lincoln|maserati|mazda|mc ?laren|mercedes|mitsubishi|nissan|opel|peugeot|polestar|porsche|ram trucks|renault|rivian|rolls royce|skoda|subaru|tesla|toyota|volkswagen|vw|volvo)\b/,
  dentalMedical:
    /\b(dental|dentist|dentistry|dds|dmd|orthodontics?|orthodontist|medical|medicine|clinic|health|healthcare|physicians?|doctors?|md|chiropractic|chiropractor|dermatology|urgent care|pediatrics?|surgery|surgical|vision|eye care|physical therapy|wellness|med ?spa|aesthetics|botox|laser)\b/,
  homeServices:
    /\b(hvac|heating|cooling|air conditioning|plumbing|plumbers?|rooter|roofing|roofers?|electric|electrical|electricians?|contractors?|construction|builders?|remodeling|remodel|restoration|pest control|landscaping|landscape|gutters?|windows|siding|solar|handyman|painting|painters|movers|moving|cleaning|janitorial|flooring|locksmiths?)\b/,
  furniture: /\b(furniture|mattress|mattresses|sofas?|recliners?|furnishings|bedding|cabinets?)\b/,
};

/** Distance score: unknown 0.55; at or beyond 3 miles 0.2; a half-cosine falloff centred at 2.1 miles. */
export const DISTANCE = {
  unknown: 0.55,
  far: 0.2,
  farMiles: 3,
  centreMiles: 2.1,
  near: 1,
} as const;

/** Named local franchised-dealer groups add 0.03 to fit (max 1) and 0.03 to presence (max 0.8). */
export const DEALER_GROUP_BONUS = { fit: 0.03, presence: 0.03, fitCap: 1 } as const;

/** Dealer-group words: a car dealer whose name carries one is a named franchised-dealer group (tier 3). */
export const DEALER_GROUP_PATTERN =
  /\b(auto ?group|automotive group|motor group|dealer group|auto ?mall|autoplex|auto ?park|automotive|family of dealerships|dealerships)\b/;

/**
 * Scores decided by a rule before the model runs (0-100 display scale). A restricted category (cannabis, firearms,
 * adult) stays in the list with its flag, below every business a rep can sell to.
 */
export const RULE_SCORES = {
  nationalChain: 0,
  lowPropensity: 0,
  restricted: 2,
  autoRepair: 5,
  chain: 5,
  gasStation: 10,
  government: 15,
  hospital: 15,
  nonProfit: 20,
} as const;
export type ScoreRule = keyof typeof RULE_SCORES;

/**
 * Rules that take a business out of a scan's list unless "show all prospects" is on: chains, gas stations, public
 * institutions, hospitals, non-profits and categories that buy no advertising. Auto repair stays (a local business,
 * scored low), and so does a restricted category (flagged, below every business a rep can sell to: some stations
 * do accept it).
 */
export const PREFILTERED_RULES: ReadonlySet<ScoreRule> = new Set<ScoreRule>([
  'nationalChain',
  'lowPropensity',
  'chain',
  'gasStation',
  'government',
  'hospital',
  'nonProfit',
]);

/** True when `rule` takes a business out of the list (null: the model's score, never taken out). */
export const isPrefilteredRule = (rule: string | null): boolean =>
  rule !== null && PREFILTERED_RULES.has(rule as ScoreRule);

/** Display: raw 0..1 is shaped by the exponent 1.3 onto 10..90. */
export const DISPLAY = { min: 10, max: 90, exponent: 1.3 } as const;

/** Quality spread: 0.5 for an empty list, else (p75 - p25) / 100 clamped 0..1. */
export const QUALITY_SPREAD = { empty: 0.5, low: 0.25, high: 0.75, divisor: 100 } as const;

/** Reasoning bands. */
export const BANDS = { excellent: 80, good: 60, decent: 40, notProspect: 30 } as const;
export const NOT_A_PROSPECT = 'Not a local advertising prospect';

/** Confidence from data completeness: category 40, reputation 30 (rating, reviews), contact 30 (website, phone). */
export const CONFIDENCE_WEIGHTS = { category: 40, reputation: 30, contact: 30 } as const;

/** Recommended ad solutions and the propensity that earns them. */
export const AD_SOLUTIONS = {
  linearTv: 'Linear TV',
  ctv: 'Streaming TV/CTV',
  olv: 'Online Video',
  display: 'Display',
  sem: 'Search Engine Marketing',
} as const;
/** A channel is recommended at or above this propensity; Linear TV needs CTV at or above `linearTv`. */
export const RECOMMEND_THRESHOLD = { channel: 0.7, linearTv: 0.85 } as const;

/** Fallback category scores when analysis fails, 0..1. */
export const FALLBACK_SCORES = {
  'Auto Dealer': 0.8,
  HVAC: 0.7,
  Orthodontics: 0.7,
  Dental: 0.6,
  Plumbing: 0.6,
  Roofing: 0.6,
  Other: 0.4,
} as const;
export const FALLBACK_BONUS = { website: 0.1, ratingAbove4: 0.1, ratingThreshold: 4, cap: 1 } as const;
