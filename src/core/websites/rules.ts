// The detection rules of the website check, as data. Hand-written: no maintained, permissively licensed
// technology rule set exists on npm (wappalyzer-core 6.10.x is GPL-3.0 and, like the MIT 6.x releases, ships
// only the engine, not the technologies; 7.x carries no licence). Each rule names a signal kind and where its
// patterns look:
// - `code`: script sources and inline scripts, iframe, image and link addresses (tags, pixels, widgets);
// - `links`: the addresses and texts of the page's links and forms (booking pages, carts);
// - `text`: the visible text.
// A change of a rule must bump RULES_VERSION (stored evidence of another version is checked again).
import type { SignalKind } from './signals';

export const RULES_VERSION = 'r1';

export interface DetectionRule {
  kind: SignalKind;
  where: 'code' | 'links' | 'text';
  patterns: readonly RegExp[];
}

export const DETECTION_RULES: readonly DetectionRule[] = [
  // Advertising tags and pixels
  { kind: 'google_ads', where: 'code', patterns: [/\bAW-\d{6,12}\b/, /googleadservices\.com\/pagead\/conversion/i, /googleads\.g\.doubleclick\.net\/pagead/i] },
  { kind: 'meta_pixel', where: 'code', patterns: [/connect\.facebook\.net\/[\w_]+\/fbevents\.js/i, /\bfbq\(\s*['"]init['"]/, /facebook\.com\/tr\?id=\d+/i] },
  { kind: 'tiktok_pixel', where: 'code', patterns: [/analytics\.tiktok\.com\/i18n\/pixel/i, /\bttq\.load\(/] },
  { kind: 'microsoft_uet', where: 'code', patterns: [/bat\.bing\.com\/(bat\.js|action)/i, /\buetq\b/] },
  { kind: 'linkedin_insight', where: 'code', patterns: [/snap\.licdn\.com\/li\.lms-analytics/i, /_linkedin_partner_id/, /px\.ads\.linkedin\.com\/collect/i] },
  { kind: 'nextdoor_pixel', where: 'code', patterns: [/ads\.nextdoor\.com\/public\/pixel/i, /\bndp\(\s*['"]init['"]/] },
  { kind: 'stackadapt', where: 'code', patterns: [/tags\.srv\.stackadapt\.com/i, /\bsaq\(\s*['"]ts['"]/] },
  { kind: 'simplifi', where: 'code', patterns: [/\b(?:i|tag|a)\.simpli\.fi\//i] },
  { kind: 'trade_desk', where: 'code', patterns: [/\b(?:js|insight|match)\.adsrvr\.org/i, /\bttd_dom_ready\b/] },
  { kind: 'mntn', where: 'code', patterns: [/\b(?:px|dx)\.mountain\.com/i, /\bmntn_cuid\b/i] },
  { kind: 'tatari', where: 'code', patterns: [/\btatari\.(?:init|identify|pageview)\(/, /\bd2hrivdxn8ekm8\.cloudfront\.net\b/i, /\btatari-tracker\b/i] },
  // Measurement
  { kind: 'google_tag_manager', where: 'code', patterns: [/googletagmanager\.com\/gtm\.js/i, /\bGTM-[A-Z0-9]{4,9}\b/] },
  { kind: 'call_tracking', where: 'code', patterns: [/cdn\.callrail\.com/i, /\bcalltrk\.com\b/i, /\btctm\.co\b/i, /calltrackingmetrics\.com/i, /solutions\.invocacdn\.com/i, /\bmarchex\.io\b/i, /scripts\.iconnode\.com/i, /\bdialogtech\.com\b/i, /\bcallsource\.com\b/i] },
  // Growth
  { kind: 'online_booking', where: 'code', patterns: [/assets\.calendly\.com|calendly\.com\/[\w-]+/i, /acuityscheduling\.com/i, /squareup\.com\/appointments/i, /\bbooksy\.com\b/i, /\bvagaro\.com\b/i, /mindbodyonline\.com/i, /\bzocdoc\.com\b/i, /\bopentable\.com\b/i, /\bresy\.com\b/i, /book\.housecallpro\.com/i, /scheduler\.servicetitan\.com|static\.servicetitan\.com\/webscheduler/i, /\bsetmore\.com\b/i, /\bfresha\.com\b/i, /\bschedulicity\.com\b/i] },
  { kind: 'online_booking', where: 'links', patterns: [/\b(?:book (?:an? )?(?:appointment|online|now|a (?:table|visit|service))|schedule (?:an? )?(?:appointment|service|online|now)|request an? appointment)\b/i] },
  { kind: 'video', where: 'code', patterns: [/youtube(?:-nocookie)?\.com\/embed\//i, /player\.vimeo\.com\/video/i, /fast\.wistia\.(?:com|net)/i, /<video\b/i] },
  { kind: 'live_chat', where: 'code', patterns: [/widget\.intercom\.io/i, /js\.driftt\.com/i, /embed\.tawk\.to/i, /cdn\.livechatinc\.com/i, /static\.zdassets\.com\/ekr\/snippet\.js/i, /connect\.podium\.com/i, /\bbirdeye\.com\/embed/i, /client\.crisp\.chat/i, /code\.tidio\.co/i, /\bolark\.com\b/i, /\bapexchat\.(?:com|net)\b/i, /\bngageics\.com\b/i] },
  { kind: 'ecommerce', where: 'code', patterns: [/cdn\.shopify\.com/i, /\bShopify\.theme\b/, /\bwoocommerce\b/i, /\bbigcommerce\.com\b/i, /app\.ecwid\.com/i, /cdn\.snipcart\.com/i] },
  { kind: 'ecommerce', where: 'links', patterns: [/\/cart\b|\badd to (?:cart|bag)\b|\bcheckout\b/i] },
]; // prettier-ignore

/** Text of a parked domain or a placeholder page (a site with nothing on it). */
export const PARKED_PATTERNS: readonly RegExp[] = [
  /\bthis domain (?:name )?(?:is|may be) for sale\b/i,
  /\bbuy this domain\b/i,
  /\bdomain (?:is )?parked\b/i,
  /\bparked (?:free|domain)\b/i,
  /\b(?:website|site) (?:is )?coming soon\b/i,
  /\bunder construction\b/i,
  /\bwelcome to nginx!?/i,
  /\bapache2? (?:ubuntu |debian )?default page\b/i,
  /\bit works!/i,
  /\bthis site is currently unavailable\b/i,
  /\baccount (?:has been )?suspended\b/i,
];
/** Hosts that serve parked domains (a page framed from them, or a redirect to them). */
export const PARKING_HOSTS =
  /\b(?:sedoparking\.com|parkingcrew\.net|bodis\.com|dan\.com|afternic\.com|hugedomains\.com|above\.com|parklogic\.com)\b/i;

/** A copyright year this many years or more before the check is "out of date". */
export const STALE_COPYRIGHT_YEARS = 3;

/** Links worth a second look (a locations page lists places; contact and about pages carry the tags too). */
export const FOLLOW_LINK_PATTERN =
  /\b(?:contact|locations?|about|our-offices|find-us|appointments?|book|schedule)\b/i;
/** Pages read per site: the home page and at most this many more it links to. */
export const MAX_EXTRA_PAGES = 3;
