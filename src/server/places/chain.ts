// The place chain: which providers answer is decided by configuration (PLACE_PROVIDERS), each call is bounded by
// PROVIDER_TIMEOUT_MS, and a failing provider degrades quietly — logged, the others go on, and the
// answer says which sources failed. Geocoding runs through the same chain and ends in the offline gazetteer.
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { topUp } from '../../core/dedup.js';
import { haversineMiles } from '../../core/geo.js';
import { gazetteer, gazetteerGeocode } from '../geocoding/gazetteer.js';
import { findAddress, nearestAddress } from '../geocoding/addresses.js';
import { parseAddressQuery, parseCoordinates } from '../../core/addresses.js';
import { createDemoProvider } from './demo.js';
import { createGoogleProvider, isUsableGoogleKey } from './google.js';
import type { FetchLike } from './http.js';
import { hasPlaces, hasPlacesNear } from './local-store.js';
import { createLocalProvider } from './local.js';
import { createOsmProvider } from './osm.js';
import {
  describeError,
  MAX_PROVIDER_RESULTS,
  timeoutSignal,
  type ChainResult,
  type FoundBusiness,
  type GeocodeResult,
  type Geocoder,
  type NearbyQuery,
  type PlaceDetails,
  type PlaceProvider,
  type ProviderName,
  type ProviderWarn,
  type SourceReport,
  type TextSearchQuery,
} from './provider.js';

/** What the scan service asks for. */
export interface ChainNearbyQuery extends NearbyQuery {
  /**
   * Rank the whole circle where a provider can (the imported table): its best `limit` come back, and what it knows of
   * the rest in `circle`. `showAll` keeps the businesses a rule takes out of the list.
   */
  ranked?: { showAll: boolean };
  /** Top up with open-map results when fewer than this many are found (default 20). */
  minCount?: number;
  /** The Algorithm Setting that allows the open-map top-up (default true). */
  useOsmTopUp?: boolean;
}

export interface PlaceChain {
  /** Businesses around a point from every active provider, best-sourced first, at most `limit` (<= 500). */
  nearby(query: ChainNearbyQuery, signal?: AbortSignal): Promise<ChainResult>;
  /** A business by name or a category by words within the radius (quick search). */
  textSearch(query: TextSearchQuery, signal?: AbortSignal): Promise<ChainResult>;
  /** Phone, website and address parts of one business, asked of the provider its id belongs to. */
  details(id: string, signal?: AbortSignal): Promise<PlaceDetails | null>;
  /** Address, city, 'City, ST' or ZIP to a point: Google, then Nominatim, then the offline gazetteer. */
  geocode(query: string, signal?: AbortSignal): Promise<GeocodeResult | null>;
  /** A point to a location label ('San Francisco, CA'), by the same chain. */
  reverse(lat: number, lng: number, signal?: AbortSignal): Promise<string | null>;
  /** The providers a nearby search would use right now (auto mode depends on whether data is imported). */
  activeProviders(): Promise<{ primary: ProviderName[]; topUp: ProviderName | null }>;
}

export interface Logger {
  warn(obj: object, msg?: string): void;
}

export interface ChainOptions {
  /** For tests: the HTTP client of the google and osm providers. */
  fetch?: FetchLike;
  clock?: () => Date;
  /** For tests: Nominatim's minimum spacing (default 1000 ms). */
  nominatimIntervalMs?: number;
}

/** The default count the top-up aims for. */
export const DEFAULT_MIN_COUNT = 20;

type Discovery = Config['discovery'];

const KNOWN: readonly ProviderName[] = ['local', 'google', 'osm', 'demo'];

/** Parse an explicit PLACE_PROVIDERS list ('local,google,osm'); unknown names are reported and skipped. */
export function parseProviderList(value: string): { names: ProviderName[]; unknown: string[] } {
  const names: ProviderName[] = [];
  const unknown: string[] = [];
  for (const raw of value.split(',')) {
    const n = raw.trim().toLowerCase();
    if (!n) continue;
    if ((KNOWN as readonly string[]).includes(n)) {
      if (!names.includes(n as ProviderName)) names.push(n as ProviderName);
    } else unknown.push(n);
  }
  return { names, unknown };
}

/**
 * Which providers answer a nearby search.
 *  - 'auto': `local` once data has been imported, plus `google` when a usable key is set; `osm` tops those up
 *    when OSM_ENABLED (or answers alone when neither is available); `demo` when nothing else can.
 *  - an explicit list: the listed providers in that order; `osm` after another real provider acts as the top-up.
 */
export function selectProviders(
  discovery: Pick<Discovery, 'providers' | 'google' | 'osm'>,
  localHasData: boolean,
): { primary: ProviderName[]; topUp: ProviderName | null } {
  const googleOk = isUsableGoogleKey(discovery.google.apiKey);
  const mode = discovery.providers.trim().toLowerCase();
  if (mode === '' || mode === 'auto') {
    const primary: ProviderName[] = [];
    if (localHasData) primary.push('local');
    if (googleOk) primary.push('google');
    if (primary.length === 0) return { primary: discovery.osm.enabled ? ['osm'] : ['demo'], topUp: null };
    return { primary, topUp: discovery.osm.enabled ? 'osm' : null };
  }
  const { names } = parseProviderList(mode);
  const usable = names.filter((n) => n !== 'google' || googleOk);
  const firstReal = usable.findIndex((n) => n !== 'demo');
  const osmAt = usable.indexOf('osm');
  if (osmAt > firstReal && firstReal >= 0 && usable[firstReal] !== 'osm') {
    return { primary: usable.filter((n) => n !== 'osm'), topUp: 'osm' };
  }
  return { primary: usable.length > 0 ? usable : ['demo'], topUp: null };
}

/**
 * Keep the nearest `limit` of a merged list while keeping its order (best-sourced first), so the core's
 * de-duplication keeps the better-sourced twin and the 500 cap still drops the farthest.
 */
function capNearest(
  center: { lat: number; lng: number },
  list: FoundBusiness[],
  limit: number,
): FoundBusiness[] {
  if (list.length <= limit) return list;
  const keep = new Set(
    list
      .map((b, i) => ({ i, d: haversineMiles(center, b) }))
      .sort((a, b) => a.d - b.d || a.i - b.i)
      .slice(0, limit)
      .map((x) => x.i),
  );
  return list.filter((_, i) => keep.has(i));
}

/** One provider call under its own timeout; a failure becomes a report, never an exception. */
async function attempt(
  name: ProviderName,
  provider: PlaceProvider,
  call: (p: PlaceProvider, signal: AbortSignal) => Promise<FoundBusiness[]> | undefined,
  { timeoutMs, warn, parent }: { timeoutMs: number; warn: ProviderWarn; parent: AbortSignal | undefined },
): Promise<{ list: FoundBusiness[]; report: SourceReport }> {
  const signal = timeoutSignal(timeoutMs, parent);
  // The listener goes when the call is over. Left on, it kept the timeout's timer holding the answer (the
  // race's result, through this promise's reactions) for the whole timeout: every scan's 500 businesses
  // lived on for seconds and were moved to the old generation, and the collections of that (tens of
  // milliseconds) landed in later scans.
  let stopWaiting = () => {};
  try {
    const pending = call(provider, signal);
    if (!pending) return { list: [], report: { provider: name, ok: true, count: 0 } };
    // The provider may ignore the signal while it waits on something else: the timeout still wins.
    const timedOut = new Promise<never>((_, reject) => {
      const onAbort = () => reject(signal.reason as Error);
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      stopWaiting = () => signal.removeEventListener('abort', onAbort);
    });
    timedOut.catch(() => undefined);
    const list = await Promise.race([pending, timedOut]);
    return { list, report: { provider: name, ok: true, count: list.length } };
  } catch (error) {
    const message = describeError(error);
    warn('place provider failed; continuing with the others', { provider: name, error: message });
    return { list: [], report: { provider: name, ok: false, count: 0, error: message } };
  } finally {
    stopWaiting();
  }
}

/** Every provider, made from the configuration (each one answers only where it is configured). */
function createProviders(
  d: Discovery,
  db: Db,
  warn: ProviderWarn,
  options: ChainOptions,
): Record<ProviderName, PlaceProvider> {
  return {
    local: createLocalProvider(db, options.clock),
    demo: createDemoProvider(),
    google: createGoogleProvider({
      apiKey: d.google.apiKey,
      placesUrl: d.google.placesUrl,
      geocodingUrl: d.google.geocodingUrl,
      detailsLimit: d.google.detailsLimit,
      warn,
      ...(options.fetch && { fetch: options.fetch }),
    }),
    osm: createOsmProvider({
      overpassUrl: d.osm.overpassUrl,
      nominatimUrl: d.osm.nominatimUrl,
      userAgent: d.osm.userAgent,
      overpassTimeoutS: Math.max(1, Math.ceil(d.providerTimeoutMs / 1000)),
      ...(options.fetch && { fetch: options.fetch }),
      ...(options.clock && { clock: options.clock }),
      ...(options.nominatimIntervalMs !== undefined && { nominatimIntervalMs: options.nominatimIntervalMs }),
    }),
  };
}

/**
 * With no geocoding service (or none that found it): the imported addresses, then the offline gazetteer's city.
 * A typed house number and street is looked up on the street near the typed city; a text without a number is
 * taken for a street only when it is not itself a city ("Broadway, Oakland" is a street; "Oakland" a city).
 */
async function localGeocode(
  db: Kysely<Database>,
  q: string,
  warn: ProviderWarn,
): Promise<GeocodeResult | null> {
  const city = gazetteerGeocode(q);
  const typed = parseAddressQuery(q);
  const asStreet = typed !== null && (typed.number !== null || gazetteerGeocode(typed.street) === null);
  if (asStreet) {
    const near = typed.place && city ? { lat: city.lat, lng: city.lng } : null;
    try {
      const hit = await findAddress(db, typed, near);
      if (hit) return hit;
    } catch (error) {
      warn('address lookup failed; trying the city', { error: describeError(error) });
    }
  }
  return city ? { ...city, precision: 'city' } : null;
}

/**
 * The place chain for this configuration. `db` backs the `local` provider (and auto mode's "has data" check);
 * `log` receives one warning per failed provider call.
 */
export function createPlaceChain(
  config: { discovery: Discovery },
  db: Db,
  log: Logger,
  options: ChainOptions = {},
): PlaceChain {
  const d = config.discovery;
  const timeoutMs = d.providerTimeoutMs;
  const warn: ProviderWarn = (message, detail = {}) => log.warn(detail, message);
  const unknown = parseProviderList(d.providers).unknown.filter((n) => n !== 'auto');
  if (unknown.length > 0) warn('PLACE_PROVIDERS names unknown providers; they are ignored', { unknown });

  const providers = createProviders(d, db, warn, options);
  const attemptOf = (
    name: ProviderName,
    call: (p: PlaceProvider, signal: AbortSignal) => Promise<FoundBusiness[]> | undefined,
    parent?: AbortSignal,
  ) => attempt(name, providers[name], call, { timeoutMs, warn, parent });
  const google = providers.google as PlaceProvider & Geocoder;
  const osm = providers.osm as PlaceProvider & Geocoder;

  const geocoders = (): Geocoder[] => {
    const list: Geocoder[] = [];
    if (isUsableGoogleKey(d.google.apiKey)) list.push(google);
    if (d.osm.enabled) list.push(osm);
    return list;
  };

  // Auto mode asks whether any place is imported. An import only adds or replaces places and nothing deletes
  // them, so once the answer is yes it stays yes: from then on a scan does not ask again (a round trip saved).
  let imported = false;
  const activeProviders = async () => {
    const mode = d.providers.trim().toLowerCase();
    const needsCheck = mode === '' || mode === 'auto';
    if (needsCheck && !imported) imported = await hasPlaces(db.kysely).catch(() => false);
    return selectProviders(d, needsCheck ? imported : true);
  };

  return {
    activeProviders,

    async nearby(q: ChainNearbyQuery, parent?: AbortSignal): Promise<ChainResult> {
      const limit = Math.max(0, Math.min(q.limit, MAX_PROVIDER_RESULTS));
      const { lat, lng, radiusMiles, types, within } = q;
      const query: NearbyQuery = { lat, lng, radiusMiles, types, limit, ...(within && { within }) };
      const { primary, topUp: topUpName } = await activeProviders();
      let circle: ChainResult['circle'];
      const ask = (p: PlaceProvider, s: AbortSignal) => {
        if (!q.ranked || !p.rankedNearby) return p.nearby(query, s);
        return p.rankedNearby({ ...query, showAll: q.ranked.showAll }, s).then(({ businesses, ...rest }) => {
          circle = rest;
          return businesses;
        });
      };
      const answers = await Promise.all(primary.map((n) => attemptOf(n, ask, parent)));
      const sources = answers.map((a) => a.report);
      const seen = new Set<string>();
      let merged: FoundBusiness[] = [];
      for (const a of answers) {
        for (const b of a.list) {
          if (seen.has(b.id)) continue;
          seen.add(b.id);
          merged.push(b);
        }
      }
      // A ranked answer is the best of its circle already: capping it to the nearest would undo the ranking.
      if (!circle) merged = capNearest(q, merged, limit);
      const want = Math.min(limit, q.minCount ?? DEFAULT_MIN_COUNT);
      if (topUpName && q.useOsmTopUp !== false && merged.length < want) {
        const extra = await attemptOf(topUpName, (p, s) => p.nearby(query, s), parent);
        sources.push(extra.report);
        merged = topUp(
          merged,
          extra.list.filter((b) => !seen.has(b.id)),
          limit,
        );
      }
      // An empty answer from the imported data alone: say whether the area has no imported data at all.
      const answered = sources.filter((s) => s.ok && s.provider !== 'demo').map((s) => s.provider);
      if (
        merged.length === 0 &&
        answered.length === 1 &&
        answered[0] === 'local' &&
        !(await hasPlacesNear(db, q, q.radiusMiles).catch(() => true))
      ) {
        return { businesses: merged, sources, noLocalData: true };
      }
      return { businesses: merged, sources, ...(circle && { circle }) };
    },

    async textSearch(q: TextSearchQuery, parent?: AbortSignal): Promise<ChainResult> {
      const { primary, topUp: topUpName } = await activeProviders();
      const names = topUpName ? [...primary, topUpName] : primary;
      const answers = await Promise.all(
        names.map((n) => attemptOf(n, (p, s) => p.textSearch?.(q, s), parent)),
      );
      const byId = new Map<string, FoundBusiness>();
      for (const b of answers.flatMap((a) => a.list)) if (!byId.has(b.id)) byId.set(b.id, b);
      const businesses = [...byId.values()];
      return { businesses, sources: answers.map((a) => a.report) };
    },

    async details(id: string, parent?: AbortSignal): Promise<PlaceDetails | null> {
      const owners: ProviderName[] = id.startsWith('demo:')
        ? ['demo']
        : id.startsWith('osm:')
          ? ['local', ...(d.osm.enabled ? (['osm'] as const) : [])]
          : isUsableGoogleKey(d.google.apiKey)
            ? ['google']
            : [];
      for (const name of owners) {
        const signal = timeoutSignal(timeoutMs, parent);
        try {
          const found = await providers[name].details?.(id, signal);
          if (found) return found;
        } catch (error) {
          // A failed details call keeps the basic record.
          warn('place details failed', { provider: name, id, error: describeError(error) });
        }
      }
      return null;
    },

    async geocode(query: string, parent?: AbortSignal): Promise<GeocodeResult | null> {
      const q = query.trim();
      if (!q) return null;
      const point = parseCoordinates(q);
      if (point) {
        const label = await this.reverse(point.lat, point.lng, parent);
        return { ...point, label: label ?? `${point.lat}, ${point.lng}`, precision: 'coordinates' };
      }
      for (const g of geocoders()) {
        try {
          const hit = await g.geocode(q, timeoutSignal(timeoutMs, parent));
          if (hit) return hit;
        } catch (error) {
          warn('geocoder failed; trying the next', { geocoder: g.name, error: describeError(error) });
        }
      }
      return localGeocode(db.kysely, q, warn);
    },

    async reverse(lat: number, lng: number, parent?: AbortSignal): Promise<string | null> {
      for (const g of geocoders()) {
        try {
          const label = await g.reverse(lat, lng, timeoutSignal(timeoutMs, parent));
          if (label) return label;
        } catch (error) {
          warn('reverse geocoder failed; trying the next', { geocoder: g.name, error: describeError(error) });
        }
      }
      const address = await nearestAddress(db.kysely, lat, lng).catch((error: unknown) => {
        warn('address lookup failed; naming the city', { error: describeError(error) });
        return null;
      });
      return address ?? gazetteer.reverse(lat, lng);
    },
  };
}
