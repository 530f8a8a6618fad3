import { randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Db } from '../db/database.js';
import type { AuditLogTable, Database } from '../db/schema.js';
import { fileDate, recordsToCsv, type CsvColumn } from '../../core/csv.js';
import { countAudit, insertAudit, listAudit } from './repository.js';
import type { AuditAction } from '../../core/audit.js';
import type { AuditEntry } from '../../core/api/admin.js';

// Every admin action leaves an entry: who, what, on what, when, and details.

export interface AuditActor {
  id: string | null;
  name: string;
  email?: string | null;
}

export interface AuditTarget {
  /** 'business', 'blocklist', 'user', 'invitation', 'advertisers'. */
  type: string;
  id?: string | null;
  label?: string | null;
}

type Conn = Db | Kysely<Database> | Transaction<Database>;

let sequence = 0;
/** Ids sort in creation order within a process (time, then a counter), so same-millisecond entries keep
 * their order in the newest-first list. */
function auditId(now: number): string {
  sequence = (sequence + 1) % 1_000_000;
  return `${now.toString(36).padStart(9, '0')}-${sequence.toString().padStart(6, '0')}-${randomBytes(4).toString('hex')}`;
}
const kyselyOf = (db: Conn) => ('kysely' in db ? db.kysely : db);

/**
 * Records one admin action. Pass the transaction of the action itself where there is one, so the entry and
 * the change commit (or fail) together.
 */
export async function recordAudit(
  db: Conn,
  actor: AuditActor,
  action: AuditAction,
  target: AuditTarget,
  details: Record<string, unknown> = {},
): Promise<void> {
  const now = Date.now();
  await insertAudit(kyselyOf(db), {
    id: auditId(now),
    actor_id: actor.id,
    actor_name: actor.name,
    actor_email: actor.email ?? null,
    action,
    target_type: target.type,
    target_id: target.id ?? null,
    target_label: target.label ?? null,
    details: JSON.stringify(details),
    created_at: new Date(now).toISOString(),
  });
}

export type { AuditEntry };

function parseDetails(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

export function presentAudit(row: AuditLogTable): AuditEntry {
  return {
    id: row.id,
    actor: { id: row.actor_id, name: row.actor_name, email: row.actor_email },
    action: row.action,
    target: { type: row.target_type, id: row.target_id, label: row.target_label },
    details: parseDetails(row.details),
    createdAt: row.created_at,
  };
}

export async function auditPage(
  db: Db,
  page: number,
  pageSize: number,
): Promise<{ entries: AuditEntry[]; page: number; pageSize: number; total: number }> {
  const [rows, total] = await Promise.all([
    listAudit(db.kysely, (page - 1) * pageSize, pageSize),
    countAudit(db.kysely),
  ]);
  return { entries: rows.map(presentAudit), page, pageSize, total };
}

/** Upper bound of one export; the log is append-only, so a newest-first cut is the useful part. */
export const AUDIT_EXPORT_MAX = 100_000;

const COLUMNS: CsvColumn<AuditEntry>[] = [
  ['When', (e) => e.createdAt],
  ['Actor', (e) => e.actor.name],
  ['Actor Email', (e) => e.actor.email],
  ['Actor Id', (e) => e.actor.id],
  ['Action', (e) => e.action],
  ['Target Type', (e) => e.target.type],
  ['Target Id', (e) => e.target.id],
  ['Target', (e) => e.target.label],
  ['Details', (e) => JSON.stringify(e.details)],
];

/** The audit log as CSV; the export is itself logged, after the read, so it is not part of its own file. */
export async function exportAudit(
  db: Db,
  actor: AuditActor,
  now = new Date(),
): Promise<{ fileName: string; csv: string }> {
  const rows = await listAudit(db.kysely, 0, AUDIT_EXPORT_MAX);
  const csv = recordsToCsv(COLUMNS, rows.map(presentAudit));
  await recordAudit(db, actor, 'export.audit_log', { type: 'audit_log' }, { rows: rows.length });
  return { fileName: `audit_log_${fileDate(now)}.csv`, csv };
}
