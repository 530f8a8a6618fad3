import { z } from 'zod';
import type { Db } from '../db/database.js';
import { nowIso } from '../db/database.js';

/** Team-wide switches of the Admin Panel's Algorithm Settings, honoured by every scan. */
export const algorithmSettingsSchema = z.object({
  /** Show every prospect, skipping the prefilter that scores chains, gas stations etc. near zero. */
  showAllProspects: z.boolean(),
  /** Top up thin results with the open street-map (Overpass) provider when it is configured. */
  useOsmTopUp: z.boolean(),
  /** Let the configured AI endpoint rewrite the analysis reasoning of the top results. */
  useLlmAnalysis: z.boolean(),
});
export type AlgorithmSettings = z.infer<typeof algorithmSettingsSchema>;

export const DEFAULT_ALGORITHM_SETTINGS: AlgorithmSettings = {
  showAllProspects: false,
  useOsmTopUp: true,
  useLlmAnalysis: false,
};

const KEY = 'algorithm';

export async function readAlgorithmSettings(db: Db): Promise<AlgorithmSettings> {
  const row = await db.kysely
    .selectFrom('app_settings')
    .select('value')
    .where('key', '=', KEY)
    .executeTakeFirst();
  if (!row) return DEFAULT_ALGORITHM_SETTINGS;
  const parsed = algorithmSettingsSchema.partial().safeParse(JSON.parse(row.value));
  return { ...DEFAULT_ALGORITHM_SETTINGS, ...(parsed.success ? parsed.data : {}) };
}

export async function writeAlgorithmSettings(
  db: Db,
  patch: Partial<AlgorithmSettings>,
  by: string,
): Promise<AlgorithmSettings> {
  const next = { ...(await readAlgorithmSettings(db)), ...patch };
  const now = nowIso();
  await db.kysely
    .insertInto('app_settings')
    .values({ key: KEY, value: JSON.stringify(next), updated_at: now, updated_by: by })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({ value: JSON.stringify(next), updated_at: now, updated_by: by }),
    )
    .execute();
  return next;
}
