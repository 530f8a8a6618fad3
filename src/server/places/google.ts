// The `google` provider: Places API (New) — searchNearby, searchText, place details — and the Geocoding API.
// Nearby search returns at most 20 places per request, so a circle that comes back full is split into four
// smaller circles (one per quadrant), recursively, within a request budget; the answers are merged by place id.
import { z } from 'zod';
import { categoryLabel } from '../../core/categories.js';
import { haversineMiles, METERS_PER_MILE, type LatLng } from '../../core/geo.js';
import { MAX_PHOTOS, prospectPhotoSchema, type ProspectPhoto } from '../../core/api/photos.js';
import { fetchJson, type FetchLike } from './http.js';
import { cleanName } from '../../core/api/common.js';
import {
  describeError,
  finishNearby,
  matchesTypes,
  ProviderError,
  wantsEveryType,
  type FoundBusiness,
  type GeocodeResult,
  type Geocoder,
  type NearbyQuery,
  type PlaceDetails,
  type PlaceProvider,
  type ProviderWarn,
  type TextSearchQuery,
} from './provider.js';

/** Nearby search answers at most this many places per request. */
export const GOOGLE_PAGE_MAX = 20;
/** The largest radius searchNearby accepts, in metres. */
export const GOOGLE_MAX_RADIUS_M = 50_000;
/** A cell is not split below this radius. */
export const GOOGLE_MIN_CELL_M = 100;
/**
 * At most this many searchNearby requests per scan: the first circle and its splits, and on the per-type path
 * every type's circles together (one budget for the whole nearby search).
 */
export const GOOGLE_MAX_REQUESTS = 40;
/** Pause between two place-type queries. */
export const GOOGLE_TYPE_PAUSE_MS = 100;

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    signal.throwIfAborted();
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

const PLACE_FIELDS = [
  'id',
  'displayName',
  'formattedAddress',
  'location',
  'types',
  'rating',
  'userRatingCount',
  'nationalPhoneNumber',
  'websiteUri',
  'currentOpeningHours.openNow',
  'addressComponents',
  'businessStatus',
  'priceLevel',
  // Photo names and their authors: a field of the Pro set, already paid for by the Enterprise fields above.
  'photos',
];
const SEARCH_FIELD_MASK = PLACE_FIELDS.map((f) => `places.${f}`).join(',');
const DETAILS_FIELD_MASK = 'id,formattedAddress,nationalPhoneNumber,websiteUri,addressComponents';

/** A key that is missing, shorter than 10 characters or a placeholder counts as unconfigured. */
export function isUsableGoogleKey(key: string | undefined): boolean {
  const k = (key ?? '').trim();
  if (k.length < 10) return false;
  return !/your[_\s-]*(google[_\s-]*)?(maps[_\s-]*)?api[_\s-]*key|placeholder|changeme|^x+$|^<.*>$|^\$\{.*\}$/i.test(
    k,
  );
}

const addressComponent = z.object({
  longText: z.string().optional(),
  shortText: z.string().optional(),
  types: z.array(z.string()).optional(),
});

const place = z.object({
  id: z.string(),
  displayName: z.object({ text: z.string().optional() }).optional(),
  formattedAddress: z.string().optional(),
  location: z.object({ latitude: z.number(), longitude: z.number() }).optional(),
  types: z.array(z.string()).optional(),
  rating: z.number().optional(),
  userRatingCount: z.number().optional(),
  nationalPhoneNumber: z.string().optional(),
  websiteUri: z.string().optional(),
  currentOpeningHours: z.object({ openNow: z.boolean().optional() }).optional(),
  addressComponents: z.array(addressComponent).optional(),
  businessStatus: z.string().optional(),
  priceLevel: z.string().optional(),
  // Read one by one (googlePhotos): a photo of an unexpected shape is left out, never the whole answer.
  photos: z.array(z.unknown()).optional().catch(undefined),
});
type GooglePlace = z.infer<typeof place>;

const searchAnswer = z.object({ places: z.array(place).optional() });

const geocodeAnswer = z.object({
  status: z.string(),
  results: z
    .array(
      z.object({
        formatted_address: z.string().optional(),
        geometry: z.object({ location: z.object({ lat: z.number(), lng: z.number() }) }),
        address_components: z
          .array(z.object({ long_name: z.string(), short_name: z.string(), types: z.array(z.string()) }))
          .optional(),
      }),
    )
    .optional(),
});

const PRICE_LEVELS: Readonly<Record<string, number>> = {
  PRICE_LEVEL_FREE: 0,
  PRICE_LEVEL_INEXPENSIVE: 1,
  PRICE_LEVEL_MODERATE: 2,
  PRICE_LEVEL_EXPENSIVE: 3,
  PRICE_LEVEL_VERY_EXPENSIVE: 4,
};

function parse<T>(schema: z.ZodType<T>, body: unknown, provider: string): T {
  const result = schema.safeParse(body);
  if (!result.success) throw new ProviderError(provider, 'answer has an unexpected shape');
  return result.data;
}

function addressParts(
  components: GooglePlace['addressComponents'],
): Pick<PlaceDetails, 'city' | 'state' | 'zip'> {
  const find = (type: string) => components?.find((c) => c.types?.includes(type));
  const city = find('locality') ?? find('postal_town') ?? find('sublocality');
  const state = find('administrative_area_level_1');
  const zip = find('postal_code');
  return {
    ...(city?.longText && { city: city.longText }),
    ...(state?.shortText && { state: state.shortText }),
    ...(zip?.longText && { zip: zip.longText }),
  };
}

const googlePhoto = z.object({
  name: z.string(),
  authorAttributions: z
    .array(z.object({ displayName: z.string().optional(), uri: z.string().optional() }))
    .optional(),
});

/**
 * The first photos of a place (at most 3) as the card shows them: the photo's name, which the server's photo route
 * fetches, and its authors, whom Google's terms require credited with it (Google's links are https; a
 * protocol-relative one gets https, any other is left off). A photo whose name is not a Google photo name, or
 * whose authors cannot all be credited (a nameless one, too many, too long), is left out.
 */
export function googlePhotos(photos: readonly unknown[] | undefined): ProspectPhoto[] {
  const out: ProspectPhoto[] = [];
  for (const raw of photos ?? []) {
    if (out.length >= MAX_PHOTOS) break;
    const p = googlePhoto.safeParse(raw).data;
    if (!p) continue;
    const authors = (p.authorAttributions ?? []).map((a) => {
      const uri = a.uri?.startsWith('//') ? `https:${a.uri}` : a.uri;
      return { displayName: a.displayName?.trim() ?? '', ...(uri?.startsWith('https://') && { uri }) };
    });
    if (authors.some((a) => !a.displayName)) continue;
    const photo = prospectPhotoSchema.safeParse({ ref: p.name, authors }).data;
    if (photo) out.push(photo);
  }
  return out;
}

/** A Places API (New) place as the core's Business; null without a name or location. */
export function googlePlaceToBusiness(p: GooglePlace): FoundBusiness | null {
  const name = cleanName(p.displayName?.text ?? '');
  if (!name || !p.location) return null;
  const types = p.types ?? [];
  const b: FoundBusiness = {
    id: p.id,
    placeId: p.id,
    name,
    lat: p.location.latitude,
    lng: p.location.longitude,
    types,
    category: categoryLabel(types),
    address: p.formattedAddress ?? '',
    ...addressParts(p.addressComponents),
    reviews: p.userRatingCount ?? 0,
    openNow: p.currentOpeningHours?.openNow ?? null,
    source: 'google',
  };
  if (p.nationalPhoneNumber) b.phone = p.nationalPhoneNumber;
  if (p.websiteUri) b.website = p.websiteUri;
  if (p.rating !== undefined) b.rating = p.rating;
  const price = p.priceLevel ? PRICE_LEVELS[p.priceLevel] : undefined;
  if (price !== undefined) b.priceLevel = price;
  const photos = googlePhotos(p.photos);
  if (photos.length > 0) b.photos = photos;
  return b;
}

/** The four circles (one per quadrant of the circle's bounding square) that together cover a circle. */
export function splitCircle(center: LatLng, radiusM: number): { center: LatLng; radiusM: number }[] {
  const half = radiusM / 2;
  const dLat = half / (METERS_PER_MILE * 69);
  const dLng = dLat / Math.max(0.01, Math.cos((center.lat * Math.PI) / 180));
  const r = radiusM / Math.SQRT2 + 1;
  return [
    { center: { lat: center.lat + dLat, lng: center.lng - dLng }, radiusM: r },
    { center: { lat: center.lat + dLat, lng: center.lng + dLng }, radiusM: r },
    { center: { lat: center.lat - dLat, lng: center.lng - dLng }, radiusM: r },
    { center: { lat: center.lat - dLat, lng: center.lng + dLng }, radiusM: r },
  ];
}

export interface GoogleOptions {
  apiKey: string;
  placesUrl: string;
  geocodingUrl: string;
  detailsLimit: number;
  fetch?: FetchLike;
  /** Warnings (a place type that failed, a details call that failed); the chain passes its logger. */
  warn?: ProviderWarn;
  maxRequests?: number;
}

const trimSlash = (u: string) => u.replace(/\/+$/, '');

/**
 * A nearby search type by type, after one unsupported type made the request for all of them invalid: the types
 * that fail are skipped (`error`, the first failure, is thrown when every type fails). The budget left is shared
 * fairly: each type may spend its share of it, and what one type leaves unspent goes to the types after it.
 */
async function coverTypeByType(
  types: readonly string[],
  cover: (types: string[], share: number) => Promise<GooglePlace[]>,
  {
    budget,
    signal,
    warn,
    error,
  }: { budget: { left: number }; signal: AbortSignal; warn: ProviderWarn; error: unknown },
): Promise<GooglePlace[]> {
  const places: GooglePlace[] = [];
  let failures = 0;
  for (const [i, type] of types.entries()) {
    if (i > 0) await pause(GOOGLE_TYPE_PAUSE_MS, signal);
    const share = Math.floor(budget.left / (types.length - i));
    if (share < 1) {
      warn('google request budget spent; skipping the remaining place types', { skipped: types.slice(i) });
      break;
    }
    try {
      places.push(...(await cover([type], share)));
    } catch (typeError) {
      if (signal.aborted) throw typeError;
      failures++;
      warn('google nearby search failed for a place type; continuing', {
        type,
        error: describeError(typeError),
      });
    }
  }
  if (failures === types.length) throw error;
  return places;
}

/** Nearby Search (New) and its cover of a whole circle by ever smaller cells. */
function googleSearch(opts: GoogleOptions) {
  const placesUrl = trimSlash(opts.placesUrl);
  const headers = (mask: string) => ({
    'content-type': 'application/json',
    'X-Goog-Api-Key': opts.apiKey,
    'X-Goog-FieldMask': mask,
  });

  async function searchNearbyOnce(
    center: LatLng,
    radiusM: number,
    types: readonly string[],
    signal: AbortSignal,
  ): Promise<GooglePlace[]> {
    const body = {
      ...(types.length > 0 && { includedTypes: types }),
      maxResultCount: GOOGLE_PAGE_MAX,
      rankPreference: 'DISTANCE',
      locationRestriction: {
        circle: {
          center: { latitude: center.lat, longitude: center.lng },
          radius: Math.min(GOOGLE_MAX_RADIUS_M, Math.max(1, radiusM)),
        },
      },
    };
    const answer = await fetchJson({
      provider: 'google',
      url: `${placesUrl}/v1/places:searchNearby`,
      method: 'POST',
      headers: headers(SEARCH_FIELD_MASK),
      body: JSON.stringify(body),
      signal,
      ...(opts.fetch && { fetch: opts.fetch }),
    });
    return parse(searchAnswer, answer, 'google').places ?? [];
  }

  /**
   * The whole circle: split full cells breadth-first until they come back below 20 or the budget is spent.
   * Each level's cells are asked nearest to the centre first, so when the budget runs out it is the outermost
   * cells that go unasked, not whichever were created last. `budget.left` is spent here and shared by the caller.
   */
  async function coverCircle(
    center: LatLng,
    radiusM: number,
    types: readonly string[],
    signal: AbortSignal,
    budget: { left: number },
    allowance = budget.left,
  ): Promise<GooglePlace[]> {
    const found = new Map<string, GooglePlace>();
    let level = [{ center, radiusM }];
    let spent = 0;
    const origin = center;
    const originMiles = radiusM / METERS_PER_MILE;
    const limit = () => Math.min(budget.left, allowance - spent);
    while (level.length > 0 && limit() > 0) {
      const fromOrigin = new Map(level.map((c) => [c, haversineMiles(origin, c.center)]));
      level.sort((a, b) => (fromOrigin.get(a) ?? 0) - (fromOrigin.get(b) ?? 0));
      const batch = level.slice(0, limit());
      spent += batch.length;
      budget.left -= batch.length;
      const answers = await Promise.all(
        batch.map((c) => searchNearbyOnce(c.center, c.radiusM, types, signal)),
      );
      const next: typeof level = [];
      answers.forEach((places, i) => {
        for (const p of places) if (!found.has(p.id)) found.set(p.id, p);
        const cell = batch[i];
        if (cell && places.length >= GOOGLE_PAGE_MAX && cell.radiusM / 2 >= GOOGLE_MIN_CELL_M) {
          // Only the parts of a split cell that still touch the scan circle are worth a request.
          for (const sub of splitCircle(cell.center, cell.radiusM)) {
            if (haversineMiles(origin, sub.center) - sub.radiusM / METERS_PER_MILE < originMiles)
              next.push(sub);
          }
        }
      });
      level = next;
    }
    return [...found.values()];
  }

  return { headers, coverCircle };
}

export function createGoogleProvider(opts: GoogleOptions): PlaceProvider & Geocoder {
  const placesUrl = trimSlash(opts.placesUrl);
  const geocodingUrl = trimSlash(opts.geocodingUrl);
  const maxRequests = opts.maxRequests ?? GOOGLE_MAX_REQUESTS;
  const warn = opts.warn ?? (() => undefined);
  const { headers, coverCircle } = googleSearch(opts);

  async function details(id: string, signal: AbortSignal): Promise<PlaceDetails | null> {
    const answer = await fetchJson({
      provider: 'google',
      url: `${placesUrl}/v1/places/${encodeURIComponent(id)}`,
      headers: headers(DETAILS_FIELD_MASK),
      signal,
      ...(opts.fetch && { fetch: opts.fetch }),
    });
    const p = parse(place, answer, 'google');
    return {
      ...(p.nationalPhoneNumber && { phone: p.nationalPhoneNumber }),
      ...(p.websiteUri && { website: p.websiteUri }),
      ...(p.formattedAddress && { address: p.formattedAddress }),
      ...addressParts(p.addressComponents),
    };
  }

  /** Details for the first N results; a failed details call keeps the basic record. */
  async function fillDetails(list: FoundBusiness[], signal: AbortSignal): Promise<void> {
    const targets = list
      .slice(0, opts.detailsLimit)
      .filter((b) => !b.phone || !b.website || !b.city || !b.state || !b.zip);
    await Promise.all(
      targets.map(async (b) => {
        try {
          const d = await details(b.id, signal);
          if (!d) return;
          b.phone ??= d.phone;
          b.website ??= d.website;
          b.city ??= d.city;
          b.state ??= d.state;
          b.zip ??= d.zip;
          if (!b.address && d.address) b.address = d.address;
          for (const k of ['phone', 'website', 'city', 'state', 'zip'] as const)
            if (b[k] === undefined) delete b[k];
        } catch (error) {
          if (signal.aborted) throw error;
          warn('google place details failed; keeping the basic record', {
            id: b.id,
            error: describeError(error),
          });
        }
      }),
    );
  }

  return {
    name: 'google',

    async nearby(q: NearbyQuery, signal: AbortSignal): Promise<FoundBusiness[]> {
      const center = { lat: q.lat, lng: q.lng };
      const radiusM = Math.min(GOOGLE_MAX_RADIUS_M, q.radiusMiles * METERS_PER_MILE);
      const every = wantsEveryType(q.types);
      const budget = { left: maxRequests };
      let places: GooglePlace[];
      try {
        places = await coverCircle(center, radiusM, every ? [] : q.types, signal, budget);
      } catch (error) {
        // One unsupported type makes the whole request invalid: ask type by type, skipping the ones that fail.
        if (
          every ||
          q.types.length < 2 ||
          !(error instanceof ProviderError) ||
          !/HTTP 400/.test(error.message)
        ) {
          throw error;
        }
        places = await coverTypeByType(
          q.types,
          (types, share) => coverCircle(center, radiusM, types, signal, budget, share),
          { budget, signal, warn, error },
        );
      }
      const unique = new Map<string, FoundBusiness>();
      for (const p of places) {
        const b = googlePlaceToBusiness(p);
        if (b && !unique.has(b.id) && matchesTypes(b, q.types)) unique.set(b.id, b);
      }
      const list = finishNearby(center, q.radiusMiles, [...unique.values()], q.limit);
      await fillDetails(list, signal);
      return list;
    },

    async textSearch(q: TextSearchQuery, signal: AbortSignal): Promise<FoundBusiness[]> {
      const text = q.query.trim();
      if (!text) return [];
      const answer = await fetchJson({
        provider: 'google',
        url: `${placesUrl}/v1/places:searchText`,
        method: 'POST',
        headers: headers(SEARCH_FIELD_MASK),
        body: JSON.stringify({
          textQuery: text,
          pageSize: GOOGLE_PAGE_MAX,
          locationBias: {
            circle: {
              center: { latitude: q.lat, longitude: q.lng },
              radius: Math.min(GOOGLE_MAX_RADIUS_M, q.radiusMiles * METERS_PER_MILE),
            },
          },
        }),
        signal,
        ...(opts.fetch && { fetch: opts.fetch }),
      });
      const list = (parse(searchAnswer, answer, 'google').places ?? [])
        .map(googlePlaceToBusiness)
        .filter((b): b is FoundBusiness => b !== null);
      return finishNearby({ lat: q.lat, lng: q.lng }, q.radiusMiles, list, GOOGLE_PAGE_MAX);
    },

    details,

    async geocode(query: string, signal: AbortSignal): Promise<GeocodeResult | null> {
      const url = `${geocodingUrl}/maps/api/geocode/json?address=${encodeURIComponent(query)}&key=${encodeURIComponent(opts.apiKey)}`;
      const answer = parse(
        geocodeAnswer,
        await fetchJson({ provider: 'google', url, signal, ...(opts.fetch && { fetch: opts.fetch }) }),
        'google',
      );
      // A status other than OK is an empty result.
      const first = answer.status === 'OK' ? answer.results?.[0] : undefined;
      if (!first) return null;
      return {
        lat: first.geometry.location.lat,
        lng: first.geometry.location.lng,
        label: first.formatted_address ?? query,
      };
    },

    async reverse(lat: number, lng: number, signal: AbortSignal): Promise<string | null> {
      const url = `${geocodingUrl}/maps/api/geocode/json?latlng=${lat},${lng}&key=${encodeURIComponent(opts.apiKey)}`;
      const answer = parse(
        geocodeAnswer,
        await fetchJson({ provider: 'google', url, signal, ...(opts.fetch && { fetch: opts.fetch }) }),
        'google',
      );
      const first = answer.status === 'OK' ? answer.results?.[0] : undefined;
      if (!first) return null;
      const find = (type: string) => first.address_components?.find((c) => c.types.includes(type));
      const city = find('locality') ?? find('postal_town') ?? find('sublocality');
      const state = find('administrative_area_level_1');
      if (city && state) return `${city.long_name}, ${state.short_name}`;
      return first.formatted_address ?? null;
    },
  };
}
