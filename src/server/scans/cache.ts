import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { inTexts, type Db } from '../db/database.js';
import type { Business, ProspectAnalysis } from '../../core/types.js';
import { MODEL_VERSION } from '../../core/scoring/constants.js';

type Conn = Kysely<Database>;

// The shared business and analysis caches, keyed by the business hash: 7 days fresh, and entries of another
// version of the scoring model are not fresh (docs/PRODUCT.md, "Caches and freshness").
export { MODEL_VERSION };
export const CACHE_EXPIRY_DAYS = 7;
export const CACHE_EXPIRY_MS = CACHE_EXPIRY_DAYS * 86_400_000;
export const REVIEW_CHANGE = 10;
export const RATING_CHANGE = 0.1;
export const RESAVE_MIN_AGE_MS = 120_000;
/** Rows per IN (...) query: well under SQLite's and PostgreSQL's parameter limits. */
const READ_CHUNK = 500;
/**
 * Rows per upsert: a scan's (up to 500) in one statement. 5 values a row stays under the parameter limits of
 * the SQLite better-sqlite3 bundles (32,766) and of PostgreSQL (65,535).
 */
const WRITE_CHUNK = 500;

export interface CachedBusiness {
  name: string;
  address: string;
  normalizedCategory: string;
  website: string;
  phone: string;
  rating: number | null;
  reviewCount: number;
  businessStatus: 'Open' | 'Closed';
  types: string[];
}

const text = (s: string | undefined | null) => (s ?? '').trim().toLowerCase();

export function toCachedBusiness(b: Business): CachedBusiness {
  return {
    name: b.name,
    address: b.address,
    normalizedCategory: b.category,
    website: b.website ?? '',
    phone: b.phone ?? '',
    rating: b.rating ?? null,
    reviewCount: b.reviews,
    businessStatus: b.openNow === false ? 'Closed' : 'Open',
    types: b.types,
  };
}

/** Normalised content for change detection: text fields lower-cased and trimmed. */
export function contentHash(b: CachedBusiness): string {
  return JSON.stringify([
    text(b.name),
    text(b.address),
    text(b.normalizedCategory),
    text(b.website),
    text(b.phone),
  ]);
}

/** What the change thresholds read of a business: the basis an analysis cache row keeps. */
export type AnalysisBasis = Pick<CachedBusiness, 'reviewCount' | 'rating' | 'website' | 'phone'>;

export const toBasis = (b: CachedBusiness): AnalysisBasis => ({
  reviewCount: b.reviewCount,
  rating: b.rating,
  website: b.website,
  phone: b.phone,
});

/** A stored basis (or a whole business_cache copy, which holds the same fields), or undefined when unreadable. */
function parseBasis(text: string | null): AnalysisBasis | undefined {
  if (!text) return undefined;
  try {
    const v = JSON.parse(text) as Partial<AnalysisBasis>;
    if (typeof v.reviewCount !== 'number') return undefined;
    return {
      reviewCount: v.reviewCount,
      rating: typeof v.rating === 'number' ? v.rating : null,
      website: typeof v.website === 'string' ? v.website : '',
      phone: typeof v.phone === 'string' ? v.phone : '',
    };
  } catch {
    return undefined;
  }
}

/** Changed when reviews differ by 10+, rating by 0.1+, or website or phone differs. */
export function businessChanged(cached: AnalysisBasis, current: AnalysisBasis): boolean {
  return (
    Math.abs(cached.reviewCount - current.reviewCount) >= REVIEW_CHANGE ||
    Math.abs((cached.rating ?? 0) - (current.rating ?? 0)) >= RATING_CHANGE - 1e-9 ||
    text(cached.website) !== text(current.website) ||
    text(cached.phone) !== text(current.phone)
  );
}

/** An entry is valid while younger than the expiry and of the current model version (or none). */
export function isFresh(entry: { updated_at: string; model_version: string }, now = Date.now()): boolean {
  return (
    now - Date.parse(entry.updated_at) < CACHE_EXPIRY_MS &&
    (entry.model_version === MODEL_VERSION || entry.model_version === '')
  );
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export interface CacheRows {
  business: Map<
    string,
    { data: CachedBusiness; updated_at: string; model_version: string; content_hash: string }
  >;
  /**
   * Each stored analysis's age and version, what it was made from (absent for a row of an older version), and
   * its AI-written words when it has them.
   */
  analysis: Map<
    string,
    { updated_at: string; model_version: string; basis?: AnalysisBasis; ai?: AiReasoning }
  >;
}

/** What the reasoning job writes into a stored analysis: the text and the model that wrote it. */
export interface AiReasoning {
  reasoning: string;
  reasoningModel: string;
}

/**
 * The JSON key that marks an analysis with AI-written words. `LIKE` on it only narrows which rows send their
 * JSON (a text that is exactly "reasoningModel" reads a row for nothing); the parsed JSON decides.
 */
const AI_MARK = '%"reasoningModel"%';

/**
 * Batch-read the caches a scan needs: the analyses of `keys`, and the stored business copies of
 * `businessKeys` only (the businesses of other providers than the imported table; see `keepsBusinessCopy`).
 * Of an analysis only its age, version, basis and any AI-written words come back: the rest (about 0.8 KB, up
 * to 500 of them a scan) is re-scored anyway. Large results read at the same time on two connections stalled
 * ~40 ms on loopback TCP to PostgreSQL in the benchmark (docs/PERFORMANCE.md), and the smaller answer is less
 * work on every database.
 */
export async function readCaches(
  { kysely: db, kind }: Db,
  keys: readonly string[],
  businessKeys: readonly string[] = keys,
): Promise<CacheRows> {
  const rows: CacheRows = { business: new Map(), analysis: new Map() };
  const readBusinesses = async () => {
    for (const part of chunks([...new Set(businessKeys)], READ_CHUNK)) {
      for (const r of await db
        .selectFrom('business_cache')
        .selectAll()
        .where(inTexts(kind, 'business_id', part))
        .execute()) {
        rows.business.set(r.business_id, { ...r, data: JSON.parse(r.data) as CachedBusiness });
      }
    }
  };
  const readAnalyses = async () => {
    for (const part of chunks([...new Set(keys)], READ_CHUNK)) {
      const analyses = await db
        .selectFrom('analysis_cache')
        .select(['business_id', 'updated_at', 'model_version', 'basis'])
        .select((eb) =>
          eb.case().when('data', 'like', AI_MARK).then(eb.ref('data')).else(null).end().as('marked'),
        )
        .where(inTexts(kind, 'business_id', part))
        .execute();
      for (const { business_id, marked, basis: basisText, ...entry } of analyses) {
        const ai = marked ? aiReasoning(JSON.parse(marked) as Partial<ProspectAnalysis>) : undefined;
        const basis = parseBasis(basisText);
        rows.analysis.set(business_id, { ...entry, ...(basis && { basis }), ...(ai && { ai }) });
      }
    }
  };
  await Promise.all([readBusinesses(), readAnalyses()]);
  return rows;
}

/**
 * Whether the business cache keeps a copy of a business: not for one of the imported place table (`local`),
 * which is its own source and changes only by an import (a scan writes only what changed).
 */
export const keepsBusinessCopy = (b: Pick<Business, 'source'>) => b.source !== 'local';

function aiReasoning(data: Partial<ProspectAnalysis>): AiReasoning | undefined {
  const { reasoning, reasoningModel } = data;
  return typeof reasoning === 'string' && typeof reasoningModel === 'string' && reasoningModel
    ? { reasoning, reasoningModel }
    : undefined;
}

/**
 * The re-save rule: write a business only when it is new, or its normalised content changed,
 * or rating moved 0.1+, or reviews moved 10+ — and only when the stored copy is older than 120 s.
 */
export function needsResave(
  stored: { data: CachedBusiness; updated_at: string; content_hash: string } | undefined,
  current: CachedBusiness,
  now = Date.now(),
): boolean {
  if (!stored) return true;
  if (now - Date.parse(stored.updated_at) < RESAVE_MIN_AGE_MS) return false;
  return (
    stored.content_hash !== contentHash(current) ||
    Math.abs((stored.data.rating ?? 0) - (current.rating ?? 0)) >= RATING_CHANGE - 1e-9 ||
    Math.abs(stored.data.reviewCount - current.reviewCount) >= REVIEW_CHANGE
  );
}

/**
 * One entry per key, the last one winning, in key order; every batch write goes through this. PostgreSQL refuses
 * an INSERT ... ON CONFLICT DO UPDATE that names one key twice ("cannot affect row a second time"). And scans
 * around different centres meet the same businesses in different orders: upserting in key order, two scans lock
 * the rows they share in one order, so they cannot deadlock (PostgreSQL would find it only after
 * deadlock_timeout, 1 s, and fail one of them).
 */
export function lastPerKey<T extends { key: string }>(entries: readonly T[]): T[] {
  const byKey = new Map<string, T>();
  for (const e of entries) byKey.set(e.key, e);
  return [...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

export async function writeBusinessCache(db: Conn, entries: { key: string; data: CachedBusiness }[]) {
  const now = new Date().toISOString();
  for (const part of chunks(lastPerKey(entries), WRITE_CHUNK)) {
    if (part.length === 0) continue;
    await db
      .insertInto('business_cache')
      .values(
        part.map((e) => ({
          business_id: e.key,
          data: JSON.stringify(e.data),
          content_hash: contentHash(e.data),
          model_version: MODEL_VERSION,
          updated_at: now,
        })),
      )
      .onConflict((oc) =>
        oc.column('business_id').doUpdateSet((eb) => ({
          data: eb.ref('excluded.data'),
          content_hash: eb.ref('excluded.content_hash'),
          model_version: eb.ref('excluded.model_version'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }
}

/**
 * What an analysis-cache row keeps of an analysis: the analysis fields (score, reasoning, confidence,
 * recommendations, model version; the row's updated_at) and what the reasoning job matches on (analyzedAt,
 * businessHash). Not the breakdown, more than half the bytes: a scan re-scores every business and reads a row
 * only for its age, basis and AI-written words, so only what is needed is written.
 */
export function toStoredAnalysis(a: ProspectAnalysis) {
  const { breakdown: _breakdown, ...stored } = a;
  return stored;
}

export async function writeAnalysisCache(
  db: Conn,
  entries: { key: string; data: ProspectAnalysis; basis: AnalysisBasis }[],
) {
  const now = new Date().toISOString();
  for (const part of chunks(lastPerKey(entries), WRITE_CHUNK)) {
    if (part.length === 0) continue;
    await db
      .insertInto('analysis_cache')
      .values(
        part.map((e) => ({
          business_id: e.key,
          data: JSON.stringify(toStoredAnalysis(e.data)),
          model_version: e.data.modelVersion || MODEL_VERSION,
          updated_at: now,
          basis: JSON.stringify(e.basis),
        })),
      )
      .onConflict((oc) =>
        oc.column('business_id').doUpdateSet((eb) => ({
          data: eb.ref('excluded.data'),
          model_version: eb.ref('excluded.model_version'),
          updated_at: eb.ref('excluded.updated_at'),
          basis: eb.ref('excluded.basis'),
        })),
      )
      .execute();
  }
}

export async function cacheStats(db: Conn) {
  const fresh = new Date(Date.now() - CACHE_EXPIRY_MS).toISOString();
  const count = async (table: 'analysis_cache' | 'business_cache', onlyValid: boolean) => {
    let q = db.selectFrom(table).select((eb) => eb.fn.countAll<string | number>().as('n'));
    if (onlyValid) q = q.where('updated_at', '>', fresh).where('model_version', 'in', [MODEL_VERSION, '']);
    return Number((await q.executeTakeFirstOrThrow()).n);
  };
  const total = await count('analysis_cache', false);
  const valid = await count('analysis_cache', true);
  const businesses = await count('business_cache', false);
  return {
    total,
    valid,
    expired: total - valid,
    businesses,
    modelVersion: MODEL_VERSION,
    expiryDays: CACHE_EXPIRY_DAYS,
  };
}

export async function clearCaches(db: Conn): Promise<void> {
  await db.deleteFrom('analysis_cache').execute();
  await db.deleteFrom('business_cache').execute();
}
