import type { Db } from '../db/database.js';
import { inTransaction } from '../db/database.js';
import { nowIso } from '../db/database.js';
import type { Role } from '../db/schema.js';
import type { CurrentUser } from '../http/access.js';
import { isSuperAdmin } from '../http/access.js';
import { badRequest, forbidden, notFound } from '../http/errors.js';
import type { UserProfile } from './repository.js';
import {
  countUserData,
  deleteProfile,
  deleteSessions,
  deleteUserCompletely,
  findListedUser,
  insertProfile,
  setSuspension,
  updateProfile,
} from './repository.js';
import { passwordMatches } from './accounts.js';
import { recordAudit } from '../audit/service.js';
import { WRONG_PASSWORD } from '../../core/messages.js';
import type { RowPermissions } from '../../core/api/accounts.js';

/** What the acting user may do to one row of the user list; the UI shows buttons from this too. */
export type { RowPermissions };

const targetIsSuper = (p: UserProfile) => p.role === 'SuperAdmin' || p.isSuperAdmin;

export function rowPermissions(actor: CurrentUser, target: UserProfile): RowPermissions {
  const none: RowPermissions = { changeRole: [], deleteProfile: false, suspend: false, hardDelete: false };
  if (actor.id === target.id) return none; // nobody acts on their own row
  if (isSuperAdmin(actor)) {
    return {
      changeRole: ['user', 'admin', 'SuperAdmin'],
      deleteProfile: true,
      suspend: true,
      hardDelete: true,
    };
  }
  if (targetIsSuper(target)) return none; // admins cannot touch SuperAdmins
  return { changeRole: ['user', 'admin'], deleteProfile: true, suspend: false, hardDelete: false };
}

/** How the audit log names a user it acted on (copied, so the entry survives a delete). */
const auditTarget = (p: UserProfile) => ({ type: 'user', id: p.id, label: `${p.name} <${p.email}>` });

async function loadTarget(db: Db, actor: CurrentUser, targetId: string): Promise<UserProfile> {
  if (actor.id === targetId) throw forbidden('You cannot change your own account here.');
  const target = await findListedUser(db.kysely, targetId);
  if (!target) throw notFound('User not found');
  return target;
}

export async function changeRole(
  db: Db,
  actor: CurrentUser,
  targetId: string,
  role: Role,
): Promise<UserProfile> {
  const target = await loadTarget(db, actor, targetId);
  if (!rowPermissions(actor, target).changeRole.includes(role)) {
    throw forbidden(
      role === 'SuperAdmin'
        ? 'Only SuperAdmins can assign the SuperAdmin role'
        : 'Only SuperAdmins can manage SuperAdmins',
    );
  }
  await inTransaction(db.kysely, async (trx) => {
    // A suspended account whose profile was deleted gets the profile a sign-in would recreate, then the role.
    await insertProfile(trx, {
      userId: targetId,
      email: target.email,
      name: target.name,
      role: 'user',
      isSuperAdmin: false,
    });
    await updateProfile(trx, targetId, { role, isSuperAdmin: role === 'SuperAdmin' });
    await recordAudit(trx, actor, 'user.role_change', auditTarget(target), { from: target.role, to: role });
  });
  return (await findListedUser(db.kysely, targetId))!;
}

/** Profile delete (admins, on non-SuperAdmins): the profile goes and sessions end; the account remains and
 * a fresh profile with role user is created if that person signs in again. A suspension stays: it belongs to
 * the account. */
export async function removeProfile(db: Db, actor: CurrentUser, targetId: string): Promise<void> {
  const target = await loadTarget(db, actor, targetId);
  if (!rowPermissions(actor, target).deleteProfile)
    throw forbidden('Only SuperAdmins can manage SuperAdmins');
  await inTransaction(db.kysely, async (trx) => {
    await deleteSessions(trx, targetId);
    await deleteProfile(trx, targetId);
    await recordAudit(trx, actor, 'user.profile_delete', auditTarget(target), { role: target.role });
  });
}

export async function setSuspended(db: Db, actor: CurrentUser, targetId: string, suspended: boolean) {
  const target = await loadTarget(db, actor, targetId);
  if (!rowPermissions(actor, target).suspend) throw forbidden('Only SuperAdmins can suspend users');
  await inTransaction(db.kysely, async (trx) => {
    await setSuspension(trx, targetId, suspended ? nowIso() : null);
    if (suspended) await deleteSessions(trx, targetId); // ends every open session at once
    await recordAudit(trx, actor, suspended ? 'user.suspend' : 'user.unsuspend', auditTarget(target));
  });
  // An unsuspended account without a profile leaves the list until its next sign-in recreates the profile.
  return (await findListedUser(db.kysely, targetId)) ?? { ...target, suspended: false, suspendedAt: null };
}

/** Hard delete (SuperAdmins only), confirmed by the acting SuperAdmin's password; a wrong one is thrown through
 * `wrongPassword`, which counts it, so a stolen session cannot guess the password (the route rate-limits it). */
export async function hardDelete(
  db: Db,
  actor: CurrentUser,
  targetId: string,
  password: string,
  wrongPassword: (error: Error) => never = (error) => {
    throw error;
  },
): Promise<void> {
  const target = await loadTarget(db, actor, targetId);
  if (!rowPermissions(actor, target).hardDelete) throw forbidden('Only SuperAdmins can hard delete users');
  if (!password) throw badRequest('Password is required to confirm a hard delete.');
  if (!(await passwordMatches(db, actor.id, password))) {
    wrongPassword(forbidden(WRONG_PASSWORD));
  }
  await inTransaction(db.kysely, async (trx) => {
    await deleteUserCompletely(trx, targetId);
    await recordAudit(trx, actor, 'user.hard_delete', auditTarget(target), { role: target.role });
  });
}

/** User Data Testing (SuperAdmins): the counts of another user's stored data; the look is logged. */
export async function userData(db: Db, actor: CurrentUser, targetId: string) {
  const target = await findListedUser(db.kysely, targetId);
  if (!target) throw notFound('User not found');
  const data = {
    userId: targetId,
    lastSignInAt: target.lastSignInAt,
    ...(await countUserData(db.kysely, targetId)),
  };
  await recordAudit(db, actor, 'user.data_view', auditTarget(target));
  return data;
}
