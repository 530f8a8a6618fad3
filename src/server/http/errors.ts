import type { FastifyError, FastifyInstance } from 'fastify';
import { STATUS_CODES } from 'node:http';
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
export const unsupportedMediaType = (message: string) => new HttpError(415, message);

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '08000', // connection_exception
  '08001', // sqlclient_unable_to_establish_sqlconnection
  '08003', // connection_does_not_exist
  '08006', // connection_failure
  '53300', // too_many_connections
  '57014', // query_canceled: statement_timeout (DATABASE_STATEMENT_TIMEOUT_MS) ran out
  'SQLITE_BUSY',
]);
// pg's own errors carry no code: a connection that died or never came (DATABASE_CONNECT_TIMEOUT_MS, also the
// wait for a free pooled connection), and a query the server never answered (query_timeout).
const UNAVAILABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|Query read timeout/i;

/** PostgreSQL refusing text it cannot store (invalid byte sequence, untranslatable character): bad input. */
const UNSTORABLE_TEXT = new Set(['22021', '22P05']);

/**
 * Raised by a database driver when the server cannot be reached. Libraries in between (better-auth's
 * "Failed to get session", for one) wrap the driver's error, so the `cause` chain is searched too.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    if (e instanceof Error && UNAVAILABLE_MESSAGE.test(e.message)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * A value that matches none of a union's shapes (a scan of a circle or of a territory) is told what is wrong with
 * the shape it comes closest to: the one with the fewest problems, its first problem.
 */
function closestOption(params: unknown): { path: PropertyKey[]; message: string } | undefined {
  const options = (params as { errors?: unknown }).errors;
  if (!Array.isArray(options)) return undefined;
  const issues = (options as { path: PropertyKey[]; message: string }[][]).filter((o) => o.length > 0);
  return issues.sort((a, b) => a.length - b.length)[0]?.[0];
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
      const closest = first?.keyword === 'invalid_union' ? closestOption(first.params) : undefined;
      const path = closest ? `/${closest.path.map(String).join('/')}` : first?.instancePath;
      const where = path ? path.replace(/^\//, '').replaceAll('/', '.') : '';
      const context = error.validationContext ?? 'body';
      const message = closest?.message ?? first?.message ?? 'Invalid request';
      return reply.status(400).send({
        error: where ? `Invalid ${context}: ${where}: ${message}` : `Invalid ${context}: ${message}`,
      });
    }
    const fastifyError = error as FastifyError;
    if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.status(413).send({ error: 'Request body is too large.' });
    }
    if (fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      const type =
        String(request.headers['content-type'] ?? '')
          .split(';')[0]
          ?.trim() || 'unknown';
      return reply.status(415).send({
        error: `Unsupported content type "${type.slice(0, 100)}": send the body as application/json.`,
      });
    }
    if (
      typeof fastifyError.statusCode === 'number' &&
      fastifyError.statusCode >= 400 &&
      fastifyError.statusCode < 500
    ) {
      return reply.status(fastifyError.statusCode).send({ error: fastifyError.message || 'Invalid request' });
    }
    if (UNSTORABLE_TEXT.has(String((error as { code?: unknown }).code))) {
      return reply
        .status(400)
        .send({ error: 'Invalid input: the text contains characters that cannot be stored.' });
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

  // An error answer that some path left without a body (a library's bare 404, say) still says what happened.
  app.addHook('onSend', (request, reply, payload, done) => {
    const empty =
      payload === undefined ||
      payload === null ||
      payload === '' ||
      (Buffer.isBuffer(payload) && payload.length === 0);
    if (reply.statusCode < 400 || request.method === 'HEAD' || !empty) return done(null, payload);
    void reply.header('content-type', 'application/json; charset=utf-8');
    const error =
      reply.statusCode === 404 ? 'Not found' : (STATUS_CODES[reply.statusCode] ?? 'Request failed');
    done(null, JSON.stringify({ error }));
  });
}
