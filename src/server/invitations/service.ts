import { randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../db/database.js';
import { inTransaction } from '../db/database.js';
import { nowIso } from '../db/database.js';
import type { InvitationTable } from '../db/schema.js';
import {
  INVITATION_EXPIRED,
  INVITATION_INVALID,
  INVITATION_USED,
  INVITATION_WRONG_EMAIL,
} from '../../core/messages.js';
import { recordAudit, type AuditActor } from '../audit/service.js';
import { HttpError, notFound } from '../http/errors.js';
import {
  findInvitationByCode,
  findInvitationById,
  insertInvitation,
  listInvitations,
  markRevoked,
} from './repository.js';
import type { Invitation, InvitationStatus } from '../../core/api/accounts.js';

export const INVITATION_VALID_DAYS = 7;

/** 160 bits from the CSPRNG, as 32 base-32 characters (no look-alike letters), grouped for reading aloud. */
export function generateInvitationCode(): string {
  const alphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(32);
  let code = '';
  for (const b of bytes) code += alphabet[b % alphabet.length];
  // 31 symbols ≈ 4.95 bits each → 32 symbols ≈ 158 bits (modulo bias is negligible for 256 % 31 = 8).
  return code.match(/.{4}/g)!.join('-');
}

export function normaliseCode(code: string): string {
  return code.trim().toUpperCase();
}

export type { InvitationStatus };

export type InvitationView = Invitation;

export function presentInvitation(row: InvitationTable, now = nowIso()): InvitationView {
  return {
    id: row.id,
    code: row.code,
    invitedBy: row.invited_by,
    invitedByName: row.invited_by_name,
    invitedEmail: row.invited_email,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    status: row.used === 1 ? 'used' : row.revoked_at ? 'revoked' : row.expires_at <= now ? 'expired' : 'open',
    usedBy: row.used_by,
    usedByEmail: row.used_by_email,
    usedAt: row.used_at,
    revokedAt: row.revoked_at ?? null,
    revokedByName: row.revoked_by_name ?? null,
  };
}

function newInvitation(by: { id: string; name: string }, invitedEmail: string | undefined): InvitationTable {
  const created = new Date();
  return {
    id: randomUUID(),
    code: generateInvitationCode(),
    invited_by: by.id,
    invited_by_name: by.name,
    invited_email: invitedEmail ? invitedEmail.trim().toLowerCase() : null,
    created_at: created.toISOString(),
    expires_at: new Date(created.getTime() + INVITATION_VALID_DAYS * 86_400_000).toISOString(),
    used: 0,
    used_by: null,
    used_by_email: null,
    used_at: null,
  };
}

/** An invitation without an audit entry: for set-up code (the test factories), where no admin acts. */
export async function createInvitation(
  db: Db,
  by: { id: string; name: string },
  invitedEmail: string | undefined,
): Promise<InvitationView> {
  const row = newInvitation(by, invitedEmail);
  await insertInvitation(db.kysely, row);
  return presentInvitation(row);
}

/** An admin's Generate (Invitation Management): the invitation and its audit entry commit together, so no
 * usable code exists that the log does not name. */
export async function generateInvitation(
  db: Db,
  actor: AuditActor & { id: string },
  invitedEmail: string | undefined,
): Promise<InvitationView> {
  const row = newInvitation(actor, invitedEmail);
  await inTransaction(db.kysely, async (trx) => {
    await insertInvitation(trx, row);
    await recordAudit(
      trx,
      actor,
      'invitation.generate',
      { type: 'invitation', id: row.id, label: row.invited_email },
      { expiresAt: row.expires_at },
    );
  });
  return presentInvitation(row);
}

export const INVITATION_NOT_FOUND = 'Invitation not found';
export const INVITATION_NOT_OPEN = 'Only an open invitation can be revoked.';

/** An admin revokes an open invitation: its code registers nobody from now on; the revocation is audited. */
export async function revokeInvitation(
  db: Db,
  actor: AuditActor & { id: string; name: string },
  id: string,
): Promise<InvitationView> {
  return inTransaction(db.kysely, async (trx) => {
    const row = await findInvitationById(trx, id);
    if (!row) throw notFound(INVITATION_NOT_FOUND);
    const now = nowIso();
    if (!(await markRevoked(trx, id, actor.name, now))) throw new HttpError(409, INVITATION_NOT_OPEN);
    await recordAudit(trx, actor, 'invitation.revoke', {
      type: 'invitation',
      id: row.id,
      label: row.invited_email,
    });
    return presentInvitation({ ...row, revoked_at: now, revoked_by_name: actor.name }, now);
  });
}

export async function allInvitations(db: Db): Promise<InvitationView[]> {
  const now = nowIso();
  return (await listInvitations(db.kysely)).map((r) => presentInvitation(r, now));
}

/** Why a code cannot be used, in the product's words (core/messages.ts), or null when it can (for this
 * e-mail, if given). */
export function invitationProblem(
  row: InvitationTable | undefined,
  email: string | undefined,
  now = nowIso(),
): string | null {
  // A revoked code is refused as no code at all: the registration form names no reason to try it again.
  if (!row || row.revoked_at) return INVITATION_INVALID;
  if (row.used === 1) return INVITATION_USED;
  if (row.expires_at <= now) return INVITATION_EXPIRED;
  if (row.invited_email && email && row.invited_email !== email.trim().toLowerCase()) {
    return INVITATION_WRONG_EMAIL;
  }
  return null;
}

export async function checkInvitation(db: Db, code: string, email?: string): Promise<string | null> {
  return invitationProblem(await findInvitationByCode(db.kysely, normaliseCode(code)), email);
}
