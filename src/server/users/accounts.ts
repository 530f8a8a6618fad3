import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { generateId } from 'better-auth';
import { sql, type Transaction } from 'kysely';
import type { Db } from '../db/database.js';
import { inTransaction } from '../db/database.js';
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
import { isOneLine } from '../../core/api/common.js';
import { claimInvitation, findInvitationByCode } from '../invitations/repository.js';
import { invitationProblem, normaliseCode } from '../invitations/service.js';
import type { UserProfile } from './repository.js';
import {
  defaultProfileName,
  findAuthUserByEmail,
  findPasswordHash,
  findProfile,
  insertProfile,
} from './repository.js';
import type { Database, Role } from '../db/schema.js';
import type { RegisterInput } from '../../core/api/accounts.js';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function assertEmail(email: string): void {
  if (!EMAIL_PATTERN.test(email) || email.length > 254) throw badRequest(INVALID_EMAIL);
}

/** better-auth's tables take native dates and booleans on PostgreSQL and ISO text / 0-1 on SQLite. */
function authValue(db: Db) {
  return {
    date: (d: Date) => (db.kind === 'postgres' ? d : d.toISOString()),
    bool: (b: boolean) => (db.kind === 'postgres' ? b : b ? 1 : 0),
  };
}

/** The checks every new account passes; answers the trimmed name and the normalised e-mail. */
export function checkNewAccount(
  input: Pick<RegisterInput, 'name' | 'email' | 'password' | 'confirmPassword'>,
  minPasswordLength: number,
): { name: string; email: string } {
  const email = normaliseEmail(input.email);
  const name = input.name.trim();
  if (!name) throw badRequest('Please enter your name.');
  if (!isOneLine(name)) throw badRequest('Your name must be one line, without line breaks.');
  assertEmail(email);
  if (input.password.length < minPasswordLength) throw badRequest(weakPassword(minPasswordLength));
  if (input.confirmPassword !== undefined && input.confirmPassword !== input.password) {
    throw badRequest(PASSWORDS_DO_NOT_MATCH);
  }
  return { name, email };
}

/**
 * Whether no account exists yet, holding the lock that serialises account creation until the transaction
 * ends (an advisory lock on PostgreSQL; SQLite has a single writer), so exactly one account can be first.
 */
async function lockAndCheckFirst(db: Db, trx: Transaction<Database>): Promise<boolean> {
  if (db.kind === 'postgres') await sql`select pg_advisory_xact_lock(724100)`.execute(trx);
  const existing = await trx
    .selectFrom('user')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(existing.n) === 0;
}

/** better-auth's user and credential account rows plus our profile; answers the new user's id. */
async function insertAccount(
  db: Db,
  trx: Transaction<Database>,
  a: { name: string; email: string; passwordHash: string; role: Role },
): Promise<string> {
  const v = authValue(db);
  const userId = generateId();
  const now = new Date();
  await trx
    .insertInto('user')
    .values({
      id: userId,
      name: a.name,
      email: a.email,
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
      password: a.passwordHash,
      createdAt: v.date(now),
      updatedAt: v.date(now),
    } as never)
    .execute();
  await insertProfile(trx, {
    userId,
    email: a.email,
    name: a.name,
    role: a.role,
    isSuperAdmin: a.role === 'SuperAdmin',
  });
  return userId;
}

/**
 * Creates the account, its profile and consumes the invitation in one transaction, so two people can
 * never register with one code. While no user exists the first registration needs no code and becomes
 * SuperAdmin; registrations are serialised so exactly one account can be first.
 */
export async function registerAccount(
  db: Db,
  input: RegisterInput,
  minPasswordLength: number,
): Promise<{ userId: string; role: Role }> {
  const { name, email } = checkNewAccount(input, minPasswordLength);
  const code = input.invitationCode ? normaliseCode(input.invitationCode) : '';
  const passwordHash = await hashPassword(input.password);

  return inTransaction(db.kysely, async (trx) => {
    const first = await lockAndCheckFirst(db, trx);
    if (!first) {
      if (!code) throw badRequest(INVITATION_REQUIRED);
      const problem = invitationProblem(await findInvitationByCode(trx, code), email);
      if (problem) throw badRequest(problem === INVITATION_INVALID ? INVITATION_ENTER_VALID : problem);
    }
    if (await findAuthUserByEmail(trx, email)) throw conflict(EMAIL_IN_USE);
    const role: Role = first ? 'SuperAdmin' : 'user';
    const userId = await insertAccount(db, trx, { name, email, passwordHash, role });
    if (!first && !(await claimInvitation(trx, code, { userId, email }, nowIso()))) {
      throw badRequest(INVITATION_USED);
    }
    return { userId, role };
  });
}

export const FIRST_ACCOUNT_SUPERADMIN =
  'The first account must be a SuperAdmin (nobody else could invite or manage anyone).';

/**
 * Headless set-up (npm run user:create): an account with the given role, no invitation, all in one
 * transaction, so a failure leaves nothing behind. Without a role: SuperAdmin while no account exists
 * (the bootstrap rule of registration), else user; a first account of another role is refused.
 */
export async function createAccount(
  db: Db,
  input: { name: string; email: string; password: string },
  minPasswordLength: number,
  requestedRole?: Role,
): Promise<{ userId: string; role: Role; email: string }> {
  const { name, email } = checkNewAccount(input, minPasswordLength);
  const passwordHash = await hashPassword(input.password);
  return inTransaction(db.kysely, async (trx) => {
    const first = await lockAndCheckFirst(db, trx);
    const role: Role = requestedRole ?? (first ? 'SuperAdmin' : 'user');
    if (first && role !== 'SuperAdmin') throw badRequest(FIRST_ACCOUNT_SUPERADMIN);
    if (await findAuthUserByEmail(trx, email)) throw conflict(EMAIL_IN_USE);
    const userId = await insertAccount(db, trx, { name, email, passwordHash, role });
    return { userId, role, email };
  });
}

/**
 * A missing profile (first sign-in, or deleted by an admin) is created with role user, isSuperAdmin false and
 * a name from the display name, else the e-mail, else 'User'.
 */
export async function ensureProfile(
  db: Db,
  user: { id: string; name?: string | null; email: string },
): Promise<UserProfile> {
  const found = await findProfile(db.kysely, user.id);
  if (found) return found;
  await insertProfile(db.kysely, {
    userId: user.id,
    email: user.email,
    name: defaultProfileName(user),
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
