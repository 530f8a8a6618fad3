// Working the list and the shared lists: call logs, saved prospects, current advertisers, the blocklist.
import { z } from 'zod';
import {
  csvFile,
  isoTime,
  businessNameText,
  noContent,
  pageQuery,
  requiredText,
  text,
  timeZoneParam,
} from './common';
import { endpoint } from './endpoint';
import { prospectInputSchema, prospectSchema } from './prospect';
import { followUpInput, followUpSchema } from './follow-ups';
import { visitPositionSchema } from './route';
import { prospectAnswer } from './scans';

const optionalText = (max: number) => text(max).optional();

/** POST /api/call-logs. */
export const callLogBody = z.object({
  prospectId: requiredText(300),
  name: businessNameText(300),
  category: optionalText(100),
  phone: optionalText(50),
  website: optionalText(2000),
  address: optionalText(500),
  /** 'Called' or 'Visited'; 'Saved for Later' is refused with a pointer to /api/saved. */
  outcome: z.string().max(40),
  note: optionalText(2000),
  /** ISO-8601 text or epoch milliseconds; createdAt comes from it when given, else now. */
  timestamp: z.union([z.string().max(40), z.number()]).optional(),
  /** A follow-up stored with the entry, in the same transaction. */
  followUp: followUpInput.optional(),
  /** The phone's position with a "Visited" log; the server checks it against the business's. */
  position: visitPositionSchema.optional(),
});
export type CallLogInput = z.infer<typeof callLogBody>;

export const callLogSchema = z.object({
  id: z.string(),
  prospectId: z.string(),
  name: z.string(),
  category: z.string(),
  phone: z.string(),
  website: z.string(),
  address: z.string(),
  outcome: z.string(),
  note: z.string(),
  createdAt: isoTime,
  /** A visit logged within 0.1 mile of the business ("Verified visit"). */
  verified: z.boolean(),
  /** The follow-up set with the entry (as rescheduled since), when one was. */
  followUp: z
    .object({ dueDate: z.string(), dueTime: z.string().nullable(), isMeeting: z.boolean() })
    .nullable()
    .optional(),
});
export type CallLog = z.infer<typeof callLogSchema>;

/** GET /api/call-logs: a page; the cursor holds the last entry's created_at and id. */
export const callLogPageQuery = pageQuery(2);
export const callLogPageSchema = z.object({
  callLogs: z.array(callLogSchema),
  /** The cursor of the next page, or null when this page holds the last entry. */
  nextCursor: z.string().nullable(),
});
export type CallLogPage = z.infer<typeof callLogPageSchema>;

/** The answer of POST /api/call-logs: the entry, and its follow-up when one was set. */
export const callLogAnswer = z.object({ callLog: callLogSchema, followUp: followUpSchema.optional() });
export type CallLogAnswer = z.infer<typeof callLogAnswer>;

/** POST /api/saved. */
export const saveBody = z.object({ prospect: prospectInputSchema, note: text(2000).optional() });

export const savedItemSchema = z.object({
  prospectId: z.string(),
  prospect: prospectSchema,
  savedAt: isoTime,
  /** The note typed with Save for Later (absent when none). */
  note: z.string().optional(),
});
export type SavedItem = z.infer<typeof savedItemSchema>;

export const advertiserSchema = z.object({
  businessId: z.string(),
  label: z.string(),
  markedBy: z.string().nullable(),
  markedByName: z.string(),
  markedAt: isoTime,
});
export type Advertiser = z.infer<typeof advertiserSchema>;

export const matchRuleSchema = z.enum(['phone', 'name-and-address', 'website', 'address', 'name']);
export type MatchRule = z.infer<typeof matchRuleSchema>;

/** The answer of a customer-list import. */
export const importReportSchema = z.object({
  matched: z.array(
    z.object({
      row: z.number().int(),
      businessId: z.string(),
      label: z.string(),
      rule: matchRuleSchema,
      alreadyMarked: z.boolean(),
    }),
  ),
  unmatched: z.array(z.object({ row: z.number().int(), reason: z.string() })),
  /** Businesses this import newly marked (several rows may name one business). */
  newlyMarked: z.number().int(),
});
export type ImportReport = z.infer<typeof importReportSchema>;

export const blockedSchema = z.object({
  businessId: z.string(),
  label: z.string(),
  /** The business's address, from the team's copy of it (absent when it was never scanned or has none). */
  address: z.string().optional(),
  blockedBy: z.string().nullable(),
  blockedByName: z.string().nullable(),
  blockedAt: isoTime,
});
export type BlockedItem = z.infer<typeof blockedSchema>;

export const blockAnswer = z.object({ blocked: blockedSchema, created: z.boolean() });
export type BlockCheck = z.infer<typeof blockCheckSchema>;
export const blockCheckSchema = z.object({
  businessId: z.string(),
  blocked: z.boolean(),
  entry: blockedSchema.nullable(),
});

/** The answer of saving a prospect: the entry, and whether it was new. */
export const savedAnswer = z.object({ saved: savedItemSchema, created: z.boolean() });

const savedProspectId = z.object({ prospectId: requiredText(300) });

export const savedEndpoints = {
  'GET /api/saved': endpoint({
    access: 'user',
    tags: ['saved'],
    summary: 'Own saved prospects, newest first',
    answers: { 200: z.object({ saved: z.array(savedItemSchema) }) },
  }),
  'POST /api/saved': endpoint({
    access: 'user',
    tags: ['saved'],
    summary:
      'Save a prospect for later with an optional note (max 30; saving one already saved only updates a note); replayable with an Idempotency-Key',
    body: saveBody,
    answers: {
      200: savedAnswer.describe('Already saved: its note updated'),
      201: savedAnswer.describe('Saved'),
    },
    errors: [409, 422],
  }),
  'PATCH /api/saved/:prospectId/category': endpoint({
    access: 'user',
    tags: ['saved'],
    summary: 'Set a missing category on a saved prospect',
    params: savedProspectId,
    body: z.object({ category: text(100) }),
    answers: { 200: prospectAnswer },
    errors: [404],
  }),
  'DELETE /api/saved/:prospectId': endpoint({
    access: 'user',
    tags: ['saved'],
    summary: 'Remove a saved prospect; replayable with an Idempotency-Key',
    params: savedProspectId,
    answers: { 204: noContent },
    errors: [404, 422],
  }),
};

export const callLogEndpoints = {
  'GET /api/call-logs': endpoint({
    access: 'user',
    tags: ['call-logs'],
    summary:
      'Own call history, newest first, a page at a time (limit, default 200, max 500); nextCursor asks for the next page, null after the last',
    query: callLogPageQuery,
    answers: { 200: callLogPageSchema },
  }),
  'POST /api/call-logs': endpoint({
    access: 'user',
    tags: ['call-logs'],
    summary:
      'Log a call or visit, with a follow-up in the same transaction; replayable with an Idempotency-Key',
    body: callLogBody,
    answers: { 201: callLogAnswer },
    // 429: the rep's entries (or follow-ups) of the day reached CALL_LOGS_PER_DAY (FOLLOW_UPS_PER_DAY).
    errors: [422, 429],
  }),
  'DELETE /api/call-logs/:id': endpoint({
    access: 'user',
    tags: ['call-logs'],
    summary: 'Delete one own entry',
    params: z.object({ id: requiredText(100) }),
    answers: { 204: noContent },
    errors: [404],
  }),
  'DELETE /api/call-logs': endpoint({
    access: 'user',
    tags: ['call-logs'],
    summary: 'Clear all own entries; answers how many went',
    answers: { 200: z.object({ deleted: z.number().int(), message: z.string() }) },
    errors: [404],
  }),
  'GET /api/call-logs/export.csv': endpoint({
    access: 'user',
    tags: ['call-logs'],
    summary: 'Own call history as call_log_{user}_{date}.csv, dates in the given IANA time zone (tz)',
    query: z.object({ tz: timeZoneParam }),
    answers: { 200: csvFile },
    errors: [404],
  }),
};

const businessIdParams = z.object({ businessId: requiredText(300) });

/** POST /api/current-advertisers. */
/** `label` is not stored: the server names the business from its own record of it (a scan or an import). The
 * field stays accepted so that marks an older screen queued offline still send. */
export const markAdvertiserBody = z.object({ businessId: text(300), label: text(300).default('') });
export type MarkAdvertiserInput = z.infer<typeof markAdvertiserBody>;

/** The answer of marking a current advertiser: the mark, and whether it was new. */
export const markedAnswer = z.object({ advertiser: advertiserSchema, created: z.boolean() });

/** POST /api/current-advertisers/import: the customer list as text/csv, or JSON {csv}. */
export const advertiserImportBody = z.union([z.string(), z.object({ csv: z.string() })]);

export const advertiserEndpoints = {
  'GET /api/current-advertisers': endpoint({
    access: 'user',
    tags: ['advertisers'],
    summary: 'Businesses marked as current advertisers, newest first',
    answers: { 200: z.object({ advertisers: z.array(advertiserSchema) }) },
  }),
  'POST /api/current-advertisers': endpoint({
    access: 'user',
    tags: ['advertisers'],
    summary:
      'Mark a current advertiser (any user); a second mark answers the existing one; replayable with an Idempotency-Key',
    body: markAdvertiserBody,
    answers: {
      200: markedAnswer.describe('Already marked: the existing mark'),
      201: markedAnswer.describe('Newly marked'),
    },
    errors: [422],
  }),
  'DELETE /api/current-advertisers/:businessId': endpoint({
    access: 'admin',
    tags: ['advertisers'],
    summary: 'Unmark a current advertiser (admins); replayable with an Idempotency-Key',
    params: businessIdParams,
    answers: { 204: noContent },
    errors: [404, 422],
  }),
  'POST /api/current-advertisers/import': endpoint({
    access: 'admin',
    tags: ['advertisers'],
    summary:
      'Import a customer list (CSV with name, address, phone or website columns; text/csv or JSON {csv}): ' +
      'matches are marked as current advertisers; answers {matched, unmatched, newlyMarked}',
    body: advertiserImportBody,
    answers: { 200: importReportSchema },
  }),
};

/** POST /api/blocklist; a business without a stable id cannot be blocked. */
export const blockBody = z.object({ businessId: text(300).nullish(), label: text(300).default('') });
export type BlockInput = z.infer<typeof blockBody>;

export const blocklistEndpoints = {
  'GET /api/blocklist': endpoint({
    access: 'admin',
    tags: ['blocklist'],
    summary: 'The shared blocklist (Blocked tab), newest first',
    answers: { 200: z.object({ blocklist: z.array(blockedSchema) }) },
  }),
  'POST /api/blocklist': endpoint({
    access: 'admin',
    tags: ['blocklist'],
    summary: 'Block a business for every user; a business without a stable id cannot be blocked',
    body: blockBody,
    answers: {
      200: blockAnswer.describe('Already blocked: the existing entry'),
      201: blockAnswer.describe('Newly blocked'),
    },
  }),
  'DELETE /api/blocklist/:businessId': endpoint({
    access: 'admin',
    tags: ['blocklist'],
    summary: 'Unblock a business',
    params: businessIdParams,
    answers: { 204: noContent },
    errors: [404],
  }),
  'DELETE /api/blocklist': endpoint({
    access: 'superadmin',
    tags: ['blocklist'],
    summary: 'Clear the whole blocklist (SuperAdmins)',
    answers: { 200: z.object({ cleared: z.number().int() }) },
  }),
  'GET /api/blocklist/check/:businessId': endpoint({
    access: 'superadmin',
    tags: ['blocklist'],
    summary: 'Universal Blocklist Debug: is this business id blocked',
    params: businessIdParams,
    answers: { 200: blockCheckSchema },
  }),
};
