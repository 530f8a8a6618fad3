import type { Db } from '../../src/server/db/database.js';

/**
 * A business the team has scanned (kept as it is when the team already has a copy) (its copy in All Prospects): the server's own record of a business, which
 * the shared lists (current advertisers, the pipeline) require and take the name from.
 */
export async function scannedBusiness(
  db: Db,
  id: string,
  name: string,
  extra: { lat?: number; lng?: number; score?: number } = {},
): Promise<string> {
  const score = extra.score ?? 0.5;
  await db.kysely
    .insertInto('team_prospects')
    .values({
      business_id: id,
      prospect: JSON.stringify({ id, name, lat: extra.lat ?? 41.88, lng: extra.lng ?? -87.63, score }),
      name,
      score,
      analysis_hash: '',
      business_hash: '',
      scanned_by: null,
      scanned_at: new Date().toISOString(),
    })
    .onConflict((oc) =>
      oc.column('business_id').doUpdateSet({ name, prospect: JSON.stringify({ id, name }) }),
    )
    .execute();
  return id;
}
