// The place-provider contract: every source of businesses — the imported OpenStreetMap extract, Google
// Places, Overpass, the demo grid — answers the same questions with the core's `Business` shape,
// so the chain can merge them and the scan service never knows which one answered.
import type { Business } from '../../core/types.js';
import { dropIncomplete } from '../../core/dedup.js';
import { haversineMiles, type BoundingBox, type LatLng } from '../../core/geo.js';
import type { GeocodeResult, PlaceDetails, SourceReport } from '../../core/api/index.js';

/** A provider search returns at most 500 businesses, nearest first. */
export const MAX_PROVIDER_RESULTS = 500;

export type ProviderName = 'local' | 'google' | 'osm' | 'demo';

/** Where a provider or the chain reports a failure it carries on past: a message and its details. */
export type ProviderWarn = (message: string, detail?: Record<string, unknown>) => void;

/**
 * An area inside a query's circle (a territory): only the places inside it count. Its box bounds the index pass of
 * the imported table, `contains` decides each place. Providers that cannot apply it answer the circle, and the
 * scan keeps only what `contains` accepts.
 */
export interface Within {
  box: BoundingBox;
  contains(point: LatLng): boolean;
}

export interface NearbyQuery {
  lat: number;
  lng: number;
  radiusMiles: number;
  /** Category groups' place types ('dentist', ...); empty (or only 'establishment') means every business. */
  types: string[];
  /** At most this many (capped at 500). */
  limit: number;
  /** Only the places inside this area (the circle is then its bounding circle). */
  within?: Within;
}

export interface TextSearchQuery {
  query: string;
  lat: number;
  lng: number;
  radiusMiles: number;
}

/** What a details call adds to a business: phone, website and the address parts. */
export type { PlaceDetails };

export type { GeocodeResult };

/** A business as the chain hands it out: the core's candidate plus the demo marker the UI shows. */
export type FoundBusiness = Business & { demo?: true };

/** What a provider that ranks its own places (the imported table) answers for a circle: see rankCircle. */
export interface RankedCircle {
  /** The best `limit` businesses of the circle, best first. */
  businesses: FoundBusiness[];
  /** Businesses of the circle it ranked (those a rule takes out of the list left out unless asked for). */
  considered: number;
  /** Ranked, not returned. */
  unread: number;
  /** The highest score an unreturned business can have, null when none is left. */
  nextBest: number | null;
  /** The quality spread of the circle's model-scored businesses. */
  spread: number;
}

export interface PlaceProvider {
  readonly name: ProviderName;
  /** Businesses strictly inside the circle, nearest first, at most `limit` (<= 500), each with name and location. */
  nearby(query: NearbyQuery, signal: AbortSignal): Promise<FoundBusiness[]>;
  /**
   * Every business inside the circle ranked by what it carries, the best `limit` returned: a provider that keeps
   * its places' ranks (the imported table) answers a scan with this instead of `nearby`.
   */
  rankedNearby?(query: NearbyQuery & { showAll: boolean }, signal: AbortSignal): Promise<RankedCircle>;
  /** A business by name or a category by words, within the radius, nearest first. */
  textSearch?(query: TextSearchQuery, signal: AbortSignal): Promise<FoundBusiness[]>;
  /** Phone, website and address parts of one business (by the id this provider gave it). */
  details?(id: string, signal: AbortSignal): Promise<PlaceDetails | null>;
}

export interface Geocoder {
  readonly name: string;
  geocode(query: string, signal: AbortSignal): Promise<GeocodeResult | null>;
  reverse(lat: number, lng: number, signal: AbortSignal): Promise<string | null>;
}

/** What one provider did in a chain call (a failure is reported, never fatal). */
export type { SourceReport };

export interface ChainResult {
  businesses: FoundBusiness[];
  sources: SourceReport[];
  /** What the provider that ranked its whole circle knows of the businesses it did not return (see RankedCircle). */
  circle?: Omit<RankedCircle, 'businesses'>;
  /**
   * Nothing was found and the imported OpenStreetMap data (the `local` provider, answering without Google or
   * the open-map service) holds no business at all in this area: an extract covering it has not been imported.
   */
  noLocalData?: true;
}

/** A provider answered with something we could not use (bad status, garbage body). */
export class ProviderError extends Error {
  constructor(
    readonly provider: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${provider}: ${message}`, options);
    this.name = 'ProviderError';
  }
}

/** The generic 'establishment' alone (or nothing) asks for every business. */
export function wantsEveryType(types: readonly string[]): boolean {
  return types.length === 0 || (types.length === 1 && types[0] === 'establishment');
}

/** True when the business carries one of the requested types (or every type is wanted). */
export function matchesTypes(business: Pick<Business, 'types'>, types: readonly string[]): boolean {
  if (wantsEveryType(types)) return true;
  return business.types.some((t) => types.includes(t));
}

/**
 * The provider contract applied to a raw list: entries without a name or location dropped, only those
 * strictly inside the radius by great-circle distance kept, nearest first, at most `limit` (never more
 * than 500).
 */
export function finishNearby<T extends Business>(
  center: LatLng,
  radiusMiles: number,
  list: readonly T[],
  limit: number,
): T[] {
  const max = Math.max(0, Math.min(limit, MAX_PROVIDER_RESULTS));
  return dropIncomplete(list)
    .map((b) => ({ b, d: haversineMiles(center, b) }))
    .filter((x) => x.d < radiusMiles)
    .sort((x, y) => x.d - y.d || x.b.id.localeCompare(y.b.id))
    .slice(0, max)
    .map((x) => x.b);
}

/** An AbortSignal that fires after `ms` or when `parent` fires, whichever comes first. */
export function timeoutSignal(ms: number, parent?: AbortSignal): AbortSignal {
  const timeout = AbortSignal.timeout(ms);
  return parent ? AbortSignal.any([parent, timeout]) : timeout;
}

/** A short, loggable description of any thrown value. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError') return 'timed out';
    if (error.name === 'AbortError') return 'aborted';
    return error.message;
  }
  return String(error);
}
