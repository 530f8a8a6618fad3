// Where a business is, from the server's own records of the businesses a rep may see: their latest results,
// their saved prospects, and the team's copy (All Prospects) of a business they logged a call or visit on
// (admins: any business in the team's copy). A business on the blocklist, or one none of these knows, has no
// position to route to; the answer says why.
import type { Db } from '../db/database.js';
import { filterBlocked } from '../../core/blocklist.js';
import type { Prospect } from '../../core/api/prospect.js';
import { blockedIds } from '../blocklist/service.js';
import { readLatestScan } from '../scans/repository.js';
import { listSaved } from '../saved/repository.js';
import { asProspect } from '../saved/service.js';
import { loggedBusinessIds, teamCopies } from './repository.js';
import { settleAfterAnswer } from '../scans/after-answer.js';

export interface KnownBusiness {
  prospectId: string;
  name: string;
  address: string;
  lat: number;
  lng: number;
}

export const NOT_FOUND_REASON = 'Not in your results, saved list or call history';
export const BLOCKED_REASON = 'On the blocklist';
export const NO_POSITION_REASON = 'Its position is not known';

function parse(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return null;
  }
}

/** "10 Elm St, Birmingham, AL 35203" from a prospect's parts, without repeating what the street already holds. */
export function addressLine(p: Pick<Prospect, 'address' | 'city' | 'state' | 'zip'>): string {
  const street = p.address?.trim() ?? '';
  const lower = street.toLowerCase();
  const parts = [street];
  if (p.city && !lower.includes(p.city.toLowerCase())) parts.push(p.city);
  const stateZip = [p.state, p.zip].filter(Boolean).join(' ');
  if (stateZip && !lower.includes(stateZip.toLowerCase())) parts.push(stateZip);
  return parts.filter((x) => x !== '').join(', ');
}

const hasPosition = (p: Prospect) =>
  Number.isFinite(p.lat) && Number.isFinite(p.lng) && Math.abs(p.lat) <= 90 && Math.abs(p.lng) <= 180;

/**
 * The businesses of `ids` this user may see, with their positions, and a reason for each one left out. The
 * rep's own copies win over the team's (latest results, then saved, then the team's copy).
 */
export async function knownBusinesses(
  db: Db,
  user: { id: string; admin: boolean },
  ids: readonly string[],
): Promise<{ found: Map<string, KnownBusiness>; dropped: Map<string, string> }> {
  const wanted = new Set(ids);
  const candidates = new Map<string, Prospect>();
  const take = (p: Prospect | null | undefined) => {
    if (p && wanted.has(p.id) && !candidates.has(p.id)) candidates.set(p.id, p);
  };
  const latest = await readLatestScan(db.kysely, user.id).catch(() => undefined);
  for (const p of latest?.prospects ?? []) take(asProspect(p));
  for (const row of await listSaved(db.kysely, user.id)) take(asProspect(parse(row.prospect)));
  const missing = [...wanted].filter((id) => !candidates.has(id));
  if (missing.length > 0) {
    const allowed = user.admin ? new Set(missing) : await loggedBusinessIds(db.kysely, user.id, missing);
    await settleAfterAnswer(db);
    const team = await teamCopies(
      db.kysely,
      missing.filter((id) => allowed.has(id)),
    );
    for (const row of team) {
      const p = asProspect(parse(row.prospect));
      if (p) take({ ...p, id: row.business_id });
    }
  }
  const blocked = await blockedIds(db);
  const found = new Map<string, KnownBusiness>();
  const dropped = new Map<string, string>();
  for (const id of ids) {
    const p = candidates.get(id);
    if (!p) dropped.set(id, NOT_FOUND_REASON);
    else if (filterBlocked([p], blocked).length === 0) dropped.set(id, BLOCKED_REASON);
    else if (!hasPosition(p)) dropped.set(id, NO_POSITION_REASON);
    else found.set(id, { prospectId: id, name: p.name, address: addressLine(p), lat: p.lat, lng: p.lng });
  }
  return { found, dropped };
}
