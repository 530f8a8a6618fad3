// Appointment strategies: the kept strategy, a job to poll, a failed job.
import { z } from 'zod';
import { StrategySchema } from '../strategy/schema';
import { isoTime } from './common';

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
