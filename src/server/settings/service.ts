import type { Kysely, Transaction } from 'kysely';
import type { Db } from '../db/database.js';
import { inTransaction } from '../db/database.js';
import { nowIso } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { recordAudit, type AuditActor } from '../audit/service.js';

import { algorithmSettingsSchema, type AlgorithmSettings } from '../../core/api/admin.js';
import { billingSettingsSchema, type BillingSettings } from '../../core/api/billing.js';

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

const BILLING_KEY = 'billing';
export const DEFAULT_BILLING_SETTINGS: BillingSettings = { shareAmounts: false };

/** Billing settings: whether reps see billing amounts (admins always do). */
export async function readBillingSettings(db: Db): Promise<BillingSettings> {
  const row = await db.kysely
    .selectFrom('app_settings')
    .select('value')
    .where('key', '=', BILLING_KEY)
    .executeTakeFirst();
  if (!row) return DEFAULT_BILLING_SETTINGS;
  const parsed = billingSettingsSchema.partial().safeParse(JSON.parse(row.value));
  return { ...DEFAULT_BILLING_SETTINGS, ...(parsed.success ? parsed.data : {}) };
}

/** An admin's change of the billing settings, audited in the same transaction. */
export async function writeBillingSettings(
  db: Db,
  patch: Partial<BillingSettings>,
  actor: AuditActor & { id: string },
): Promise<BillingSettings> {
  const next = { ...(await readBillingSettings(db)), ...patch };
  return inTransaction(db.kysely, async (trx) => {
    const now = nowIso();
    const value = JSON.stringify(next);
    await trx
      .insertInto('app_settings')
      .values({ key: BILLING_KEY, value, updated_at: now, updated_by: actor.id })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: now, updated_by: actor.id }))
      .execute();
    await recordAudit(trx, actor, 'billing.settings', { type: 'settings', id: BILLING_KEY }, { ...patch });
    return next;
  });
}
