// The Admin Panel's view of the website checks: the queue and a re-check of one business.
import { z } from 'zod';
import { isoTime } from './common';

export const websiteCheckRowSchema = z.object({
  id: z.string(),
  /** The business's cache key (its business hash): what a re-check names. */
  businessKey: z.string(),
  name: z.string().nullable(),
  website: z.string().nullable(),
  state: z.enum(['waiting', 'done', 'failed']),
  outcome: z.string().nullable(),
  reason: z.string().nullable(),
  updatedAt: isoTime,
});

export const websiteChecksSchema = z.object({
  /** WEBSITE_CHECKS is on. */
  enabled: z.boolean(),
  waiting: z.number().int(),
  done: z.number().int(),
  failed: z.number().int(),
  /** The latest checks, newest first. */
  recent: z.array(websiteCheckRowSchema),
});
export type WebsiteChecks = z.infer<typeof websiteChecksSchema>;

export const websiteRecheckBody = z.object({ businessKey: z.string().trim().min(1).max(500) });
export const websiteRecheckQueued = z.object({ queued: z.literal(true) });
