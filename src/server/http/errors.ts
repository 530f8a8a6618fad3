import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

/** An error whose message is safe to show to the user, with the HTTP status that fits it. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, extra?: Record<string, unknown>) =>
  new HttpError(400, message, extra);
export const unauthorized = (message = 'User not authenticated') => new HttpError(401, message);
export const forbidden = (message: string) => new HttpError(403, message);
export const notFound = (message: string) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);

/** Raised by a database driver when the server cannot be reached. */
function isDatabaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    code === 'ECONNREFUSED' ||
    code === 'ECONNRESET' ||
    code === '57P01' || // admin_shutdown
    code === '57P03' || // cannot_connect_now
    code === 'SQLITE_BUSY' ||
    (error instanceof Error &&
      /Connection terminated|timeout exceeded when trying to connect/i.test(error.message))
  );
}

/**
 * Every error leaves as JSON `{"error": "<message for the user>"}`. Validation problems become a 400
 * naming the field; unknown errors are logged and answered with a generic 500 that leaks nothing.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError | Error, request, reply) => {
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).send({ error: error.message, ...error.extra });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      const where = first?.instancePath ? first.instancePath.replace(/^\//, '').replaceAll('/', '.') : '';
      const context = error.validationContext ?? 'body';
      const message = first?.message ?? 'Invalid request';
      return reply.status(400).send({
        error: where ? `Invalid ${context}: ${where}: ${message}` : `Invalid ${context}: ${message}`,
      });
    }
    const fastifyError = error as FastifyError;
    if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.status(413).send({ error: 'Request body is too large.' });
    }
    if (
      typeof fastifyError.statusCode === 'number' &&
      fastifyError.statusCode >= 400 &&
      fastifyError.statusCode < 500
    ) {
      return reply.status(fastifyError.statusCode).send({ error: fastifyError.message || 'Invalid request' });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.error({ err: error }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', '5')
        .send({ error: 'The database is unavailable right now. Please try again in a moment.' });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ error: 'An error occurred. Please try again.' });
  });
}
