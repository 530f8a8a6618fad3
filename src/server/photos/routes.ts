// A Google place's photo for the card, through the server: the browser asks /api/photos?ref=PHOTO_NAME and
// never sees the Google key. Each photo is a billed Google request, so each user has an hourly budget of them;
// the browser keeps a photo for a day.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { HttpError, notFound } from '../http/errors.js';
import { createLimiter } from '../http/rate-limit.js';
import { route } from '../http/route.js';
import { isUsableGoogleKey } from '../places/google.js';
import { fetchGooglePhoto, PhotoError } from '../places/google-photos.js';

export const PHOTOS_NEED_GOOGLE = 'Photos need Google Places: no Google key is set on this server.';
export const TOO_MANY_PHOTOS = 'Too many photos loaded in the last hour. Try again later.';

export const photoRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const google = ctx.config.discovery.google;
  const perUser = createLimiter(app, {
    name: 'photos',
    max: ctx.config.rateLimits.photos,
    timeWindow: '1 hour',
    key: (request) => currentUser(request).id,
    message: TOO_MANY_PHOTOS,
  });

  route(app, 'GET /api/photos', async (request, reply) => {
    if (!isUsableGoogleKey(google.apiKey)) throw notFound(PHOTOS_NEED_GOOGLE);
    await perUser.hit(request, reply);
    const { ref } = request.query;
    try {
      const photo = await fetchGooglePhoto(ref, { apiKey: google.apiKey, placesUrl: google.placesUrl });
      return (
        reply
          .header('content-type', photo.contentType)
          .header('cache-control', 'private, max-age=86400')
          // The contract describes the image as a string of bytes (OpenAPI's binary); Fastify sends a Buffer as is.
          .send(photo.body as unknown as string)
      );
    } catch (error) {
      if (!(error instanceof PhotoError)) throw error;
      request.log.warn({ photo: ref, status: error.status }, 'google photo not passed on');
      throw new HttpError(error.status, error.message);
    }
  });
};
