// The one typed client for the server's JSON API. Every error answer is {"error": "<message to show>"}; it is
// thrown as an ApiError carrying that message and the status. A request that never reaches the server throws
// NETWORK_ERROR.
import { GENERIC_ERROR, NETWORK_ERROR } from '../core/messages';
import type {
  Advertiser,
  AppConfig,
  BlockedItem,
  CalendarFeed,
  CalendarSettings,
  CallLog,
  CallLogAnswer,
  CallLogInput,
  FollowUp,
  GeocodeResult,
  Invitation,
  InvitationCheck,
  LatestPage,
  PipelineAnswer,
  PipelineEntry,
  PipelineHistory,
  PipelineList,
  PlaceDetails,
  ProfilePatch,
  Prospect,
  RouteAnswer,
  RouteRequest,
  VisitsAnswer,
  QuickSearchInput,
  Role,
  SavedItem,
  ScanInput,
  ScanResult,
  UserProfile,
} from '../core/api';
import { attachmentFileName, browserTimeZone } from './format';
import {
  canQueue,
  enqueue,
  outboxOpened,
  requestBackgroundSync,
  waitingWrites,
  type WriteKind,
} from './offline/outbox';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const isUnauthenticated = (error: unknown) => error instanceof ApiError && error.status === 401;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Routes where a 401 is an answer about the credentials, not a lost session. */
const SIGN_IN_ROUTES = new Set(['/api/session', '/api/register', '/api/me']);
let onSessionLost: (() => void) | null = null;

/**
 * Called when a request that needed a session gets 401 (signed out elsewhere, session expired, account
 * suspended): the app goes back to the sign-in screen.
 */
export function setSessionLostHandler(handler: (() => void) | null): void {
  onSessionLost = handler;
}

/** The request itself; a request that never reaches the server throws NETWORK_ERROR. */
async function send(
  method: Method,
  path: string,
  body?: unknown,
  accept = 'application/json',
  idempotencyKey?: string,
) {
  try {
    return await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: {
        accept,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      },
      body: body === undefined ? null : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(NETWORK_ERROR, 0);
  }
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** An error answer as an ApiError with the server's message (a lost session returns the app to sign-in). */
async function failure(response: Response, path: string): Promise<ApiError> {
  const parsed = parseJson(await response.text());
  const record = (parsed && typeof parsed === 'object' ? parsed : {}) as Record<string, unknown>;
  const message = typeof record.error === 'string' && record.error ? record.error : GENERIC_ERROR;
  if (response.status === 401 && !SIGN_IN_ROUTES.has(path.split('?')[0] ?? '')) onSessionLost?.();
  return new ApiError(message, response.status, record);
}

async function request<T>(method: Method, path: string, body?: unknown): Promise<T> {
  const response = await send(method, path, body);
  if (!response.ok) throw await failure(response, path);
  return parseJson(await response.text()) as T;
}

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
 * A write the phone may make offline. It carries a new UUID as its Idempotency-Key; with no
 * connection, or while earlier writes still wait (the order is kept), it goes to the signed-in user's outbox
 * and answers `queued(id).answer` (marked with QUEUED) at once; the outbox sends it later under the same key.
 */
async function write<T>(
  method: Exclude<Method, 'GET'>,
  path: string,
  body: unknown,
  queued: (id: string) => Queued<T>,
): Promise<T> {
  const id = crypto.randomUUID();
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
    response = await send(method, path, body, 'application/json', id);
  } catch (error) {
    if (canQueue()) return toOutbox();
    throw error;
  }
  if (!response.ok) throw await failure(response, path);
  return parseJson(await response.text()) as T;
}

/** The follow-up of an answer, keeping the QUEUED mark of a queued one. */
const followUpOf = (answer: { followUp: FollowUp }): FollowUp =>
  isQueued(answer) ? Object.assign({ ...answer.followUp }, { [QUEUED]: true }) : answer.followUp;

/** A file the server sends as an attachment (the CSV exports): its bytes and the server's file name. */
async function download(path: string): Promise<{ blob: Blob; fileName: string | null }> {
  const response = await send('GET', path, undefined, 'text/csv, application/json');
  if (!response.ok) throw await failure(response, path);
  return {
    blob: await response.blob(),
    fileName: attachmentFileName(response.headers.get('content-disposition')),
  };
}

const qs = (params: Record<string, string | number | undefined>) => {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) search.set(k, String(v));
  return search.toString();
};

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

export const api = {
  config: () => request<AppConfig>('GET', '/api/config'),

  // Accounts
  me: async () => (await request<{ user: Me }>('GET', '/api/me')).user,
  /** The signed-in user, or null when signed out (200 either way: nothing for the console to report). */
  session: async () => (await request<{ user: Me | null }>('GET', '/api/session')).user,
  updateMe: async (patch: ProfilePatch) => (await request<{ user: Me }>('PATCH', '/api/me', patch)).user,
  signIn: (email: string, password: string) =>
    request<{ ok: true }>('POST', '/api/session', { email, password }),
  register: (input: {
    name: string;
    email: string;
    password: string;
    confirmPassword: string;
    invitationCode?: string;
  }) => request<{ ok: true; role: Role }>('POST', '/api/register', input),
  signOut: () => request<{ ok: true }>('DELETE', '/api/session'),
  requestPasswordReset: (email: string) => request<{ ok: true }>('POST', '/api/password-reset', { email }),
  resetPassword: (newPassword: string, token: string) =>
    request<{ ok: true }>('POST', '/api/password-reset/complete', { newPassword, token }),
  checkInvitation: (code: string, email?: string) =>
    request<InvitationCheck>('GET', `/api/invitations/check?${qs({ code, email: email || undefined })}`),
  createInvitation: (email?: string) =>
    request<{ invitation: Invitation; link: string }>('POST', '/api/invitations', email ? { email } : {}),

  // Discovery
  scan: (input: ScanInput) => request<ScanResult>('POST', '/api/scans', input),
  latestScan: (offset: number, limit: number) =>
    request<LatestPage>('GET', `/api/scans/latest?${qs({ offset, limit })}`),
  clearLatestScan: () => request<void>('DELETE', '/api/scans/latest'),
  quickSearch: (input: QuickSearchInput) => request<ScanResult>('POST', '/api/quick-search', input),
  placeDetails: (id: string) => request<PlaceDetails>('GET', `/api/places/${encodeURIComponent(id)}/details`),
  setCategory: async (id: string, category: string) =>
    (
      await request<{ prospect: Prospect }>(
        'PATCH',
        `/api/scans/latest/prospects/${encodeURIComponent(id)}/category`,
        { category },
      )
    ).prospect,
  geocode: (q: string) => request<GeocodeResult>('GET', `/api/geocode?${qs({ q })}`),
  reverseGeocode: (lat: number, lng: number) =>
    request<{ label: string }>('GET', `/api/reverse-geocode?${qs({ lat, lng })}`),

  // Working the list
  callLogs: async () => (await request<{ callLogs: CallLog[] }>('GET', '/api/call-logs')).callLogs,
  /** The entry, and its follow-up when `input.followUp` set one (stored together or not at all). */
  addCallLog: (input: CallLogInput) =>
    write<CallLogAnswer>('POST', '/api/call-logs', input, (id) => ({
      kind: 'callLog',
      label: `${input.outcome} ${input.name}`,
      answer: queuedCallLog(id, input),
    })),
  // Follow-ups and the Today tab; the zone is kept for the morning digest's hour.
  followUps: async () =>
    (await request<{ followUps: FollowUp[] }>('GET', `/api/follow-ups?${qs({ tz: browserTimeZone() })}`))
      .followUps,
  /** Queued offline, the follow-up answered carries the QUEUED mark too (isQueued). */
  completeFollowUp: async (item: FollowUp) =>
    followUpOf(
      await write<{ followUp: FollowUp }>(
        'POST',
        `/api/follow-ups/${encodeURIComponent(item.id)}/done`,
        undefined,
        () => ({
          kind: 'followUpDone',
          label: `Follow-up done: ${item.name}`,
          answer: { followUp: { ...item, doneAt: new Date().toISOString() } },
        }),
      ),
    ),
  rescheduleFollowUp: async (item: FollowUp, dueDate: string, dueTime?: string | null) =>
    followUpOf(
      await write<{ followUp: FollowUp }>(
        'PATCH',
        `/api/follow-ups/${encodeURIComponent(item.id)}`,
        { dueDate, ...(dueTime !== undefined ? { dueTime } : {}) },
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
  followUpIcsUrl: (id: string) => `/api/follow-ups/${encodeURIComponent(id)}.ics`,
  calendarSettings: () => request<CalendarSettings>('GET', '/api/calendar/settings'),
  changeCalendarSettings: (patch: { digestEnabled?: boolean; timeZone?: string }) =>
    request<CalendarSettings>('PATCH', '/api/calendar/settings', patch),
  newCalendarFeed: () => request<CalendarFeed>('POST', '/api/calendar/feed'),
  planRoute: (input: RouteRequest) => request<RouteAnswer>('POST', '/api/route', input),
  visits: (date: string) =>
    request<VisitsAnswer>('GET', `/api/visits?${qs({ date, tz: browserTimeZone() })}`),
  deleteCallLog: (id: string) => request<void>('DELETE', `/api/call-logs/${encodeURIComponent(id)}`),
  clearCallLogs: () => request<{ deleted: number; message: string }>('DELETE', '/api/call-logs'),
  /** The server names it call_log_{user}_{date}.csv. */
  exportCallLogs: () => download(`/api/call-logs/export.csv?${qs({ tz: browserTimeZone() })}`),
  saved: async () => (await request<{ saved: SavedItem[] }>('GET', '/api/saved')).saved,
  save: (prospect: Prospect, note?: string) =>
    write<{ saved: SavedItem; created: boolean }>(
      'POST',
      '/api/saved',
      { prospect, ...(note?.trim() ? { note: note.trim() } : {}) },
      () => ({
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
      }),
    ),
  setSavedCategory: async (prospectId: string, category: string) =>
    (
      await request<{ prospect: Prospect }>(
        'PATCH',
        `/api/saved/${encodeURIComponent(prospectId)}/category`,
        { category },
      )
    ).prospect,
  unsave: (prospectId: string, name = prospectId) =>
    write<{ prospectId: string } | undefined>(
      'DELETE',
      `/api/saved/${encodeURIComponent(prospectId)}`,
      undefined,
      () => ({ kind: 'unsave', label: `Remove ${name} from Saved`, answer: { prospectId } }),
    ),

  // Shared lists
  advertisers: async () =>
    (await request<{ advertisers: Advertiser[] }>('GET', '/api/current-advertisers')).advertisers,
  markAdvertiser: (businessId: string, label: string) =>
    write<{ advertiser: Advertiser; created: boolean }>(
      'POST',
      '/api/current-advertisers',
      { businessId, label },
      () => ({
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
      }),
    ),
  unmarkAdvertiser: (businessId: string, label = businessId) =>
    write<{ businessId: string } | undefined>(
      'DELETE',
      `/api/current-advertisers/${encodeURIComponent(businessId)}`,
      undefined,
      () => ({ kind: 'unmarkAdvertiser', label: `Unmark ${label}`, answer: { businessId } }),
    ),
  block: (businessId: string, label: string) =>
    request<{ blocked: BlockedItem; created: boolean }>('POST', '/api/blocklist', { businessId, label }),

  // The team pipeline: every business someone works, with owner, stage and since
  pipeline: async () => (await request<PipelineList>('GET', '/api/pipeline')).entries,
  setStage: async (
    businessId: string,
    stage: PipelineEntry['stage'],
    name: string,
    owner?: { id: string; name: string },
  ) =>
    (
      await write<PipelineAnswer>(
        'PUT',
        `/api/pipeline/${encodeURIComponent(businessId)}`,
        { stage, name },
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
      await request<PipelineAnswer>(
        'POST',
        `/api/admin/pipeline/${encodeURIComponent(businessId)}/reassign`,
        { userId },
      )
    ).entry,
  releasePipeline: async (businessId: string) =>
    (
      await request<PipelineAnswer>(
        'POST',
        `/api/admin/pipeline/${encodeURIComponent(businessId)}/release`,
        {},
      )
    ).entry,
  pipelineHistory: async (businessId: string) =>
    (await request<PipelineHistory>('GET', `/api/pipeline/${encodeURIComponent(businessId)}/history`))
      .history,
};
