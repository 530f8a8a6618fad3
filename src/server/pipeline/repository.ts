import type { Kysely, Transaction } from 'kysely';
import type { Database, PipelineHistoryTable, PipelineTable } from '../db/schema.js';

type Conn = Kysely<Database> | Transaction<Database>;

/** A pipeline row with the owner's current display name (the stored one when the profile is gone). */
const entries = (db: Conn) =>
  db
    .selectFrom('pipeline')
    .leftJoin('user_profiles', 'user_profiles.user_id', 'pipeline.owner_id')
    .selectAll('pipeline')
    .select('user_profiles.name as profile_name');

export type PipelineRow = PipelineTable & { profile_name: string | null };

export async function findEntry(db: Conn, businessId: string): Promise<PipelineRow | undefined> {
  return entries(db).where('pipeline.business_id', '=', businessId).executeTakeFirst();
}

/** The rows of the given businesses, or with none given every owned row. */
export async function listEntries(db: Conn, businessIds: string[] | null): Promise<PipelineRow[]> {
  let query = entries(db).orderBy('pipeline.business_id', 'asc');
  query =
    businessIds === null
      ? query.where('pipeline.owner_id', 'is not', null)
      : query.where('pipeline.business_id', 'in', businessIds);
  return query.execute();
}

/**
 * Writes `next` only if the row is still as `current` was read (compare-and-set on owner, stage and last
 * activity; an insert only if there is still no row), so two reps claiming at once, or two instances
 * sweeping at once, cannot both win. True when this call wrote.
 */
export async function writeEntryIf(
  db: Conn,
  current: PipelineTable | undefined,
  next: PipelineTable,
): Promise<boolean> {
  if (!current) {
    const result = await db
      .insertInto('pipeline')
      .values(next)
      .onConflict((oc) => oc.column('business_id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }
  let update = db
    .updateTable('pipeline')
    .set({
      label: next.label,
      owner_id: next.owner_id,
      owner_name: next.owner_name,
      stage: next.stage,
      since: next.since,
      updated_at: next.updated_at,
    })
    .where('business_id', '=', current.business_id)
    .where('stage', '=', current.stage)
    .where('updated_at', '=', current.updated_at);
  update =
    current.owner_id === null
      ? update.where('owner_id', 'is', null)
      : update.where('owner_id', '=', current.owner_id);
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Owned claims, other than Won, last touched before `cutoff`: the candidates of the release sweep. */
export async function staleEntries(db: Conn, cutoff: string, limit: number): Promise<PipelineTable[]> {
  return db
    .selectFrom('pipeline')
    .selectAll()
    .where('owner_id', 'is not', null)
    .where('stage', '!=', 'Won')
    .where('updated_at', '<', cutoff)
    .orderBy('updated_at', 'asc')
    .orderBy('business_id', 'asc')
    .limit(limit)
    .execute();
}

export async function insertHistory(db: Conn, row: PipelineHistoryTable): Promise<void> {
  await db.insertInto('pipeline_history').values(row).execute();
}

/** A business's history, newest first. */
export async function listHistory(db: Conn, businessId: string): Promise<PipelineHistoryTable[]> {
  return db
    .selectFrom('pipeline_history')
    .selectAll()
    .where('business_id', '=', businessId)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(500)
    .execute();
}

/** A user's display name, undefined when there is no such profile. */
export async function profileName(db: Conn, userId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('user_profiles')
    .select('name')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.name;
}
