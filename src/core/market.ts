// The market a team imported: what a scan needs to know about a business beyond the business itself. How many
// places the same business has in the market (the scale of a local multi-location business), and whether the same
// business (its name or its website's domain) has places in several cities: a chain the brand lists do not know.
// Pure; the server computes it over the imported places (src/server/places/market.ts), tests and benchmarks over
// an extract.
import { ALL_PLACE_TYPES, isPlaceType, PLACE_TYPE_LABELS } from './categories';
import { normalizeName } from './dedup';
import { toAnalysisInput } from './prospect';
import type { AnalysisInput } from './scoring/analyze';
import type { Business } from './types';
import { EARTH_RADIUS_MILES, haversineMiles } from './geo';
import { PLATFORM_DOMAINS, registrableDomain } from './web-address';

/** Places closer than this (degrees, rounded grid) are one place: a shop mapped as a node and as its building. */
export const SAME_PLACE_DEGREES = 0.001;

const GENERIC_NAMES: ReadonlySet<string> = new Set([
  ...ALL_PLACE_TYPES.map((t) => normalizeName(t.replaceAll('_', ' '))),
  ...Object.values(PLACE_TYPE_LABELS).map((l) => normalizeName(l)),
  ...['dentist office', 'doctors office', 'law office', 'office', 'clinic', 'salon', 'barber', 'barbershop', 'gym', 'garage', 'school', 'bank', 'atm'].map(normalizeName),
]); // prettier-ignore

/** The key two places of one business share: the normalised name; null for names that say only what they are. */
export function locationKey(name: string): string | null {
  const key = normalizeName(name);
  if (key.length < 3 || GENERIC_NAMES.has(key)) return null;
  return key;
}

/** The key the places of one business's website share: its registrable domain, null for a platform's site. */
export function siteKey(website: string | null | undefined): string | null {
  const domain = registrableDomain(website);
  return domain && !PLATFORM_DOMAINS.has(domain) ? domain : null;
}

/** The places of one business from `counts` (countLocations, LocationCounter): 1 when it has no other. */
export function locationsOf(counts: ReadonlyMap<string, number>, name: string): number {
  const key = locationKey(name);
  return (key && counts.get(key)) || 1;
}

/**
 * What a business brings to its market's reference population (docs/SCORING.md, "One scale for every market:
 * the reference market"): its analysis input scored where it stands, when it is of a kind a scan returns (a
 * place type of the nine category groups); else null.
 */
export function referenceInput(b: Business): AnalysisInput | null {
  return b.types.some(isPlaceType) ? toAnalysisInput(b, 0) : null;
}

/**
 * How many distinct places each business name has: places within about 100 m of each other count once. Returns
 * counts only for names with two places or more.
 */
export function countLocations(
  items: Iterable<{ name: string; lat: number; lng: number }>,
): Map<string, number> {
  const counter = new LocationCounter();
  for (const it of items) counter.add(it.name, it.lat, it.lng);
  return counter.counts();
}

/**
 * countLocations one place at a time, for a market read page by page. Compact for a state's places, most of
 * which have a name of their own: a name seen in one cell keeps that cell as a number, and only a name seen in
 * two cells or more gets a Set.
 */
export class LocationCounter {
  private readonly cells = new Map<string, number | Set<number>>();

  add(name: string, lat: number, lng: number): void {
    const key = locationKey(name);
    if (!key || !Number.isFinite(lat) || !Number.isFinite(lng)) return;
    // The grid cell as one exact number (no string per place): row * 400,000 + column, both made non-negative.
    const cell =
      (Math.round(lat / SAME_PLACE_DEGREES) + 100_000) * 400_000 +
      (Math.round(lng / SAME_PLACE_DEGREES) + 200_000);
    const seen = this.cells.get(key);
    if (seen === undefined) this.cells.set(key, cell);
    else if (typeof seen === 'number') {
      if (seen !== cell) this.cells.set(key, new Set([seen, cell]));
    } else seen.add(cell);
  }

  /** Counts for the names with two places or more. */
  counts(): Map<string, number> {
    const out = new Map<string, number>();
    for (const [key, seen] of this.cells) if (typeof seen !== 'number') out.set(key, seen.size);
    return out;
  }
}

/**
 * Places of one business further apart than this are in several cities, beyond one metro area: the business is a
 * chain's, whose marketing is bought centrally, not a local business with a few branches.
 */
export const MANY_CITIES_MILES = 50;

/**
 * MANY_CITIES_MILES as the haversine term h of two points (distance = 2R asin(sqrt h)): a database compares the h
 * of a box's corners with it and needs no inverse sine.
 */
export const MANY_CITIES_HAVERSINE = Math.sin(MANY_CITIES_MILES / (2 * EARTH_RADIUS_MILES)) ** 2;

/** The box one key's places span. */
interface Span {
  minLat: number;
  maxLat: number;
  minLng: number;
  maxLng: number;
}

/**
 * Which businesses have places in several cities of the market, by their name (see locationKey) or their website's
 * domain (platform sites excluded), fed one place at a time.
 */
export class CitySpread {
  private readonly spans = new Map<string, Span>();

  add(name: string, website: string | null | undefined, lat: number, lng: number): void {
    if (!Number.isFinite(lat) || !Number.isFinite(lng)) return;
    const name_ = locationKey(name);
    if (name_) this.extend(`n:${name_}`, lat, lng);
    const domain = siteKey(website);
    if (domain) this.extend(`d:${domain}`, lat, lng);
  }

  private extend(key: string, lat: number, lng: number): void {
    const s = this.spans.get(key);
    if (!s) this.spans.set(key, { minLat: lat, maxLat: lat, minLng: lng, maxLng: lng });
    else {
      if (lat < s.minLat) s.minLat = lat;
      if (lat > s.maxLat) s.maxLat = lat;
      if (lng < s.minLng) s.minLng = lng;
      if (lng > s.maxLng) s.maxLng = lng;
    }
  }

  /** The keys whose places span more than MANY_CITIES_MILES (from corner to corner of their box). */
  done(): ManyCities {
    const keys = new Set<string>();
    for (const [key, s] of this.spans) {
      const miles = haversineMiles({ lat: s.minLat, lng: s.minLng }, { lat: s.maxLat, lng: s.maxLng });
      if (miles > MANY_CITIES_MILES) keys.add(key);
    }
    return new ManyCities(keys);
  }
}

/** The answer of a CitySpread: whether a business's name or website domain spans several cities. */
export class ManyCities {
  constructor(private readonly keys: ReadonlySet<string>) {}

  of(name: string, website: string | null | undefined): boolean {
    if (this.keys.size === 0) return false;
    const name_ = locationKey(name);
    if (name_ && this.keys.has(`n:${name_}`)) return true;
    const domain = siteKey(website);
    return !!domain && this.keys.has(`d:${domain}`);
  }
}
