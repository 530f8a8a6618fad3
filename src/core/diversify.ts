// "Spread results out" (docs/SCORING.md, "Spread results out"): an optional re-ranking of a scan's
// score-sorted list so that its first page is not ten offices of one tower when the area holds good prospects
// elsewhere. Pure, deterministic, no I/O.

import { haversineMiles, MILES_PER_DEGREE } from './geo';

/** The minimum spacing: 0.25 mile (great-circle distance, earth radius 3959 miles). */
export const SPREAD_MIN_SPACING_MILES = 0.25;

/**
 * How far below the highest-ranked remaining business (in points of the 0-100 display score) another one may
 * be and still count as a "similar score" that can take its turn. 10 points is half a reasoning band (decent
 * 40-59, good 60-79, excellent 80+): two businesses that close read as the same grade of prospect to a rep, so
 * letting the one in a new place go first costs little. A business more than 10 points better is a clearly
 * better call and is never pushed down for spacing: then the best remaining one is taken even though it stands
 * next to one already taken.
 */
export const SPREAD_SIMILAR_MARGIN_POINTS = 10;

/** What the re-ranking reads of a prospect: its place and its 0..1 score (the display score divided by 100). */
export interface Spreadable {
  lat: number;
  lng: number;
  score: number;
}

export interface SpreadOptions {
  /** The scan option "Spread results out"; off, the list comes back in the order it was given. */
  spreadOut: boolean;
  /**
   * How many places at the head of the list to decide (a scan keeps its top 100). The rest follow in their
   * given order. Defaults to the whole list.
   */
  limit?: number;
}

/** Float noise in 0..1 scores times 100 must not turn "exactly 10 points below" into "more than 10". */
const POINTS_EPSILON = 1e-9;

/**
 * Re-rank a list sorted best first. Repeatedly takes the highest-ranked remaining business that stands at least
 * {@link SPREAD_MIN_SPACING_MILES} from every business already taken, unless its score is more than
 * {@link SPREAD_SIMILAR_MARGIN_POINTS} below the highest-ranked remaining one; when no remaining business
 * qualifies, the highest-ranked remaining one is taken anyway. Businesses that gave way keep their relative
 * order. Never drops or adds anyone: the answer is a permutation of `ranked` (a new array; `ranked` is not
 * changed).
 *
 * "Highest-ranked remaining" is the first not yet taken in the given order, so the result depends only on that
 * order and the businesses' places and scores: deterministic, ties keep the order they came in. A business
 * whose coordinates are not finite is never "within" the spacing of another.
 *
 * Cost: O(n·k) distance computations for n businesses and k = `limit` places decided (each pick marks the
 * remaining businesses within the spacing of the one just taken, once). For a scan's 500 and 100: 50,000.
 */
export function spreadResults<T extends Spreadable>(ranked: readonly T[], options: SpreadOptions): T[] {
  const n = ranked.length;
  if (!options.spreadOut || n < 2) return ranked.slice();
  const k = Math.max(0, Math.min(n, Math.floor(options.limit ?? n)));
  const taken = new Uint8Array(n);
  /** 1 once the business stands within the spacing of one already taken (it stays so: taken ones stay taken). */
  const near = new Uint8Array(n);
  const out: T[] = [];
  let head = 0; // the first index not yet taken
  while (out.length < k) {
    while (taken[head]) head++;
    const top = ranked[head]!;
    let pick = head;
    if (near[head]) {
      for (let i = head + 1; i < n; i++) {
        if (taken[i] || near[i]) continue;
        const below = (top.score - ranked[i]!.score) * 100;
        if (below > SPREAD_SIMILAR_MARGIN_POINTS + POINTS_EPSILON) continue;
        pick = i;
        break;
      }
    }
    const chosen = ranked[pick]!;
    taken[pick] = 1;
    out.push(chosen);
    for (let i = head; i < n; i++) {
      if (taken[i] || near[i]) continue;
      const other = ranked[i]!;
      // A degree of latitude is 69 miles (and a little more on the 3959-mile sphere): a latitude gap this wide
      // is already far enough, without the trigonometry.
      if (Math.abs(chosen.lat - other.lat) * MILES_PER_DEGREE >= SPREAD_MIN_SPACING_MILES) continue;
      if (haversineMiles(chosen, other) < SPREAD_MIN_SPACING_MILES) near[i] = 1;
    }
  }
  for (let i = 0; i < n; i++) if (!taken[i]) out.push(ranked[i]!);
  return out;
}
