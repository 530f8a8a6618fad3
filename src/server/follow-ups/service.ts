// Follow-ups: set with a call-log entry (call-logs/service.ts stores both in one transaction), listed for the
// Today tab, done or rescheduled; each rep's calendar feed token and digest settings.
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/database.js';
import { nowIso } from '../db/database.js';
import type { CallLogTable, FollowUpSettingsTable, FollowUpTable } from '../db/schema.js';
import { notFound } from '../http/errors.js';
import { answerUnderKey } from '../http/idempotency.js';
import type {
  CalendarSettings,
  CalendarSettingsInput,
  FollowUp,
  FollowUpInput,
  RescheduleInput,
} from '../../core/api/follow-ups.js';
import { timeOrderedId } from '../call-logs/service.js';
import { decodeCursor, encodeCursor } from '../../core/api/common.js';
import {
  openFollowUps,
  ownFollowUp,
  readSettings,
  teamVerticals,
  updateOwnFollowUp,
  upsertSettings,
  userIdByFeedHash,
} from './repository.js';

export const FOLLOW_UP_NOT_FOUND = 'Follow-up not found';

export function presentFollowUp(row: FollowUpTable): FollowUp {
  return {
    id: row.id,
    prospectId: row.prospect_id,
    name: row.name,
    category: row.category,
    address: row.address,
    phone: row.phone,
    website: row.website,
    score: row.score === null ? null : Number(row.score),
    lat: row.lat === null ? null : Number(row.lat),
    lng: row.lng === null ? null : Number(row.lng),
    dueDate: row.due_date,
    dueTime: row.due_time,
    timeZone: row.time_zone,
    nextStep: row.next_step,
    isMeeting: row.is_meeting === 1,
    doneAt: row.done_at,
    createdAt: row.created_at,
    callLogId: row.call_log_id,
  };
}

/** The follow-up row set with a call-log entry: the card's facts come from the entry. */
export function followUpRow(entry: CallLogTable, input: FollowUpInput, now = nowIso()): FollowUpTable {
  return {
    id: timeOrderedId(),
    user_id: entry.user_id,
    prospect_id: entry.prospect_id,
    name: entry.name,
    category: entry.category,
    address: entry.address,
    phone: entry.phone,
    website: entry.website,
    score: entry.score ?? null,
    lat: entry.lat ?? null,
    lng: entry.lng ?? null,
    due_date: input.dueDate,
    due_time: input.dueTime ?? null,
    time_zone: input.timeZone,
    next_step: input.nextStep?.trim() ?? '',
    is_meeting: input.isMeeting ? 1 : 0,
    done_at: null,
    created_at: now,
    updated_at: now,
    call_log_id: entry.id,
  };
}

/** A page of the rep's open follow-ups after the cursor's (one more is read to know whether another follows). */
export async function ownFollowUpPage(
  db: Db,
  userId: string,
  query: { limit: number; cursor?: string | undefined },
): Promise<{ followUps: FollowUp[]; nextCursor: string | null }> {
  const key = query.cursor === undefined ? null : decodeCursor(query.cursor, 3);
  const rows = await openFollowUps(db.kysely, userId, {
    limit: query.limit + 1,
    ...(key && { after: [key[0]!, key[1]!, key[2]!] as const }),
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const verticals = await teamVerticals(
    db.kysely,
    page.map((row) => row.prospect_id),
  );
  return {
    followUps: page.map((row) => ({
      ...presentFollowUp(row),
      vertical: verticals.get(row.prospect_id) ?? null,
    })),
    nextCursor:
      rows.length > query.limit && last ? encodeCursor([last.due_date, last.due_time ?? '', last.id]) : null,
  };
}

/**
 * `queued:<key>` names the follow-up set by the call this rep logged offline under Idempotency-Key <key>. A
 * follow-up made offline is shown under that id until the phone hears its real one, so a "done" or a new date
 * queued behind the call (and sent after it, in order) reaches the row the call created.
 */
export const QUEUED_ID_PREFIX = 'queued:';

async function resolveId(db: Db, userId: string, id: string): Promise<string | undefined> {
  if (!id.startsWith(QUEUED_ID_PREFIX)) return id;
  const key = id.slice(QUEUED_ID_PREFIX.length);
  const answer = await answerUnderKey(db, userId, key, 'POST /api/call-logs');
  const made = (answer as { followUp?: { id?: unknown } } | undefined)?.followUp?.id;
  return typeof made === 'string' ? made : undefined;
}

async function ownOr404(db: Db, userId: string, given: string): Promise<FollowUpTable> {
  const id = await resolveId(db, userId, given);
  const row = id === undefined ? undefined : await ownFollowUp(db.kysely, userId, id);
  if (!row) throw notFound(FOLLOW_UP_NOT_FOUND);
  return row;
}

export async function getOwnFollowUp(db: Db, userId: string, id: string): Promise<FollowUp> {
  return presentFollowUp(await ownOr404(db, userId, id));
}

/** Done: kept (the feed drops it), done_at set once; marking it done again changes nothing. */
export async function completeFollowUp(db: Db, userId: string, id: string): Promise<FollowUp> {
  const row = await ownOr404(db, userId, id);
  if (row.done_at) return presentFollowUp(row);
  const now = nowIso();
  await updateOwnFollowUp(db.kysely, userId, row.id, { done_at: now, updated_at: now });
  return presentFollowUp({ ...row, done_at: now, updated_at: now });
}

/** A new date (and time, when given; null clears it); a done follow-up rescheduled is open again. */
export async function rescheduleFollowUp(
  db: Db,
  userId: string,
  id: string,
  input: RescheduleInput,
): Promise<FollowUp> {
  const row = await ownOr404(db, userId, id);
  const now = nowIso();
  const set = {
    due_date: input.dueDate,
    due_time: input.dueTime === undefined ? row.due_time : input.dueTime,
    done_at: null,
    updated_at: now,
  };
  await updateOwnFollowUp(db.kysely, userId, row.id, set);
  return presentFollowUp({ ...row, ...set });
}

// ---- calendar feed and digest settings ----

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function presentSettings(row: FollowUpSettingsTable | undefined): CalendarSettings {
  return {
    hasFeed: Boolean(row?.feed_token_hash),
    feedCreatedAt: row?.feed_created_at ?? null,
    // The digest is on by default.
    digestEnabled: row ? row.digest_enabled === 1 : true,
    timeZone: row?.time_zone ?? null,
  };
}

export async function calendarSettings(db: Db, userId: string): Promise<CalendarSettings> {
  return presentSettings(await readSettings(db.kysely, userId));
}

export async function changeCalendarSettings(
  db: Db,
  userId: string,
  patch: CalendarSettingsInput,
): Promise<CalendarSettings> {
  await upsertSettings(db.kysely, userId, {
    updated_at: nowIso(),
    ...(patch.digestEnabled !== undefined && { digest_enabled: patch.digestEnabled ? 1 : 0 }),
    ...(patch.timeZone !== undefined && { time_zone: patch.timeZone }),
  });
  return calendarSettings(db, userId);
}

/** The zone the browser reported, kept for the digest's hour. */
export async function rememberTimeZone(db: Db, userId: string, timeZone: string): Promise<void> {
  const row = await readSettings(db.kysely, userId);
  if (row?.time_zone === timeZone) return;
  await upsertSettings(db.kysely, userId, { time_zone: timeZone, updated_at: nowIso() });
}

export const feedUrl = (publicUrl: string, token: string) =>
  `${publicUrl.replace(/\/+$/, '')}/api/calendar/${token}.ics`;

/** A new secret feed token (only its SHA-256 is stored): the old link stops working at once. */
export async function regenerateFeed(db: Db, userId: string, publicUrl: string) {
  const token = randomBytes(32).toString('base64url');
  const now = nowIso();
  await upsertSettings(db.kysely, userId, {
    feed_token_hash: sha256(token),
    feed_created_at: now,
    updated_at: now,
  });
  return { feedUrl: feedUrl(publicUrl, token), settings: await calendarSettings(db, userId) };
}

const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

/** The rep whose feed this token opens, if any. */
export async function feedOwner(db: Db, token: string): Promise<string | undefined> {
  if (!TOKEN_RE.test(token)) return undefined;
  return userIdByFeedHash(db.kysely, sha256(token));
}
