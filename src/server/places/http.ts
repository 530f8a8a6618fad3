// Outbound HTTP for the place providers: JSON in and out, bounded by the caller's AbortSignal, every failure
// turned into a ProviderError that says what went wrong (status, body that is not JSON, network error).
import { ProviderError } from './provider.js';

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface JsonRequest {
  provider: string;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  fetch?: FetchLike;
}

/** Fetch and parse JSON; throws ProviderError on a non-2xx status, a body that is not JSON, or a network error. */
export async function fetchJson(req: JsonRequest): Promise<unknown> {
  const doFetch = req.fetch ?? fetch;
  let res: Response;
  try {
    res = await doFetch(req.url, {
      method: req.method ?? 'GET',
      headers: { accept: 'application/json', ...req.headers },
      ...(req.body !== undefined && { body: req.body }),
      signal: req.signal,
    });
  } catch (error) {
    if (req.signal.aborted) throw req.signal.reason ?? error;
    throw new ProviderError(
      req.provider,
      `request failed: ${error instanceof Error ? error.message : String(error)}`,
      {
        cause: error,
      },
    );
  }
  const text = await res.text();
  if (!res.ok) {
    throw new ProviderError(req.provider, `HTTP ${res.status}${errorDetail(text)}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ProviderError(req.provider, 'answer is not valid JSON');
  }
}

/** The message of a JSON error body ({error: {message}} or {error: '...'}), cut short; '' when none. */
function errorDetail(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown; status?: unknown } | string };
    const msg =
      typeof body.error === 'string'
        ? body.error
        : typeof body.error?.message === 'string'
          ? body.error.message
          : '';
    return msg ? `: ${msg.slice(0, 200)}` : '';
  } catch {
    return '';
  }
}

/**
 * Runs tasks one at a time with at least `minIntervalMs` between the starts of two tasks (Nominatim's usage
 * policy: at most one request per second; Overpass: one request at a time per client).
 */
export class SerialLimiter {
  private tail: Promise<unknown> = Promise.resolve();
  private lastStart = 0;

  constructor(private readonly minIntervalMs: number) {}

  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const next = this.tail.then(async () => {
      signal?.throwIfAborted();
      const wait = this.lastStart + this.minIntervalMs - Date.now();
      if (wait > 0) await delay(wait, signal);
      this.lastStart = Date.now();
      return task();
    });
    this.tail = next.catch(() => undefined);
    return next;
  }
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const shared = new Map<string, SerialLimiter>();

/**
 * The process-wide limiter of one outside endpoint, so every chain and provider instance in the process shares
 * the same queue (a public service's rate limit applies to us as a whole, not per request).
 */
export function sharedLimiter(endpoint: string, minIntervalMs: number): SerialLimiter {
  const key = `${endpoint}|${minIntervalMs}`;
  let limiter = shared.get(key);
  if (!limiter) {
    limiter = new SerialLimiter(minIntervalMs);
    shared.set(key, limiter);
  }
  return limiter;
}
