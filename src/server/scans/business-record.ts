import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { stableId } from '../../core/blocklist.js';
import { readLatestScan } from './repository.js';

type Conn = Kysely<Database> | Transaction<Database>;

/**
 * The server's own record of a business a rep may name in the team's shared lists: the team's copy of every
 * scanned business (All Prospects), else the imported places, else the rep's own latest results. Its name is
 * the one the shared lists store; what a client sends is never used for it. Undefined when no record knows the
 * id (a made-up id). Call settleAfterAnswer first so that a scan made a moment ago is in the team's copy.
 */
export async function businessRecord(
  db: Conn,
  userId: string | null,
  businessId: string,
): Promise<{ id: string; name: string } | undefined> {
  const team = await db
    .selectFrom('team_prospects')
    .select('name')
    .where('business_id', '=', businessId)
    .executeTakeFirst();
  if (team) return { id: businessId, name: team.name };
  const place = await db.selectFrom('places').select('name').where('id', '=', businessId).executeTakeFirst();
  if (place) return { id: businessId, name: place.name };
  if (userId === null) return undefined;
  const latest = await readLatestScan(db, userId);
  const found = latest?.prospects.find((p) => stableId(p) === businessId);
  return found ? { id: businessId, name: found.name } : undefined;
}

/** The answer (404) for an id no record knows. */
export const UNKNOWN_BUSINESS =
  'This business is not in any scan or imported list, so it cannot be marked or claimed.';
