// Strategy texts and client timings, shared by the server and the web app (docs/PRODUCT.md, "Appointment
// strategy"). The texts are the product's exact words.

export const STRATEGY_FAILED = 'Failed to generate strategy. Please try again.';
export const APPOINTMENT_STRATEGY_FAILED = 'Failed to generate appointment strategy. Please try again.';
export const AI_JOB_FAILED = 'AI job failed on the server. Please try again.';
export const AI_BUSY = 'AI service is busy. Please try again in a moment.';
export const SET_CATEGORY_FIRST = 'Set a category first to generate a high-quality strategy.';

/** Background polling from 800 ms growing to 2,500 ms, giving up after 180 s with AI_BUSY. */
export const STRATEGY_POLL = { initialMs: 800, maxMs: 2500, growth: 1.5, giveUpMs: 180_000 } as const;

/** The wait before poll number `attempt` (0-based): 800 ms, then 1.5 times longer each time, at most 2,500 ms. */
export function strategyPollDelay(attempt: number): number {
  const n = Math.max(0, Math.floor(attempt));
  return Math.min(STRATEGY_POLL.maxMs, Math.round(STRATEGY_POLL.initialMs * STRATEGY_POLL.growth ** n));
}
