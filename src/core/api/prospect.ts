// A prospect, the working record of a scan, as the API carries it in both directions: the scan answers it,
// the browser posts it back to save it or ask for its strategy. One schema; src/core/types.ts takes the
// Prospect type from it. Every string, array and object is bounded, so a posted card nested thousands of
// arrays deep or megabytes long is refused (400), never a crash or a huge stored row. Unknown fields are
// dropped.
import { z } from 'zod';
import { VERTICALS } from '../verticals';
import { RULE_SCORES, type ScoreRule } from '../scoring/constants';
import { text, requiredText, isoTime, businessNameText } from './common';
import { websiteSignalSchema } from '../websites/signals';
import { MAX_PHOTOS, prospectPhotoSchema } from './photos';

const shortText = text(300);
const finite = z.number().finite();
const RULES = Object.keys(RULE_SCORES) as [ScoreRule, ...ScoreRule[]];

/** One number per component of the raw score (docs/SCORING.md, "The components"). */
export const componentValuesSchema = z.object({
  fit: finite,
  presence: finite,
  scale: finite,
  keywords: finite,
  distance: finite,
  qualitySpread: finite,
});
export type ComponentValues = z.infer<typeof componentValuesSchema>;

/** Per-component explanation of a score (src/core/scoring). Values are on the 0-1 scale unless named otherwise. */
export const scoreBreakdownSchema = componentValuesSchema.extend({
  /** The vertical the business was scored as ('auto_dealer', 'dental', ...). */
  vertical: z.enum(VERTICALS),
  /** The rule that decided the score outright; 'fallback' when analysis failed; null when the model scored it. */
  rule: z.enum([...RULES, 'fallback']).nullable(),
  /** Weighted contributions to the raw score (each component times its weight). */
  contributions: componentValuesSchema,
  /**
   * The raw score the display score is made from, 0-1 (docs/SCORING.md, "One scale for every market: the
   * reference market").
   */
  raw: finite,
  /** Fit, presence, scale and keywords weighted (0..0.84): what the business carries wherever it is scanned from. */
  intrinsic: finite.optional(),
  /** Its standing (0..1) in the reference population of its data source; null on the absolute scale. */
  quantile: finite.nullable().optional(),
  /** The reference population it was calibrated against. */
  reference: z.object({ source: shortText, population: finite }).nullable().optional(),
  /** Display points of each component, adding up to the score (base is the floor, 10); null for a rule's score. */
  points: componentValuesSchema.extend({ base: finite }).nullable().optional(),
  /** Fields the data source never carries (scored neutral, lowering confidence): 'ratings', 'review counts'. */
  unknown: z.array(text(100)).max(20).optional(),
  /** Listing evidence that stood in for review counts ('social profiles', 'e-mail', ...). */
  evidence: z.array(text(100)).max(20).optional(),
  /** Places of the same business in the market (1 when single or unknown). */
  locations: finite.optional(),
  /** What the website check said, as a sentence of the reasoning ("Already advertising: ..."), or null. */
  website: text(1000).nullable().optional(),
  /** Channel propensities used for fit and recommendations. */
  propensity: z.object({ ctv: finite, olv: finite, display: finite, sem: finite }),
  /** Named local franchised-dealer group matched (adds 0.03 to fit and presence). */
  dealerGroup: z.boolean(),
  /** Brand matched in the name-suggestion-index, when any. */
  brand: shortText.nullable(),
  /**
   * A category most local TV and cable sellers may not accept ('cannabis', 'firearms', 'adult'): the card flags it
   * and the score keeps it below every business a rep can sell to.
   */
  restricted: z.enum(['cannabis', 'firearms', 'adult']).nullable().optional(),
  /** Keyword groups that matched the name. */
  keywordMatches: z.array(text(100)).max(50),
});
export type ScoreBreakdown = z.infer<typeof scoreBreakdownSchema>;

/** The analysis attached to a prospect: score, reasoning, confidence, recommendations and their breakdown. */
export const prospectAnalysisSchema = z.object({
  /** 0-100. */
  score: z.number().min(0).max(100),
  reasoning: text(5000),
  /** 0-100. */
  confidence: z.number().min(0).max(100),
  recommendations: z.array(text(500)).max(50),
  breakdown: scoreBreakdownSchema,
  analyzedAt: isoTime,
  businessHash: text(200),
  modelVersion: text(40),
  /** Set when an AI model rewrote the reasoning text: that model's name (the numbers stay the scoring model's). */
  reasoningModel: text(200).optional(),
});
export type ProspectAnalysis = z.infer<typeof prospectAnalysisSchema>;

/** Where a candidate came from: 'local' is the imported places table, 'demo' demo mode's samples. */
export const businessSourceSchema = z.enum(['local', 'google', 'osm', 'demo']);
export type BusinessSource = z.infer<typeof businessSourceSchema>;

/**
 * Which source each field of an imported business came from, in the words the card shows ("OpenStreetMap",
 * "Overture (Meta)"): both when OpenStreetMap and Overture Maps hold the business (server/places/conflate.ts).
 */
export const fieldSourcesSchema = z.object({
  name: text(60).optional(),
  address: text(60).optional(),
  phone: text(60).optional(),
  website: text(60).optional(),
  hours: text(60).optional(),
});
export type FieldSources = z.infer<typeof fieldSourcesSchema>;

/** A prospect as a scan answers it. */
export const prospectSchema = z.object({
  /** Place id, else provider id, else generated 'prospect_N'. */
  id: requiredText(300),
  name: requiredText(300),
  category: text(100),
  address: text(500),
  city: shortText.optional(),
  state: shortText.optional(),
  zip: text(20).optional(),
  phone: text(50).optional(),
  website: text(2000).optional(),
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
  /** Defaults to true when unknown. */
  openNow: z.boolean(),
  reviews: z.number().int().min(0).max(100_000_000),
  rating: z.number().min(0).max(5).optional(),
  placeId: shortText.optional(),
  priceLevel: z.number().min(0).max(4).optional(),
  /** Google's photos of the business (their names and authors), shown through GET /api/photos. */
  photos: z.array(prospectPhotoSchema).max(MAX_PHOTOS).optional(),
  source: businessSourceSchema,
  /** Distance from the scan centre in miles. */
  distance: z.number().min(0).max(100_000),
  /** 0-1 (the analysis score divided by 100). */
  score: z.number().min(0).max(1),
  types: z.array(text(60)).max(50),
  aiAnalysis: prospectAnalysisSchema.optional(),
  /**
   * What the check of its website found: `[]` until checked; kept with a saved card so its chips show
   * in the Saved tab. Stored results from before the checks are read as `[]`.
   */
  signals: z.array(websiteSignalSchema).max(60).optional(),
  /** Where its fields came from, for a business of the imported data. */
  sources: fieldSourcesSchema.optional(),
  /**
   * Its standing in the imported billing, added when a page is answered (never stored with the results):
   * lastYearTotal in dollars, only for a reader who may see amounts.
   */
  billing: z
    .object({
      status: z.enum(['lapsed', 'declining', 'current']),
      lastMonth: z.string().max(7),
      lastYearTotal: z.number().optional(),
    })
    .optional(),
});
export type Prospect = z.infer<typeof prospectSchema>;

/**
 * A prospect as a client sends it back (Save for Later, the strategy request) and as it is stored from that:
 * the same record, with the fields a card may lack optional. Still strictly bounded: a breakdown is the
 * breakdown's known fields, never free-form JSON.
 */
export const prospectInputSchema = prospectSchema.extend({
  /** The business's name, one line: it is shown in lists and written into calendar files and CSV exports. */
  name: businessNameText(300),
  openNow: z.boolean().optional(),
  reviews: z.number().int().min(0).max(100_000_000).optional(),
  source: z.string().max(20).optional(),
  distance: z.number().min(0).max(100_000).optional(),
  types: z.array(text(60)).max(50).optional(),
  aiAnalysis: prospectAnalysisSchema
    .partial()
    .extend({
      score: z.number().min(0).max(100),
      breakdown: scoreBreakdownSchema.partial().optional(),
    })
    .optional(),
});
export type ProspectInput = z.infer<typeof prospectInputSchema>;
