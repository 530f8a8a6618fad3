// Shared shapes of the discovery engine: what place providers return (Business) and the working record the
// scan hands to the screen (Prospect, SPEC.md §3). Plus the cache key of SPEC.md §3.
import type { ScoreRule } from './scoring/constants';
import { sha1Hex } from './sha1';
import type { Vertical } from './verticals';
import type { WebsiteEvidence, WebsiteSignal } from './websites/signals';

/** Where a candidate came from. 'local' is the imported OpenStreetMap extract, 'demo' the spec's mock mode. */
export type BusinessSource = 'local' | 'google' | 'osm' | 'demo';

/** A candidate business as a place provider returns it. */
export interface Business {
  /** Stable provider id: 'osm:node/123', a Google place id, 'demo:...'. */
  id: string;
  /** The maps service's place id, when the business has one (drives the cache key). */
  placeId?: string;
  name: string;
  lat: number;
  lng: number;
  /** Place types of SPEC.md §3 (and any further provider types, e.g. 'restaurant'). */
  types: string[];
  /** Friendly category label ('Dental', 'Auto Repair', ... or 'Business' when unknown). */
  category: string;
  address: string;
  city?: string;
  state?: string;
  zip?: string;
  phone?: string;
  website?: string;
  rating?: number;
  /** Review count; 0 when unknown. */
  reviews: number;
  /** Open right now; null when not known. */
  openNow: boolean | null;
  /** Brand name (OSM `brand`). */
  brand?: string;
  /** Brand Wikidata id (OSM `brand:wikidata`), e.g. 'Q38076' for McDonald's. */
  brandWikidata?: string;
  /** Places of the same business (same name) in the imported market; known for the local provider only. */
  locations?: number;
  source: BusinessSource;
  /** Raw OpenStreetMap tags, when the business came from OSM data. */
  tags?: Record<string, string>;
  priceLevel?: number;
  /** Up to 3 photo links. */
  photos?: string[];
  /** What the latest fresh check of its website found (issue 17), attached by the scan from the evidence cache. */
  websiteEvidence?: WebsiteEvidence;
}

/** The AI analysis attached to a prospect (SPEC.md §3 "AI analysis result" plus the explanation). */
export interface ProspectAnalysis {
  /** 0-100. */
  score: number;
  reasoning: string;
  /** 0-100. */
  confidence: number;
  recommendations: string[];
  /** What each component contributed; see src/core/scoring. */
  breakdown: ScoreBreakdown;
  /** ISO time of the analysis. */
  analyzedAt: string;
  businessHash: string;
  modelVersion: string;
  /**
   * Set when the reasoning text was rewritten by an AI model (issue 6 item 6): that model's name. The score,
   * confidence and recommendations are always the scoring model's; only the words are the AI's.
   */
  reasoningModel?: string;
}

/** One number per component of the raw score (SPEC.md §9). */
export interface ComponentValues {
  fit: number;
  presence: number;
  scale: number;
  keywords: number;
  distance: number;
  qualitySpread: number;
}

/** Per-component explanation of a score. Values are on the 0-1 scale unless the name says otherwise. */
export interface ScoreBreakdown {
  /** The vertical the business was scored as ('auto_dealer', 'dental', ...). */
  vertical: Vertical;
  /**
   * When a rule decided the score outright (national chain, gas station, ...), which one; 'fallback' for the
   * category-based score used when analysis failed; null when the model scored it.
   */
  rule: ScoreRule | 'fallback' | null;
  fit: number;
  presence: number;
  scale: number;
  keywords: number;
  distance: number;
  qualitySpread: number;
  /** Weighted contributions to the raw score (each component times its weight). */
  contributions: ComponentValues;
  /**
   * The raw score the display score is made from, 0-1: the calibrated intrinsic part plus distance and spread
   * (docs/SCORING.md "Calibration"); without a reference, the plain sum of the contributions.
   */
  raw: number;
  /** Fit, presence, scale and keywords weighted (0..0.84): what the business carries wherever it is scanned from. */
  intrinsic?: number;
  /** Its standing (0..1) in the reference population of its data source; null on the absolute scale. */
  quantile?: number | null;
  /** The reference population it was calibrated against. */
  reference?: { source: string; population: number } | null;
  /**
   * Display points of each component: integers that add up to the score (base is the display floor, 10). Null for
   * a score a rule decides.
   */
  points?: (ComponentValues & { base: number }) | null;
  /** Fields the data source never carries (scored neutral, lowering confidence): 'ratings', 'review counts'. */
  unknown?: string[];
  /** Listing evidence that stood in for review counts ('social profiles', 'e-mail', ...). */
  evidence?: string[];
  /** Places of the same business in the market (1 when single or unknown). */
  locations?: number;
  /** What the website check said, as a sentence of the reasoning ("Already advertising: ..."), or null. */
  website?: string | null;
  /** Channel propensities used for fit and recommendations. */
  propensity: { ctv: number; olv: number; display: number; sem: number };
  /** Named local franchised-dealer group matched (adds 0.03 to fit and presence). */
  dealerGroup: boolean;
  /** Brand matched in the name-suggestion-index, when any. */
  brand: string | null;
  /** Keyword groups that matched the name. */
  keywordMatches: string[];
}

/** The working record of SPEC.md §3. */
export interface Prospect {
  /** Place id, else provider id, else generated 'prospect_N'. */
  id: string;
  name: string;
  category: string;
  address: string;
  city?: string;
  state?: string;
  zip?: string;
  phone?: string;
  website?: string;
  lat: number;
  lng: number;
  /** Defaults to true when unknown (SPEC.md §3). */
  openNow: boolean;
  reviews: number;
  rating?: number;
  placeId?: string;
  priceLevel?: number;
  photos?: string[];
  source: BusinessSource;
  /** Distance from the scan centre in miles. */
  distance: number;
  /** 0-1 (the analysis score divided by 100). */
  score: number;
  types: string[];
  aiAnalysis?: ProspectAnalysis;
  /**
   * What the check of its website found (issue 17): `[]` until checked. Every prospect the API returns carries it
   * (stored results from before the checks are read as `[]`).
   */
  signals?: WebsiteSignal[];
}

/** What the cache key needs from a business. */
export interface CacheKeyInput {
  placeId?: string | null;
  name: string;
  address?: string | null;
  category?: string | null;
}

/**
 * The cache key (business hash) of SPEC.md §3: 'place_' plus the place id when one exists; otherwise the SHA-1
 * of the lower-cased name, address and category (joined with '|'), cut to 20 alphanumeric characters.
 */
export function businessHash(input: CacheKeyInput): string {
  const placeId = input.placeId?.trim();
  if (placeId) return `place_${placeId}`;
  const lower = (s: string | null | undefined): string => (s ?? '').trim().toLowerCase();
  const text = `${lower(input.name)}|${lower(input.address)}|${lower(input.category)}`;
  return sha1Hex(text).slice(0, 20);
}

/**
 * The cache key of a provider's business: its place id, else its stable provider id ('osm:node/123', 'demo:...'),
 * as the place id of {@link businessHash}. Businesses of the OSM import have no place id, and hashing name,
 * address and category would give every "Wells Fargo" without an address one key.
 */
export function businessCacheKey(
  b: Pick<Business, 'id' | 'placeId' | 'name' | 'address' | 'category'>,
): string {
  return businessHash({
    placeId: b.placeId?.trim() || b.id,
    name: b.name,
    address: b.address,
    category: b.category,
  });
}
