// The API contract on the server side (schemas: src/core/api). Every documented /api route declares a summary
// and a response schema for each status it answers; this module adds the error answers every route can give,
// refuses to start when a route lacks its schemas, and serialises answers from the schemas: a field a schema
// does not declare never leaves the server, and under test (strict) it fails the request, so a presenter that
// grows a field its schema lacks is caught by the tests instead of being dropped unnoticed.
import type { FastifyInstance, FastifySchema } from 'fastify';
import { safeEncode, type $ZodType } from 'zod/v4/core';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { errorSchema } from '../../core/api/common.js';

/** A route's summary, response schemas and error answers are required under /api (better-auth's own aside). */
const isContractRoute = (url: string) => url.startsWith('/api/') && !url.startsWith('/api/auth/');

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Paths ('a.b[0].c') of the fields of `sent` that the serialised `kept` lacks: what the schema would have
 * dropped. Records (z.record) keep every key, so only fields a schema does not declare are named.
 */
export function undeclaredFields(sent: unknown, kept: unknown, path = ''): string[] {
  if (Array.isArray(sent)) {
    if (!Array.isArray(kept)) return [];
    return sent.flatMap((item, i) => undeclaredFields(item, kept[i], `${path}[${i}]`));
  }
  if (!sent || typeof sent !== 'object' || !kept || typeof kept !== 'object') return [];
  if (typeof (sent as { toJSON?: unknown }).toJSON === 'function') return [];
  const out: string[] = [];
  for (const [key, value] of Object.entries(sent)) {
    if (value === undefined) continue;
    const where = path ? `${path}.${key}` : key;
    if (!(key in kept)) out.push(where);
    else out.push(...undeclaredFields(value, (kept as Record<string, unknown>)[key], where));
  }
  return out;
}

export class UndeclaredFieldError extends Error {
  constructor(method: string, url: string, fields: string[]) {
    super(`${method} ${url} answered fields its response schema does not declare: ${fields.join(', ')}`);
  }
}

/**
 * The serializer of every response schema: zod encodes the answer (dropping undeclared fields); `strict` makes
 * an undeclared field an error (a 500, with the field named in the log) instead.
 */
export const contractSerializerCompiler =
  (strict: boolean) =>
  ({ schema, method, url }: { schema: unknown; method: string; url: string }) => {
    const zod = schema as $ZodType;
    return (data: unknown): string => {
      const result = safeEncode(zod, data);
      if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
      if (strict) {
        const fields = undeclaredFields(data, result.data);
        if (fields.length) {
          const error = new UndeclaredFieldError(method, url, fields);
          // Tests run with the log silent: say it where the failing test shows it.
          process.stderr.write(`${error.message}\n`);
          throw error;
        }
      }
      return JSON.stringify(result.data);
    };
  };

type Responses = Record<string, unknown>;

/**
 * Adds the error answers every documented /api route can give, by its access rule and limits: 400 (validation),
 * 401 and 403 (signed-in routes), 413 (bodies), 421 (a host name the app does not answer to), 429
 * (rate-limited), 500 and 503 (database unavailable). A
 * route lists its own further ones (404, 409, 502, ...) itself. Throws when a route has no summary or no
 * response schema, so a new route cannot be added without them.
 */
export function registerContract(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (!isContractRoute(route.url)) return;
    const schema = (route.schema ?? {}) as FastifySchema & { hide?: boolean; summary?: string };
    if (schema.hide) return;
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).map(String);
    const name = `${methods.join(',')} ${route.url}`;
    if (!schema.summary) throw new Error(`Route ${name} has no summary (schema.summary)`);
    const declared = schema.response as Responses | undefined;
    if (!declared || !Object.keys(declared).some((code) => code.startsWith('2'))) {
      throw new Error(`Route ${name} has no success response schema (schema.response)`);
    }
    const access = (route.config as { access?: string } | undefined)?.access;
    const limited = Boolean((route.config as { rateLimit?: unknown } | undefined)?.rateLimit);
    const codes = [400, 421, 500, 503];
    if (access !== 'public') codes.push(401, 403);
    if (methods.some((m) => BODY_METHODS.has(m))) codes.push(413);
    if (limited) codes.push(429);
    const response: Responses = { ...declared };
    for (const code of codes) response[code] ??= errorSchema;
    route.schema = { ...schema, response };
  });
}

/** Error answers a route lists beyond the standard ones: `...errors(404, 409)`. */
export const errors = (...codes: number[]): Record<number, typeof errorSchema> =>
  Object.fromEntries(codes.map((code) => [code, errorSchema]));
