// The Admin Panel's view of the website checks: the queue and a re-check of one business.
import { z } from 'zod';
import { isoTime } from './common';
import { endpoint } from './endpoint';

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

export const websiteCheckEndpoints = {
  'GET /api/admin/website-checks': endpoint({
    access: 'admin',
    tags: ['admin'],
    summary: 'Website checks: waiting, done and failed, and the latest 50',
    answers: { 200: websiteChecksSchema },
  }),
  'POST /api/admin/website-checks': endpoint({
    access: 'admin',
    tags: ['admin'],
    summary: 'Check one business website again (a business checked before, by its cache key)',
    body: websiteRecheckBody,
    answers: { 202: websiteRecheckQueued },
    errors: [404, 409],
  }),
};
