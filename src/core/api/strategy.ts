// Appointment strategies: the request, the kept strategy, a job to poll, a failed job.
import { z } from 'zod';
import { StrategySchema } from '../strategy/schema';
import { isoTime, text } from './common';
import { endpoint } from './endpoint';
import { prospectInputSchema } from './prospect';

export const strategySourceSchema = z.enum(['ai', 'playbook', 'fallback']);
export type StrategySource = z.infer<typeof strategySourceSchema>;

/** A strategy ready to show (kept, or a finished job's). */
export const strategyCompleteSchema = z.object({
  status: z.literal('complete'),
  jobId: z.string().optional(),
  strategy: StrategySchema,
  source: strategySourceSchema,
  model: z.string().nullish(),
  createdAt: isoTime.optional(),
  /** Answered from the kept strategy without a new job. */
  cached: z.boolean().optional(),
});
export type StrategyComplete = z.infer<typeof strategyCompleteSchema>;
export type StrategyResult = Omit<StrategyComplete, 'status' | 'jobId'>;

/** A job is running: poll GET /api/strategies/jobs/{jobId} after retryAfterMs. */
export const strategyPendingSchema = z.object({
  status: z.literal('pending'),
  jobId: z.string(),
  /** Another request for the same business had started it. */
  joined: z.boolean().optional(),
  retryAfterMs: z.number(),
});
export type StrategyPending = z.infer<typeof strategyPendingSchema>;

/** The job failed (502). */
export const strategyFailedSchema = z.object({
  status: z.literal('error'),
  jobId: z.string(),
  error: z.string(),
});

const unit = z.number().min(0).max(1);

/**
 * The prospect as the client sends it: the saved-prospect schema with every number the generator reads held to
 * its range and the analysis cut to what the generator uses (score, reasoning, the breakdown's components).
 * Unknown fields are dropped.
 */
export const strategyRequestSchema = prospectInputSchema.extend({
  reviews: z.number().int().min(0).max(10_000_000).optional(),
  distance: z.number().min(0).max(1000).optional(),
  types: z.array(text(60)).max(50).optional(),
  aiAnalysis: z
    .object({
      score: z.number().min(0).max(100),
      reasoning: text(2000).optional(),
      breakdown: z
        .object({
          vertical: text(40).optional(),
          fit: unit.optional(),
          presence: unit.optional(),
          scale: unit.optional(),
          keywords: unit.optional(),
          distance: unit.optional(),
          qualitySpread: unit.optional(),
        })
        .optional(),
    })
    .optional(),
});
export type StrategyRequest = z.infer<typeof strategyRequestSchema>;

/** POST /api/strategies: the prospect, and whether to write a new strategy over the kept one. */
export const strategyBody = z.object({ prospect: strategyRequestSchema, regenerate: z.boolean().optional() });

export const strategyEndpoints = {
  'GET /api/strategies/jobs/:jobId': endpoint({
    access: 'user',
    tags: ['strategies'],
    summary: 'Poll a strategy job: 202 while pending, 200 with the strategy, 502 when it failed',
    params: z.object({ jobId: z.string().min(1).max(100) }),
    answers: { 200: strategyCompleteSchema, 202: strategyPendingSchema.describe('Still running') },
    errors: [404],
    refusals: { 502: strategyFailedSchema.describe('The job failed') },
  }),
  'POST /api/strategies': endpoint({
    access: 'user',
    tags: ['strategies'],
    summary: 'Start (or join) an appointment-strategy job; 200 at once when one is kept for the business',
    body: strategyBody,
    answers: {
      200: strategyCompleteSchema.describe('The kept strategy'),
      202: strategyPendingSchema.describe('A job started or joined: poll it'),
    },
    errors: [429],
  }),
  'GET /api/strategies/:businessId': endpoint({
    access: 'user',
    tags: ['strategies'],
    summary: 'The strategy kept for a business, if one was generated',
    params: z.object({ businessId: z.string().min(1).max(300) }),
    answers: { 200: strategyCompleteSchema },
    errors: [404],
  }),
};
