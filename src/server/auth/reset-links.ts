import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

// Password-reset links are better-auth verification rows: identifier `reset-password:<token>`, value the user
// id (stored as written: the app sets no hashed identifier storage). better-auth spends the one link used
// and leaves the others of the account valid until they expire; these helpers void them.

const PREFIX = 'reset-password:';

const time = (value: Date | string | number) => new Date(value).getTime();

/** Deletes every outstanding reset link of the account (after a successful reset). */
export async function voidResetLinks(db: Kysely<Database>, userId: string): Promise<void> {
  await db
    .deleteFrom('verification')
    .where('identifier', 'like', `${PREFIX}%`)
    .where('value', '=', userId)
    .execute();
}

/**
 * True when the link was sent before the account's password last changed (a reset with a newer link, or a
 * change by any other way): it must not set the password any more. Its account's links are voided then.
 * False for an unknown token (better-auth answers that one itself).
 */
export async function resetLinkOutdated(db: Kysely<Database>, token: string): Promise<boolean> {
  const link = await db
    .selectFrom('verification')
    .select(['value', 'createdAt'])
    .where('identifier', '=', `${PREFIX}${token}`)
    .executeTakeFirst();
  if (!link) return false;
  const account = await db
    .selectFrom('account')
    .select('updatedAt')
    .where('userId', '=', link.value)
    .where('providerId', '=', 'credential')
    .executeTakeFirst();
  if (!account || time(account.updatedAt) <= time(link.createdAt)) return false;
  await voidResetLinks(db, link.value);
  return true;
}
