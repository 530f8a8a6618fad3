import type { Kysely, Transaction } from 'kysely';
import type { Database, Role, UserProfileTable } from '../db/schema.js';
import { nowIso } from '../db/database.js';
import type { SearchSettings, UserProfile } from '../../core/api/accounts.js';
import { copyOwed } from '../scans/team-list.js';

type Conn = Kysely<Database> | Transaction<Database>;

export type { SearchSettings, UserProfile };

function parseSettings(json: string | null): SearchSettings | null {
  if (!json) return null;
  try {
    return JSON.parse(json) as SearchSettings;
  } catch {
    return null;
  }
}

export function toProfile(row: UserProfileTable, suspendedAt: string | null): UserProfile {
  return {
    id: row.user_id,
    email: row.email,
    name: row.name,
    role: row.role,
    isSuperAdmin: row.is_super_admin === 1,
    hideInstructions: row.hide_instructions === 1,
    installPromptDismissed: row.install_prompt_dismissed === 1,
    searchSettings: parseSettings(row.search_settings),
    suspended: suspendedAt !== null,
    suspendedAt,
    lastSignInAt: row.last_sign_in_at,
    createdAt: row.created_at,
  };
}

/** The name a recreated profile gets — the display name, else the e-mail, else 'User'. */
export function defaultProfileName(user: { name?: string | null; email?: string | null }): string {
  return user.name?.trim() || user.email || 'User';
}

/** Profiles with the suspension of their account (kept apart, so a profile delete cannot lift it). */
const profiles = (db: Conn) =>
  db
    .selectFrom('user_profiles')
    .leftJoin('account_suspensions', 'account_suspensions.user_id', 'user_profiles.user_id')
    .selectAll('user_profiles')
    .select('account_suspensions.suspended_at');

export async function findProfile(db: Conn, userId: string): Promise<UserProfile | undefined> {
  const row = await profiles(db).where('user_profiles.user_id', '=', userId).executeTakeFirst();
  return row && toProfile(row, row.suspended_at);
}

/**
 * Suspended accounts whose profile an admin deleted. They cannot sign in, so no sign-in recreates their
 * profile; the user list still shows them (as that profile would look) so a SuperAdmin can unsuspend or
 * hard delete them.
 */
async function suspendedWithoutProfile(db: Conn, userId?: string): Promise<UserProfile[]> {
  let query = db
    .selectFrom('account_suspensions')
    .innerJoin('user', 'user.id', 'account_suspensions.user_id')
    .leftJoin('user_profiles', 'user_profiles.user_id', 'account_suspensions.user_id')
    .where('user_profiles.user_id', 'is', null)
    .select(['user.id', 'user.name', 'user.email', 'user.createdAt', 'account_suspensions.suspended_at']);
  if (userId !== undefined) query = query.where('user.id', '=', userId);
  const rows = await query.execute();
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    name: defaultProfileName(r),
    role: 'user',
    isSuperAdmin: false,
    hideInstructions: false,
    installPromptDismissed: false,
    searchSettings: null,
    suspended: true,
    suspendedAt: r.suspended_at,
    lastSignInAt: null,
    createdAt: r.createdAt instanceof Date ? r.createdAt.toISOString() : String(r.createdAt),
  }));
}

/** A user as the admin user list shows them: the profile, or a suspended account whose profile is gone. */
export async function findListedUser(db: Conn, userId: string): Promise<UserProfile | undefined> {
  return (await findProfile(db, userId)) ?? (await suspendedWithoutProfile(db, userId))[0];
}

export async function isSuspended(db: Conn, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('account_suspensions')
    .select('user_id')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Suspend (keeping the first suspension's time) or, with null, lift the suspension. */
export async function setSuspension(db: Conn, userId: string, suspendedAt: string | null): Promise<void> {
  if (suspendedAt === null) {
    await db.deleteFrom('account_suspensions').where('user_id', '=', userId).execute();
    return;
  }
  await db
    .insertInto('account_suspensions')
    .values({ user_id: userId, suspended_at: suspendedAt })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
}

export async function insertProfile(
  db: Conn,
  p: { userId: string; email: string; name: string; role: Role; isSuperAdmin: boolean },
): Promise<void> {
  const now = nowIso();
  await db
    .insertInto('user_profiles')
    .values({
      user_id: p.userId,
      email: p.email,
      name: p.name,
      role: p.role,
      is_super_admin: p.isSuperAdmin ? 1 : 0,
      hide_instructions: 0,
      install_prompt_dismissed: 0,
      search_settings: null,
      last_sign_in_at: null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
}

/** Every user of the admin list: all profiles, and suspended accounts whose profile was deleted. */
export async function listUsers(db: Conn): Promise<UserProfile[]> {
  const rows = await profiles(db).orderBy('user_profiles.created_at', 'asc').execute();
  const listed = rows.map((r) => toProfile(r, r.suspended_at));
  const orphans = await suspendedWithoutProfile(db);
  if (!orphans.length) return listed;
  return [...listed, ...orphans].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

export async function updateProfile(
  db: Conn,
  userId: string,
  patch: Partial<{
    name: string;
    role: Role;
    isSuperAdmin: boolean;
    hideInstructions: boolean;
    installPromptDismissed: boolean;
    searchSettings: SearchSettings;
    lastSignInAt: string;
  }>,
): Promise<void> {
  await db
    .updateTable('user_profiles')
    .set({
      ...(patch.name !== undefined && { name: patch.name }),
      ...(patch.role !== undefined && { role: patch.role }),
      ...(patch.isSuperAdmin !== undefined && { is_super_admin: patch.isSuperAdmin ? 1 : 0 }),
      ...(patch.hideInstructions !== undefined && { hide_instructions: patch.hideInstructions ? 1 : 0 }),
      ...(patch.installPromptDismissed !== undefined && {
        install_prompt_dismissed: patch.installPromptDismissed ? 1 : 0,
      }),
      ...(patch.searchSettings !== undefined && { search_settings: JSON.stringify(patch.searchSettings) }),
      ...(patch.lastSignInAt !== undefined && { last_sign_in_at: patch.lastSignInAt }),
      updated_at: nowIso(),
    })
    .where('user_id', '=', userId)
    .execute();
}

export async function deleteProfile(db: Conn, userId: string): Promise<void> {
  await db.deleteFrom('user_profiles').where('user_id', '=', userId).execute();
}

export async function countAuthUsers(db: Conn): Promise<number> {
  const row = await db
    .selectFrom('user')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** True once any account exists (from then on registration needs an invitation code). */
export async function anyAuthUser(db: Conn): Promise<boolean> {
  const row = await db.selectFrom('user').select('id').limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function findAuthUserByEmail(db: Conn, email: string) {
  return db.selectFrom('user').select(['id', 'name', 'email']).where('email', '=', email).executeTakeFirst();
}

export async function findAuthUser(db: Conn, id: string) {
  return db.selectFrom('user').select(['id', 'name', 'email']).where('id', '=', id).executeTakeFirst();
}

export async function findPasswordHash(db: Conn, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom('account')
    .select('password')
    .where('userId', '=', userId)
    .where('providerId', '=', 'credential')
    .executeTakeFirst();
  return row?.password ?? null;
}

export async function deleteSessions(db: Conn, userId: string): Promise<void> {
  await db.deleteFrom('session').where('userId', '=', userId).execute();
}

/** Hard delete: the account, its sessions, profile and every personal record (foreign keys cascade). */
export async function deleteUserCompletely(db: Conn, userId: string): Promise<void> {
  // The team list keeps the prospects the rep scanned (without their name): copies still owed are made first.
  await copyOwed(db, { userId });
  await db.deleteFrom('call_logs').where('user_id', '=', userId).execute();
  await db.deleteFrom('follow_ups').where('user_id', '=', userId).execute();
  await db.deleteFrom('follow_up_settings').where('user_id', '=', userId).execute();
  await db.deleteFrom('daily_writes').where('user_id', '=', userId).execute();
  await db.deleteFrom('saved_prospects').where('user_id', '=', userId).execute();
  await db.deleteFrom('searches').where('user_id', '=', userId).execute();
  await db.deleteFrom('latest_scans').where('user_id', '=', userId).execute();
  await db.deleteFrom('scan_slots').where('user_id', '=', userId).execute();
  await db.deleteFrom('territory_reps').where('user_id', '=', userId).execute();
  await db.deleteFrom('session').where('userId', '=', userId).execute();
  await db.deleteFrom('account_suspensions').where('user_id', '=', userId).execute();
  await db.deleteFrom('account').where('userId', '=', userId).execute();
  await db.deleteFrom('user_profiles').where('user_id', '=', userId).execute();
  await db.deleteFrom('user').where('id', '=', userId).execute();
}

export async function countUserData(db: Conn, userId: string) {
  const count = async (table: 'call_logs' | 'saved_prospects' | 'searches') => {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  return {
    searches: await count('searches'),
    callLogs: await count('call_logs'),
    savedProspects: await count('saved_prospects'),
  };
}
