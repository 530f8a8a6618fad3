import type { Business, Prospect, ProspectAnalysis } from '../../core/types.js';
import {
  analyzeBatch,
  isPrefilteredRule,
  PREFILTERED_RULES,
  scoreBatch,
  type BrandIndex,
} from '../../core/scoring/index.js';
import { placeArea } from '../../core/scoring/nsi.js';
import { haversineMiles } from '../../core/geo.js';
import { toAnalysisInput } from '../../core/prospect.js';

/** A business scored: what ordering reads, and its whole analysis when asked (a scan asks for the shown ones). */
export interface RankedBusiness {
  /** The display score, 0-100. */
  readonly score: number;
  /** The display score before rounding: what ordering compares. */
  readonly exact: number;
  /** The rule that decided the score (breakdown.rule), null for a score of the model. */
  readonly rule: string | null;
  analysis(): ProspectAnalysis;
}

/** A whole analysis as a RankedBusiness. */
export const ranked = (analysis: ProspectAnalysis): RankedBusiness => ({
  score: analysis.score,
  exact: analysis.score,
  rule: analysis.breakdown.rule,
  analysis: () => analysis,
});

/**
 * Scores a batch of businesses around a centre (the scoring model, src/core/scoring). `qualitySpread` gives the
 * batch's spread when the batch scored is a part of what the scan ranked (the best of a circle).
 */
export type ScoreFn = (
  businesses: Business[],
  center: { lat: number; lng: number },
  options?: { qualitySpread?: number },
) => RankedBusiness[];

export { PREFILTERED_RULES, isPrefilteredRule };

export function isPrefiltered(analysis: ProspectAnalysis): boolean {
  return isPrefilteredRule(analysis.breakdown.rule);
}

/** The input the scorer reads of a business: where it stands is looked up only when it has no stored profile. */
function inputOf(b: Business, miles: number) {
  const input = toAnalysisInput(b, miles);
  if (!b.profile) input.area = placeArea(b.lat, b.lng);
  return input;
}

/**
 * Scores one business of a stored result again (website evidence arrived): at the prospect's distance, with the
 * quality spread of the scan it was found in.
 */
export function createRescoreFn(brandIndex: () => BrandIndex | undefined) {
  return (business: Business, prospect: Prospect): ProspectAnalysis | null => {
    const index = brandIndex();
    const [analysis] = analyzeBatch([inputOf(business, prospect.distance)], {
      ...(index ? { brandIndex: index } : {}),
      qualitySpread: prospect.aiAnalysis?.breakdown.qualitySpread ?? 0,
    });
    return analysis ?? null;
  };
}

/** The scan's scorer: the pure model of src/core/scoring with the brand index loaded once by the server. */
export function createScoreFn(brandIndex: () => BrandIndex | undefined): ScoreFn {
  return (businesses, center, options = {}) => {
    const index = brandIndex();
    return scoreBatch(
      businesses.map((b) => inputOf(b, haversineMiles(center, b))),
      {
        ...(index ? { brandIndex: index } : {}),
        ...(options.qualitySpread !== undefined ? { qualitySpread: options.qualitySpread } : {}),
      },
    );
  };
}
