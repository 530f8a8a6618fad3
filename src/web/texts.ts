// Texts only the web app shows, in the product's exact words (docs/PRODUCT.md, "Messages"): tests and users
// rely on them, so never reword one. Texts shared with the server are in src/core/messages.ts.
export const SUBTITLE = 'AI-Powered Prospect Discovery';

// Location
export const GPS_FAILED = 'Could not get GPS location. Please try again or enter an address manually.';
export const GPS_UNAVAILABLE = 'GPS is not available on this device';
// 'Please enter an address' and 'Address not found...' are shared with the server: src/core/messages.ts.

// Scanning and search
export const SCANNING = 'Scanning...';
export const SCANNING_FOR_PROSPECTS = 'Scanning for prospects...';
export const ANALYZING_WITH_AI = 'Analyzing prospects with AI...';
export const MAY_TAKE_MINUTES = 'This process may take a few minutes to complete';
export const QUICK_SEARCH_FAILED = 'Quick search failed. Check console for details.';
export const SCAN_FAILED = 'Error scanning for businesses. Check console for details.';
export const LOAD_MORE_FAILED = 'Error loading more prospects. Please try again.';

// The Prospects list before and after a scan
export const NO_PROSPECTS_YET = 'No prospects yet. Set a location and press Scan Area.';
export const RESULTS_CLEARED = 'Results cleared.';
export const DEMO_RESULTS =
  'Demo businesses: no place data is configured on this server yet, so these results are examples.';
export const DEMO_BEFORE_IMPORT =
  'Demo businesses: these results are examples from before business data was imported here. Scan Area again for real ones.';
export const NO_BUSINESSES_FOUND =
  'No businesses found in this area. Try a larger radius or more categories.';
/** All that can be loaded is shown while the scan found more (at most MAX_LOADED, 100, are loaded). */
export const loadLimitNote = (loaded: number, total: number, max: number) =>
  `Showing ${loaded} of ${total}. At most ${max} results can be loaded: narrow the scan with a smaller ` +
  'radius or fewer categories to see the rest.';
export const NO_LOCAL_DATA =
  'No business data has been imported for this area yet: the imported map data covers other areas only. ' +
  'Ask an admin to import an OpenStreetMap extract that covers it (npm run import:osm), or to enable the ' +
  'OpenStreetMap services (OSM_ENABLED=true) or Google Places (GOOGLE_MAPS_API_KEY) on the server.';

// Working the list
export const PHONE_NOT_AVAILABLE = 'Phone number not available.';
export const WEBSITE_NOT_AVAILABLE = 'Website not available.';
export const SET_CATEGORY_FIRST = 'Set a category first to generate a high-quality strategy.';
export const WHY_GOOD_PROSPECT = 'Why this is a good prospect:';
/** Under 40 (a poor score, src/core/scoring/reasoning.ts) the reasoning explains the score, not a prospect. */
export const ABOUT_THIS_SCORE = 'About this score:';
export const reasoningHeading = (score0to100: number) =>
  score0to100 >= 40 ? WHY_GOOD_PROSPECT : ABOUT_THIS_SCORE;

// Call history
export const CALL_HISTORY = 'Call History';
export const NO_CALL_HISTORY = 'No call history yet. Log your first call to see it here.';
export const NO_CALL_HISTORY_TO_EXPORT = 'No call history to export';
export const NO_CALL_HISTORY_TO_CLEAR = 'No call history to clear';
/** `n` null: the Log shows only its first pages, so the count is not known here. */
export const confirmClearCallLog = (n: number | null) =>
  `Are you sure you want to clear all ${n === null ? 'your' : n} call log entries? This action cannot be undone.`;
/** The button under a list the server sends a page at a time (the Log, Today). */
export const LOAD_MORE_ENTRIES = 'Load more';
export const CALL_HISTORY_CLEARED = 'Call history cleared successfully';

// Outcomes: the status select of a card's log form
export const OUTCOME_CALLED = 'Called';
export const OUTCOME_VISITED = 'Visited';
export const OUTCOME_SAVE = 'Save for Later';
// Confirmations of Save for Later
export const SAVED_FOR_LATER = 'Saved for later.';
export const ALREADY_SAVED = 'This prospect is already in your saved prospects.';

// Help dialog
export const DONT_SHOW_AGAIN = "Don't show this again";
export const GET_STARTED = 'Get Started';
/** Removing a current advertiser failed, wherever it was removed (the Advertisers tab, a card). */
export const removeAdvertiserFailed = (m: string) => `Error: ${m}`;
