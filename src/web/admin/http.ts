// The fetch conventions of src/web/api.ts (same-origin cookies, JSON in and out, {"error": msg} thrown as an
// ApiError with the status), for the admin and strategy folders: api.ts keeps its request helper private.
import { GENERIC_ERROR, NETWORK_ERROR } from '../../core/messages';
import { ApiError, api } from '../api';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

async function send(method: Method, path: string, body?: unknown, contentType?: string): Promise<Response> {
  const json = body !== undefined && contentType === undefined;
  try {
    return await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: {
        accept: 'application/json',
        ...(body !== undefined ? { 'content-type': contentType ?? 'application/json' } : {}),
      },
      body: body === undefined ? null : json ? JSON.stringify(body) : (body as string),
    });
  } catch {
    throw new ApiError(NETWORK_ERROR, 0);
  }
}

function parse(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function errorOf(response: Response, parsed: unknown): ApiError {
  // A lost session (signed out elsewhere, expired, suspended): api.ts owns the hand-off to the sign-in screen,
  // so let one of its own calls meet the same 401.
  if (response.status === 401) api.me().catch(() => undefined);
  const record = (parsed && typeof parsed === 'object' ? parsed : {}) as Record<string, unknown>;
  const message = typeof record.error === 'string' && record.error ? record.error : GENERIC_ERROR;
  return new ApiError(message, response.status, record);
}

/** A JSON request; the parsed answer, or an ApiError with the server's message. */
export async function request<T>(method: Method, path: string, body?: unknown): Promise<T> {
  const response = await send(method, path, body);
  const parsed = parse(await response.text());
  if (!response.ok) throw errorOf(response, parsed);
  return parsed as T;
}

/** Like `request`, but also answers the status (for routes where 200 and 202 mean different things). */
export async function requestWithStatus<T>(
  method: Method,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const response = await send(method, path, body);
  const parsed = parse(await response.text());
  if (!response.ok) throw errorOf(response, parsed);
  return { status: response.status, body: parsed as T };
}

/** Posts a text body (a CSV file) with its own content type. */
export async function postText<T>(path: string, text: string, contentType: string): Promise<T> {
  const response = await send('POST', path, text, contentType);
  const parsed = parse(await response.text());
  if (!response.ok) throw errorOf(response, parsed);
  return parsed as T;
}

/** The file name of a Content-Disposition header (the RFC 5987 form first). */
export function dispositionFileName(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1]);
    } catch {
      // fall through to the plain form
    }
  }
  const plain = /filename="([^"]+)"/i.exec(header);
  return plain?.[1] ?? fallback;
}

/**
 * Downloads a CSV the server builds (its own file name): fetched first so an error answer ('No prospects to
 * export') is thrown as an ApiError instead of navigating to a JSON page.
 */
export async function downloadFile(path: string, fallbackName: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(path, { credentials: 'same-origin', headers: { accept: 'text/csv' } });
  } catch {
    throw new ApiError(NETWORK_ERROR, 0);
  }
  if (!response.ok) throw errorOf(response, parse(await response.text()));
  const name = dispositionFileName(response.headers.get('content-disposition'), fallbackName);
  saveBlob(await response.blob(), name);
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
