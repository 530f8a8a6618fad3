import type { Business, ProspectAnalysis } from '../../core/types.js';
import {
  analyzeBatch,
  type BrandIndex,
  type ScoreReference,
  type ScoreRule,
} from '../../core/scoring/index.js';
import { haversineMiles } from '../../core/geo.js';
import { toAnalysisInput } from '../../core/prospect.js';

export interface RankedBusiness {
  analysis: ProspectAnalysis;
}

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
  return analysis.breakdown.rule !== null && PREFILTERED_RULES.has(analysis.breakdown.rule as ScoreRule);
}

/** Reference populations by data source (docs/SCORING.md "Calibration"). */
export type References = Readonly<Partial<Record<string, ScoreReference>>>;

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
    return analyzeBatch(
      businesses.map((b) => toAnalysisInput(b, haversineMiles(center, b))),
      { ...(index ? { brandIndex: index } : {}), references: references() },
    ).map((analysis) => ({ analysis }));
  };
}
