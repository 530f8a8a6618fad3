import { sql, type Kysely, type SelectQueryBuilder, type Transaction } from 'kysely';
import type { Database, FollowUpSettingsTable, FollowUpTable } from '../db/schema.js';
import { VERTICALS, type Vertical } from '../../core/verticals.js';

type Conn = Kysely<Database> | Transaction<Database>;

export async function insertFollowUp(db: Conn, row: FollowUpTable): Promise<void> {
  await db.insertInto('follow_ups').values(row).execute();
}

/**
 * One rep's open follow-ups, soonest first (index follow_ups_user_open): all of them, or `limit` of them after
 * the one `after` names (its due date, due time or '' for any time, and id). A day's any-time follow-ups come
 * before its timed ones on both databases (NULL sorts first in SQLite and last in PostgreSQL, '' first in both).
 */
export async function openFollowUps(
  db: Conn,
  userId: string,
  page?: { limit: number; after?: readonly [dueDate: string, dueTime: string, id: string] },
): Promise<FollowUpTable[]> {
  let query = db
    .selectFrom('follow_ups')
    .selectAll()
    .where('user_id', '=', userId)
    .where('done_at', 'is', null);
  if (page?.after) {
    const [dueDate, dueTime, id] = page.after;
    query = query.where(
      sql<boolean>`(due_date, coalesce(due_time, ''), id) > (${dueDate}, ${dueTime}, ${id})`,
    );
  }
  query = query
    .orderBy('due_date')
    .orderBy(sql`coalesce(due_time, '')`)
    .orderBy('id');
  return (page ? query.limit(page.limit) : query).execute();
}

const KNOWN_VERTICALS: ReadonlySet<string> = new Set(VERTICALS);

/**
 * The vertical each of these businesses was last scored as, from the team's copy (one read by primary key for a
 * page of follow-ups). A business the server never scanned, or whose copy carries no breakdown, is left out.
 */
export async function teamVerticals(
  db: Conn,
  businessIds: readonly string[],
): Promise<Map<string, Vertical>> {
  const found = new Map<string, Vertical>();
  const ids = [...new Set(businessIds)];
  if (ids.length === 0) return found;
  const rows = await db
    .selectFrom('team_prospects')
    .select(['business_id', 'prospect'])
    .where('business_id', 'in', ids)
    .execute();
  for (const row of rows) {
    try {
      const p = JSON.parse(row.prospect) as { aiAnalysis?: { breakdown?: { vertical?: unknown } } };
      const vertical = p.aiAnalysis?.breakdown?.vertical;
      if (typeof vertical === 'string' && KNOWN_VERTICALS.has(vertical))
        found.set(row.business_id, vertical as Vertical);
    } catch {
      // A copy that is not JSON has no vertical; the follow-up is listed without one.
    }
  }
  return found;
}

/**
 * The calendar feed's follow-ups: one rep's open ones due from `from` to `to` (YYYY-MM-DD, both included), at most
 * `max`, the nearest to `today` first (index follow_ups_user_open), in date order. Each side of today is read
 * with its own limit, so a rep with thousands far away never loads them all.
 */
export async function feedFollowUps(
  db: Conn,
  userId: string,
  window: { from: string; today: string; to: string; max: number },
): Promise<FollowUpTable[]> {
  const open = () =>
    db.selectFrom('follow_ups').selectAll().where('user_id', '=', userId).where('done_at', 'is', null);
  const ahead = await open()
    .where('due_date', '>=', window.today)
    .where('due_date', '<=', window.to)
    .orderBy('due_date')
    .orderBy('due_time')
    .orderBy('id')
    .limit(window.max)
    .execute();
  const behind = await open()
    .where('due_date', '>=', window.from)
    .where('due_date', '<', window.today)
    .orderBy('due_date', 'desc')
    .orderBy('due_time', 'desc')
    .orderBy('id', 'desc')
    .limit(window.max)
    .execute();
  const today = Date.parse(window.today);
  const away = (row: FollowUpTable) => Math.abs(Date.parse(row.due_date) - today);
  let a = 0;
  let b = 0;
  while (a + b < window.max && (a < ahead.length || b < behind.length)) {
    const next = ahead[a];
    const previous = behind[b];
    if (next && (!previous || away(next) <= away(previous))) a += 1;
    else b += 1;
  }
  return [...behind.slice(0, b).reverse(), ...ahead.slice(0, a)];
}

/**
 * What the rep's feed was built from, in one short read: any follow-up added, changed (each write sets
 * updated_at) or deleted changes it.
 */
export async function followUpsStamp(db: Conn, userId: string): Promise<string> {
  const row = await db
    .selectFrom('follow_ups')
    .select((eb) => [eb.fn.countAll<string | number>().as('n'), eb.fn.max('updated_at').as('latest')])
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return `${Number(row.n)}|${row.latest ?? ''}`;
}

/** One rep's open follow-ups due on or before a local date. */
export async function dueFollowUps(db: Conn, userId: string, onOrBefore: string): Promise<FollowUpTable[]> {
  return db
    .selectFrom('follow_ups')
    .selectAll()
    .where('user_id', '=', userId)
    .where('done_at', 'is', null)
    .where('due_date', '<=', onOrBefore)
    .orderBy('due_date')
    .orderBy('due_time')
    .orderBy('id')
    .execute();
}

/** The follow-up when it is this rep's own. */
export async function ownFollowUp(db: Conn, userId: string, id: string): Promise<FollowUpTable | undefined> {
  return db
    .selectFrom('follow_ups')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function updateOwnFollowUp(
  db: Conn,
  userId: string,
  id: string,
  set: Partial<Pick<FollowUpTable, 'due_date' | 'due_time' | 'done_at' | 'updated_at'>>,
): Promise<boolean> {
  const result = await db
    .updateTable('follow_ups')
    .set(set)
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function readSettings(db: Conn, userId: string): Promise<FollowUpSettingsTable | undefined> {
  return db.selectFrom('follow_up_settings').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** Creates the rep's settings row with these values, or changes just these values of the existing one. */
export async function upsertSettings(
  db: Conn,
  userId: string,
  set: Partial<Omit<FollowUpSettingsTable, 'user_id'>> & { updated_at: string },
): Promise<void> {
  await db
    .insertInto('follow_up_settings')
    .values({
      user_id: userId,
      feed_token_hash: null,
      feed_created_at: null,
      digest_enabled: 1,
      time_zone: null,
      digest_sent_for: null,
      ...set,
    })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(set))
    .execute();
}

/** The owner of a feed token, while their account is active: a suspended or deleted rep's feed answers nobody. */
export async function userIdByFeedHash(db: Conn, hash: string): Promise<string | undefined> {
  const row = await activeOnly(db.selectFrom('follow_up_settings'))
    .select('follow_up_settings.user_id')
    .where('feed_token_hash', '=', hash)
    .executeTakeFirst();
  return row?.user_id;
}

/**
 * Settings rows of active accounts only: the rep has a profile and no suspension. A suspended or deleted rep's
 * feed and morning digest stop with the account.
 */
export function activeOnly<O>(query: SelectQueryBuilder<Database, 'follow_up_settings', O>) {
  return query
    .innerJoin('user_profiles', 'user_profiles.user_id', 'follow_up_settings.user_id')
    .leftJoin('account_suspensions', 'account_suspensions.user_id', 'follow_up_settings.user_id')
    .where('account_suspensions.user_id', 'is', null);
}
