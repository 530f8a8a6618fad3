import type { Kysely, Transaction } from 'kysely';
import type { AuditLogTable, Database } from '../db/schema.js';

type Conn = Kysely<Database> | Transaction<Database>;

export async function insertAudit(db: Conn, row: AuditLogTable): Promise<void> {
  await db.insertInto('audit_log').values(row).execute();
}

/** One page, newest first (ties broken by id so pages never overlap). */
export async function listAudit(db: Conn, offset: number, limit: number): Promise<AuditLogTable[]> {
  return db
    .selectFrom('audit_log')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(offset)
    .limit(limit)
    .execute();
}

export async function countAudit(db: Conn): Promise<number> {
  const row = await db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
