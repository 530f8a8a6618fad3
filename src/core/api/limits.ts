// The contract's numeric limits that the web app reads too, kept apart from the schemas so its first screen
// does not load zod for a few numbers.

/** A list answered a page at a time: this many entries unless `limit` says otherwise, never more than the max. */
export const PAGE_SIZE = 200;
export const PAGE_SIZE_MAX = 500;

/** The fewest and the most prospects a page of results shows (docs/PRODUCT.md, "Limits"). */
export const COUNT_MIN = 5;
export const COUNT_MAX = 50;
/** The most results a scan keeps: what the further pages can load (docs/PRODUCT.md, "Limits"). */
export const MAX_LOADED = 100;

/** The most stops one route takes (the optimiser answers 50 in well under a second: docs/PERFORMANCE.md). */
export const MAX_ROUTE_STOPS = 50;
