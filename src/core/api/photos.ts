// A business's photos (Google Places only): the card shows them through the server, which fetches each one
// from Google with the key, so the key never reaches the browser. A prospect carries the photo's Google name
// ('places/PLACE_ID/photos/PHOTO_REF', no key in it) and its authors, whom Google's terms require shown with it.
import { z } from 'zod';
import { endpoint } from './endpoint';
import { text } from './common';

/** A card shows at most this many photos. */
export const MAX_PHOTOS = 3;
/** The largest side of a photo as the server asks Google for it, in pixels. */
export const PHOTO_MAX_PX = 400;

/**
 * A Google photo name: 'places/PLACE_ID/photos/PHOTO_REF', the id and reference of letters, digits, '_' and '-'
 * only, so nothing in it can steer the server's request to Google elsewhere (no dot segment, query or host).
 */
export const GOOGLE_PHOTO_NAME = /^places\/[A-Za-z0-9_-]{1,300}\/photos\/[A-Za-z0-9_-]{1,1000}$/;

/** A link the card may show: https only (never javascript: or data:), bounded. */
const httpsLink = text(500).refine((v) => /^https:\/\/[^\s]+$/.test(v), { message: 'must be an https link' });

/** An author of a photo, as Google names them: the card credits them under the photos. */
export const photoAuthorSchema = z.object({
  displayName: text(200),
  uri: httpsLink.optional(),
});
export type PhotoAuthor = z.infer<typeof photoAuthorSchema>;

/** A photo's Google name, as a prospect carries it and the photo route takes it. */
const photoRef = z.string().max(1320).regex(GOOGLE_PHOTO_NAME, { message: 'must be a Google photo name' });

/** One photo of a prospect: its Google name and its authors. */
export const prospectPhotoSchema = z.object({
  ref: photoRef,
  authors: z.array(photoAuthorSchema).max(5),
});
export type ProspectPhoto = z.infer<typeof prospectPhotoSchema>;

/**
 * GET /api/photos: the photo's name goes in the query, not the path: Google's references run to hundreds of
 * characters, past what the router takes in a path segment.
 */
export const photoQuery = z.object({ ref: photoRef });

export const photoEndpoints = {
  'GET /api/photos': endpoint({
    access: 'user',
    tags: ['places'],
    summary: 'A photo of a Google place, at most 400x400, fetched by the server with its key',
    description:
      'JPEG, PNG, WebP, GIF or AVIF, at most 2 MB; kept by the browser for a day. 404 when no Google key is set ' +
      'or Google no longer has the photo; 502 when Google sent something else; 504 when it did not answer in time.',
    query: photoQuery,
    answers: {
      200: {
        description: 'The image',
        content: { 'image/*': { schema: z.string().meta({ format: 'binary' }) } },
      },
    },
    errors: [404, 429, 502, 504],
  }),
};
