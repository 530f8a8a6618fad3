// Follow-ups, the Today tab, the calendar feed and the morning digest (docs/PRODUCT.md, "Follow-ups, routes
// and the pipeline").
import { z } from 'zod';
import { isoTime, pageQuery, requiredText, text } from './common';
import { endpoint } from './endpoint';
import { isTimeZone } from '../time-zone';
import { isLocalDate, isLocalTime, NEXT_STEP_MAX } from '../follow-ups';
import { VERTICALS } from '../verticals';

export const localDateSchema = z
  .string()
  .max(10)
  .refine(isLocalDate, { message: 'must be a date YYYY-MM-DD' });
export const localTimeSchema = z.string().max(5).refine(isLocalTime, { message: 'must be a time HH:MM' });
export const timeZoneSchema = z
  .string()
  .max(64)
  .refine(isTimeZone, { message: 'must be an IANA time zone such as America/Chicago' });

/** The follow-up set with a call-log entry (POST /api/call-logs `followUp`). */
export const followUpInput = z.object({
  dueDate: localDateSchema,
  dueTime: localTimeSchema.nullable().optional(),
  /** The browser's IANA zone: the due date and time are on its clock. */
  timeZone: timeZoneSchema,
  nextStep: text(NEXT_STEP_MAX).optional(),
  isMeeting: z.boolean().optional(),
});
export type FollowUpInput = z.infer<typeof followUpInput>;

/** PATCH /api/follow-ups/:id: a new date, and a time (null: any time that day; absent: unchanged). */
export const rescheduleBody = z.object({
  dueDate: localDateSchema,
  dueTime: localTimeSchema.nullable().optional(),
});
export type RescheduleInput = z.infer<typeof rescheduleBody>;

/** A follow-up with the facts of the business's card. */
export const followUpSchema = z.object({
  id: z.string(),
  prospectId: z.string(),
  name: z.string(),
  category: z.string(),
  address: z.string(),
  phone: z.string(),
  website: z.string(),
  /** 0-1, null when the business was never scanned on this server. */
  score: z.number().nullable(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  dueDate: z.string(),
  dueTime: z.string().nullable(),
  timeZone: z.string(),
  nextStep: z.string(),
  isMeeting: z.boolean(),
  doneAt: isoTime.nullable(),
  createdAt: isoTime,
  callLogId: z.string().nullable(),
  /**
   * The vertical the business was last scored as in the team's copy, for the Today tab's "In season first"; null
   * when the server never scanned it. Given with the list (GET /api/follow-ups), not with a single follow-up.
   */
  vertical: z.enum(VERTICALS).nullable().optional(),
});
export type FollowUp = z.infer<typeof followUpSchema>;

/** GET /api/follow-ups: a page; the cursor holds the last entry's due date, due time ('' for any time) and id. */
export const followUpPageQuery = pageQuery(3);
export const followUpListSchema = z.object({
  followUps: z.array(followUpSchema),
  /** The cursor of the next page, or null when this page holds the last entry. */
  nextCursor: z.string().nullable(),
});
export type FollowUpPage = z.infer<typeof followUpListSchema>;
export const followUpAnswer = z.object({ followUp: followUpSchema });

/** GET/PATCH /api/calendar/settings. */
export const calendarSettingsSchema = z.object({
  /** Whether a calendar feed link exists (its token is shown only when made: the server keeps its hash). */
  hasFeed: z.boolean(),
  feedCreatedAt: isoTime.nullable(),
  digestEnabled: z.boolean(),
  /** The zone the digest is timed in (the browser's, as last reported). */
  timeZone: z.string().nullable(),
});
export type CalendarSettings = z.infer<typeof calendarSettingsSchema>;

export const calendarSettingsBody = z.object({
  digestEnabled: z.boolean().optional(),
  timeZone: timeZoneSchema.optional(),
});
export type CalendarSettingsInput = z.infer<typeof calendarSettingsBody>;

/** POST /api/calendar/feed: a new feed link (the old one stops working). */
export const calendarFeedAnswer = z.object({ feedUrl: z.string(), settings: calendarSettingsSchema });
export type CalendarFeed = z.infer<typeof calendarFeedAnswer>;

/** An iCalendar file. */
export const icsFile = {
  description: 'iCalendar file (text/calendar)',
  content: { 'text/calendar': { schema: z.string() } },
} as const;

export const followUpIdParams = z.object({ id: requiredText(100) });

/** GET /api/calendar/:token.ics: the feed link's secret token. */
export const calendarFeedParams = z.object({ token: z.string().max(100) });

export const followUpEndpoints = {
  'GET /api/follow-ups': endpoint({
    access: 'user',
    tags: ['follow-ups'],
    summary:
      "Own open follow-ups with their business's card facts, soonest first (a day's any-time ones before its timed ones), a page at a time (limit, default 200, max 500); nextCursor asks for the next page, null after the last",
    query: followUpPageQuery,
    answers: { 200: followUpListSchema },
  }),
  'POST /api/follow-ups/:id/done': endpoint({
    access: 'user',
    tags: ['follow-ups'],
    summary: 'Mark an own follow-up done; replayable with an Idempotency-Key',
    params: followUpIdParams,
    answers: { 200: followUpAnswer },
    errors: [404, 422],
  }),
  'PATCH /api/follow-ups/:id': endpoint({
    access: 'user',
    tags: ['follow-ups'],
    summary:
      'Reschedule an own follow-up (date, and time when given); a done one opens again; replayable with an Idempotency-Key',
    params: followUpIdParams,
    body: rescheduleBody,
    answers: { 200: followUpAnswer },
    errors: [404, 422],
  }),
  'GET /api/follow-ups/:id.ics': endpoint({
    access: 'user',
    tags: ['follow-ups'],
    summary: 'One own follow-up as an iCalendar file to add to a calendar',
    params: followUpIdParams,
    answers: { 200: icsFile },
    errors: [404],
  }),
  'GET /api/calendar/settings': endpoint({
    access: 'user',
    tags: ['follow-ups'],
    summary: 'Own calendar feed state and morning digest switch',
    answers: { 200: calendarSettingsSchema },
  }),
  'PATCH /api/calendar/settings': endpoint({
    access: 'user',
    tags: ['follow-ups'],
    summary: 'Turn the morning digest on or off; set the zone it is timed in',
    body: calendarSettingsBody,
    answers: { 200: calendarSettingsSchema },
  }),
  'POST /api/calendar/feed': endpoint({
    access: 'user',
    tags: ['follow-ups'],
    summary: 'A new private calendar feed link (shown once); the old link stops working',
    answers: { 200: calendarFeedAnswer },
  }),
  'GET /api/calendar/:token.ics': endpoint({
    // Calendar apps subscribe without a session: the secret token in the link is the credential.
    access: 'public',
    tags: ['follow-ups'],
    summary:
      "A rep's open follow-ups and meetings near today as an iCalendar feed (the link's secret token); rate limited",
    params: calendarFeedParams,
    answers: { 200: icsFile },
    errors: [404],
  }),
};
