// The per-day caps on what one rep writes (FOLLOW_UPS_PER_DAY, CALL_LOGS_PER_DAY): a count per rep, kind and
// UTC day, raised in the write's own transaction, so a refused or failed write counts nothing. Counted as
// written rather than by the entries' dates: a call logged offline carries the time it was made, which may be
// any earlier day.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';

type Conn = Kysely<Database> | Transaction<Database>;

export type DailyWriteKind = 'follow-up' | 'call-log';

/**
 * One more write of this kind today, unless the rep already made `max`: one upsert whose update holds only
 * under the cap, so writes sent at once cannot all pass it (SQLite runs one transaction at a time; PostgreSQL
 * makes the second wait on the row the first raised, then checks the cap again). False when at the cap.
 */
export async function countDailyWrite(
  db: Conn,
  userId: string,
  kind: DailyWriteKind,
  max: number,
  now = new Date(),
): Promise<boolean> {
  const day = now.toISOString().slice(0, 10);
  const row = await db
    .insertInto('daily_writes')
    .values({ user_id: userId, kind, day, n: 1 })
    .onConflict((oc) =>
      oc
        .columns(['user_id', 'kind', 'day'])
        .doUpdateSet((eb) => ({ n: eb('daily_writes.n', '+', 1) }))
        .where('daily_writes.n', '<', max),
    )
    .returning('n')
    .executeTakeFirst();
  if (!row) return false;
  // The first write of a day clears the rep's counts of earlier days: they are never read again.
  if (Number(row.n) === 1) {
    await db
      .deleteFrom('daily_writes')
      .where('user_id', '=', userId)
      .where('kind', '=', kind)
      .where('day', '<', day)
      .execute();
  }
  return true;
}

/** Milliseconds until the next UTC day, when the caps start again. */
export const untilTomorrow = (now = new Date()): number =>
  Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - now.getTime();
