import type { FastifyInstance } from 'fastify';
import { Stream } from 'node:stream';
import { badRequest } from './errors.js';

/** Where in a parsed value the first string holding a NUL character is ('' for the value itself), or null. */
export function nulPath(value: unknown, path = '', depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (depth > 20 || typeof value !== 'object' || value === null) return null;
  // An upload handed over as the request stream (or bytes) is no text to check; its object graph is the socket's.
  if (value instanceof Stream || ArrayBuffer.isView(value)) return null;
  for (const [key, inner] of Object.entries(value)) {
    if (key.includes('\u0000')) return path ? `${path}.${key}` : key;
    const found = nulPath(inner, path ? `${path}.${key}` : key, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/**
 * Refuse text holding a NUL character (U+0000) in the path, query string or body with a 400, before any
 * handler sees it. PostgreSQL cannot store it in text at all (the insert fails, which answered 500), and in
 * SQLite it would cut the value short for most readers; no field of the app has a use for it.
 */
export function registerTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    for (const [context, value] of [
      ['params', request.params],
      ['querystring', request.query],
      ['body', request.body],
    ] as const) {
      const where = nulPath(value);
      if (where !== null) {
        done(badRequest(`Invalid ${context}: ${where ? `${where}: ` : ''}must not contain NUL characters`));
        return;
      }
    }
    done();
  });
}
