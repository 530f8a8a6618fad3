import type { Kysely, Transaction } from 'kysely';
import type { Database, TerritoryTable } from '../db/schema.js';

type Conn = Kysely<Database> | Transaction<Database>;

export interface TerritoryRep {
  territory_id: string;
  user_id: string;
  name: string;
}

/** Every territory by name, or only those the rep is assigned to. */
export async function listTerritoryRows(db: Conn, repId?: string): Promise<TerritoryTable[]> {
  let query = db.selectFrom('territories').selectAll('territories');
  if (repId !== undefined) {
    query = query
      .innerJoin('territory_reps', 'territory_reps.territory_id', 'territories.id')
      .where('territory_reps.user_id', '=', repId);
  }
  return query.orderBy('territories.name_key').orderBy('territories.id').execute();
}

export async function findTerritoryRow(db: Conn, id: string): Promise<TerritoryTable | undefined> {
  return db.selectFrom('territories').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Another territory with this name whatever its case (`exceptId`: the one being renamed). */
export async function nameTaken(db: Conn, nameKey: string, exceptId?: string): Promise<boolean> {
  let query = db.selectFrom('territories').select('id').where('name_key', '=', nameKey);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** The reps of each territory, by territory id, as the answers name them. */
export function repsByTerritory(reps: readonly TerritoryRep[]): Map<string, { id: string; name: string }[]> {
  const by = new Map<string, { id: string; name: string }[]>();
  for (const r of reps) {
    const list = by.get(r.territory_id) ?? [];
    if (list.length === 0) by.set(r.territory_id, list);
    list.push({ id: r.user_id, name: r.name });
  }
  return by;
}

/** The assigned reps of these territories that still have a profile, by name. */
export async function repsOf(db: Conn, territoryIds: string[]): Promise<TerritoryRep[]> {
  if (territoryIds.length === 0) return [];
  return db
    .selectFrom('territory_reps')
    .innerJoin('user_profiles', 'user_profiles.user_id', 'territory_reps.user_id')
    .select(['territory_reps.territory_id', 'territory_reps.user_id', 'user_profiles.name'])
    .where('territory_reps.territory_id', 'in', territoryIds)
    .orderBy('user_profiles.name')
    .orderBy('territory_reps.user_id')
    .execute();
}

/** The users of the app among these ids, with their names. */
export async function existingUsers(db: Conn, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('user_profiles')
    .select(['user_id', 'name'])
    .where('user_id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.user_id, r.name]));
}

export async function isAssigned(db: Conn, territoryId: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('territory_reps')
    .select('user_id')
    .where('territory_id', '=', territoryId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertTerritory(db: Conn, row: TerritoryTable): Promise<void> {
  await db.insertInto('territories').values(row).execute();
}

export async function updateTerritoryRow(
  db: Conn,
  id: string,
  changes: Omit<TerritoryTable, 'id' | 'created_by' | 'created_at'>,
): Promise<void> {
  await db.updateTable('territories').set(changes).where('id', '=', id).execute();
}

/** Replaces the territory's reps. */
export async function setTerritoryReps(db: Conn, territoryId: string, userIds: string[]): Promise<void> {
  await db.deleteFrom('territory_reps').where('territory_id', '=', territoryId).execute();
  if (userIds.length === 0) return;
  await db
    .insertInto('territory_reps')
    .values(userIds.map((user_id) => ({ territory_id: territoryId, user_id })))
    .execute();
}

export async function deleteTerritoryRow(db: Conn, id: string): Promise<boolean> {
  await db.deleteFrom('territory_reps').where('territory_id', '=', id).execute();
  const result = await db.deleteFrom('territories').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Where the imported street addresses carrying one of these ZIP codes lie ("94108" or "94108-1234"). */
export async function addressPointsByZip(
  db: Conn,
  zips: string[],
): Promise<Map<string, { lat: number; lng: number }[]>> {
  const byZip = new Map<string, { lat: number; lng: number }[]>(zips.map((z) => [z, []]));
  if (zips.length === 0) return byZip;
  const rows = await db
    .selectFrom('addresses')
    .select(['postcode', 'lat', 'lng'])
    .where((eb) => eb.or([eb('postcode', 'in', zips), ...zips.map((z) => eb('postcode', 'like', `${z}-%`))]))
    .execute();
  for (const r of rows) {
    const zip = (r.postcode ?? '').slice(0, 5);
    byZip.get(zip)?.push({ lat: r.lat, lng: r.lng });
  }
  return byZip;
}

/** Of these businesses, those called or visited in [start, end) (by `userId` only, when given). */
export async function contactedAmong(
  db: Conn,
  businessIds: string[],
  range: { start: string; end: string; userId?: string | undefined },
): Promise<Set<string>> {
  if (businessIds.length === 0) return new Set();
  let query = db
    .selectFrom('call_logs')
    .select('prospect_id')
    .distinct()
    .where('prospect_id', 'in', businessIds)
    .where('created_at', '>=', range.start)
    .where('created_at', '<', range.end);
  if (range.userId !== undefined) query = query.where('user_id', '=', range.userId);
  return new Set((await query.execute()).map((r) => r.prospect_id));
}

/** The businesses moved to one of `stages` in [start, end) (by `userId` only, when given). */
export async function movedTo(
  db: Conn,
  stages: string[],
  range: { start: string; end: string; userId?: string | undefined },
): Promise<string[]> {
  let query = db
    .selectFrom('pipeline_history')
    .select('business_id')
    .distinct()
    .where('to_stage', 'in', stages)
    .where('at', '>=', range.start)
    .where('at', '<', range.end);
  if (range.userId !== undefined) query = query.where('by_id', '=', range.userId);
  return (await query.execute()).map((r) => r.business_id);
}

/**
 * Where these businesses are: the imported place's position, else the team's stored copy of the business (a
 * business of another provider). Businesses found in neither are left out.
 */
export async function positionsOf(
  db: Conn,
  businessIds: string[],
): Promise<Map<string, { lat: number; lng: number }>> {
  const at = new Map<string, { lat: number; lng: number }>();
  if (businessIds.length === 0) return at;
  for (const r of await db
    .selectFrom('places')
    .select(['id', 'lat', 'lng'])
    .where('id', 'in', businessIds)
    .execute()) {
    at.set(r.id, { lat: r.lat, lng: r.lng });
  }
  const rest = businessIds.filter((id) => !at.has(id));
  if (rest.length === 0) return at;
  for (const r of await db
    .selectFrom('team_prospects')
    .select(['business_id', 'prospect'])
    .where('business_id', 'in', rest)
    .execute()) {
    try {
      const p = JSON.parse(r.prospect) as { lat?: unknown; lng?: unknown };
      if (typeof p.lat === 'number' && typeof p.lng === 'number')
        at.set(r.business_id, { lat: p.lat, lng: p.lng });
    } catch {
      // A copy that is not JSON has no position: the business is not counted.
    }
  }
  return at;
}
