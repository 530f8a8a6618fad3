// Blocklist filtering by stable id (SPEC.md §3, §4): a prospect's stable id is its id, else its business hash.
import { businessHash, type CacheKeyInput } from './types';

export interface Blockable extends CacheKeyInput {
  id?: string | null;
  /** The analysis's business hash, when the prospect has been analysed. */
  aiAnalysis?: { businessHash?: string | null } | null;
}

/**
 * The id a block is stored under: the prospect id, else the analysis's business hash, else null (SPEC.md §4:
 * "if no stable id exists the block is skipped").
 */
export function stableId(p: Blockable): string | null {
  const id = p.id?.trim();
  if (id) return id;
  const hash = p.aiAnalysis?.businessHash?.trim();
  return hash ? hash : null;
}

/**
 * Remove blocked entries: one is blocked when its id, its analysis's business hash, or its computed cache key
 * (SPEC.md §3) is on the list, so a block made before or after analysis both hold.
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
