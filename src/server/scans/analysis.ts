import type { Business, Prospect, ProspectAnalysis } from '../../core/types.js';
import {
  analyzeBatch,
  scoreBatch,
  type BrandIndex,
  type ScoreReference,
  type ScoreRule,
} from '../../core/scoring/index.js';
import { haversineMiles } from '../../core/geo.js';
import { toAnalysisInput } from '../../core/prospect.js';

/** A business scored: what ordering reads, and its whole analysis when asked (a scan asks for the shown ones). */
export interface RankedBusiness {
  /** The display score, 0-100. */
  readonly score: number;
  /** The rule that decided the score (breakdown.rule), null for a score of the model. */
  readonly rule: string | null;
  analysis(): ProspectAnalysis;
}

/** A whole analysis as a RankedBusiness. */
export const ranked = (analysis: ProspectAnalysis): RankedBusiness => ({
  score: analysis.score,
  rule: analysis.breakdown.rule,
  analysis: () => analysis,
});

/** Scores a batch of businesses around a centre (the scoring model of SPEC §9, src/core/scoring). */
export type ScoreFn = (businesses: Business[], center: { lat: number; lng: number }) => RankedBusiness[];

/**
 * Rules that take a business out of the list unless "show all prospects" is on: national and local
 * chains, gas stations, government, non-profits and categories that do not buy local advertising.
 * Auto repair stays (a local business, scored low).
 */
export const PREFILTERED_RULES: ReadonlySet<ScoreRule> = new Set<ScoreRule>([
  'nationalChain',
  'lowPropensity',
  'chain',
  'gasStation',
  'government',
  'nonProfit',
]);

export function isPrefiltered(analysis: ProspectAnalysis): boolean {
  return isPrefilteredRule(analysis.breakdown.rule);
}

/** {@link isPrefiltered} of an analysis decided by `rule` (null: the model's score). */
export function isPrefilteredRule(rule: string | null): boolean {
  return rule !== null && PREFILTERED_RULES.has(rule as ScoreRule);
}

/** Reference populations by data source (docs/SCORING.md "Calibration"). */
export type References = Readonly<Partial<Record<string, ScoreReference>>>;

/**
 * Scores one business of a stored result again (website evidence arrived, issue 17): at the prospect's distance,
 * with the quality spread of the scan it was found in and the market's references.
 */
export function createRescoreFn(
  brandIndex: () => BrandIndex | undefined,
  references: () => References = () => ({}),
) {
  return (business: Business, prospect: Prospect): ProspectAnalysis | null => {
    const index = brandIndex();
    const [analysis] = analyzeBatch([toAnalysisInput(business, prospect.distance)], {
      ...(index ? { brandIndex: index } : {}),
      references: references(),
      qualitySpread: prospect.aiAnalysis?.breakdown.qualitySpread ?? 0,
    });
    return analysis ?? null;
  };
}

/**
 * The scan's scorer: the pure model of src/core/scoring with the brand index loaded once by the server and the
 * market's reference populations (kept current by places/market.ts).
 */
export function createScoreFn(
  brandIndex: () => BrandIndex | undefined,
  references: () => References = () => ({}),
): ScoreFn {
  return (businesses, center) => {
    const index = brandIndex();
    return scoreBatch(
      businesses.map((b) => toAnalysisInput(b, haversineMiles(center, b))),
      { ...(index ? { brandIndex: index } : {}), references: references() },
    );
  };
}
