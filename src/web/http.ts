// The browser's one HTTP client for /api. A call names its endpoint by the contract's key ("POST /api/saved"); what
// it sends and what it answers are typed from that entry (src/core/api/contract.ts, imported as types only). Every
// error answer is {"error": "<message to show>"}, thrown as an ApiError carrying that message and the status; a
// request that never reaches the server throws NETWORK_ERROR.
import type { ApiContract, ApiKey } from '../core/api/contract';
import { splitKey, type EndpointAnswer, type EndpointInput, type Method } from '../core/api/endpoint';
import { GENERIC_ERROR, NETWORK_ERROR } from '../core/messages';
import { attachmentFileName } from './format';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const isUnauthenticated = (error: unknown) => error instanceof ApiError && error.status === 401;

/** Routes where a 401 is an answer about the credentials, not a lost session. */
const SIGN_IN_ROUTES = new Set(['/api/session', '/api/register', '/api/me']);
let onSessionLost: (() => void) | null = null;

/**
 * Called when a request that needed a session gets 401 (signed out elsewhere, session expired, account
 * suspended): the app goes back to the sign-in screen.
 */
export function setSessionLostHandler(handler: (() => void) | null): void {
  onSessionLost = handler;
}

export type Answer<K extends ApiKey> = EndpointAnswer<ApiContract[K]>;
export type Input<K extends ApiKey> = EndpointInput<ApiContract[K]>;

/** An input as the client reads it, whatever the endpoint. */
export interface AnyInput {
  params?: object;
  query?: object;
  body?: unknown;
}

/** The input argument of a call: required when the endpoint declares params, a query or a body. */
type InputArgs<K extends ApiKey> = object extends Input<K> ? [input?: Input<K>] : [input: Input<K>];

interface SendOptions {
  accept?: string;
  idempotencyKey?: string;
  /** A body sent as it is (a CSV file) with this content type, instead of JSON. */
  contentType?: string;
  /** Sent even when the page is being left (a small request made as the page goes). */
  keepalive?: boolean;
}

/** The URL of a call: path parameters filled in (encoded), the query appended without its undefined values. */
export function urlOf(key: ApiKey, input: AnyInput = {}): string {
  const { path } = splitKey(key);
  const params = (input.params ?? {}) as Record<string, string | number>;
  const filled = path.replace(/:([A-Za-z]+)/g, (_, name: string) =>
    encodeURIComponent(String(params[name] ?? '')),
  );
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(input.query ?? {})) {
    if (value !== undefined && value !== null) search.set(name, String(value as string | number | boolean));
  }
  const query = search.toString();
  return query ? `${filled}?${query}` : filled;
}

/** The request itself; a request that never reaches the server throws NETWORK_ERROR. */
export async function send(
  method: Method,
  url: string,
  body?: unknown,
  options: SendOptions = {},
): Promise<Response> {
  const json = body !== undefined && options.contentType === undefined;
  try {
    return await fetch(url, {
      method,
      credentials: 'same-origin',
      ...(options.keepalive && { keepalive: true }),
      headers: {
        accept: options.accept ?? 'application/json',
        ...(body === undefined ? {} : { 'content-type': options.contentType ?? 'application/json' }),
        ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}),
      },
      body: body === undefined ? null : json ? JSON.stringify(body) : (body as string),
    });
  } catch {
    throw new ApiError(NETWORK_ERROR, 0);
  }
}

export function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** An error answer as an ApiError with the server's message (a lost session returns the app to sign-in). */
export async function failure(response: Response, url: string): Promise<ApiError> {
  const parsed = parseJson(await response.text());
  const record = (parsed && typeof parsed === 'object' ? parsed : {}) as Record<string, unknown>;
  const message = typeof record.error === 'string' && record.error ? record.error : GENERIC_ERROR;
  if (response.status === 401 && !SIGN_IN_ROUTES.has(url.split('?')[0] ?? '')) onSessionLost?.();
  return new ApiError(message, response.status, record);
}

/** Calls an endpoint and answers its parsed success answer, its status beside it. */
export async function callWithStatus<K extends ApiKey>(
  key: K,
  ...args: InputArgs<K>
): Promise<{ status: number; body: Answer<K> }> {
  const input = args[0] as AnyInput | undefined;
  const url = urlOf(key, input);
  const response = await send(splitKey(key).method, url, input?.body);
  if (!response.ok) throw await failure(response, url);
  return { status: response.status, body: parseJson(await response.text()) as Answer<K> };
}

/** Calls an endpoint and answers its parsed success answer. */
export async function call<K extends ApiKey>(key: K, ...args: InputArgs<K>): Promise<Answer<K>> {
  return (await callWithStatus(key, ...args)).body;
}

/** Sends a text body (a CSV file) with its own content type (and a query, when the endpoint takes one). */
export async function callWithText<K extends ApiKey>(
  key: K,
  text: string,
  contentType: string,
  query?: Record<string, string>,
): Promise<Answer<K>> {
  const url = urlOf(key, query ? { query } : {});
  const response = await send(splitKey(key).method, url, text, { contentType });
  if (!response.ok) throw await failure(response, url);
  return parseJson(await response.text()) as Answer<K>;
}

/** A file the server sends as an attachment (the CSV exports): its bytes and the server's file name. */
export async function download<K extends ApiKey>(
  key: K,
  ...args: InputArgs<K>
): Promise<{ blob: Blob; fileName: string | null }> {
  const url = urlOf(key, args[0] as AnyInput | undefined);
  const response = await send('GET', url, undefined, { accept: 'text/csv, application/json' });
  if (!response.ok) throw await failure(response, url);
  return {
    blob: await response.blob(),
    fileName: attachmentFileName(response.headers.get('content-disposition')),
  };
}

/**
 * Downloads a file the server builds under its own name (else `fallbackName`): fetched first, so an error answer
 * ('No prospects to export') is thrown as an ApiError instead of opening a JSON page. Answers the name used.
 */
export async function downloadFile<K extends ApiKey>(
  fallbackName: string,
  key: K,
  ...args: InputArgs<K>
): Promise<string> {
  const { blob, fileName } = await download(key, ...args);
  const name = fileName ?? fallbackName;
  saveBlob(blob, name);
  return name;
}

/** Hands a blob to the browser as a download with the given file name. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
