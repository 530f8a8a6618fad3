// One definition per endpoint. Each entry of the contract is keyed by its method and path ("POST /api/saved",
// ":name" for a path parameter) and holds who may call it, its OpenAPI summary and tags, its request schemas and
// its answers. The server registers its routes from the entries (src/server/http/route.ts); the browser calls them
// by key with types derived from them (src/web/http.ts), importing types only, so zod stays out of the bundle.
import type { z } from 'zod';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Who may call an endpoint: anyone, a signed-in user, an admin (or SuperAdmin), the SuperAdmin only. */
export type Access = 'public' | 'user' | 'admin' | 'superadmin';

/** A success status an endpoint answers with. */
export type SuccessStatus = 200 | 201 | 202 | 204;

/**
 * An answer that is not JSON: a file (CSV, iCalendar) or an event stream, described by its media type for the
 * OpenAPI document. Its caller reads it as text or as a download.
 */
export interface MediaAnswer {
  description: string;
  content: Readonly<Record<string, { schema: z.ZodType }>>;
}

export interface Endpoint {
  access: Access;
  summary: string;
  /** A longer OpenAPI description, where the summary is not enough. */
  description?: string;
  tags: readonly string[];
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Every success answer, by status. */
  answers: Partial<Record<SuccessStatus, z.ZodType | MediaAnswer>>;
  /**
   * Error statuses beyond those every route can give (400, 401/403 unless public, 413 with a body, 429 when
   * rate-limited, 500, 503), each answered as {"error": message}.
   */
  errors?: readonly number[];
  /** Error answers with a shape of their own instead of {"error"}, by status. */
  refusals?: Readonly<Record<number, z.ZodType>>;
}

/** An entry of the contract, its types kept literal. */
export const endpoint = <const E extends Endpoint>(e: E): E => e;

/** The key of a contract entry: its method and path. */
export type EndpointKey = `${Method} /${string}`;

export type Contract = Record<EndpointKey, Endpoint>;

/** The method and path of a key. */
export function splitKey(key: EndpointKey): { method: Method; path: string } {
  const space = key.indexOf(' ');
  return { method: key.slice(0, space) as Method, path: key.slice(space + 1) };
}

type Parsed<T> = T extends z.ZodType ? z.output<T> : T extends MediaAnswer ? string : never;
type Sent<T> = T extends z.ZodType ? z.input<T> : never;

/** A part of a request: required when the schema needs something, optional when it accepts nothing. */
type Part<Name extends string, T> = T extends z.ZodType
  ? object extends Sent<T>
    ? { [P in Name]?: Sent<T> }
    : { [P in Name]: Sent<T> }
  : { [P in Name]?: never };

/** What a caller sends: the path parameters, the query and the body an endpoint declares. */
export type EndpointInput<E extends Endpoint> = Part<'params', E['params']> &
  Part<'query', E['query']> &
  Part<'body', E['body']>;

/** Any of an endpoint's success answers: what its handler returns and its caller reads. */
export type EndpointAnswer<E extends Endpoint> = {
  [S in keyof E['answers']]: Parsed<E['answers'][S]>;
}[keyof E['answers']];
