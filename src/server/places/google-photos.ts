// A Google place's photo, fetched by the server: Place Photos (New) answers the photo's short-lived address
// (skipHttpRedirect, so the key goes in a header to Google's API only and never rides a redirect to the image
// host), then the image is read from there without the key. Only what a card can show safely comes back: an
// image type a browser shows as a picture (never SVG, which can carry script), at most 2 MB, within 10 seconds.
import { z } from 'zod';
import { GOOGLE_PHOTO_NAME, PHOTO_MAX_PX } from '../../core/api/photos.js';
import type { FetchLike } from './http.js';

/** The largest image passed on, in bytes. */
export const PHOTO_MAX_BYTES = 2 * 1024 * 1024;
/** The longest the two requests of one photo may take together. */
export const PHOTO_TIMEOUT_MS = 10_000;
/** Redirects followed from the photo's address to its image. */
const MAX_REDIRECTS = 3;

/** The image types passed on (a browser shows each as a picture; SVG is not among them). */
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif']);

export interface Photo {
  contentType: string;
  body: Buffer;
}

/** Why a photo could not be had; `status` is the answer the route gives. */
export class PhotoError extends Error {
  constructor(
    readonly status: 404 | 502 | 504,
    message: string,
  ) {
    super(message);
    this.name = 'PhotoError';
  }
}

export const PHOTO_GONE = 'Google no longer has this photo.';
export const PHOTO_FAILED = 'Google did not send this photo. Try again later.';
export const PHOTO_TIMED_OUT = 'Google did not send this photo in time. Try again later.';

const mediaAnswer = z.object({ photoUri: z.string().max(4000) });

export interface PhotoOptions {
  apiKey: string;
  /** GOOGLE_PLACES_URL: the photo's address comes from there. */
  placesUrl: string;
  fetch?: FetchLike;
  /** PHOTO_TIMEOUT_MS unless a test asks for less. */
  timeoutMs?: number;
}

/**
 * The image's address as Google gave it (relative to `from`), if it may be fetched: https, or the origin of
 * GOOGLE_PLACES_URL itself (a local stand-in of Google). Never another scheme, never credentials.
 */
function imageUrl(raw: string, from: URL, places: URL): URL | null {
  let url: URL;
  try {
    url = new URL(raw, from);
  } catch {
    return null;
  }
  if (url.username || url.password) return null;
  if (url.protocol === 'https:' || url.origin === places.origin) return url;
  return null;
}

/** Reads a body up to `max` bytes; null once it is longer. */
async function readCapped(res: Response, max: number): Promise<Buffer | null> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > max) {
    await res.body?.cancel().catch(() => undefined);
    return null;
  }
  if (!res.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** The media type of an answer, without its parameters, lower case. */
const mediaType = (res: Response) =>
  (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();

/**
 * The photo `ref` ('places/PLACE_ID/photos/PHOTO_REF') at most 400x400. Throws PhotoError: 404 when Google does
 * not have it, 502 when Google failed or sent something that is not a picture or is too large, 504 on timeout.
 */
export async function fetchGooglePhoto(
  ref: string,
  opts: PhotoOptions,
  parent?: AbortSignal,
): Promise<Photo> {
  if (!GOOGLE_PHOTO_NAME.test(ref)) throw new PhotoError(404, PHOTO_GONE);
  const doFetch = opts.fetch ?? fetch;
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? PHOTO_TIMEOUT_MS);
  const signal = parent ? AbortSignal.any([parent, timeout]) : timeout;
  const base = new URL(opts.placesUrl.replace(/\/+$/, '') + '/');
  try {
    const media = new URL(`v1/${ref}/media`, base);
    media.searchParams.set('maxWidthPx', String(PHOTO_MAX_PX));
    media.searchParams.set('maxHeightPx', String(PHOTO_MAX_PX));
    media.searchParams.set('skipHttpRedirect', 'true');
    const res = await doFetch(media.href, {
      headers: { accept: 'application/json', 'X-Goog-Api-Key': opts.apiKey },
      redirect: 'error',
      signal,
    });
    const text = await readCapped(res, 64 * 1024);
    if (res.status === 404) throw new PhotoError(404, PHOTO_GONE);
    if (!res.ok || text === null) throw new PhotoError(502, PHOTO_FAILED);
    let answer: unknown;
    try {
      answer = JSON.parse(text.toString('utf8'));
    } catch {
      throw new PhotoError(502, PHOTO_FAILED);
    }
    const photoUri = mediaAnswer.safeParse(answer).data?.photoUri;
    let url = photoUri ? imageUrl(photoUri, base, base) : null;
    for (let hop = 0; url; hop++) {
      const image = await doFetch(url.href, { headers: { accept: 'image/*' }, redirect: 'manual', signal });
      const location = image.headers.get('location');
      if (image.status >= 300 && image.status < 400 && location && hop < MAX_REDIRECTS) {
        await image.body?.cancel().catch(() => undefined);
        url = imageUrl(location, url, base);
        continue;
      }
      const contentType = mediaType(image);
      if (!image.ok || !IMAGE_TYPES.has(contentType)) {
        await image.body?.cancel().catch(() => undefined);
        throw new PhotoError(502, PHOTO_FAILED);
      }
      const body = await readCapped(image, PHOTO_MAX_BYTES);
      if (!body || body.length === 0) throw new PhotoError(502, PHOTO_FAILED);
      return { contentType, body };
    }
    throw new PhotoError(502, PHOTO_FAILED);
  } catch (error) {
    if (error instanceof PhotoError) throw error;
    if (timeout.aborted) throw new PhotoError(504, PHOTO_TIMED_OUT);
    if (parent?.aborted) throw parent.reason ?? error;
    throw new PhotoError(502, PHOTO_FAILED);
  }
}
