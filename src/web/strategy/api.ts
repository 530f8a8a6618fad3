// Strategy calls and the client side of their background mode: start a job, then poll from
// 800 ms growing to 2,500 ms; 202 means wait, 429 means back off by retryAfterMs, 5xx is an error; after 180 s
// give up with 'AI service is busy. Please try again in a moment.'.
import type { Prospect } from '../../core/types';
import type { StrategyResult } from '../../core/api';
import { AI_BUSY, STRATEGY_POLL, strategyPollDelay } from '../../core/strategy/messages';
import { ApiError, callWithStatus } from '../http';

export type { StrategyResult };

export const startStrategy = (prospect: Prospect, regenerate: boolean) =>
  callWithStatus('POST /api/strategies', { body: { prospect, ...(regenerate ? { regenerate: true } : {}) } });

export const pollStrategy = (jobId: string) =>
  callWithStatus('GET /api/strategies/jobs/:jobId', { params: { jobId } });

/** Waits `ms`, or rejects at once when the signal aborts. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason instanceof Error ? signal.reason : new DOMException('Aborted', 'AbortError'));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason instanceof Error ? signal.reason : new DOMException('Aborted', 'AbortError'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const retryAfter = (error: ApiError, fallback: number) => {
  const value = error.body.retryAfterMs;
  return typeof value === 'number' && value > 0 ? value : fallback;
};

export interface GenerateOptions {
  signal?: AbortSignal;
  /** For tests of the timing: the clock and the wait. */
  now?: () => number;
  wait?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Not a query's refetchInterval: the poll starts a job first, backs off by the server's retryAfterMs on 429,
 * polls again after a dropped connection, gives up after 180 s and stops when the modal closes (the signal);
 * as a plain function it is tested with an injected clock.
 *
 * Gets a strategy for the prospect: the kept one at once (200), else a background job polled until it is done.
 * Throws an ApiError with the server's message (400 no category, 502 job failed) or AI_BUSY after 180 s.
 */
export async function generateStrategy(
  prospect: Prospect,
  regenerate: boolean,
  options: GenerateOptions = {},
): Promise<StrategyResult> {
  const now = options.now ?? Date.now;
  const wait = options.wait ?? sleep;
  const { signal } = options;
  const started = now();
  const timeLeft = () => STRATEGY_POLL.giveUpMs - (now() - started);
  const busy = () => new ApiError(AI_BUSY, 503);

  /** Waits before the next attempt, or gives up when the wait would pass the 180 s limit. */
  const pause = async (ms: number) => {
    if (timeLeft() <= 0) throw busy();
    await wait(Math.min(ms, Math.max(0, timeLeft())), signal);
    if (timeLeft() <= 0) throw busy();
  };

  let attempt = 0;
  let jobId: string | undefined;
  // Start (or join) the job; a 429 backs off by retryAfterMs and asks again.
  for (;;) {
    try {
      const { status, body } = await startStrategy(prospect, regenerate);
      if (status === 200 && body.status === 'complete') return body;
      jobId = 'jobId' in body ? body.jobId : undefined;
      if (!jobId) throw new ApiError(AI_BUSY, 503);
      break;
    } catch (error) {
      if (error instanceof ApiError && error.status === 429) {
        await pause(retryAfter(error, strategyPollDelay(attempt++)));
        continue;
      }
      if (error instanceof ApiError && error.status === 0) {
        await pause(strategyPollDelay(attempt++));
        continue;
      }
      throw error;
    }
  }

  // Poll: 202 waits (800 ms growing to 2,500 ms), 429 backs off, 200 is the strategy, 5xx is an error.
  let poll = 0;
  let delay = strategyPollDelay(poll);
  for (;;) {
    await pause(delay);
    try {
      const { status, body } = await pollStrategy(jobId);
      if (status === 200 && body.status === 'complete') return body;
      delay = strategyPollDelay(++poll);
    } catch (error) {
      if (error instanceof ApiError && error.status === 429) {
        delay = retryAfter(error, strategyPollDelay(++poll));
        continue;
      }
      // A dropped connection is worth another poll; anything else ends it.
      if (error instanceof ApiError && error.status === 0) {
        delay = strategyPollDelay(++poll);
        continue;
      }
      throw error;
    }
  }
}
