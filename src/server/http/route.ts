// Registers a route from its entry in the API contract (src/core/api): method, path, access rule, summary, tags,
// request schemas and answers all come from there, so a route file holds only what is the server's own: the
// handler and, for a few routes, a hook, a body limit or a message for a refused caller.
import type {
  ContextConfigDefault,
  FastifyContextConfig,
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { contract, type ApiContract, type ApiKey } from '../../core/api/contract.js';
import { splitKey, type Endpoint } from '../../core/api/endpoint.js';
import type { RouteAccessConfig } from './access.js';
import { errors } from './contract.js';

/** The Fastify instance of a route plugin, typed by zod. */
export type ZodApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

type Or<T, Missing> = T extends z.ZodType ? T : Missing;

/** The Fastify schema of an endpoint, for the types of its handler's request and reply. */
export interface RouteSchema<E extends Endpoint> {
  params: Or<E['params'], z.ZodUnknown>;
  querystring: Or<E['query'], z.ZodUnknown>;
  body: Or<E['body'], z.ZodUnknown>;
  response: E['answers'] & (E['refusals'] extends object ? E['refusals'] : unknown);
}

export type Handler<K extends ApiKey> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  RouteSchema<ApiContract[K]>,
  ZodTypeProvider
>;

/** What a route adds to its contract entry: what depends on this server's configuration or its own hooks. */
export interface RouteOptions {
  /**
   * The refusal messages of a route whose caller lacks the role, and its rate limit (the access rule itself is
   * the contract's).
   */
  config?: Omit<FastifyContextConfig, keyof Pick<RouteAccessConfig, 'access'>>;
  preHandler?: RouteShorthandOptions['preHandler'];
  bodyLimit?: number;
  /** The entry's body schema with this server's limits (e.g. its radius ceiling): the same shape, narrower. */
  body?: z.ZodType;
}

/** Registers the contract's entry `key` with its handler. */
export function route<K extends ApiKey>(app: ZodApp, key: K, handler: Handler<K>): void;
export function route<K extends ApiKey>(
  app: ZodApp,
  key: K,
  options: RouteOptions,
  handler: Handler<K>,
): void;
export function route<K extends ApiKey>(
  app: ZodApp,
  key: K,
  optionsOrHandler: RouteOptions | Handler<K>,
  maybeHandler?: Handler<K>,
): void {
  const options = typeof optionsOrHandler === 'function' ? {} : optionsOrHandler;
  const handler = typeof optionsOrHandler === 'function' ? optionsOrHandler : maybeHandler;
  if (!handler) throw new Error(`${key}: no handler`);
  const entry: Endpoint = contract[key];
  const { method, path } = splitKey(key);
  app.route({
    method,
    url: path,
    config: { ...options.config, access: entry.access },
    ...(options.preHandler ? { preHandler: options.preHandler } : {}),
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    schema: {
      tags: [...entry.tags],
      summary: entry.summary,
      ...(entry.description ? { description: entry.description } : {}),
      ...(entry.params ? { params: entry.params } : {}),
      ...(entry.query ? { querystring: entry.query } : {}),
      ...((options.body ?? entry.body) ? { body: options.body ?? entry.body } : {}),
      response: { ...entry.answers, ...errors(...(entry.errors ?? [])), ...entry.refusals },
    },
    handler: handler as RouteHandlerMethod,
  });
}
