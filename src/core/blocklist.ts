// Blocklist filtering by stable id (docs/PRODUCT.md, "Saved prospects, advertisers and the blocklist"): a
// prospect's stable id is its id, else its business hash.
import { businessCacheKey, businessHash, type Business, type CacheKeyInput } from './types';

export interface Blockable extends CacheKeyInput {
  id?: string | null;
  /** The analysis's business hash, when the prospect has been analysed. */
  aiAnalysis?: { businessHash?: string | null } | null;
}

/**
 * The id a block is stored under: the prospect id, else the analysis's business hash, else null (then nothing
 * can be blocked).
 */
export function stableId(p: Blockable): string | null {
  const id = p.id?.trim();
  if (id) return id;
  const hash = p.aiAnalysis?.businessHash?.trim();
  return hash ? hash : null;
}

/**
 * Every id a block of this entry may be stored under, as {@link filterBlocked} checks them: its id, its analysis's
 * business hash and its computed cache key ('' when absent). Stored with a team prospect so the database can
 * leave blocked ones out while paging.
 */
export function blockKeys(p: Blockable): { id: string; analysisHash: string; businessHash: string } {
  return {
    id: p.id?.trim() ?? '',
    analysisHash: p.aiAnalysis?.businessHash?.trim() ?? '',
    businessHash: businessHash(p),
  };
}

/**
 * Remove blocked entries: one is blocked when its id, its analysis's business hash, or its computed cache key
 * is on the list, so a block made before or after analysis both hold.
 */
export function filterBlocked<T extends Blockable>(items: readonly T[], blocklist: Iterable<string>): T[] {
  const blocked = blocklist instanceof Set ? (blocklist as ReadonlySet<string>) : new Set(blocklist);
  if (blocked.size === 0) return [...items];
  return items.filter((p) => {
    const id = p.id?.trim();
    if (id && blocked.has(id)) return false;
    const hash = p.aiAnalysis?.businessHash?.trim();
    if (hash && blocked.has(hash)) return false;
    return !blocked.has(businessHash(p));
  });
}

/**
 * Remove blocked businesses before they are analysed (a scan de-duplicates, removes blocked, analyses,
 * sorts).
 * A business is blocked when any id its prospect could have been blocked under is on the list: its place id or
 * provider id (the prospect id), its cache key (the analysis's business hash), or the name/address/category hash
 * (the business hash of a prospect without a place id).
 */
export function filterBlockedBusinesses<
  T extends Pick<Business, 'id' | 'placeId' | 'name' | 'address' | 'category'>,
>(items: readonly T[], blocklist: Iterable<string>): T[] {
  const blocked = blocklist instanceof Set ? (blocklist as ReadonlySet<string>) : new Set(blocklist);
  if (blocked.size === 0) return [...items];
  return items.filter((b) => {
    const placeId = b.placeId?.trim();
    if (placeId && blocked.has(placeId)) return false;
    const id = b.id.trim();
    if (id && blocked.has(id)) return false;
    if (blocked.has(businessCacheKey(b))) return false;
    return !blocked.has(businessHash({ name: b.name, address: b.address, category: b.category }));
  });
}
