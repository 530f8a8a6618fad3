// The AI provider client: any OpenAI-compatible chat-completions endpoint (OpenAI, Azure OpenAI, Ollama, vLLM,
// LM Studio) through the `openai` package. Server-side only; the key never leaves the server.
//
// Retries: the SDK already retries 408, 409, 429 and 5xx (and connection failures and timeouts), `maxRetries`
// times, with exponential backoff from 0.5 s doubling to 8 s with up to 25% jitter. Two gaps are closed here,
// in the fetch the SDK uses:
//  - the SDK honours any retry-after, however long (an hour, a date next week); we honour it only under 60 s,
//    so a rep is never left waiting on one. A longer (or unreadable, or past) retry-after is dropped so the
//    SDK falls back to its backoff;
//  - the SDK's timeout covers only its fetch call, which ends when response headers arrive; a server that sends
//    headers and then stalls the body would hang for ever. This fetch reads the body before returning, so the
//    SDK's timeout covers it and a stall counts as a timed-out attempt (retried like one).
//
// Response format: JSON schema first; an endpoint that rejects it (400/422) is asked again with json_object, then
// with no response format at all. The first format an endpoint accepts is remembered for the client's life.
import OpenAI from 'openai';

export interface AiConfig {
  /** e.g. https://api.openai.com/v1 or http://localhost:11434/v1; empty means no AI (built-in playbooks). */
  baseURL?: string | undefined;
  /** Bearer key; local servers (Ollama, vLLM, LM Studio) may need none. */
  apiKey?: string | undefined;
  model: string;
  /** Per attempt, default 600000. */
  timeoutMs?: number | undefined;
  /** Default 2. */
  maxRetries?: number | undefined;
}

export const DEFAULT_TIMEOUT_MS = 600_000;
export const DEFAULT_MAX_RETRIES = 2;
/** A retry-after is honoured only under this. */
export const MAX_RETRY_AFTER_MS = 60_000;
/** Near-deterministic answers (they must parse as JSON), each at most MAX_TOKENS long. */
export const TEMPERATURE = 0.1;
export const MAX_TOKENS = 1600;

export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export type ChatMessage = { role: 'system' | 'user' | 'assistant'; content: string };

export type ResponseFormat =
  | { kind: 'json_schema'; name: string; schema: Record<string, unknown> }
  | { kind: 'json_object' }
  | { kind: 'none' };

export interface ChatResult {
  content: string;
  /** The model that answered, as the endpoint reports it. */
  model: string;
  finishReason: string | null;
  /** The response format the endpoint accepted. */
  format: ResponseFormat['kind'];
}

export function isAiConfigured(
  config: AiConfig | undefined | null,
): config is AiConfig & { baseURL: string } {
  return (
    !!config &&
    typeof config.baseURL === 'string' &&
    config.baseURL.trim() !== '' &&
    config.model.trim() !== ''
  );
}

/** Milliseconds a retry-after (or retry-after-ms) header asks for, or undefined when absent or unreadable. */
export function retryAfterMs(headers: Headers, now: number): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Number(ms);
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : date - now;
}

function isRetryable(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * The fetch handed to the SDK: drops a retry-after of 60 s or more (or one that is unreadable or in the past) so
 * the SDK's exponential backoff applies, and reads the whole body before returning (under the SDK's timeout).
 */
export function boundedFetch(inner: Fetch = globalThis.fetch): Fetch {
  return async (input, init) => {
    // The SDK's abort signal (its timeout) stays on the request, so it also cuts a stalled body read below.
    const res = await inner(input, init);
    const headers = new Headers(res.headers);
    headers.delete('content-encoding');
    headers.delete('content-length');
    if (isRetryable(res.status)) {
      const wait = retryAfterMs(headers, Date.now());
      if (wait === undefined || wait < 0 || wait >= MAX_RETRY_AFTER_MS) {
        headers.delete('retry-after');
        headers.delete('retry-after-ms');
      }
    }
    // Read here, inside the fetch the SDK times: its timeout then covers the body too.
    const body = await res.arrayBuffer();
    const empty = res.status === 204 || res.status === 205 || res.status === 304;
    return new Response(empty ? null : body, { status: res.status, statusText: res.statusText, headers });
  };
}

const FORMAT_ORDER: readonly ResponseFormat['kind'][] = ['json_schema', 'json_object', 'none'];

function responseFormatParam(
  kind: ResponseFormat['kind'],
  schema: { name: string; schema: Record<string, unknown> } | undefined,
): OpenAI.Chat.Completions.ChatCompletionCreateParams['response_format'] {
  if (kind === 'json_schema' && schema) {
    return { type: 'json_schema', json_schema: { name: schema.name, schema: schema.schema, strict: false } };
  }
  if (kind === 'json_object' || kind === 'json_schema') return { type: 'json_object' };
  return undefined;
}

/**
 * The promise, or a rejection with the signal's reason as soon as it aborts. The SDK checks its signal only
 * between steps (its backoff sleeps, up to a 59 s retry-after, are not interruptible), so an abort would
 * otherwise wait for the next step; the SDK's own request stops at that step.
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    if (signal.aborted) {
      onAbort();
      promise.catch(() => {});
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** A format rejection: the endpoint did not understand the request (not a key, quota or server problem). */
function isFormatRejection(e: unknown): boolean {
  return e instanceof OpenAI.BadRequestError || e instanceof OpenAI.UnprocessableEntityError;
}

export class AiClient {
  readonly model: string;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly baseURL: string;
  private readonly sdk: OpenAI;
  /** Index in FORMAT_ORDER of the richest format the endpoint is known (or hoped) to accept. */
  private formatIndex = 0;

  constructor(config: AiConfig & { baseURL: string }, fetchImpl?: Fetch) {
    this.model = config.model.trim();
    this.timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxRetries = config.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.baseURL = config.baseURL.trim();
    const apiKey = config.apiKey?.trim() ?? '';
    let host = '';
    try {
      host = new URL(this.baseURL).hostname;
    } catch {
      host = '';
    }
    const azure = /\.(openai\.azure\.com|cognitiveservices\.azure\.com|services\.ai\.azure\.com)$/i.test(
      host,
    );
    this.sdk = new OpenAI({
      baseURL: this.baseURL,
      // The SDK insists on a key; keyless local servers ignore the header.
      apiKey: apiKey || 'no-key',
      organization: null,
      project: null,
      timeout: this.timeoutMs,
      maxRetries: this.maxRetries,
      fetch: boundedFetch(fetchImpl),
      ...(azure && apiKey ? { defaultHeaders: { 'api-key': apiKey } } : {}),
    });
  }

  /**
   * One chat completion at temperature 0.1 and 1600 max tokens, asking for JSON. Throws the SDK's errors
   * (APIConnectionTimeoutError, RateLimitError, ...) once its retries are spent.
   */
  async chat(
    messages: readonly ChatMessage[],
    options: { schema?: { name: string; schema: Record<string, unknown> }; signal?: AbortSignal } = {},
  ): Promise<ChatResult> {
    for (;;) {
      const kind = FORMAT_ORDER[this.formatIndex] ?? 'none';
      const responseFormat = responseFormatParam(kind, options.schema);
      try {
        const completion = await untilAborted(
          this.sdk.chat.completions.create(
            {
              model: this.model,
              messages: messages.map((m) => ({ role: m.role, content: m.content })),
              temperature: TEMPERATURE,
              max_tokens: MAX_TOKENS,
              ...(responseFormat ? { response_format: responseFormat } : {}),
            },
            options.signal ? { signal: options.signal } : {},
          ),
          options.signal,
        );
        const choice = completion.choices[0];
        return {
          content: choice?.message.content ?? '',
          model: completion.model || this.model,
          finishReason: choice?.finish_reason ?? null,
          format: kind,
        };
      } catch (e) {
        if (isFormatRejection(e) && this.formatIndex < FORMAT_ORDER.length - 1) {
          this.formatIndex++;
          continue;
        }
        throw e;
      }
    }
  }
}

/** The client of a configuration, or null when no AI endpoint is configured. */
export function createAiClient(config: AiConfig | undefined | null, fetchImpl?: Fetch): AiClient | null {
  return isAiConfigured(config) ? new AiClient(config, fetchImpl) : null;
}
