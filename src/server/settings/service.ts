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

/** A setting stored as JSON under `key`, read through its schema: a missing or unreadable field takes the default. */
async function readSetting<T extends object>(
  db: Conn,
  key: string,
  schema: { partial(): { safeParse(value: unknown): { success: boolean; data?: Partial<T> } } },
  defaults: T,
): Promise<T> {
  const row = await db.selectFrom('app_settings').select('value').where('key', '=', key).executeTakeFirst();
  if (!row) return defaults;
  const parsed = schema.partial().safeParse(JSON.parse(row.value));
  return { ...defaults, ...(parsed.success ? parsed.data : {}) };
}

/** Stores a setting's value as JSON under `key`, with who changed it and when. */
export async function putSetting(db: Conn, key: string, value: unknown, by: string | null): Promise<void> {
  const row = { value: JSON.stringify(value), updated_at: nowIso(), updated_by: by };
  await db
    .insertInto('app_settings')
    .values({ key, ...row })
    .onConflict((oc) => oc.column('key').doUpdateSet(row))
    .execute();
}

const readFrom = (db: Conn) => readSetting(db, KEY, algorithmSettingsSchema, DEFAULT_ALGORITHM_SETTINGS);

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
    await putSetting(trx, KEY, next, actor.id);
    await recordAudit(trx, actor, 'settings.update', { type: 'settings', id: KEY }, { ...patch });
    return next;
  });
}

const BILLING_KEY = 'billing';
export const DEFAULT_BILLING_SETTINGS: BillingSettings = { shareAmounts: false };

/** Billing settings: whether reps see billing amounts (admins always do). */
const readBilling = (db: Conn) =>
  readSetting(db, BILLING_KEY, billingSettingsSchema, DEFAULT_BILLING_SETTINGS);

export async function readBillingSettings(db: Db): Promise<BillingSettings> {
  return readBilling(db.kysely);
}

/** An admin's change of the billing settings, audited in the same transaction. */
export async function writeBillingSettings(
  db: Db,
  patch: Partial<BillingSettings>,
  actor: AuditActor & { id: string },
): Promise<BillingSettings> {
  return inTransaction(db.kysely, async (trx) => {
    const next = { ...(await readBilling(trx)), ...patch };
    await putSetting(trx, BILLING_KEY, next, actor.id);
    await recordAudit(trx, actor, 'billing.settings', { type: 'settings', id: BILLING_KEY }, { ...patch });
    return next;
  });
}
