// Buying seasons: when each kind of business plans its local media, so a card can say why now is a good time to
// call ("Plans its summer campaign now"). Data, not code: one table of campaigns per vertical with the months the
// business plans each one (usually one to three months before it runs) and the months it runs. Where the table
// comes from, row by row, is in docs/SCORING.md ("Buying seasons"). A season never changes a score: it is read
// beside the score, never by the model.
import type { LocalDate } from './local-days';
import type { Vertical } from './verticals';

/** A calendar month, 1 (January) to 12 (December). */
export type Month = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12;

export interface BuyingSeason {
  /** The campaign as a rep would name it, to read after "Plans its …": 'summer campaign', "Presidents' Day sale". */
  campaign: string;
  /** The months the business plans and buys it: the months a card says "now". */
  plans: readonly Month[];
  /** The months it runs, for the docs and the reader. */
  runs: readonly Month[];
}

/**
 * The buying seasons of each vertical, in calendar order of their planning months. A vertical that buys all year
 * (legal, medical, plumbing...) or is not sold to (government, restricted...) has none, and its cards show no
 * season line. Within a vertical no two campaigns are planned in the same month (season.test.ts checks it).
 */
export const BUYING_SEASONS: Readonly<Partial<Record<Vertical, readonly BuyingSeason[]>>> = {
  hvac: [
    { campaign: 'summer campaign', plans: [3, 4], runs: [5, 6, 7, 8] },
    { campaign: 'winter campaign', plans: [8, 9], runs: [10, 11, 12, 1] },
  ],
  roofing: [{ campaign: 'spring campaign', plans: [1, 2], runs: [3, 4, 5, 6] }],
  home_services: [{ campaign: 'spring campaign', plans: [1, 2], runs: [3, 4, 5] }],
  furniture: [
    { campaign: "Presidents' Day sale", plans: [12, 1], runs: [2] },
    { campaign: 'Memorial Day sale', plans: [3, 4], runs: [5] },
    { campaign: 'Fourth of July sale', plans: [5], runs: [6, 7] },
    { campaign: 'Labor Day sale', plans: [6, 7], runs: [8, 9] },
    { campaign: 'Black Friday sale', plans: [9, 10], runs: [11] },
  ],
  finance: [{ campaign: 'tax-season campaign', plans: [11, 12], runs: [1, 2, 3, 4] }],
  auto_dealer: [
    { campaign: 'model-year-end sale', plans: [6, 7], runs: [8, 9, 10] },
    { campaign: 'year-end sales event', plans: [10, 11], runs: [12] },
  ],
  insurance: [{ campaign: 'open-enrollment campaign', plans: [8, 9], runs: [10, 11, 12] }],
  dental: [{ campaign: 'use-your-benefits campaign', plans: [8, 9], runs: [10, 11, 12] }],
  orthodontics: [{ campaign: 'back-to-school campaign', plans: [5, 6], runs: [7, 8] }],
  education: [
    { campaign: 'fall enrollment campaign', plans: [4, 5], runs: [6, 7, 8] },
    { campaign: 'January enrollment campaign', plans: [10, 11], runs: [12, 1] },
  ],
  fitness: [{ campaign: 'New Year campaign', plans: [10, 11], runs: [12, 1] }],
  wellness: [
    { campaign: "Mother's Day campaign", plans: [2, 3], runs: [4, 5] },
    { campaign: 'holiday gift-card campaign', plans: [9, 10], runs: [11, 12] },
  ],
  beauty: [{ campaign: 'holiday campaign', plans: [9, 10], runs: [11, 12] }],
  restaurant: [
    { campaign: 'summer campaign', plans: [3, 4], runs: [5, 6, 7, 8] },
    { campaign: 'holiday campaign', plans: [9, 10], runs: [11, 12] },
  ],
  bar: [
    { campaign: 'summer campaign', plans: [3, 4], runs: [5, 6, 7, 8] },
    { campaign: 'holiday campaign', plans: [9, 10], runs: [11, 12] },
  ],
  qsr: [{ campaign: 'summer campaign', plans: [3, 4], runs: [5, 6, 7, 8] }],
  entertainment: [{ campaign: 'summer campaign', plans: [3, 4], runs: [5, 6, 7, 8] }],
  hotel: [{ campaign: 'summer travel campaign', plans: [2, 3], runs: [5, 6, 7, 8] }],
  real_estate: [{ campaign: 'spring market campaign', plans: [1, 2], runs: [3, 4, 5, 6] }],
  pharmacy: [{ campaign: 'flu-season campaign', plans: [7, 8], runs: [9, 10, 11] }],
};

/** The month (1-12) of a local date 'YYYY-MM-DD': the rep's own month when the date is the rep's today. */
export function monthOf(date: LocalDate): Month {
  const month = Number(date.slice(5, 7));
  if (!Number.isInteger(month) || month < 1 || month > 12) throw new RangeError(`not a local date: ${date}`);
  return month as Month;
}

/** The campaign a business of this vertical plans in this month, or null (none that month, or none at all). */
export function seasonFor(vertical: Vertical | null | undefined, month: Month): BuyingSeason | null {
  if (!vertical) return null;
  return BUYING_SEASONS[vertical]?.find((s) => s.plans.includes(month)) ?? null;
}

/** The card's line for a business in its buying season: "Plans its summer campaign now". */
export function seasonLine(season: BuyingSeason): string {
  return `Plans its ${season.campaign} now`;
}

/**
 * Items in their buying season first, each part in its given order (a stable sort), for the Today tab's
 * "In season first": the rep's own order is kept within each part.
 */
export function inSeasonFirst<T>(
  items: readonly T[],
  verticalOf: (item: T) => Vertical | null | undefined,
  month: Month,
): T[] {
  const inSeason: T[] = [];
  const rest: T[] = [];
  for (const item of items) (seasonFor(verticalOf(item), month) ? inSeason : rest).push(item);
  return [...inSeason, ...rest];
}
