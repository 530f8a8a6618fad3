// The `osm` provider: the public OpenStreetMap services. Overpass finds the businesses in a radius (Nominatim's
// usage policy forbids bulk business search); Nominatim geocodes and reverse-geocodes. Every request carries an
// identifying User-Agent; Nominatim gets at most one request per second and Overpass one request at a time.
import { z } from 'zod';
import {
  isOsmBusiness,
  OSM_BUSINESS_KEYS,
  OSM_EXTRA_KEYS,
  osmBusinessTypes,
  osmCategoryLabel,
  osmExtraBusinessValues,
} from '../../core/osm-tags.js';
import { METERS_PER_MILE } from '../../core/geo.js';
import { fetchJson, sharedLimiter, type FetchLike } from './http.js';
import { formatAddress } from './local-store.js';
import { openNow } from './open-now.js';
import { cleanName } from '../../core/api/common.js';
import {
  finishNearby,
  matchesTypes,
  ProviderError,
  type FoundBusiness,
  type GeocodeResult,
  type Geocoder,
  type NearbyQuery,
  type PlaceDetails,
  type PlaceProvider,
  type TextSearchQuery,
} from './provider.js';

/** Nominatim usage policy: an absolute maximum of 1 request per second. */
export const NOMINATIM_MIN_INTERVAL_MS = 1000;

const element = z.object({
  type: z.enum(['node', 'way', 'relation']),
  id: z.number(),
  lat: z.number().optional(),
  lon: z.number().optional(),
  center: z.object({ lat: z.number(), lon: z.number() }).optional(),
  tags: z.record(z.string(), z.string()).optional(),
});
const overpassAnswer = z.object({ elements: z.array(element), remark: z.string().optional() });

const nominatimPlace = z.object({
  lat: z.string(),
  lon: z.string(),
  display_name: z.string(),
  address: z.record(z.string(), z.string()).optional(),
});

/**
 * The Overpass QL of every named business within `radiusM` metres of a point, ways and relations at their centre:
 * any value of the business keys (shop, amenity, ...), and the leisure/tourism values the tag table knows (gyms,
 * bowling alleys, museums, hotels...). Built from src/core/osm-tags.ts, so it asks for what the local import keeps.
 */
export function overpassQuery(lat: number, lng: number, radiusM: number, timeoutS: number): string {
  const around = `(around:${Math.round(radiusM)},${lat.toFixed(6)},${lng.toFixed(6)})`;
  const statements = [`nwr["name"][~"^(${OSM_BUSINESS_KEYS.join('|')})$"~"."]${around};`];
  for (const key of OSM_EXTRA_KEYS) {
    statements.push(`nwr["name"]["${key}"~"^(${osmExtraBusinessValues(key).join('|')})$",i]${around};`);
  }
  return `[out:json][timeout:${timeoutS}];(${statements.join('')});out center tags;`;
}

/** An Overpass element as the core's Business; null when it is not a named business with a location. */
export function osmElementToBusiness(
  e: z.infer<typeof element>,
  now: Date = new Date(),
): FoundBusiness | null {
  const tags = e.tags ?? {};
  const lat = e.lat ?? e.center?.lat;
  const lng = e.lon ?? e.center?.lon;
  if (lat === undefined || lng === undefined || !isOsmBusiness(tags)) return null;
  const b: FoundBusiness = {
    id: `osm:${e.type}/${e.id}`,
    name: cleanName(tags.name ?? ''),
    lat,
    lng,
    types: osmBusinessTypes(tags),
    category: osmCategoryLabel(tags),
    address: formatAddress(tags),
    reviews: 0,
    openNow: openNow(tags.opening_hours, { lng, state: tags['addr:state'] }, now),
    source: 'osm',
    tags,
  };
  const set = (
    key: 'city' | 'state' | 'zip' | 'phone' | 'website' | 'brand' | 'brandWikidata',
    v?: string,
  ) => {
    if (v?.trim()) b[key] = v.trim();
  };
  set('city', tags['addr:city']);
  set('state', tags['addr:state']);
  set('zip', tags['addr:postcode']);
  set('phone', tags.phone ?? tags['contact:phone']);
  set('website', tags.website ?? tags['contact:website'] ?? tags.url);
  set('brand', tags.brand);
  set('brandWikidata', tags['brand:wikidata']);
  return b;
}

/** "City, ST" from a Nominatim address (ISO3166-2-lvl4 'US-CA' gives the state code). */
function shortLabel(address: Record<string, string> | undefined): string | null {
  if (!address) return null;
  const city = address.city ?? address.town ?? address.village ?? address.hamlet ?? address.municipality;
  const iso = address['ISO3166-2-lvl4'];
  const region = iso?.includes('-') ? iso.split('-')[1] : address.state;
  if (city && region) return `${city}, ${region}`;
  return city ?? null;
}

export interface OsmOptions {
  overpassUrl: string;
  nominatimUrl: string;
  userAgent: string;
  fetch?: FetchLike;
  /** Minimum spacing of Nominatim requests (default 1000 ms, the usage policy). */
  nominatimIntervalMs?: number;
  /** Overpass server-side timeout in seconds (default 25). */
  overpassTimeoutS?: number;
  clock?: () => Date;
}

export function createOsmProvider(opts: OsmOptions): PlaceProvider & Geocoder {
  const base = opts.nominatimUrl.replace(/\/+$/, '');
  // Shared by every provider instance in the process: the public services' limits apply to us as a whole.
  const overpass = sharedLimiter(opts.overpassUrl, 0);
  const nominatim = sharedLimiter(base, opts.nominatimIntervalMs ?? NOMINATIM_MIN_INTERVAL_MS);
  const clock = opts.clock ?? (() => new Date());
  const headers = { 'user-agent': opts.userAgent };
  const fetchOpt = opts.fetch ? { fetch: opts.fetch } : {};

  async function around(
    lat: number,
    lng: number,
    radiusMiles: number,
    signal: AbortSignal,
  ): Promise<FoundBusiness[]> {
    const query = overpassQuery(lat, lng, radiusMiles * METERS_PER_MILE, opts.overpassTimeoutS ?? 25);
    const body = await overpass.run(
      () =>
        fetchJson({
          provider: 'osm',
          url: opts.overpassUrl,
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
          body: `data=${encodeURIComponent(query)}`,
          signal,
          ...fetchOpt,
        }),
      signal,
    );
    const parsed = overpassAnswer.safeParse(body);
    if (!parsed.success) throw new ProviderError('osm', 'Overpass answer has an unexpected shape');
    // Overpass reports a server-side timeout or memory limit as a remark next to partial results.
    if (parsed.data.remark && /error/i.test(parsed.data.remark)) {
      throw new ProviderError('osm', `Overpass: ${parsed.data.remark.slice(0, 200)}`);
    }
    const now = clock();
    return parsed.data.elements
      .map((e) => osmElementToBusiness(e, now))
      .filter((b): b is FoundBusiness => b !== null);
  }

  async function nominatimGet(path: string, signal: AbortSignal): Promise<unknown> {
    return nominatim.run(
      () => fetchJson({ provider: 'osm', url: `${base}${path}`, headers, signal, ...fetchOpt }),
      signal,
    );
  }

  return {
    name: 'osm',

    async nearby(q: NearbyQuery, signal: AbortSignal): Promise<FoundBusiness[]> {
      const found = await around(q.lat, q.lng, q.radiusMiles, signal);
      return finishNearby(
        q,
        q.radiusMiles,
        found.filter((b) => matchesTypes(b, q.types)),
        q.limit,
      );
    },

    async textSearch(q: TextSearchQuery, signal: AbortSignal): Promise<FoundBusiness[]> {
      const words = q.query.toLowerCase().split(/\s+/).filter(Boolean);
      if (words.length === 0) return [];
      const found = await around(q.lat, q.lng, q.radiusMiles, signal);
      const hits = found.filter((b) => {
        const hay = `${b.name} ${b.category} ${b.types.join(' ').replace(/_/g, ' ')}`.toLowerCase();
        return words.every((w) => hay.includes(w));
      });
      return finishNearby(q, q.radiusMiles, hits, 20);
    },

    async details(id: string, signal: AbortSignal): Promise<PlaceDetails | null> {
      const m = /^osm:(node|way|relation)\/(\d+)$/.exec(id);
      if (!m) return null;
      const query = `[out:json][timeout:${opts.overpassTimeoutS ?? 25}];${m[1]}(${m[2]});out center tags;`;
      const body = await overpass.run(
        () =>
          fetchJson({
            provider: 'osm',
            url: opts.overpassUrl,
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
            body: `data=${encodeURIComponent(query)}`,
            signal,
            ...fetchOpt,
          }),
        signal,
      );
      const parsed = overpassAnswer.safeParse(body);
      if (!parsed.success) throw new ProviderError('osm', 'Overpass answer has an unexpected shape');
      const first = parsed.data.elements[0];
      const b = first ? osmElementToBusiness(first) : null;
      if (!b) return null;
      return {
        ...(b.phone && { phone: b.phone }),
        ...(b.website && { website: b.website }),
        ...(b.address && { address: b.address }),
        ...(b.city && { city: b.city }),
        ...(b.state && { state: b.state }),
        ...(b.zip && { zip: b.zip }),
      };
    },

    async geocode(query: string, signal: AbortSignal): Promise<GeocodeResult | null> {
      const body = await nominatimGet(
        `/search?format=jsonv2&limit=1&addressdetails=1&q=${encodeURIComponent(query)}`,
        signal,
      );
      const parsed = z.array(nominatimPlace).safeParse(body);
      if (!parsed.success) throw new ProviderError('osm', 'Nominatim answer has an unexpected shape');
      const first = parsed.data[0];
      if (!first) return null;
      const lat = Number(first.lat);
      const lng = Number(first.lon);
      if (!Number.isFinite(lat) || !Number.isFinite(lng)) return null;
      return { lat, lng, label: first.display_name };
    },

    async reverse(lat: number, lng: number, signal: AbortSignal): Promise<string | null> {
      const body = await nominatimGet(
        `/reverse?format=jsonv2&zoom=10&addressdetails=1&lat=${lat}&lon=${lng}`,
        signal,
      );
      // Nominatim answers {"error": "Unable to geocode"} where there is nothing.
      if (body && typeof body === 'object' && 'error' in body) return null;
      const parsed = nominatimPlace.safeParse(body);
      if (!parsed.success) throw new ProviderError('osm', 'Nominatim answer has an unexpected shape');
      return shortLabel(parsed.data.address) ?? parsed.data.display_name;
    },
  };
}
