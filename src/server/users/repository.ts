import type { Kysely, Transaction } from 'kysely';
import type { Database, Role, UserProfileTable } from '../db/schema.js';
import { nowIso } from '../db/database.js';

type Conn = Kysely<Database> | Transaction<Database>;

export interface SearchSettings {
  lat: number;
  lng: number;
  label: string;
  radiusMiles: number;
  count: number;
  categories: string[];
}

export interface UserProfile {
  id: string;
  email: string;
  name: string;
  role: Role;
  isSuperAdmin: boolean;
  hideInstructions: boolean;
  installPromptDismissed: boolean;
  searchSettings: SearchSettings | null;
  suspended: boolean;
  suspendedAt: string | null;
  lastSignInAt: string | null;
  createdAt: string;
}

function parseSettings(json: string | null): SearchSettings | null {
  if (!json) return null;
  try {
    return JSON.parse(json) as SearchSettings;
  } catch {
    return null;
  }
}

export function toProfile(row: UserProfileTable): UserProfile {
  return {
    id: row.user_id,
    email: row.email,
    name: row.name,
    role: row.role,
    isSuperAdmin: row.is_super_admin === 1,
    hideInstructions: row.hide_instructions === 1,
    installPromptDismissed: row.install_prompt_dismissed === 1,
    searchSettings: parseSettings(row.search_settings),
    suspended: row.suspended_at !== null,
    suspendedAt: row.suspended_at,
    lastSignInAt: row.last_sign_in_at,
    createdAt: row.created_at,
  };
}

export async function findProfile(db: Conn, userId: string): Promise<UserProfile | undefined> {
  const row = await db
    .selectFrom('user_profiles')
    .selectAll()
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row && toProfile(row);
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
      suspended_at: null,
      last_sign_in_at: null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
}

export async function listProfiles(db: Conn): Promise<UserProfile[]> {
  const rows = await db.selectFrom('user_profiles').selectAll().orderBy('created_at', 'asc').execute();
  return rows.map(toProfile);
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
    suspendedAt: string | null;
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
      ...(patch.suspendedAt !== undefined && { suspended_at: patch.suspendedAt }),
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
  await db.deleteFrom('call_logs').where('user_id', '=', userId).execute();
  await db.deleteFrom('saved_prospects').where('user_id', '=', userId).execute();
  await db.deleteFrom('searches').where('user_id', '=', userId).execute();
  await db.deleteFrom('latest_scans').where('user_id', '=', userId).execute();
  await db.deleteFrom('session').where('userId', '=', userId).execute();
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
