import type { Db } from '../db/database.js';
import { nowIso } from '../db/database.js';
import type { CurrentAdvertiserTable } from '../db/schema.js';
import type { CurrentUser } from '../http/access.js';
import { badRequest, notFound } from '../http/errors.js';
import type { EventBus } from '../events/bus.js';
import { recordAudit } from '../audit/service.js';
import { deleteAdvertiser, findAdvertiser, insertAdvertiserIfAbsent, listAdvertisers } from './repository.js';

// SPEC.md §4 "Current advertiser": unmarked -> marked (by any user) -> unmarked (admin only); a second mark of
// the same business is ignored. Stored as rows, not the spec's pipe-delimited strings.

export const NOT_MARKED = 'This business is not marked as a current advertiser';
export const NO_STABLE_ID_TO_MARK =
  'This business has no stable id, so it cannot be marked as a current advertiser.';

export interface AdvertiserView {
  businessId: string;
  label: string;
  markedBy: string | null;
  markedByName: string;
  markedAt: string;
}

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

/** Marks the business for everyone; when it is already marked the existing mark is answered unchanged. */
export async function markAdvertiser(
  db: Db,
  events: EventBus,
  by: Pick<CurrentUser, 'id' | 'name'>,
  input: { businessId: string; label: string },
): Promise<{ advertiser: AdvertiserView; created: boolean }> {
  const businessId = input.businessId.trim();
  if (!businessId) throw badRequest(NO_STABLE_ID_TO_MARK);
  const row: CurrentAdvertiserTable = {
    business_id: businessId,
    label: input.label.trim() || businessId,
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
  businessId: string,
): Promise<void> {
  const removed = await db.kysely.transaction().execute(async (trx) => {
    const found = await deleteAdvertiser(trx, businessId);
    if (!found) return undefined;
    await recordAudit(
      trx,
      actor,
      'advertiser.unmark',
      {
        type: 'business',
        id: businessId,
        label: found.label,
      },
      { markedBy: found.marked_by, markedByName: found.marked_by_name, markedAt: found.marked_at },
    );
    return found;
  });
  if (!removed) throw notFound(NOT_MARKED);
  await events.publish({ type: 'advertisers', action: 'unmarked', businessId, at: nowIso() });
}
