import type { Kysely, Transaction } from 'kysely';
import type { Db } from '../db/database.js';
import { inTransaction } from '../db/database.js';
import { nowIso } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { recordAudit, type AuditActor } from '../audit/service.js';

import { algorithmSettingsSchema, type AlgorithmSettings } from '../../core/api/admin.js';

export type { AlgorithmSettings };

export const DEFAULT_ALGORITHM_SETTINGS: AlgorithmSettings = {
  showAllProspects: false,
  useOsmTopUp: true,
  useLlmAnalysis: false,
};

const KEY = 'algorithm';

type Conn = Kysely<Database> | Transaction<Database>;

async function readFrom(db: Conn): Promise<AlgorithmSettings> {
  const row = await db.selectFrom('app_settings').select('value').where('key', '=', KEY).executeTakeFirst();
  if (!row) return DEFAULT_ALGORITHM_SETTINGS;
  const parsed = algorithmSettingsSchema.partial().safeParse(JSON.parse(row.value));
  return { ...DEFAULT_ALGORITHM_SETTINGS, ...(parsed.success ? parsed.data : {}) };
}

export async function readAlgorithmSettings(db: Db): Promise<AlgorithmSettings> {
  return readFrom(db.kysely);
}

/** A SuperAdmin's change: the new settings and the audit entry naming the change commit together. */
export async function writeAlgorithmSettings(
  db: Db,
  patch: Partial<AlgorithmSettings>,
  actor: AuditActor & { id: string },
): Promise<AlgorithmSettings> {
  return inTransaction(db.kysely, async (trx) => {
    const next = { ...(await readFrom(trx)), ...patch };
    const now = nowIso();
    const by = actor.id;
    await trx
      .insertInto('app_settings')
      .values({ key: KEY, value: JSON.stringify(next), updated_at: now, updated_by: by })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({ value: JSON.stringify(next), updated_at: now, updated_by: by }),
      )
      .execute();
    await recordAudit(trx, actor, 'settings.update', { type: 'settings', id: KEY }, { ...patch });
    return next;
  });
}
