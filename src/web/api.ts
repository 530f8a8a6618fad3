// The calls of the main screen: each names its endpoint by the contract's key and is typed from it (http.ts).
// The writes a rep may make offline go through the outbox (offline/outbox.ts) when there is no connection.
import type {
  CallLog,
  CallLogAnswer,
  CallLogInput,
  FollowUp,
  PipelineEntry,
  ProfilePatch,
  Prospect,
  QuickSearchInput,
  RouteRequest,
  ScanBody,
  UserProfile,
} from '../core/api';
import type { ApiKey } from '../core/api/contract';
import { splitKey, type Method } from '../core/api/endpoint';
import { runtimeTimeZone } from '../core/time-zone';
import {
  call,
  download,
  failure,
  parseJson,
  send,
  urlOf,
  type AnyInput,
  type Answer,
  type Input,
} from './http';
import {
  canQueue,
  enqueue,
  outboxOpened,
  requestBackgroundSync,
  waitingWrites,
  type WriteKind,
} from './offline/outbox';

export { ApiError, isUnauthenticated, setSessionLostHandler } from './http';

/** What a write answers while it waits in the outbox: what the screens show meanwhile. */
export interface Queued<T> {
  kind: WriteKind;
  label: string;
  answer: T;
}

/** A queued write's answer carries this, so a caller can tell "saved on the device" from "done". */
export const QUEUED = Symbol('queued');
export const isQueued = (answer: unknown) =>
  typeof answer === 'object' && answer !== null && QUEUED in answer;

/**
 * What a queued write answers: the endpoint's answer, or for one that answers nothing (a removal), the ids of
 * what it removes, so the lists can leave it out meanwhile.
 */
type QueuedAnswer<K extends ApiKey> = Answer<K> extends undefined ? Record<string, string> : Answer<K>;

/**
 * A write the phone may make offline. It carries a new UUID as its Idempotency-Key; with no
 * connection, or while earlier writes still wait (the order is kept), it goes to the signed-in user's outbox
 * and answers `queued(id).answer` (marked with QUEUED) at once; the outbox sends it later under the same key.
 */
async function write<K extends ApiKey>(
  key: K,
  input: Input<K>,
  queued: (id: string) => Queued<QueuedAnswer<K>>,
): Promise<Answer<K> | QueuedAnswer<K>> {
  const id = crypto.randomUUID();
  // Writes only: the outbox sends them again later, a read is never queued.
  const method = splitKey(key).method as Exclude<Method, 'GET'>;
  const { body } = input as AnyInput;
  const path = urlOf(key, input as AnyInput);
  const toOutbox = async () => {
    const { kind, label, answer } = queued(id);
    await enqueue({
      id,
      method,
      path,
      ...(body === undefined ? {} : { body }),
      kind,
      label,
      optimistic: answer,
    });
    void requestBackgroundSync();
    return typeof answer === 'object' && answer !== null ? { ...answer, [QUEUED]: true } : answer;
  };
  // Just after an offline start the rep's outbox may still be opening: the write waits for it.
  await outboxOpened();
  if (canQueue() && (!navigator.onLine || waitingWrites().length > 0)) return toOutbox();
  let response: Response;
  try {
    response = await send(method, path, body, { idempotencyKey: id });
  } catch (error) {
    if (canQueue()) return toOutbox();
    throw error;
  }
  if (!response.ok) throw await failure(response, path);
  return parseJson(await response.text()) as Answer<K>;
}

/** The follow-up of an answer, keeping the QUEUED mark of a queued one. */
const followUpOf = (answer: { followUp: FollowUp }): FollowUp =>
  isQueued(answer) ? Object.assign({ ...answer.followUp }, { [QUEUED]: true }) : answer.followUp;

// ---- Shapes: the API contract's (src/core/api), the same schemas the server validates and answers with ----

export type {
  Advertiser,
  AppConfig,
  CalendarSettings,
  CallLog,
  CallLogInput,
  FollowUp,
  FollowUpInput,
  InvitationCheck,
  LatestPage,
  PipelineEntry,
  PipelineHistoryEntry,
  PlaceDetails,
  ProfilePatch,
  QuickSearchInput,
  Role,
  SavedItem,
  ScanInput,
  ScanResult,
  SearchSettings,
  SourceReport,
} from '../core/api';
/** The signed-in user and their profile. */
export type Me = UserProfile;

export const isAdminUser = (u: Pick<Me, 'role' | 'isSuperAdmin'>) =>
  u.role === 'admin' || u.role === 'SuperAdmin' || u.isSuperAdmin;

/** The call-log entry (and follow-up) a queued call shows in the Log and Today tabs until it is sent. */
function queuedCallLog(id: string, input: CallLogInput): CallLogAnswer {
  const createdAt =
    input.timestamp === undefined ? new Date().toISOString() : new Date(input.timestamp).toISOString();
  const callLog: CallLog = {
    id: `queued:${id}`,
    prospectId: input.prospectId,
    name: input.name,
    category: input.category ?? '',
    phone: input.phone ?? '',
    website: input.website ?? '',
    address: input.address ?? '',
    outcome: input.outcome,
    note: input.note ?? '',
    createdAt,
    verified: false,
  };
  const f = input.followUp;
  if (!f) return { callLog };
  return {
    callLog,
    followUp: {
      id: `queued:${id}`,
      prospectId: input.prospectId,
      name: input.name,
      category: callLog.category,
      address: callLog.address,
      phone: callLog.phone,
      website: callLog.website,
      score: null,
      lat: null,
      lng: null,
      dueDate: f.dueDate,
      dueTime: f.dueTime ?? null,
      timeZone: f.timeZone,
      nextStep: f.nextStep ?? '',
      isMeeting: f.isMeeting ?? false,
      doneAt: null,
      createdAt,
      callLogId: callLog.id,
    },
  };
}

// ---- Calls ----

/** The query of a paged list: only what differs from the first page of the server's size. */
const pageParams = (cursor?: string | null, limit?: number) => ({
  ...(cursor ? { cursor } : {}),
  ...(limit !== undefined ? { limit } : {}),
});

export const api = {
  config: () => call('GET /api/config'),

  // Accounts
  me: async () => (await call('GET /api/me')).user,
  /** The signed-in user, or null when signed out (200 either way: nothing for the console to report). */
  session: async () => (await call('GET /api/session')).user,
  updateMe: async (patch: ProfilePatch) => (await call('PATCH /api/me', { body: patch })).user,
  signIn: (email: string, password: string) => call('POST /api/session', { body: { email, password } }),
  register: (body: Input<'POST /api/register'>['body']) => call('POST /api/register', { body }),
  signOut: () => call('DELETE /api/session'),
  requestPasswordReset: (email: string) => call('POST /api/password-reset', { body: { email } }),
  resetPassword: (newPassword: string, token: string) =>
    call('POST /api/password-reset/complete', { body: { newPassword, token } }),
  checkInvitation: (code: string, email?: string) =>
    call('GET /api/invitations/check', { query: { code, email: email || undefined } }),
  createInvitation: (email?: string) => call('POST /api/invitations', { body: email ? { email } : {} }),

  // Discovery
  /** A circle around a centre, or a whole territory. */
  scan: (input: ScanBody) => call('POST /api/scans', { body: input }),
  latestScan: (offset: number, limit: number) => call('GET /api/scans/latest', { query: { offset, limit } }),
  /** Also sent as the page is left (New Search's Undo waits before forgetting the results). */
  clearLatestScan: async () => {
    const url = urlOf('DELETE /api/scans/latest');
    const response = await send('DELETE', url, undefined, { keepalive: true });
    if (!response.ok) throw await failure(response, url);
  },
  quickSearch: (input: QuickSearchInput) => call('POST /api/quick-search', { body: input }),
  placeDetails: (id: string) => call('GET /api/places/:id/details', { params: { id } }),
  setCategory: async (id: string, category: string) =>
    (await call('PATCH /api/scans/latest/prospects/:id/category', { params: { id }, body: { category } }))
      .prospect,
  geocode: (q: string) => call('GET /api/geocode', { query: { q } }),
  reverseGeocode: (lat: number, lng: number) => call('GET /api/reverse-geocode', { query: { lat, lng } }),

  // Working the list
  /** A page of the Log, newest first: `limit` entries (the server's 200 unless given) after the cursor. */
  callLogPage: async (cursor?: string | null, limit?: number) => {
    const page = await call('GET /api/call-logs', { query: pageParams(cursor, limit) });
    return { items: page.callLogs, nextCursor: page.nextCursor };
  },
  /** The entry, and its follow-up when `input.followUp` set one (stored together or not at all). */
  addCallLog: (input: CallLogInput) =>
    write('POST /api/call-logs', { body: input }, (id) => ({
      kind: 'callLog',
      label: `${input.outcome} ${input.name}`,
      answer: queuedCallLog(id, input),
    })),
  // Follow-ups and the Today tab; the zone is kept for the morning digest's hour.
  /** A page of the open follow-ups, soonest first: `limit` (the server's 200 unless given) after the cursor. */
  followUpPage: async (cursor?: string | null, limit?: number) => {
    const page = await call('GET /api/follow-ups', { query: pageParams(cursor, limit) });
    return { items: page.followUps, nextCursor: page.nextCursor };
  },
  /** Queued offline, the follow-up answered carries the QUEUED mark too (isQueued). */
  completeFollowUp: async (item: FollowUp) =>
    followUpOf(
      await write('POST /api/follow-ups/:id/done', { params: { id: item.id } }, () => ({
        kind: 'followUpDone',
        label: `Follow-up done: ${item.name}`,
        answer: { followUp: { ...item, doneAt: new Date().toISOString() } },
      })),
    ),
  rescheduleFollowUp: async (item: FollowUp, dueDate: string, dueTime?: string | null) =>
    followUpOf(
      await write(
        'PATCH /api/follow-ups/:id',
        { params: { id: item.id }, body: { dueDate, ...(dueTime !== undefined ? { dueTime } : {}) } },
        () => ({
          kind: 'followUpReschedule',
          label: `Follow-up moved to ${dueDate}: ${item.name}`,
          answer: {
            followUp: {
              ...item,
              dueDate,
              dueTime: dueTime === undefined ? item.dueTime : dueTime,
              doneAt: null,
            },
          },
        }),
      ),
    ),
  followUpIcsUrl: (id: string) => urlOf('GET /api/follow-ups/:id.ics', { params: { id } }),
  calendarSettings: () => call('GET /api/calendar/settings'),
  changeCalendarSettings: (patch: Input<'PATCH /api/calendar/settings'>['body']) =>
    call('PATCH /api/calendar/settings', { body: patch }),
  newCalendarFeed: () => call('POST /api/calendar/feed'),
  planRoute: (input: RouteRequest) => call('POST /api/route', { body: input }),
  visits: (date: string) => call('GET /api/visits', { query: { date, tz: runtimeTimeZone() } }),
  deleteCallLog: (id: string) => call('DELETE /api/call-logs/:id', { params: { id } }),
  clearCallLogs: () => call('DELETE /api/call-logs'),
  /** The server names it call_log_{user}_{date}.csv. */
  exportCallLogs: () => download('GET /api/call-logs/export.csv', { query: { tz: runtimeTimeZone() } }),
  saved: async () => (await call('GET /api/saved')).saved,
  save: (prospect: Prospect, note?: string) =>
    write('POST /api/saved', { body: { prospect, ...(note?.trim() ? { note: note.trim() } : {}) } }, () => ({
      kind: 'save',
      label: `Save ${prospect.name}`,
      answer: {
        saved: {
          prospectId: prospect.id,
          prospect,
          savedAt: new Date().toISOString(),
          ...(note?.trim() ? { note: note.trim() } : {}),
        },
        created: true,
      },
    })),
  setSavedCategory: async (prospectId: string, category: string) =>
    (await call('PATCH /api/saved/:prospectId/category', { params: { prospectId }, body: { category } }))
      .prospect,
  unsave: (prospectId: string, name = prospectId) =>
    write('DELETE /api/saved/:prospectId', { params: { prospectId } }, () => ({
      kind: 'unsave',
      label: `Remove ${name} from Saved`,
      answer: { prospectId },
    })),

  // Shared lists
  advertisers: async () => (await call('GET /api/current-advertisers')).advertisers,
  markAdvertiser: (businessId: string, label: string) =>
    write('POST /api/current-advertisers', { body: { businessId, label } }, () => ({
      kind: 'markAdvertiser',
      label: `Mark ${label} as a current advertiser`,
      answer: {
        advertiser: {
          businessId,
          label,
          markedBy: null,
          markedByName: 'You',
          markedAt: new Date().toISOString(),
        },
        created: true,
      },
    })),
  unmarkAdvertiser: (businessId: string, label = businessId) =>
    write('DELETE /api/current-advertisers/:businessId', { params: { businessId } }, () => ({
      kind: 'unmarkAdvertiser',
      label: `Unmark ${label}`,
      answer: { businessId },
    })),
  block: (businessId: string, label: string) => call('POST /api/blocklist', { body: { businessId, label } }),

  // The team pipeline: every business someone works, with owner, stage and since
  pipeline: async () => (await call('GET /api/pipeline')).entries,
  setStage: async (
    businessId: string,
    stage: PipelineEntry['stage'],
    name: string,
    owner?: { id: string; name: string },
    markAdvertiser?: boolean,
  ) =>
    (
      await write(
        'PUT /api/pipeline/:businessId',
        {
          params: { businessId },
          body: { stage, name, ...(markAdvertiser !== undefined && { markAdvertiser }) },
        },
        () => {
          const now = new Date().toISOString();
          return {
            kind: 'stage',
            label: `${name}: ${stage}`,
            answer: {
              entry: {
                businessId,
                label: name,
                ownerId: stage === 'New' ? null : (owner?.id ?? null),
                ownerName: stage === 'New' ? null : (owner?.name ?? null),
                stage,
                since: now,
                updatedAt: now,
              },
            },
          };
        },
      )
    ).entry,
  reassignPipeline: async (businessId: string, userId: string) =>
    (
      await call('POST /api/admin/pipeline/:businessId/reassign', {
        params: { businessId },
        body: { userId },
      })
    ).entry,
  releasePipeline: async (businessId: string) =>
    (await call('POST /api/admin/pipeline/:businessId/release', { params: { businessId } })).entry,
  pipelineHistory: async (businessId: string) =>
    (await call('GET /api/pipeline/:businessId/history', { params: { businessId } })).history,
};
