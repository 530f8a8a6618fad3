// The page sizes of the lists answered a page at a time (the Log, Today), apart from the schemas so the web app
// can read them without zod in its bundle.

/** A list answered a page at a time: this many entries unless `limit` says otherwise, never more than the max. */
export const PAGE_SIZE = 200;
export const PAGE_SIZE_MAX = 500;
