import { hashPassword, verifyPassword } from 'better-auth/crypto';
import { generateId } from 'better-auth';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { nowIso } from '../db/database.js';
import {
  EMAIL_IN_USE,
  INVITATION_ENTER_VALID,
  INVITATION_INVALID,
  INVITATION_REQUIRED,
  INVITATION_USED,
  INVALID_EMAIL,
  PASSWORDS_DO_NOT_MATCH,
  weakPassword,
} from '../../core/messages.js';
import { badRequest, conflict, HttpError } from '../http/errors.js';
import { claimInvitation, findInvitationByCode } from '../invitations/repository.js';
import { invitationProblem, normaliseCode } from '../invitations/service.js';
import type { UserProfile } from './repository.js';
import { findAuthUserByEmail, findPasswordHash, findProfile, insertProfile } from './repository.js';
import type { Role } from '../db/schema.js';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function assertEmail(email: string): void {
  if (!EMAIL_PATTERN.test(email) || email.length > 254) throw badRequest(INVALID_EMAIL);
}

export interface Registration {
  name: string;
  email: string;
  password: string;
  confirmPassword?: string | undefined;
  invitationCode?: string | undefined;
}

/** better-auth's tables take native dates and booleans on PostgreSQL and ISO text / 0-1 on SQLite. */
function authValue(db: Db) {
  return {
    date: (d: Date) => (db.kind === 'postgres' ? d : d.toISOString()),
    bool: (b: boolean) => (db.kind === 'postgres' ? b : b ? 1 : 0),
  };
}

/**
 * Creates the account, its profile and consumes the invitation in one transaction, so two people can
 * never register with one code. While no user exists the first registration needs no code and becomes
 * SuperAdmin; registrations are serialised (an advisory lock on PostgreSQL, SQLite's single writer) so
 * exactly one account can be first.
 */
export async function registerAccount(
  db: Db,
  input: Registration,
  minPasswordLength: number,
): Promise<{ userId: string; role: Role }> {
  const email = normaliseEmail(input.email);
  const name = input.name.trim();
  if (!name) throw badRequest('Please enter your name.');
  assertEmail(email);
  if (input.password.length < minPasswordLength) throw badRequest(weakPassword(minPasswordLength));
  if (input.confirmPassword !== undefined && input.confirmPassword !== input.password) {
    throw badRequest(PASSWORDS_DO_NOT_MATCH);
  }
  const code = input.invitationCode ? normaliseCode(input.invitationCode) : '';
  const passwordHash = await hashPassword(input.password);
  const v = authValue(db);

  return db.kysely.transaction().execute(async (trx) => {
    if (db.kind === 'postgres') await sql`select pg_advisory_xact_lock(724100)`.execute(trx);
    const existing = await trx
      .selectFrom('user')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow();
    const first = Number(existing.n) === 0;

    if (!first) {
      if (!code) throw badRequest(INVITATION_REQUIRED);
      const problem = invitationProblem(await findInvitationByCode(trx, code), email);
      if (problem) throw badRequest(problem === INVITATION_INVALID ? INVITATION_ENTER_VALID : problem);
    }
    if (await findAuthUserByEmail(trx, email)) throw conflict(EMAIL_IN_USE);

    const userId = generateId();
    const now = new Date();
    await trx
      .insertInto('user')
      .values({
        id: userId,
        name,
        email,
        emailVerified: v.bool(false),
        createdAt: v.date(now),
        updatedAt: v.date(now),
      })
      .execute();
    await trx
      .insertInto('account')
      .values({
        id: generateId(),
        accountId: userId,
        providerId: 'credential',
        userId,
        password: passwordHash,
        createdAt: v.date(now),
        updatedAt: v.date(now),
      } as never)
      .execute();
    const role: Role = first ? 'SuperAdmin' : 'user';
    await insertProfile(trx, { userId, email, name, role, isSuperAdmin: first });
    if (!first && !(await claimInvitation(trx, code, { userId, email }, nowIso()))) {
      throw badRequest(INVITATION_USED);
    }
    return { userId, role };
  });
}

/**
 * SPEC §4: a missing profile is created with role user, isSuperAdmin false and a name from the
 * display name, else the e-mail, else 'User'.
 */
export async function ensureProfile(
  db: Db,
  user: { id: string; name?: string | null; email: string },
): Promise<UserProfile> {
  const found = await findProfile(db.kysely, user.id);
  if (found) return found;
  const name = user.name?.trim() || user.email || 'User';
  await insertProfile(db.kysely, {
    userId: user.id,
    email: user.email,
    name,
    role: 'user',
    isSuperAdmin: false,
  });
  const created = await findProfile(db.kysely, user.id);
  if (!created) throw new HttpError(500, 'An error occurred. Please try again.');
  return created;
}

export async function passwordMatches(db: Db, userId: string, password: string): Promise<boolean> {
  const hash = await findPasswordHash(db.kysely, userId);
  if (!hash || !password) return false;
  return verifyPassword({ hash, password });
}
