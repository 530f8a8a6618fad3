import { performance } from 'node:perf_hooks';
import { lapsedFirst } from '../../core/billing.js';
import type { Db } from '../db/database.js';
import { inTransaction } from '../db/database.js';
import type { PlaceChain, SourceReport } from '../places/index.js';
import type { Within } from '../places/provider.js';
import type { Business, Prospect } from '../../core/types.js';
import type { EvidenceRead } from '../websites/service.js';
import { businessCacheKey } from '../../core/types.js';
import { placeTypesForGroups, resolveGroups } from '../../core/categories.js';
import { dedupe } from '../../core/dedup.js';
import { SPREAD_SIMILAR_MARGIN_POINTS, spreadResults } from '../../core/diversify.js';
import { haversineMiles } from '../../core/geo.js';
import { prospectId, toAnalysisInput, toProspect } from '../../core/prospect.js';
import { fallbackAnalysis } from '../../core/scoring/index.js';
import { filterBlocked, filterBlockedBusinesses } from '../../core/blocklist.js';
import { blockedIds } from '../blocklist/service.js';
import { HttpError } from '../http/errors.js';
import { CATEGORY_TOO_GENERIC } from '../../core/messages.js';
import {
  COUNT_MAX,
  COUNT_MIN,
  MAX_LOADED,
  type QuickSearchInput,
  type ScanInput as ScanRequest,
} from '../../core/api/scans.js';
import type { AlgorithmSettings } from '../settings/service.js';
import {
  readLatestScan,
  recordSearch,
  saveLatestScan,
  mergeLatestScan,
  scanSlotWait,
  takeScanSlot,
  type ScanSlot,
  type SearchRecord,
} from './repository.js';
import {
  type CacheRows,
  businessChanged,
  isFresh,
  keepsBusinessCopy,
  needsResave,
  readCaches,
  toBasis,
  toCachedBusiness,
} from './cache.js';
import { copyOwed, oweTeamCopies } from './team-list.js';
import { afterAnswer, type CacheWrites } from './after-answer.js';
import { isPrefilteredRule, ranked, type RankedBusiness, type ScoreFn } from './analysis.js';

export type { CacheWrites } from './after-answer.js';

// Scan limits (docs/PRODUCT.md, "Limits"): the smallest radius and the businesses a provider returns. The counts a
// page shows (COUNT_MIN, COUNT_MAX) and the results kept (MAX_LOADED) bound the API's requests, so they are
// declared with them in core/api/scans.ts.
export const RADIUS_MIN_MILES = 0.5;
export const PROVIDER_MAX_RESULTS = 500;
/**
 * Records a scan reads first of a ranked circle's best: the 100 kept, and room for the duplicates, blocked and
 * prefiltered businesses among them.
 */
export const FIRST_READ = 150;

/** Where the scan reports what it degraded on (logged, the scan goes on). */
export interface ScanLog {
  warn(obj: object, msg?: string): void;
}
const silentLog: ScanLog = { warn: () => undefined };

export interface ScanDeps {
  db: Db;
  places: PlaceChain;
  score: ScoreFn;
  /** Warnings: a scorer failure (fallback used), a cache read or write that failed. */
  log?: ScanLog;
  radiusMaxMiles: number;
  cooldownMs: number;
  settings: () => Promise<AlgorithmSettings>;
  /** Website evidence: fresh evidence attached before scoring, checks scheduled after the answer. */
  websites?: WebsiteHooks;
  /** Told how long each step of a scan took (the `/metrics` histogram `scan_step_duration_seconds`). */
  timed?: (step: ScanStep, seconds: number) => void;
  /** The lapsed advertisers of the imported billing: they lead their score band (none without billing). */
  lapsed?: () => Promise<ReadonlySet<string>>;
}

/**
 * A scan's steps as timed: the settings; the providers' query (the radius query, for the imported table) beside
 * the blocklist read and the cooldown check; cleaning (names, radius, de-duplication, the blocklist, with the
 * website evidence read under way beside it); ranking (scoring, then the shown ones' analyses with the cache read
 * under way beside them); storing (the slot, the search and the results in one commit).
 */
export const SCAN_STEPS = ['prepare', 'places', 'clean', 'rank', 'store'] as const;
export type ScanStep = (typeof SCAN_STEPS)[number];

/** A stopwatch for one scan's steps: `lap(step)` reports the time since the previous lap. */
function stopwatch(timed: ScanDeps['timed']) {
  let last = performance.now();
  return (step: ScanStep) => {
    const now = performance.now();
    timed?.(step, (now - last) / 1000);
    last = now;
  };
}

export interface WebsiteHooks {
  /**
   * Starts reading the fresh website evidence of the businesses found (before de-duplication, so the read's wait
   * overlaps it); its `attach(kept)` puts it on the businesses kept of them, for scoring.
   */
  read(found: Business[]): EvidenceRead;
  /** Schedule checks of the kept businesses without fresh evidence; must not throw. */
  schedule(userId: string, businesses: Business[]): Promise<unknown>;
}

/**
 * Starts the website evidence read of the businesses found; the function it answers attaches it to the kept ones
 * (a failed read scans without it: logged, the scan goes on).
 */
function readEvidenceFor(deps: Pick<ScanDeps, 'websites' | 'log'>, found: Business[]) {
  const fail = (error: unknown, kept: Business[]) => {
    (deps.log ?? silentLog).warn({ err: error }, 'website evidence read failed; scanning without it');
    return kept;
  };
  let read: EvidenceRead | undefined;
  try {
    read = deps.websites?.read(found);
  } catch (error) {
    return (kept: Business[]) => Promise.resolve(fail(error, kept));
  }
  return async (kept: Business[]) => {
    if (!read) return kept;
    try {
      return await read.attach(kept);
    } catch (error) {
      return fail(error, kept);
    }
  };
}

/** After the answer: checks of the kept businesses' websites (not awaited by the scan). */
function scheduleChecks(deps: Pick<ScanDeps, 'websites'>, userId: string, businesses: Business[]) {
  if (deps.websites) void deps.websites.schedule(userId, businesses);
}

/**
 * A scan's request; the route turns the browser's scanId into onProgress. A territory scan is its bounding circle
 * with `within` the territory: every business inside the outline is ranked, none outside it kept.
 */
export interface ScanInput extends Omit<ScanRequest, 'scanId'> {
  /** Told each phase as it starts, for the rep's progress line; must not throw. */
  onProgress?: ((progress: ScanProgress) => void) | undefined;
  within?: Within & { territoryId: string };
}

/** A scan's phases: asking the providers (by name), N found, analysing N (after cleaning), done (N ranked). */
export type ScanProgress =
  { phase: 'fetching'; providers: string[] } | { phase: 'found' | 'analysing' | 'done'; count: number };

export interface ScanPage {
  searchId: string;
  total: number;
  offset: number;
  prospects: Prospect[];
  sources: SourceReport[];
  demo: boolean;
  radiusMiles: number;
  count: number;
  /** Nothing found, and the imported place data covers no part of this area (see ChainResult). */
  noLocalData?: true;
  /** The territory scanned. */
  territoryId?: string;
}

export const clampRadius = (miles: number, max: number) =>
  Math.min(Math.max(miles, RADIUS_MIN_MILES), Math.max(1, max));
export const clampCount = (n: number) => Math.min(Math.max(Math.round(n), COUNT_MIN), COUNT_MAX);

/**
 * Rank businesses (analyse, then sort). The rule for what the analysis cache gives a scan
 * (docs/SCORING.md, "The analysis cache"):
 *
 * - Every business is scored now. The model is deterministic and cheap (about 3 µs a business), and a stored
 *   analysis was made around another centre (its distance, its reasoning's "0.2 mi away") and in another batch
 *   (its quality spread), so the prospect always carries the fresh score, breakdown, reasoning, confidence and
 *   recommendations. The order never depends on the cache.
 * - The analysis cache keeps the latest analysis of each business a rep is shown: the first `shown` of the
 *   order (a scan keeps the top 100 as its results and in the team's list; the reasoning job works on those).
 *   The others of the up to 500 scored are never shown, and the next scan scores them afresh anyway, so only the
 *   shown ones are read and written, under the business's cache key, model version and 7-day expiry. An entry
 *   is written when there is no fresh one (absent, expired, other model version) or the business data changed
 *   by the change thresholds (10 reviews, 0.1 rating, website or phone) since the basis the row keeps; a
 *   rewrite drops any AI-written reasoning. So a repeated scan of an unchanged area writes no row.
 * - The business cache keeps a copy of each business of another provider than the imported place table (that
 *   table is its own source), rewritten by the re-save rule (cache.ts needsResave).
 * - A fresh entry for unchanged data gives the prospect its AI-written reasoning: `reasoning` and
 *   `reasoningModel` from the cache replace the model's text.
 * - When the scorer fails, each business gets the category fallback score (logged). A fallback is
 *   neither written to the cache nor given cached AI words (they explain the model's score, not this one).
 *
 * Sorted by score descending, ties by distance then name so the order is stable; `options.order` may then
 * filter and rearrange it (a scan's prefilter and "Spread results out") before the shown ones are taken; only
 * those come back, with the total ranked. The cache entries to write come back beside them: a scan saves them
 * after its answer.
 */
export async function rankBusinesses(
  deps: Pick<ScanDeps, 'db' | 'score' | 'log'>,
  businesses: Business[],
  center: { lat: number; lng: number },
  options: { order?: (sorted: RankEntry[]) => RankEntry[]; shown?: number; qualitySpread?: number } = {},
): Promise<Ranking> {
  if (businesses.length === 0) {
    return {
      prospects: [],
      businesses: [],
      total: 0,
      lowest: null,
      cacheWrites: { business: [], analysis: [] },
    };
  }
  const log = deps.log ?? silentLog;
  const scores = scoreOrFallback(deps.score, businesses, center, log, options.qualitySpread);
  // What the order reads, for every business; the prospects (and the analyses' texts) are made for the shown ones.
  const sorted = businesses.map((b, i): RankEntry => ({
    index: i,
    id: prospectId(b, i),
    name: b.name,
    lat: b.lat,
    lng: b.lng,
    distance: Math.round(haversineMiles(center, b) * 1000) / 1000,
    score: scores[i]!.score / 100,
    exact: scores[i]!.exact,
    rule: scores[i]!.rule,
  }));
  sorted.sort(
    (a, b) =>
      b.score - a.score ||
      b.exact - a.exact ||
      a.distance - b.distance ||
      a.name.localeCompare(b.name) ||
      a.id.localeCompare(b.id),
  );
  const ordered = options.order ? options.order(sorted) : sorted;
  const shown = options.shown === undefined ? ordered : ordered.slice(0, options.shown);
  const shownBusinesses = shown.map((e) => businesses[e.index]!);
  const copies = businesses
    .filter(keepsBusinessCopy)
    .map((b) => ({ key: businessCacheKey(b), data: toCachedBusiness(b) }));
  const shownKeys = shownBusinesses.map((b) => businessCacheKey(b));
  const prospects = shown.map((e, i) => {
    const b = shownBusinesses[i]!;
    const analysis = { ...scores[e.index]!.analysis(), businessHash: shownKeys[i]! };
    return toProspect(b, { distance: e.distance, analysis, index: e.index });
  });
  const caches = await readScanCaches(
    deps,
    shownKeys,
    copies.map((c) => c.key),
  );
  return withCaches(prospects, caches, {
    businesses: shownBusinesses,
    total: ordered.length,
    lowest: shown.length > 0 ? Math.min(...shown.map((e) => e.exact)) : null,
    copies,
  });
}

/**
 * What the order of a ranking reads of each business: its prospect id, name, place, distance (miles, rounded as
 * the prospect's), score (0-1, as the prospect's) and the rule that decided the score (the prefilter's).
 */
export interface RankEntry {
  /** The business's index in the ranked list. */
  index: number;
  id: string;
  name: string;
  lat: number;
  lng: number;
  distance: number;
  score: number;
  /** The display score before rounding: of two equal scores, the higher exact one is the stronger. */
  exact: number;
  rule: string | null;
}

/** The ranking's cache read, and from it what to write and any AI-written words to show (see above). */
function withCaches(
  prospects: Prospect[],
  caches: CacheRows | undefined,
  {
    businesses,
    total,
    lowest,
    copies,
  }: { businesses: Business[]; total: number; lowest: number | null; copies: CacheWrites['business'] },
): Ranking {
  const now = Date.now();
  const businessWrites = copies.filter((c) => needsResave(caches?.business.get(c.key), c.data, now));
  const analysisWrites: CacheWrites['analysis'] = [];
  for (const [i, p] of prospects.entries()) {
    const analysis = p.aiAnalysis!;
    if (analysis.breakdown.rule === 'fallback') continue;
    const key = analysis.businessHash;
    const stored = caches?.analysis.get(key);
    const basis = toBasis(toCachedBusiness(businesses[i]!));
    const entryHolds =
      stored?.basis !== undefined && isFresh(stored, now) && !businessChanged(stored.basis, basis);
    if (!entryHolds) analysisWrites.push({ key, data: analysis, basis });
    else if (stored.ai) prospects[i] = { ...p, aiAnalysis: { ...analysis, ...stored.ai } };
  }
  return {
    prospects,
    businesses,
    total,
    lowest,
    cacheWrites: { business: businessWrites, analysis: analysisWrites },
  };
}

/**
 * The caches a ranking reads (the analyses of `keys`; the business copies of `businessKeys`, other providers'
 * businesses), or undefined when the read failed (ranked as with an empty cache, logged).
 */
async function readScanCaches(
  deps: Pick<ScanDeps, 'db' | 'log'>,
  keys: readonly string[],
  businessKeys: readonly string[],
): Promise<CacheRows | undefined> {
  if (keys.length === 0 && businessKeys.length === 0) return undefined;
  try {
    return await readCaches(deps.db, keys, businessKeys);
  } catch (error) {
    (deps.log ?? silentLog).warn({ err: error }, 'analysis cache read failed; scanning without it');
    return undefined;
  }
}

export interface Ranking {
  /** In order: the first `shown` when a number was given, else all of them. */
  prospects: Prospect[];
  /** The business each of `prospects` was made from, in the same order. */
  businesses: Business[];
  /** How many were ranked (after `order`): the results' total. */
  total: number;
  /** The lowest exact score among the prospects returned, null when none is. */
  lowest: number | null;
  cacheWrites: CacheWrites;
}

/** If analysis fails, the category-based fallback scoring, business by business (the scan still answers). */
function scoreOrFallback(
  score: ScoreFn,
  businesses: Business[],
  center: { lat: number; lng: number },
  log: ScanLog,
  qualitySpread?: number,
): RankedBusiness[] {
  let scores: RankedBusiness[] = [];
  try {
    scores = score(businesses, center, qualitySpread === undefined ? {} : { qualitySpread });
  } catch (error) {
    log.warn({ err: error, businesses: businesses.length }, 'scoring failed; using the category fallback');
  }
  const now = new Date();
  return businesses.map(
    (b, i) => scores[i] ?? ranked(fallbackAnalysis(toAnalysisInput(b, haversineMiles(center, b)), { now })),
  );
}

/**
 * A scan: fetch, de-duplicate, drop blocked, analyse, sort (and spread out, when asked); keep the top 100 as
 * the user's latest.
 */
export async function runScan(deps: ScanDeps, userId: string, input: ScanInput): Promise<ScanPage> {
  const lap = stopwatch(deps.timed);
  // The slot is taken where the results are stored (repository.ts, ScanSlot); the cooldown's check is read beside
  // the settings and the places query (one round trip's wait on PostgreSQL, not several) and awaited after them.
  // A scan refused as too soon (rare: the browser keeps the cooldown too) has made the query for nothing and
  // stores nothing. The catch only keeps a failed read from going unhandled while the query runs.
  const slot: ScanSlot = { startedAt: new Date().toISOString(), cooldownMs: deps.cooldownMs };
  const waited = scanSlotWait(deps.db.kysely, userId, slot);
  waited.catch(() => undefined);
  // Read beside the settings: one primary-key read, the statuses themselves cached per import and month.
  const lapsedRead = deps.lapsed?.();
  lapsedRead?.catch(() => undefined);
  const settings = await deps.settings();
  // A territory's bounding circle is not held to the radius limit: the territory's own limit is its area.
  const { within } = input;
  const radiusMiles = within
    ? Math.max(input.radiusMiles, RADIUS_MIN_MILES)
    : clampRadius(input.radiusMiles, deps.radiusMaxMiles);
  const count = clampCount(input.count);
  const groups = resolveGroups(input.categories);
  const types = placeTypesForGroups(groups);
  const center = { lat: input.lat, lng: input.lng };
  const progress = input.onProgress;
  if (progress) {
    const active = await deps.places.activeProviders();
    progress({ phase: 'fetching', providers: [...active.primary, ...(active.topUp ? [active.topUp] : [])] });
  }
  lap('prepare');

  // Every business of the circle is ranked where the provider keeps ranks (the imported table): its best come
  // back, enough for the 100 kept after de-duplication, the blocklist and the prefilter; when they are not (or
  // "Spread results out" may move up businesses up to 10 points below the 100th), more of the best are read.
  const ranked = { showAll: settings.showAllProspects };
  const blockedRead = blockedIds(deps.db);
  const lapsed = (await lapsedRead) ?? NO_LAPSED;
  let read = FIRST_READ;
  let found: Awaited<ReturnType<ScanDeps['places']['nearby']>>;
  let ranking: Ranking;
  for (let round = 0; ; round++) {
    const [answer, blocked] = await Promise.all([
      deps.places.nearby({
        ...center,
        radiusMiles,
        types,
        limit: read,
        minCount: count,
        useOsmTopUp: settings.useOsmTopUp,
        ranked,
        ...(within && { within }),
      }),
      blockedRead,
    ]);
    found = answer;
    if (round === 0) {
      const wait = await waited;
      if (wait > 0) throw tooSoon(wait);
      lap('places');
      progress?.({ phase: 'found', count: found.businesses.length + (found.circle?.unread ?? 0) });
    }
    const withEvidence = readEvidenceFor(deps, found.businesses);
    const kept = filterBlockedBusinesses(
      cleanCandidates(found.businesses, center, radiusMiles, within),
      blocked,
    );
    const candidates = await withEvidence(kept);
    if (round === 0) {
      lap('clean');
      progress?.({ phase: 'analysing', count: candidates.length + (found.circle?.unread ?? 0) });
    }
    // Spread out (when asked) before the top 100 are kept: the first page, Load Next and the restored scan all
    // show the same order.
    ranking = await rankBusinesses(deps, candidates, center, {
      order: (sorted) =>
        spreadResults(
          withLapsedFirst(
            sorted.filter((e) => settings.showAllProspects || !isPrefilteredRule(e.rule)),
            lapsed,
          ),
          { spreadOut: input.spreadOut ?? false, limit: MAX_LOADED },
        ),
      shown: MAX_LOADED,
      ...(found.circle && { qualitySpread: found.circle.spread }),
    });
    const circle = found.circle;
    if (!circle || circle.nextBest === null || read >= PROVIDER_MAX_RESULTS) break;
    const margin = input.spreadOut ? SPREAD_SIMILAR_MARGIN_POINTS : 0;
    const full = ranking.prospects.length >= MAX_LOADED && ranking.lowest !== null;
    if (full && ranking.lowest! >= circle.nextBest + margin) break;
    read = Math.min(PROVIDER_MAX_RESULTS, read * 3);
  }
  ranking = { ...ranking, total: ranking.total + (found.circle?.unread ?? 0) };
  const { sources, noLocalData } = found;
  lap('rank');
  const page = await keepAndPage(
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
      total: ranking.total,
    },
    ranking,
    sources,
    { slot },
  );
  lap('store');
  progress?.({ phase: 'done', count: page.total });
  scheduleChecks(deps, userId, ranking.businesses);
  const answer = within ? { ...page, territoryId: within.territoryId } : page;
  return noLocalData && page.total === 0 ? { ...answer, noLocalData: true } : answer;
}

const NO_LAPSED: ReadonlySet<string> = new Set();

/** Lapsed advertisers first within their 10-point score band; the order untouched when there are none. */
function withLapsedFirst(sorted: RankEntry[], lapsed: ReadonlySet<string>): RankEntry[] {
  return lapsed.size === 0 ? sorted : lapsedFirst(sorted, (e) => lapsed.has(e.id));
}

/** A scan within the cooldown of the user's last one is refused (the browser only logs it). */
const tooSoon = (waitMs: number) =>
  new HttpError(429, 'Please wait a moment before scanning again.', { retryAfterMs: waitMs });

/**
 * Results without a name or location dropped, only those strictly inside the radius (great-circle
 * distance) kept, or with `within` (a territory) only those inside it, duplicates removed.
 */
export function cleanCandidates(
  businesses: Business[],
  center: { lat: number; lng: number },
  radiusMiles: number,
  within?: Within,
): Business[] {
  return dedupe(
    businesses.filter(
      (b) =>
        b.name.trim() !== '' &&
        Number.isFinite(b.lat) &&
        Number.isFinite(b.lng) &&
        (within ? within.contains(b) : haversineMiles(center, b) < radiusMiles),
    ),
  );
}

/**
 * The order is de-duplicate, remove blocked, analyse. Blocked businesses are dropped before scoring, so they
 * are neither analysed nor cached, and do not count in the batch's quality spread.
 */
async function withoutBlocked(deps: Pick<ScanDeps, 'db'>, businesses: Business[]): Promise<Business[]> {
  return filterBlockedBusinesses(businesses, await blockedIds(deps.db));
}

/**
 * Record the search, keep the top 100 as the user's latest results and in the team's list (scans and quick
 * searches alike), save the ranking's cache entries, and answer the first page of N. With `keepEarlier` (a
 * business lookup) the found businesses go on top of the user's latest results instead of replacing them, so
 * the scan the rep was working stays in the list and comes back after a reload. With a `slot` (a scan) the
 * user's scan slot is taken in the same commit, or nothing is stored and the scan refused as too soon.
 */
async function keepAndPage(
  deps: Pick<ScanDeps, 'db' | 'log'>,
  record: SearchRecord,
  ranking: Ranking,
  sources: SourceReport[],
  options: { keepEarlier?: boolean; slot?: ScanSlot } = {},
): Promise<ScanPage> {
  const kept = ranking.prospects.slice(0, MAX_LOADED);
  // The team list's copies and the cache entries are written after the answer (after-answer.ts).
  const { searchId, list, total } = await storeInTransaction(
    deps.db,
    record,
    kept,
    ranking.total,
    new Date().toISOString(),
    { keepEarlier: options.keepEarlier ?? false, slot: options.slot },
  );
  afterAnswer(deps.db).schedule(ranking.cacheWrites);
  return {
    searchId,
    total,
    offset: 0,
    prospects: list.slice(0, record.count),
    sources,
    demo: list.some((p) => p.source === 'demo'),
    radiusMiles: record.radiusMiles,
    count: record.count,
  };
}

/**
 * The scan's slot, the search record, the latest results (merged under the earlier ones for a business lookup)
 * and the team list's owed row, in one transaction: one durable commit (one fsync with SQLite
 * synchronous=FULL), after any copies still owed from the results about to be replaced.
 */
function storeInTransaction(
  db: Db,
  record: SearchRecord,
  kept: Prospect[],
  keptTotal: number,
  at: string,
  { keepEarlier, slot }: { keepEarlier: boolean; slot: ScanSlot | undefined },
) {
  return inTransaction(db.kysely, async (trx) => {
    // Another scan of this user stored first, within the cooldown: this one stores nothing.
    if (slot && !(await takeScanSlot(trx, record.userId, slot))) throw tooSoon(slot.cooldownMs);
    // Copies still owed from the results about to be replaced go to the team list first (team-list.ts).
    await copyOwed(trx, { userId: record.userId });
    const id = await recordSearch(trx, record, at);
    let list = kept;
    let total = keptTotal;
    if (keepEarlier) {
      // Read-modify-write of the stored list: compare-and-set on its version, so a background writer's change
      // made in between (website evidence, reasoning) is merged, not lost.
      ({ list, total } = await mergeLatestScan(trx, record.userId, id, kept, total, MAX_LOADED, at));
    } else {
      await saveLatestScan(trx, record.userId, id, kept, total, at);
    }
    // The team's list (All Prospects) keeps them after this user's next scan or New Search: owed now, copied
    // from the stored results after the answer (the found ones lead a merged list).
    await oweTeamCopies(trx, record.userId, id, kept.length, at);
    return { searchId: id, list, total };
  });
}

/**
 * A page of the user's latest scan (restored at sign-in; 'Load Next N' up to 100). Blocking a business prunes
 * it from every stored scan; the blocklist is applied here as well, in case a scan that was under way when the
 * block came stored it afterwards.
 */
export async function latestPage(db: Db, userId: string, offset: number, limit: number) {
  const latest = await readLatestScan(db.kysely, userId);
  if (!latest) return null;
  // Businesses blocked since the scan stay out too, as they left the open screens live.
  const prospects = filterBlocked(latest.prospects, await blockedIds(db));
  const total = Math.max(prospects.length, latest.total - (latest.prospects.length - prospects.length));
  const loadable = Math.min(MAX_LOADED, prospects.length);
  const start = Math.min(offset, loadable);
  const end = Math.min(start + limit, loadable);
  return {
    searchId: latest.searchId,
    total,
    loadable,
    offset: start,
    // Results stored before the website checks carry no signals: `[]`, as for a business not checked yet.
    prospects: prospects.slice(start, end).map((p) => (p.signals ? p : { ...p, signals: [] })),
    at: latest.at,
  };
}

export const NO_MATCHING_BUSINESS =
  'No matching business found within your radius. Try a more specific name.';
export const NO_CATEGORY_RESULTS = 'No results found for that category within your radius.';
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

/**
 * The quality spread a scan of the whole circle (every category) scores with, where the imported table is the
 * only source: a business found by quick search then scores what the same scan gives it, not a spread of the few
 * it matched. Elsewhere (Google) there is no circle to read without a billed search: undefined.
 */
async function circleQualitySpread(
  deps: ScanDeps,
  center: { lat: number; lng: number },
  radiusMiles: number,
): Promise<number | undefined> {
  const active = await deps.places.activeProviders();
  if (active.primary.length !== 1 || active.primary[0] !== 'local') return undefined;
  const settings = await deps.settings();
  const circle = await deps.places.nearby({
    ...center,
    radiusMiles,
    types: placeTypesForGroups(resolveGroups([])),
    limit: 1,
    minCount: 0,
    useOsmTopUp: false,
    ranked: { showAll: settings.showAllProspects },
  });
  return circle.circle?.spread;
}

/**
 * Quick search: a business by name within the radius, or a category. A category's results replace the
 * latest results; the businesses found by name go on top of them (the scan being worked stays restorable).
 */
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
  const [found, qualitySpread] = await Promise.all([
    deps.places.textSearch({ query: text, ...center, radiusMiles }),
    circleQualitySpread(deps, center, radiusMiles),
  ]);
  const withEvidence = readEvidenceFor(deps, found.businesses);
  const candidates = await withEvidence(
    await withoutBlocked(deps, cleanCandidates(found.businesses, center, radiusMiles)),
  );
  const ranking = await rankBusinesses(deps, candidates, center, {
    shown: MAX_LOADED,
    ...(qualitySpread !== undefined && { qualitySpread }),
  });
  if (ranking.prospects.length === 0) {
    throw new HttpError(404, input.mode === 'business' ? NO_MATCHING_BUSINESS : NO_CATEGORY_RESULTS, {
      sources: found.sources,
    });
  }
  const page = await keepAndPage(
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
      total: ranking.total,
    },
    ranking,
    found.sources,
    { keepEarlier: input.mode === 'business' },
  );
  scheduleChecks(deps, userId, ranking.businesses);
  return page;
}
