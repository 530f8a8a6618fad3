import type { Kysely, Transaction } from 'kysely';
import type { Database, InvitationTable } from '../db/schema.js';

type Conn = Kysely<Database> | Transaction<Database>;

export async function insertInvitation(db: Conn, row: InvitationTable): Promise<void> {
  await db.insertInto('invitations').values(row).execute();
}

export async function findInvitationByCode(db: Conn, code: string): Promise<InvitationTable | undefined> {
  return db.selectFrom('invitations').selectAll().where('code', '=', code).executeTakeFirst();
}

export async function findInvitationById(db: Conn, id: string): Promise<InvitationTable | undefined> {
  return db.selectFrom('invitations').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Revokes the invitation while it is still open (unused, unexpired, not revoked); true when it did. */
export async function markRevoked(db: Conn, id: string, byName: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('invitations')
    .set({ revoked_at: now, revoked_by_name: byName })
    .where('id', '=', id)
    .where('used', '=', 0)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function listInvitations(db: Conn): Promise<InvitationTable[]> {
  return db.selectFrom('invitations').selectAll().orderBy('created_at', 'desc').execute();
}

/**
 * Marks the code used, but only while it is still unused and unexpired. The conditional update is
 * the claim: of two transactions racing for one code, exactly one sees a changed row.
 */
export async function claimInvitation(
  db: Conn,
  code: string,
  by: { userId: string; email: string },
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('invitations')
    .set({ used: 1, used_by: by.userId, used_by_email: by.email, used_at: now })
    .where('code', '=', code)
    .where('used', '=', 0)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
