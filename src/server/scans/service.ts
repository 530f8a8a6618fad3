import type { Db } from '../db/database.js';
import type { PlaceChain, SourceReport } from '../places/index.js';
import type { Business, Prospect } from '../../core/types.js';
import { businessHash } from '../../core/types.js';
import { placeTypesForGroups, resolveGroups } from '../../core/categories.js';
import { dedupe } from '../../core/dedup.js';
import { haversineMiles } from '../../core/geo.js';
import { toProspect } from '../../core/prospect.js';
import { filterBlocked } from '../../core/blocklist.js';
import { blockedIds } from '../blocklist/service.js';
import { HttpError } from '../http/errors.js';
import type { AlgorithmSettings } from '../settings/service.js';
import {
  claimScanSlot,
  readLatestScan,
  recordSearch,
  saveLatestScan,
  type SearchRecord,
} from './repository.js';
import {
  businessChanged,
  isFresh,
  needsResave,
  readCaches,
  toCachedBusiness,
  writeAnalysisCache,
  writeBusinessCache,
} from './cache.js';
import { isPrefiltered, type RankedBusiness, type ScoreFn } from './analysis.js';

// SPEC §4, §5, §9 limits.
export const RADIUS_MIN_MILES = 0.5;
export const COUNT_MIN = 5;
export const COUNT_MAX = 50;
export const MAX_LOADED = 100;
export const PROVIDER_MAX_RESULTS = 500;

export interface ScanDeps {
  db: Db;
  places: PlaceChain;
  score: ScoreFn;
  radiusMaxMiles: number;
  cooldownMs: number;
  settings: () => Promise<AlgorithmSettings>;
}

export interface ScanInput {
  lat: number;
  lng: number;
  radiusMiles: number;
  count: number;
  categories?: string[] | undefined;
  locationLabel?: string | undefined;
}

export interface ScanPage {
  searchId: string;
  total: number;
  offset: number;
  prospects: Prospect[];
  sources: SourceReport[];
  demo: boolean;
  radiusMiles: number;
  count: number;
}

export const clampRadius = (miles: number, max: number) =>
  Math.min(Math.max(miles, RADIUS_MIN_MILES), Math.max(1, max));
export const clampCount = (n: number) => Math.min(Math.max(Math.round(n), COUNT_MIN), COUNT_MAX);

/**
 * Rank businesses the way SPEC §4 describes: analysis from the cache when it is fresh, of the current
 * model version and the business data has not changed; otherwise computed now and cached. Sorted by
 * score descending, ties by distance then name so the order is stable.
 */
export async function rankBusinesses(
  deps: Pick<ScanDeps, 'db' | 'score'>,
  businesses: Business[],
  center: { lat: number; lng: number },
): Promise<Prospect[]> {
  if (businesses.length === 0) return [];
  const computed = deps.score(businesses, center);
  const keys = businesses.map((b) =>
    businessHash({ placeId: b.placeId ?? null, name: b.name, address: b.address, category: b.category }),
  );
  let caches: Awaited<ReturnType<typeof readCaches>> | undefined;
  try {
    caches = await readCaches(deps.db.kysely, keys);
  } catch {
    caches = undefined; // SPEC §8: a failed cache load uses an empty cache
  }
  const now = Date.now();
  const businessWrites: { key: string; data: ReturnType<typeof toCachedBusiness> }[] = [];
  const analysisWrites: { key: string; data: RankedBusiness['analysis'] }[] = [];
  const prospects = businesses.map((b, i) => {
    const key = keys[i]!;
    const current = toCachedBusiness(b);
    const storedBusiness = caches?.business.get(key);
    const storedAnalysis = caches?.analysis.get(key);
    let ranked = computed[i]!;
    const reusable =
      storedAnalysis &&
      storedBusiness &&
      isFresh(storedAnalysis, now) &&
      !businessChanged(storedBusiness.data, current);
    if (reusable) {
      ranked = { analysis: { ...storedAnalysis.data, businessHash: key } };
    } else {
      ranked = { analysis: { ...ranked.analysis, businessHash: key } };
      analysisWrites.push({ key, data: ranked.analysis });
    }
    if (needsResave(storedBusiness, current, now)) businessWrites.push({ key, data: current });
    return toProspect(b, {
      distance: Math.round(haversineMiles(center, b) * 1000) / 1000,
      analysis: ranked.analysis,
      index: i,
    });
  });
  try {
    await writeBusinessCache(deps.db.kysely, businessWrites);
    await writeAnalysisCache(deps.db.kysely, analysisWrites);
  } catch {
    // SPEC §8: cache save failures only warn; the scan goes on.
  }
  return prospects.sort(
    (a, b) =>
      b.score - a.score ||
      a.distance - b.distance ||
      a.name.localeCompare(b.name) ||
      a.id.localeCompare(b.id),
  );
}

/** SPEC §4 scan: fetch, de-duplicate, drop blocked, analyse, sort; keep the top 100 as the user's latest. */
export async function runScan(deps: ScanDeps, userId: string, input: ScanInput): Promise<ScanPage> {
  const wait = await claimScanSlot(deps.db.kysely, userId, deps.cooldownMs);
  if (wait > 0) {
    throw new HttpError(429, 'Please wait a moment before scanning again.', { retryAfterMs: wait });
  }
  const radiusMiles = clampRadius(input.radiusMiles, deps.radiusMaxMiles);
  const count = clampCount(input.count);
  const groups = resolveGroups(input.categories);
  const types = placeTypesForGroups(groups);
  const center = { lat: input.lat, lng: input.lng };
  const settings = await deps.settings();

  const found = await deps.places.nearby({
    ...center,
    radiusMiles,
    types,
    limit: PROVIDER_MAX_RESULTS,
    minCount: count,
    useOsmTopUp: settings.useOsmTopUp,
  });
  const blocked = await blockedIds(deps.db);
  const ranked = filterBlocked(
    await rankBusinesses(deps, cleanCandidates(found.businesses, center, radiusMiles), center),
    blocked,
  ).filter((p) => settings.showAllProspects || !p.aiAnalysis || !isPrefiltered(p.aiAnalysis));
  return keepAndPage(
    deps,
    {
      userId,
      kind: 'scan',
      ...center,
      radiusMiles,
      count,
      categories: groups,
      locationLabel: input.locationLabel ?? null,
      query: null,
      total: ranked.length,
    },
    ranked,
    found.sources,
  );
}

/** SPEC §5: results without a name or location dropped, only those inside the radius kept, duplicates removed. */
function cleanCandidates(businesses: Business[], center: { lat: number; lng: number }, radiusMiles: number) {
  return dedupe(
    businesses.filter(
      (b) =>
        b.name.trim() !== '' &&
        Number.isFinite(b.lat) &&
        Number.isFinite(b.lng) &&
        haversineMiles(center, b) <= radiusMiles,
    ),
  );
}

/** Record the search, keep the top 100 as the user's latest results and answer the first page of N. */
async function keepAndPage(
  deps: Pick<ScanDeps, 'db'>,
  record: SearchRecord,
  ranked: Prospect[],
  sources: SourceReport[],
): Promise<ScanPage> {
  // One transaction: one durable commit (one fsync with SQLite synchronous=FULL) instead of two per scan.
  const searchId = await deps.db.kysely.transaction().execute(async (trx) => {
    const id = await recordSearch(trx, record);
    await saveLatestScan(trx, record.userId, id, ranked.slice(0, MAX_LOADED), ranked.length);
    return id;
  });
  return {
    searchId,
    total: ranked.length,
    offset: 0,
    prospects: ranked.slice(0, record.count),
    sources,
    demo: ranked.some((p) => p.source === 'demo'),
    radiusMiles: record.radiusMiles,
    count: record.count,
  };
}

/** A page of the user's latest scan (restored at sign-in; 'Load Next N' up to 100). */
export async function latestPage(db: Db, userId: string, offset: number, limit: number) {
  const latest = await readLatestScan(db.kysely, userId);
  if (!latest) return null;
  const loadable = Math.min(MAX_LOADED, latest.prospects.length);
  const start = Math.min(offset, loadable);
  const end = Math.min(start + limit, loadable);
  return {
    searchId: latest.searchId,
    total: latest.total,
    loadable,
    offset: start,
    prospects: latest.prospects.slice(start, end),
    at: latest.at,
  };
}

export const NO_MATCHING_BUSINESS =
  'No matching business found within your radius. Try a more specific name.';
export const NO_CATEGORY_RESULTS = 'No results found for that category within your radius.';
export const CATEGORY_TOO_GENERIC =
  'Please enter a more specific category (for example "dentist" or "plumber").';
const GENERIC_CATEGORY_WORDS = new Set([
  'business',
  'businesses',
  'store',
  'stores',
  'shop',
  'shops',
  'company',
  'place',
  'places',
  'service',
  'services',
  'establishment',
]);

export interface QuickSearchInput {
  mode: 'business' | 'category';
  text: string;
  lat: number;
  lng: number;
  radiusMiles: number;
  count?: number | undefined;
  locationLabel?: string | undefined;
}

/** SPEC §5 quick search: a business by name within the radius, or a category; fills the latest results. */
export async function quickSearch(
  deps: ScanDeps,
  userId: string,
  input: QuickSearchInput,
): Promise<ScanPage> {
  const text = input.text.trim();
  if (!text) throw new HttpError(400, 'Please enter a business name or category.');
  if (input.mode === 'category' && GENERIC_CATEGORY_WORDS.has(text.toLowerCase())) {
    throw new HttpError(400, CATEGORY_TOO_GENERIC);
  }
  const radiusMiles = clampRadius(input.radiusMiles, deps.radiusMaxMiles);
  const count = clampCount(input.count ?? COUNT_MAX);
  const center = { lat: input.lat, lng: input.lng };
  const found = await deps.places.textSearch({ query: text, ...center, radiusMiles });
  const blocked = await blockedIds(deps.db);
  const ranked = filterBlocked(
    await rankBusinesses(deps, cleanCandidates(found.businesses, center, radiusMiles), center),
    blocked,
  );
  if (ranked.length === 0) {
    throw new HttpError(404, input.mode === 'business' ? NO_MATCHING_BUSINESS : NO_CATEGORY_RESULTS, {
      sources: found.sources,
    });
  }
  return keepAndPage(
    deps,
    {
      userId,
      kind: input.mode === 'business' ? 'quick-business' : 'quick-category',
      ...center,
      radiusMiles,
      count,
      categories: [],
      locationLabel: input.locationLabel ?? null,
      query: text,
      total: ranked.length,
    },
    ranked,
    found.sources,
  );
}
