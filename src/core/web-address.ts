// What a business's website address says of the business, before anyone fetches it: whose domain it is, whether
// it is a page on a platform (a social network, a booking or listing site) rather than the business's own site,
// and whether it is one location's page on a larger business's site ("chase.com/locations/ca/san-francisco"): the
// address a chain's outlet gives. Pure string work on the URL.

/** Second-level labels under which a country's registrable domains sit (example.co.uk, example.com.au). */
const SECOND_LEVEL = new Set(['co', 'com', 'org', 'net', 'gov', 'ac', 'edu', 'gouv', 'asso', 'ne', 'or']);

/** The host of a website address, lower case without a leading "www.", or null when it is not an address. */
export function websiteHost(url: string | null | undefined): string | null {
  const raw = url?.trim();
  if (!raw) return null;
  try {
    const host = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`).hostname.toLowerCase();
    if (!host.includes('.')) return null;
    return host.startsWith('www.') ? host.slice(4) : host;
  } catch {
    return null;
  }
}

/** The registrable domain of a website ("sutterhealth.org" of "www.sutterhealth.org/find-a-location"). */
export function registrableDomain(url: string | null | undefined): string | null {
  const host = websiteHost(url);
  if (!host) return null;
  const labels = host.split('.');
  if (labels.length <= 2) return host;
  const second = labels[labels.length - 2] ?? '';
  const keep = SECOND_LEVEL.has(second) && (labels.at(-1)?.length ?? 0) === 2 ? 3 : 2;
  return labels.slice(-keep).join('.');
}

/**
 * What a website's domain says of who runs it: '.gov' (and '.mil') a public body, '.org' a non-profit or an
 * association; null for any other domain.
 */
export function domainKind(url: string | null | undefined): 'public' | 'nonprofit' | null {
  const host = websiteHost(url);
  if (!host || isPlatformSite(url)) return null;
  const labels = host.split('.');
  const tld = labels.at(-1);
  if (tld === 'gov' || tld === 'mil' || labels.at(-2) === 'gov') return 'public';
  if (tld === 'org' || labels.at(-2) === 'org') return 'nonprofit';
  return null;
}

/** The name part of a website's registrable domain ("sutterhealth" of sutterhealth.org), lower case. */
export function domainLabel(url: string | null | undefined): string | null {
  const domain = registrableDomain(url);
  return domain ? (domain.split('.')[0] ?? null) : null;
}

/**
 * Sites where many unrelated businesses have their pages (social networks, link pages, booking, listing and
 * site-builder hosts): a domain shared there says nothing about who owns the businesses.
 */
export const PLATFORM_DOMAINS: ReadonlySet<string> = new Set([
  'facebook.com', 'instagram.com', 'twitter.com', 'x.com', 'linkedin.com', 'tiktok.com', 'youtube.com',
  'linktr.ee', 'yelp.com', 'google.com', 'goo.gl', 'business.site', 'wixsite.com', 'wix.com', 'squarespace.com',
  'godaddysites.com', 'weebly.com', 'wordpress.com', 'blogspot.com', 'square.site', 'vagaro.com', 'glossgenius.com',
  'genbook.com', 'mindbodyonline.com', 'booksy.com', 'schedulicity.com', 'styleseat.com', 'weedmaps.com',
  'leafly.com', 'opentable.com', 'toasttab.com', 'doordash.com', 'ubereats.com', 'grubhub.com', 'zocdoc.com',
  'healthgrades.com', 'avvo.com', 'justia.com', 'findlaw.com', 'calbar.ca.gov', 'realtor.com', 'zillow.com',
  'compass.com', 'kickstarter.com', 'wikipedia.org', 'wikidata.org', 'github.io', 'netlify.app', 'vercel.app',
  'amazon.com', 'etsy.com', 'shopify.com', 'myshopify.com', 'bit.ly', 'tripadvisor.com', 'booking.com',
]); // prettier-ignore

/** True when the website is a page on a platform rather than the business's own site. */
export function isPlatformSite(url: string | null | undefined): boolean {
  const domain = registrableDomain(url);
  return domain !== null && PLATFORM_DOMAINS.has(domain);
}

/** Subdomains a chain's store locator lives on ("locator.chase.com", "local.lenscrafters.com"). */
const LOCATOR_HOST = /^(locator|locators|local|stores|store|locations|location|branches|branch|offices)\./;

/** Path segments that open one location's page on a larger business's site, followed by the location. */
const LOCATION_PATH =
  /\/(locations?|stores?|store-?locator|store-?finder|branch(es)?|branch-?locator|offices|find-?a-?location|find-?locations?|our-centers|centers|clubs|local|spa-location)\/[^/?#]+/i;

/**
 * True when the website is one location's page on a larger business's site: a store-locator host, or a path such as
 * /locations/<place> — what a chain gives as an outlet's website, where a local business gives its own home page.
 */
export function isLocationPage(url: string | null | undefined): boolean {
  const raw = url?.trim();
  if (!raw) return false;
  const host = websiteHost(raw);
  if (!host || isPlatformSite(raw)) return false;
  if (LOCATOR_HOST.test(host)) return true;
  let path = '';
  try {
    path = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`).pathname;
  } catch {
    return false;
  }
  return LOCATION_PATH.test(path);
}

/** The rules above, for fingerprints of what a stored reading was made under. */
export const WEB_ADDRESS_RULES = [
  [...SECOND_LEVEL],
  [...PLATFORM_DOMAINS],
  String(LOCATOR_HOST),
  String(LOCATION_PATH),
] as const;
