// The Team tab's API (docs/PRODUCT.md, "The Team tab"): what an admin asks (a period, optionally one rep,
// the browser's time zone) and what each /api/team route answers. Pure zod: the server validates and
// serialises with these schemas, the browser takes its types from them, /api/openapi.json is generated from
// them.
import { z } from 'zod';
import { isLocalDate } from '../local-days.js';
import { isTimeZone } from '../time-zone.js';
import { endpoint } from './endpoint.js';

export const PERIOD_PRESETS = ['this-week', 'last-week', 'this-month', 'custom'] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];

/** The longest custom period, in days. */
export const MAX_PERIOD_DAYS = 366;

const localDate = z
  .string()
  .max(10)
  .refine(isLocalDate, { message: 'must be a date YYYY-MM-DD' })
  .describe('Local calendar date, YYYY-MM-DD');

/** The browser's IANA time zone (Intl's resolvedOptions().timeZone); days are counted on its calendar. */
export const timeZoneQuery = z
  .string()
  .max(64)
  .refine(isTimeZone, { message: 'must be an IANA time zone such as America/Chicago' })
  .default('UTC');

/** The query every dashboard route takes: the period, the zone its days are counted in, optionally one rep. */
export const periodQuery = z.object({
  period: z.enum(PERIOD_PRESETS).default('this-week'),
  /** First day, with period=custom. */
  from: localDate.optional(),
  /** Last day (inclusive), with period=custom. */
  to: localDate.optional(),
  tz: timeZoneQuery,
  /** Only this rep's activity. */
  userId: z.string().min(1).max(100).optional(),
});
export type PeriodQuery = z.infer<typeof periodQuery>;

/** The period an answer covers: its local dates and the UTC instants [startsAt, endsAt) they span. */
export const periodSchema = z.object({
  preset: z.enum(PERIOD_PRESETS),
  from: z.string(),
  to: z.string(),
  timeZone: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
});
export type Period = z.infer<typeof periodSchema>;

/** GET /api/team/activity: per-rep counts. */
export const repActivitySchema = z.object({
  userId: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.string(),
  /** Call-log entries with the outcome Called. */
  calls: z.number().int(),
  /** Call-log entries with the outcome Visited. */
  visits: z.number().int(),
  /** Prospects saved for later (still saved). */
  saves: z.number().int(),
  /** Appointment strategies asked for. */
  strategies: z.number().int(),
  /** Follow-ups set (created) in the period, done or not. */
  followUps: z.number().int(),
});
export type RepActivity = z.infer<typeof repActivitySchema>;

export const teamActivitySchema = z.object({
  period: periodSchema,
  reps: z.array(repActivitySchema),
  totals: z.object({
    calls: z.number().int(),
    visits: z.number().int(),
    saves: z.number().int(),
    strategies: z.number().int(),
    followUps: z.number().int(),
  }),
});
export type TeamActivity = z.infer<typeof teamActivitySchema>;

/** GET /api/team/daily: every day of the period, zeros included. */
export const dayActivitySchema = z.object({
  date: z.string(),
  calls: z.number().int(),
  visits: z.number().int(),
  saves: z.number().int(),
  strategies: z.number().int(),
  followUps: z.number().int(),
});
export type DayActivity = z.infer<typeof dayActivitySchema>;
export const teamDailySchema = z.object({ period: periodSchema, days: z.array(dayActivitySchema) });
export type TeamDaily = z.infer<typeof teamDailySchema>;

/**
 * A group of prospects worked in the period (a score band or a category): calls, visits and saves, and the
 * visits and saves per call. Until the pipeline (stages, wins) exists this is the stand-in for a win rate.
 */
export const conversionRowSchema = z.object({
  key: z.string(),
  called: z.number().int(),
  visited: z.number().int(),
  saved: z.number().int(),
  /** (visited + saved) / called; null with no calls. */
  perCall: z.number().nullable(),
});
export type ConversionRow = z.infer<typeof conversionRowSchema>;

/** GET /api/team/outcomes. */
export const teamOutcomesSchema = z.object({
  period: periodSchema,
  /** Call-log entries per outcome, then 'Saved for Later' from the saves. */
  outcomes: z.array(z.object({ outcome: z.string(), count: z.number().int() })),
  /** Score bands of ten points ('0-9' ... '90-100'), then 'Unscored'. */
  scoreBands: z.array(conversionRowSchema),
  /** The categories worked most (by calls, visits and saves), at most CATEGORY_LIMIT. */
  categories: z.array(conversionRowSchema),
});
export type TeamOutcomes = z.infer<typeof teamOutcomesSchema>;
export const CATEGORY_LIMIT = 15;

/** GET /api/team/inactive. */
export const inactiveQuery = z.object({
  days: z.coerce.number().int().min(1).max(365).default(7),
});
export const inactiveRepSchema = z.object({
  userId: z.string(),
  name: z.string(),
  email: z.string(),
  /** The last call, visit, save or strategy request; null when never. */
  lastActivityAt: z.string().nullable(),
});
export const teamInactiveSchema = z.object({
  days: z.number().int(),
  since: z.string(),
  reps: z.array(inactiveRepSchema),
});
export type TeamInactive = z.infer<typeof teamInactiveSchema>;

/** The side of a map cell in degrees of latitude and longitude (about 1.1 km north-south). */
export const MAP_CELL_DEGREES = 0.01;

/** GET /api/team/map: calls and visits on a grid of cellDegrees, and the areas scanned in the period. */
export const mapCellSchema = z.object({
  /** The centre of the cell. */
  lat: z.number(),
  lng: z.number(),
  calls: z.number().int(),
  visits: z.number().int(),
});
export type MapCell = z.infer<typeof mapCellSchema>;
export const scannedAreaSchema = z.object({
  lat: z.number(),
  lng: z.number(),
  radiusMiles: z.number(),
  scans: z.number().int(),
});
export type ScannedArea = z.infer<typeof scannedAreaSchema>;
export const teamMapSchema = z.object({
  period: periodSchema,
  /** The side of every cell, in degrees (cells span lat ± cellDegrees / 2, lng ± cellDegrees / 2). */
  cellDegrees: z
    .number()
    .describe('The side of every map cell in degrees: a cell spans its lat and lng plus or minus half of it'),
  cells: z.array(mapCellSchema),
  /** Entries without a known location (logged from a card the server never scanned). */
  unplaced: z.number().int(),
  areas: z.array(scannedAreaSchema),
  /** More cells or areas than the answer carries (the busiest are kept). */
  truncated: z.boolean(),
});
export type TeamMap = z.infer<typeof teamMapSchema>;
export const MAP_CELL_LIMIT = 4000;
export const MAP_AREA_LIMIT = 1000;

/** GET /api/team/reps/:userId: one rep's log for the period. */
export const repLogEntrySchema = z.object({
  kind: z.enum(['call', 'save', 'strategy']),
  at: z.string(),
  prospectId: z.string(),
  name: z.string(),
  category: z.string(),
  /** Called, Visited, Saved for Later or Strategy requested. */
  outcome: z.string(),
  note: z.string(),
  address: z.string(),
  phone: z.string(),
});
export type RepLogEntry = z.infer<typeof repLogEntrySchema>;
export const repPageSchema = z.object({
  period: periodSchema,
  rep: repActivitySchema.extend({ lastActivityAt: z.string().nullable() }),
  entries: z.array(repLogEntrySchema),
  /** More entries than REP_LOG_LIMIT in the period (the newest are listed). */
  truncated: z.boolean(),
});
export type RepPage = z.infer<typeof repPageSchema>;
export const REP_LOG_LIMIT = 1000;

/** The open stages of the funnel, in order (Lost is not a step of it). */
export const FUNNEL_STAGES = ['New', 'Contacted', 'Meeting set', 'Proposal', 'Won'] as const;
export type FunnelStage = (typeof FUNNEL_STAGES)[number];

/** GET /api/team/funnel: how far the businesses moved in the period got. */
export const funnelStageSchema = z.object({
  stage: z.enum(FUNNEL_STAGES),
  /** Businesses that reached this stage or a later one in the period. */
  reached: z.number().int(),
  /** reached of the next stage / reached of this one; null for Won and when none reached this one. */
  conversion: z.number().nullable(),
});
export type FunnelStageRow = z.infer<typeof funnelStageSchema>;
export const teamFunnelSchema = z.object({ period: periodSchema, stages: z.array(funnelStageSchema) });
export type TeamFunnel = z.infer<typeof teamFunnelSchema>;

/** GET /api/team/win-rates: of the businesses first called or visited in the period, per score band or category. */
export const winRateRowSchema = z.object({
  /** '0-9' ... '90-100', then 'Unscored'; or a category. */
  key: z.string(),
  /** Businesses whose first call-log entry is in the period (by the score and category it was logged with). */
  businesses: z.number().int(),
  /** Of them, those that reached Meeting set (or Proposal, or Won) by the end of the period. */
  meetings: z.number().int(),
  /** Of them, those that reached Won by the end of the period. */
  won: z.number().int(),
  /** meetings / businesses; null with no businesses. */
  meetingRate: z.number().nullable(),
  /** won / businesses; null with no businesses. */
  winRate: z.number().nullable(),
});
export type WinRateRow = z.infer<typeof winRateRowSchema>;
export const teamWinRatesSchema = z.object({
  period: periodSchema,
  /** Score bands of ten points ('0-9' ... '90-100'), then 'Unscored' when any. */
  bands: z.array(winRateRowSchema),
  /** The categories with the most businesses first called in the period, at most CATEGORY_LIMIT. */
  categories: z.array(winRateRowSchema),
});
export type TeamWinRates = z.infer<typeof teamWinRatesSchema>;

/** GET /api/team/reps/:userId/pipeline: the businesses a rep owns now and the stage changes of the period. */
export const ownedBusinessSchema = z.object({
  businessId: z.string(),
  label: z.string(),
  stage: z.string(),
  /** When it reached its stage or owner. */
  since: z.string(),
  /** The last activity on the claim. */
  updatedAt: z.string(),
});
export type OwnedBusiness = z.infer<typeof ownedBusinessSchema>;
export const stageChangeSchema = z.object({
  at: z.string(),
  businessId: z.string(),
  /** The business's name as the pipeline knows it ('' when it has no row any more). */
  label: z.string(),
  fromStage: z.string().nullable(),
  toStage: z.string(),
  fromOwner: z.string().nullable(),
  toOwner: z.string().nullable(),
  /** Who made the change (the rep, an admin, or the automatic release). */
  by: z.string(),
  reason: z.string(),
});
export type StageChange = z.infer<typeof stageChangeSchema>;
export const repPipelineSchema = z.object({
  period: periodSchema,
  /** Businesses the rep owns now, the most recent stage first (at most REP_PIPELINE_LIMIT). */
  owned: z.array(ownedBusinessSchema),
  /** Stages of everything the rep owns now: stage and count, in pipeline order. */
  ownedByStage: z.array(z.object({ stage: z.string(), count: z.number().int() })),
  /** Changes the rep made, or that gave the rep a business or took one away, in the period, newest first. */
  changes: z.array(stageChangeSchema),
  /** More owned businesses or changes than the answer carries. */
  truncated: z.boolean(),
});
export type RepPipeline = z.infer<typeof repPipelineSchema>;
export const REP_PIPELINE_LIMIT = 500;

/** GET /api/team/reps/:userId/route: a rep's visits in the period, in the order they were made. */
export const routeVisitSchema = z.object({
  at: z.string(),
  prospectId: z.string(),
  name: z.string(),
  address: z.string(),
  /** The business's position (null when the server never scanned it). */
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  /** The phone's position when the visit was logged (null when it gave none). */
  visitLat: z.number().nullable(),
  visitLng: z.number().nullable(),
  accuracyM: z.number().nullable(),
  /** Within 0.1 mile of the business with a usable accuracy. */
  verified: z.boolean(),
});
export type RouteVisit = z.infer<typeof routeVisitSchema>;
export const repRouteSchema = z.object({
  period: periodSchema,
  visits: z.array(routeVisitSchema),
  /** Visits in the period (all of them, also beyond the list), and how many were verified. */
  total: z.number().int(),
  verified: z.number().int(),
  /** More visits than REP_LOG_LIMIT (the first are listed). */
  truncated: z.boolean(),
});
export type RepRoute = z.infer<typeof repRouteSchema>;

/** How every /api/team route's summary describes the query it takes (periodQuery). */
export const PERIOD_HELP =
  'period=this-week|last-week|this-month|custom (from, to: YYYY-MM-DD), tz: IANA time zone of the days, userId: one rep';

/** The rep of a rep's page. */
export const repParams = z.object({ userId: z.string().min(1).max(100) });
/** The period of a rep's page (the rep is in the path). */
export const repPeriodQuery = periodQuery.omit({ userId: true });

/** The Team tab's routes: admins only. */
export const teamEndpoints = {
  'GET /api/team/funnel': endpoint({
    access: 'admin',
    tags: ['team'],
    summary:
      'The pipeline funnel New → Contacted → Meeting set → Proposal → Won, with conversion between stages',
    description:
      'Counts the businesses moved in the pipeline in the period (any stage change; with userId, a change that ' +
      'left the business with that rep). Each is counted at the furthest stage it reached in the period and at ' +
      'every earlier stage too: a business set to Proposal counts as New, Contacted, Meeting set and Proposal. ' +
      'Lost counts as New. conversion = reached of the next stage / reached of this one (null for Won, or when ' +
      `none reached this one). ${PERIOD_HELP}`,
    query: periodQuery,
    answers: { 200: teamFunnelSchema },
  }),
  'GET /api/team/win-rates': endpoint({
    access: 'admin',
    tags: ['team'],
    summary: 'Win rate by score band and by category: does the score predict, which categories convert?',
    description:
      'Of the businesses first called or visited in the period (their first call-log entry; with userId, ' +
      'made by that rep), per band of ten points of the score they were first logged with (then Unscored), ' +
      `and per category (the ${CATEGORY_LIMIT} with the most such businesses): ` +
      'how many reached Meeting set (or Proposal, or Won) and how many reached Won by the end of the period, ' +
      'by anyone; meetingRate and ' +
      `winRate divide them by the businesses. ${PERIOD_HELP}`,
    query: periodQuery,
    answers: { 200: teamWinRatesSchema },
  }),
  'GET /api/team/activity': endpoint({
    access: 'admin',
    tags: ['team'],
    summary: `Calls, visits, saves, strategy requests and follow-ups set per rep. ${PERIOD_HELP}`,
    query: periodQuery,
    answers: { 200: teamActivitySchema },
  }),
  'GET /api/team/daily': endpoint({
    access: 'admin',
    tags: ['team'],
    summary: `The same counts per day of the period, on the calendar of tz. ${PERIOD_HELP}`,
    query: periodQuery,
    answers: { 200: teamDailySchema },
  }),
  'GET /api/team/outcomes': endpoint({
    access: 'admin',
    tags: ['team'],
    summary: `Entries per outcome; calls, visits and saves by score band and by category. ${PERIOD_HELP}`,
    query: periodQuery,
    answers: { 200: teamOutcomesSchema },
  }),
  'GET /api/team/inactive': endpoint({
    access: 'admin',
    tags: ['team'],
    summary: 'Reps with no call, visit, save or strategy request in the last `days` days (default 7)',
    query: inactiveQuery,
    answers: { 200: teamInactiveSchema },
  }),
  'GET /api/team/map': endpoint({
    access: 'admin',
    tags: ['team'],
    summary: `The period's calls and visits on a grid of about 110 m, and the areas scanned. ${PERIOD_HELP}`,
    query: periodQuery,
    answers: { 200: teamMapSchema },
  }),
  'GET /api/team/reps/:userId': endpoint({
    access: 'admin',
    tags: ['team'],
    summary:
      "One rep's counts and log (calls, visits, saves, strategy requests) for the period, newest first",
    params: repParams,
    query: repPeriodQuery,
    answers: { 200: repPageSchema },
  }),
  'GET /api/team/reps/:userId/pipeline': endpoint({
    access: 'admin',
    tags: ['team'],
    summary:
      "One rep's pipeline: the businesses they own now (stage, since) and the period's changes that involve them",
    params: repParams,
    query: repPeriodQuery,
    answers: { 200: repPipelineSchema },
  }),
  'GET /api/team/reps/:userId/route': endpoint({
    access: 'admin',
    tags: ['team'],
    summary:
      "One rep's route history: their visits in the period in order, with the phone's position and whether verified",
    params: repParams,
    query: repPeriodQuery,
    answers: { 200: repRouteSchema },
  }),
};
