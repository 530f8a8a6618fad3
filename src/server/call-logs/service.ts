import type { Db } from '../db/database.js';
import { inTransaction } from '../db/database.js';
import { v7 as uuidv7 } from 'uuid';
import type { CallLogTable } from '../db/schema.js';
import { badRequest, HttpError, notFound } from '../http/errors.js';
import { tooManyCallLogsToday, tooManyFollowUpsToday } from '../../core/messages.js';
import { countDailyWrite, untilTomorrow } from './daily-writes.js';
import {
  fileDate,
  fileNamePart,
  localDateTime,
  phoneCell,
  recordsToCsv,
  type CsvColumn,
} from '../../core/csv.js';
import type { CallLog, CallLogInput } from '../../core/api/lists.js';
import type { EventBus } from '../events/bus.js';
import { pipelineOnCallLog, publishPipelineChange } from '../pipeline/service.js';
import type { FollowUp } from '../../core/api/follow-ups.js';
import { decodeCursor, encodeCursor } from '../../core/api/common.js';
import { insertFollowUp } from '../follow-ups/repository.js';
import { followUpRow, presentFollowUp, rememberTimeZone } from '../follow-ups/service.js';
import { checkVisit } from '../../core/route/visits.js';
import { knownBusinesses } from '../route/positions.js';
import {
  deleteAllCallLogs,
  deleteOwnCallLog,
  insertCallLog,
  listCallLogs,
  teamProspectFacts,
  type CallLogWithFollowUp,
} from './repository.js';
import { settleAfterAnswer } from '../scans/after-answer.js';

// Logging an outcome (docs/PRODUCT.md, "Working the list"): Called or Visited makes a call-log entry; Saved
// for Later saves the prospect instead.
export const CALL_OUTCOMES = ['Called', 'Visited'] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];
export const SAVED_FOR_LATER = 'Saved for Later';

export const NO_CALL_HISTORY_TO_EXPORT = 'No call history to export';
export const NO_CALL_HISTORY_TO_CLEAR = 'No call history to clear';
export const CALL_HISTORY_CLEARED = 'Call history cleared successfully';
export const OUTCOME_REQUIRED = 'Logging requires an outcome: Called or Visited.';
export const SAVED_IS_NOT_A_LOG =
  "'Saved for Later' saves the prospect (POST /api/saved); it is not a call-log outcome.";
export const CALL_LOG_NOT_FOUND = 'Call log entry not found';

/** A supplied timestamp may be at most this far ahead of the server clock (clock skew of a phone). */
const MAX_FUTURE_MS = 24 * 60 * 60 * 1000;
const EARLIEST = Date.UTC(2000, 0, 1);

let last = { msecs: -1, seq: 0 };

/**
 * A UUIDv7 (RFC 9562, by uuid) whose sequence counts entries within one millisecond, so ids sort in creation
 * order: entries logged in the same millisecond still list newest first. The sequence is kept here because uuid
 * orders only ids it times itself, and `now` may be given.
 */
export function timeOrderedId(now = Date.now()): string {
  last = now === last.msecs ? { msecs: now, seq: last.seq + 1 } : { msecs: now, seq: 0 };
  return uuidv7({ msecs: now, seq: last.seq });
}

/** A call-log entry as the API answers it (src/core/api). */
export type CallLogView = CallLog;

export function presentCallLog(row: CallLogTable & Partial<CallLogWithFollowUp>): CallLogView {
  return {
    id: row.id,
    prospectId: row.prospect_id,
    name: row.name,
    category: row.category,
    phone: row.phone,
    website: row.website,
    address: row.address,
    outcome: row.outcome,
    note: row.note,
    createdAt: row.created_at,
    verified: row.verified === 1,
    ...(row.due_date && {
      followUp: { dueDate: row.due_date, dueTime: row.due_time ?? null, isMeeting: row.is_meeting === 1 },
    }),
  };
}

function assertOutcome(outcome: string): asserts outcome is CallOutcome {
  const trimmed = outcome.trim();
  if (trimmed === SAVED_FOR_LATER) throw badRequest(SAVED_IS_NOT_A_LOG);
  if (!(CALL_OUTCOMES as readonly string[]).includes(trimmed)) throw badRequest(OUTCOME_REQUIRED);
}

/** createdAt from the supplied timestamp, else now; a timestamp that is not a sane date is refused. */
export function resolveCreatedAt(timestamp: string | number | undefined, now = Date.now()): string {
  if (timestamp === undefined || timestamp === '') return new Date(now).toISOString();
  const ms = typeof timestamp === 'number' ? timestamp : Date.parse(timestamp);
  if (!Number.isFinite(ms)) throw badRequest('Invalid body: timestamp: not a date');
  if (ms < EARLIEST || ms > now + MAX_FUTURE_MS) {
    throw badRequest('Invalid body: timestamp: must be after 2000 and not in the future');
  }
  return new Date(ms).toISOString();
}

/**
 * Where the business is, for checking a visit: the team's copy, else the rep's own results or saved
 * list (a business the rep may see; null when none knows it or it is blocked).
 */
async function businessPosition(
  db: Db,
  userId: string,
  prospectId: string,
  facts: { lat: number | null; lng: number | null } | undefined,
): Promise<{ lat: number; lng: number } | null> {
  if (facts?.lat != null && facts.lng != null) return { lat: facts.lat, lng: facts.lng };
  const { found } = await knownBusinesses(db, { id: userId, admin: false }, [prospectId]);
  return found.get(prospectId) ?? null;
}

/**
 * Logs the call, with its follow-up when one is set (both or neither); on an unclaimed business it also
 * claims it at Contacted for the rep, in the same transaction, and tells every screen once committed. Inside
 * an idempotent write (http/idempotency.ts) `db` is joined to the caller's transaction (the transaction below
 * joins it) and `events` holds the notices until that transaction committed.
 */
export async function addCallLog(
  db: Db,
  user: { id: string; name: string },
  input: CallLogInput,
  /** The caps of one rep's day (FOLLOW_UPS_PER_DAY, CALL_LOGS_PER_DAY). */
  perDay: { callLogs: number; followUps: number },
  events?: EventBus,
): Promise<{ callLog: CallLogView; followUp?: FollowUp }> {
  const userId = user.id;
  assertOutcome(input.outcome);
  const prospectId = input.prospectId.trim();
  // The score a rep just saw: the team's copy of a business they scanned a moment ago is made first.
  await settleAfterAnswer(db);
  const facts = await teamProspectFacts(db.kysely, prospectId);
  // A visit keeps the phone's position and is verified within 0.1 mile of the business.
  const visit = input.outcome.trim() === 'Visited' ? input.position : undefined;
  const business = visit ? await businessPosition(db, userId, prospectId, facts) : null;
  const check = checkVisit(business, visit);
  const row: CallLogTable = {
    id: timeOrderedId(),
    user_id: userId,
    prospect_id: prospectId,
    name: input.name.trim(),
    category: input.category?.trim() ?? '',
    phone: input.phone?.trim() ?? '',
    website: input.website?.trim() ?? '',
    address: input.address?.trim() ?? '',
    outcome: input.outcome.trim(),
    note: input.note?.trim() ?? '',
    created_at: resolveCreatedAt(input.timestamp),
    score: facts?.score ?? null,
    lat: facts?.lat ?? business?.lat ?? null,
    lng: facts?.lng ?? business?.lng ?? null,
    visit_lat: visit?.lat ?? null,
    visit_lng: visit?.lng ?? null,
    visit_accuracy_m: visit?.accuracyM ?? null,
    verified: check.verified ? 1 : 0,
  };
  const followUp = input.followUp;
  const next = followUp ? followUpRow(row, followUp) : null;
  const claimed = await inTransaction(db.kysely, async (trx) => {
    // The day's caps, counted in this transaction: a refused entry stores nothing (nor its follow-up).
    if (!(await countDailyWrite(trx, userId, 'call-log', perDay.callLogs))) {
      throw tooManyToday(tooManyCallLogsToday(perDay.callLogs));
    }
    if (next && !(await countDailyWrite(trx, userId, 'follow-up', perDay.followUps))) {
      throw tooManyToday(tooManyFollowUpsToday(perDay.followUps));
    }
    await insertCallLog(trx, row);
    if (next) await insertFollowUp(trx, next);
    return pipelineOnCallLog(trx, user, prospectId, new Date().toISOString());
  });
  if (claimed && events) await publishPipelineChange(events, claimed, 'changed');
  if (!followUp || !next) return { callLog: presentCallLog(row) };
  await rememberTimeZone(db, userId, followUp.timeZone);
  return {
    callLog: presentCallLog({
      ...row,
      due_date: next.due_date,
      due_time: next.due_time,
      is_meeting: next.is_meeting,
    }),
    followUp: presentFollowUp(next),
  };
}

const tooManyToday = (message: string) => new HttpError(429, message, { retryAfterMs: untilTomorrow() });

export async function ownCallLogs(db: Db, userId: string): Promise<CallLogView[]> {
  return (await listCallLogs(db.kysely, userId)).map(presentCallLog);
}

/** A page of the rep's entries after the cursor's (one more is read to know whether another page follows). */
export async function ownCallLogPage(
  db: Db,
  userId: string,
  query: { limit: number; cursor?: string | undefined },
): Promise<{ callLogs: CallLogView[]; nextCursor: string | null }> {
  const key = query.cursor === undefined ? null : decodeCursor(query.cursor, 2);
  const rows = await listCallLogs(db.kysely, userId, {
    limit: query.limit + 1,
    ...(key && { after: [key[0]!, key[1]!] as const }),
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    callLogs: page.map(presentCallLog),
    nextCursor: rows.length > query.limit && last ? encodeCursor([last.created_at, last.id]) : null,
  };
}

export async function removeCallLog(db: Db, userId: string, id: string): Promise<void> {
  if (!(await deleteOwnCallLog(db.kysely, userId, id))) throw notFound(CALL_LOG_NOT_FOUND);
}

export async function clearCallLogs(db: Db, userId: string): Promise<number> {
  const deleted = await deleteAllCallLogs(db.kysely, userId);
  if (deleted === 0) throw notFound(NO_CALL_HISTORY_TO_CLEAR);
  return deleted;
}

/** The columns of the export; dates on the clock of `timeZone`, which the last column names. */
const exportColumns = (timeZone: string): CsvColumn<CallLogView>[] => [
  ['Date', (r) => localDateTime(r.createdAt, timeZone)],
  ['Name', (r) => r.name],
  ['Outcome', (r) => r.outcome],
  ['Category', (r) => r.category],
  ['Address', (r) => r.address],
  ['Phone', (r) => phoneCell(r.phone)],
  ['Website', (r) => r.website],
  ['Note', (r) => r.note],
  ['Follow-up', (r) => followUpCell(r.followUp)],
  ['Time Zone', () => timeZone],
];

/** "2026-12-01 14:15" (the rep's own clock when it was set), "2026-12-01" for any time that day, "… meeting". */
function followUpCell(f: CallLogView['followUp']): string {
  if (!f) return '';
  return `${f.dueDate}${f.dueTime ? ` ${f.dueTime}` : ''}${f.isMeeting ? ' meeting' : ''}`;
}

/**
 * The Log tab's export: `call_log_{user}_{date}.csv`, newest entry first. Dates and the file's {date} are in
 * `timeZone`, the rep's own (the browser sends it), UTC when none is given.
 */
export async function exportCallLogs(
  db: Db,
  user: { id: string; name: string },
  now = new Date(),
  timeZone = 'UTC',
): Promise<{ fileName: string; csv: string }> {
  const entries = await ownCallLogs(db, user.id);
  if (entries.length === 0) throw notFound(NO_CALL_HISTORY_TO_EXPORT);
  return {
    fileName: `call_log_${fileNamePart(user.name)}_${fileDate(now, timeZone)}.csv`,
    csv: recordsToCsv(exportColumns(timeZone), entries),
  };
}
