// The notices of the live-update stream (GET /api/events, Server-Sent Events: `event: <type>`, `data: <json>`).
import { z } from 'zod';
import { eventStream, isoTime } from './common';
import { endpoint } from './endpoint';

export const appEventTypeSchema = z.enum([
  'advertisers',
  'blocklist',
  'scan',
  'prospects',
  'sessions',
  'pipeline',
  'territories',
]);
export type AppEventType = z.infer<typeof appEventTypeSchema>;

/** The phases of a scan a rep's screen is told about (type 'scan', the phase in `action`). */
export const scanPhaseSchema = z.enum(['fetching', 'found', 'analysing', 'done']);
export type ScanPhase = z.infer<typeof scanPhaseSchema>;

export const appEventSchema = z.object({
  /**
   * 'scan': progress of the user's own scan; 'prospects': the user's latest results changed on the server
   * (e.g. model-written reasoning arrived); 'sessions' (action 'ended'): sessions of `userId` ended, so their
   * streams close on every instance (between instances only, never sent to a browser); 'pipeline': a
   * business's owner or stage changed (the entry in `item`); 'territories' (action 'created', 'updated' or
   * 'deleted'): a territory changed (its id only in `item`: every user gets it), so outlines and lists are fetched again.
   */
  type: appEventTypeSchema,
  /**
   * What changed: 'marked', 'unmarked', 'imported', 'blocked', 'unblocked', 'cleared', or 'resync' (missed
   * notices are possible, e.g. after the listener reconnected: reload the whole list); for 'scan', the phase.
   */
  action: z.string(),
  /** Only this user's streams receive the notice (scan progress, own results); without it every stream does. */
  userId: z.string().optional(),
  /** The scan the progress notice belongs to (the id the browser sent with the scan). */
  scanId: z.string().optional(),
  /** 'sessions': the one session that ended; without it, every session of the user did. */
  sessionId: z.string().optional(),
  /** The place providers a scan is asking (phase 'fetching'). */
  providers: z.array(z.string()).optional(),
  /** The business concerned, when one is. */
  businessId: z.string().optional(),
  /** The changed row, when small enough to patch a list without a reload. */
  item: z.record(z.string(), z.unknown()).optional(),
  /** How many rows changed, for bulk actions. */
  count: z.number().optional(),
  /** ISO time of the change. */
  at: isoTime,
});
export type AppEvent = z.infer<typeof appEventSchema>;

export const eventEndpoints = {
  'GET /api/events': endpoint({
    access: 'user',
    tags: ['events'],
    summary:
      'Live updates (text/event-stream): events `advertisers`, `blocklist`, `pipeline` and `territories` with a change notice; `scan` with the progress of your own scans; `prospects` when your own latest results changed',
    answers: { 200: eventStream },
  }),
};
