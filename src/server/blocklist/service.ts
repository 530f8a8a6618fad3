import type { Db } from '../db/database.js';
import { inTransaction } from '../db/database.js';
import { nowIso } from '../db/database.js';
import type { BlocklistTable } from '../db/schema.js';
import type { CurrentUser } from '../http/access.js';
import { badRequest, notFound } from '../http/errors.js';
import type { EventBus } from '../events/bus.js';
import { recordAudit } from '../audit/service.js';
import { filterBlocked } from '../../core/blocklist.js';
import { pruneLatestScans } from '../scans/repository.js';
import type { BlocklistRow } from './repository.js';
import {
  deleteAllBlocked,
  deleteBlocked,
  findBlocked,
  insertBlockedIfAbsent,
  listBlockedIds,
  listBlocklist,
} from './repository.js';
import type { BlockedItem, BlockInput } from '../../core/api/lists.js';
import { settleAfterAnswer } from '../scans/after-answer.js';

// Blocking (docs/PRODUCT.md, "Saved prospects, advertisers and the blocklist"): the prospect's stable id (id,
// else the AI business hash) goes on the shared blocklist; every later scan of every user leaves it out.
// Without a stable id nothing is blocked.

export const NO_STABLE_ID_TO_BLOCK =
  'This business has no stable id (no place id, provider id or business hash), so it cannot be blocked.';
export const NOT_BLOCKED = 'This business is not blocked';

type Actor = Pick<CurrentUser, 'id' | 'name' | 'email'>;

export type BlockedView = BlockedItem;

/** "450 Sutter St, San Francisco, CA 94108" from a stored prospect's JSON, '' when there is none. */
function addressOf(prospectJson: string | null | undefined): string {
  if (!prospectJson) return '';
  try {
    const p = JSON.parse(prospectJson) as { address?: string; city?: string; state?: string; zip?: string };
    const street = p.address?.trim() ?? '';
    const lower = street.toLowerCase();
    const stateZip = [p.state, p.zip].filter(Boolean).join(' ');
    const parts = [street];
    if (p.city && !lower.includes(p.city.toLowerCase())) parts.push(p.city);
    if (stateZip && !lower.includes(stateZip.toLowerCase())) parts.push(stateZip);
    return parts.filter((x) => x !== '').join(', ');
  } catch {
    return '';
  }
}

function presentBlocked(
  row: BlocklistRow | (BlocklistTable & { blocked_by_name?: string | null }),
): BlockedView {
  const address = addressOf('team_prospect' in row ? row.team_prospect : null);
  return {
    businessId: row.business_id,
    label: row.label,
    ...(address && { address }),
    blockedBy: row.blocked_by,
    blockedByName: row.blocked_by_name ?? null,
    blockedAt: row.created_at,
  };
}

/** The ids every scan must leave out. For the scan service: `(await blockedIds(db)).has(prospect.id)`. */
export async function blockedIds(db: Db): Promise<Set<string>> {
  return new Set(await listBlockedIds(db.kysely));
}

export async function blocklist(db: Db): Promise<BlockedView[]> {
  await settleAfterAnswer(db); // the names of businesses blocked from results just scanned
  return (await listBlocklist(db.kysely)).map(presentBlocked);
}

export async function blockBusiness(
  db: Db,
  events: EventBus,
  actor: Actor,
  input: BlockInput,
): Promise<{ blocked: BlockedView; created: boolean }> {
  const businessId = input.businessId?.trim() ?? '';
  if (!businessId) throw badRequest(NO_STABLE_ID_TO_BLOCK);
  const row: BlocklistTable = {
    business_id: businessId,
    label: input.label.trim() || businessId,
    blocked_by: actor.id,
    created_at: nowIso(),
  };
  const result = await inTransaction(db.kysely, async (trx) => {
    const created = await insertBlockedIfAbsent(trx, row);
    if (created) {
      await recordAudit(trx, actor, 'blocklist.block', {
        type: 'business',
        id: businessId,
        label: row.label,
      });
      // Out of every user's stored latest results too, so a reload, another device or 'Load Next' does not
      // bring it back, and the next page's offset (the prospects a client holds) stays right.
      await pruneLatestScans(trx, businessId, (p) => filterBlocked([p], [businessId]).length === 0);
      return { blocked: presentBlocked({ ...row, blocked_by_name: actor.name }), created };
    }
    const existing = await findBlocked(trx, businessId);
    return { blocked: presentBlocked(existing ?? row), created };
  });
  if (result.created) {
    await events.publish({
      type: 'blocklist',
      action: 'blocked',
      businessId,
      item: { ...result.blocked },
      at: result.blocked.blockedAt,
    });
  }
  return result;
}

export async function unblockBusiness(
  db: Db,
  events: EventBus,
  actor: Actor,
  businessId: string,
): Promise<void> {
  const removed = await inTransaction(db.kysely, async (trx) => {
    const found = await deleteBlocked(trx, businessId);
    if (found) {
      await recordAudit(trx, actor, 'blocklist.unblock', {
        type: 'business',
        id: businessId,
        label: found.label,
      });
    }
    return found;
  });
  if (!removed) throw notFound(NOT_BLOCKED);
  await events.publish({ type: 'blocklist', action: 'unblocked', businessId, at: nowIso() });
}

/** SuperAdmin: empties the shared blocklist; answers how many entries went. */
export async function clearBlocklist(db: Db, events: EventBus, actor: Actor): Promise<number> {
  const cleared = await inTransaction(db.kysely, async (trx) => {
    const n = await deleteAllBlocked(trx);
    await recordAudit(trx, actor, 'blocklist.clear', { type: 'blocklist' }, { cleared: n });
    return n;
  });
  await events.publish({ type: 'blocklist', action: 'cleared', count: cleared, at: nowIso() });
  return cleared;
}

/** Universal Blocklist Debug (SuperAdmins): is this id blocked, and by whom. The check is logged with its
 * answer, so the log shows what the blocklist said at the time. */
export async function checkBlocked(
  db: Db,
  actor: Actor,
  businessId: string,
): Promise<{ businessId: string; blocked: boolean; entry: BlockedView | null }> {
  const found = await findBlocked(db.kysely, businessId);
  await recordAudit(
    db,
    actor,
    'blocklist.check',
    { type: 'business', id: businessId, label: found?.label ?? null },
    { blocked: Boolean(found) },
  );
  return { businessId, blocked: Boolean(found), entry: found ? presentBlocked(found) : null };
}
