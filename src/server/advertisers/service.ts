import type { Db } from '../db/database.js';
import { inTransaction } from '../db/database.js';
import { nowIso } from '../db/database.js';
import type { CurrentAdvertiserTable } from '../db/schema.js';
import type { CurrentUser } from '../http/access.js';
import { badRequest, notFound } from '../http/errors.js';
import type { EventBus } from '../events/bus.js';
import { recordAudit } from '../audit/service.js';
import {
  deleteAdvertiser,
  findAdvertiser,
  insertAdvertiserIfAbsent,
  insertAdvertisersIfAbsent,
  listAdvertisers,
  forEachPlace,
} from './repository.js';
import { teamProspects } from '../exports/service.js';
import { createMatcher, parseImport } from './import.js';
import { businessRecord, UNKNOWN_BUSINESS } from '../scans/business-record.js';
import { settleAfterAnswer } from '../scans/after-answer.js';
import { normalizeBusinessId } from '../../core/business-id.js';
import type { Advertiser, ImportReport, MarkAdvertiserInput } from '../../core/api/lists.js';

// A current advertiser: unmarked -> marked (by any user) -> unmarked (admin only); a second mark of the same
// business is ignored. One row per mark (docs/PRODUCT.md, "Saved prospects, advertisers and the blocklist").

export const NOT_MARKED = 'This business is not marked as a current advertiser';
export const NO_STABLE_ID_TO_MARK =
  'This business has no stable id, so it cannot be marked as a current advertiser.';

export type AdvertiserView = Advertiser;

export function presentAdvertiser(row: CurrentAdvertiserTable): AdvertiserView {
  return {
    businessId: row.business_id,
    label: row.label,
    markedBy: row.marked_by,
    markedByName: row.marked_by_name,
    markedAt: row.marked_at,
  };
}

export async function currentAdvertisers(db: Db): Promise<AdvertiserView[]> {
  return (await listAdvertisers(db.kysely)).map(presentAdvertiser);
}

/**
 * Marks the business for everyone; when it is already marked the existing mark is answered unchanged. The label
 * is the name the server's own record of the business gives (businessRecord), never the one sent: a rep cannot
 * put words in the team's list, nor mark an id no scan or import knows (404).
 */
export async function markAdvertiser(
  db: Db,
  events: EventBus,
  by: Pick<CurrentUser, 'id' | 'name'>,
  input: MarkAdvertiserInput,
): Promise<{ advertiser: AdvertiserView; created: boolean }> {
  const businessId = normalizeBusinessId(input.businessId);
  if (!businessId) throw badRequest(NO_STABLE_ID_TO_MARK);
  const existing = await findAdvertiser(db.kysely, businessId);
  if (existing) return { advertiser: presentAdvertiser(existing), created: false };
  await settleAfterAnswer(db); // a business the rep scanned a moment ago
  const record = await businessRecord(db.kysely, by.id, businessId);
  if (!record) throw notFound(UNKNOWN_BUSINESS);
  const row: CurrentAdvertiserTable = {
    business_id: businessId,
    label: record.name.trim() || businessId,
    marked_by: by.id,
    marked_by_name: by.name,
    marked_at: nowIso(),
  };
  const created = await insertAdvertiserIfAbsent(db.kysely, row);
  const stored = created ? row : await findAdvertiser(db.kysely, businessId);
  if (!stored) throw notFound(NOT_MARKED); // unmarked again between the insert and the read
  const advertiser = presentAdvertiser(stored);
  if (created) {
    await events.publish({
      type: 'advertisers',
      action: 'marked',
      businessId,
      item: { ...advertiser },
      at: advertiser.markedAt,
    });
  }
  return { advertiser, created };
}

/** Admin only (the route enforces it): removes the mark and records who did it. */
export async function unmarkAdvertiser(
  db: Db,
  events: EventBus,
  actor: Pick<CurrentUser, 'id' | 'name' | 'email'>,
  rawBusinessId: string,
): Promise<void> {
  const businessId = normalizeBusinessId(rawBusinessId);
  const removed = await inTransaction(db.kysely, async (trx) => {
    // A mark stored before ids were normalised is still found under the id as sent.
    const found =
      (await deleteAdvertiser(trx, businessId)) ??
      (rawBusinessId.trim() !== businessId ? await deleteAdvertiser(trx, rawBusinessId.trim()) : undefined);
    if (!found) return undefined;
    await recordAudit(
      trx,
      actor,
      'advertiser.unmark',
      {
        type: 'business',
        id: found.business_id,
        label: found.label,
      },
      { markedBy: found.marked_by, markedByName: found.marked_by_name, markedAt: found.marked_at },
    );
    return found;
  });
  if (!removed) throw notFound(NOT_MARKED);
  await events.publish({
    type: 'advertisers',
    action: 'unmarked',
    businessId: removed.business_id,
    at: nowIso(),
  });
}

export type { ImportReport };

/**
 * Admin import of an existing customer / advertiser list: rows are matched to known businesses (imported places
 * and every prospect the team has scanned, All Prospects) and the matches marked as current advertisers by the admin.
 */
export async function importAdvertisers(
  db: Db,
  events: EventBus,
  actor: Pick<CurrentUser, 'id' | 'name' | 'email'>,
  csv: string,
): Promise<ImportReport> {
  const parsed = parseImport(csv);
  if ('error' in parsed) throw badRequest(parsed.error);
  const matcher = createMatcher(parsed.rows);
  if (parsed.rows.length > 0) {
    for (const p of await teamProspects(db)) matcher.consider(p);
    await forEachPlace(db.kysely, (place) => matcher.consider(place));
  }
  const { matched, unmatched } = matcher.result();

  const now = nowIso();
  const byId = new Map<string, CurrentAdvertiserTable>();
  for (const m of matched) {
    if (!byId.has(m.businessId)) {
      byId.set(m.businessId, {
        business_id: m.businessId,
        label: m.label,
        marked_by: actor.id,
        marked_by_name: actor.name,
        marked_at: now,
      });
    }
  }
  const created = await inTransaction(db.kysely, async (trx) => {
    const ids = await insertAdvertisersIfAbsent(trx, [...byId.values()]);
    await recordAudit(
      trx,
      actor,
      'advertisers.import',
      { type: 'advertisers' },
      {
        rows: parsed.rows.length + parsed.bad.length,
        matched: matched.length,
        unmatched: unmatched.length + parsed.bad.length,
        newlyMarked: ids.length,
      },
    );
    return new Set(ids);
  });
  if (created.size > 0) {
    await events.publish({ type: 'advertisers', action: 'imported', count: created.size, at: now });
  }
  return {
    matched: matched.map((m) => ({ ...m, alreadyMarked: !created.has(m.businessId) })),
    unmatched: [...parsed.bad, ...unmatched].sort((a, b) => a.row - b.row),
    newlyMarked: created.size,
  };
}
