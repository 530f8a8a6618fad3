import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fromNodeHeaders } from 'better-auth/node';
import type { Role } from '../db/schema.js';
import type { Access } from '../../core/api/endpoint.js';
import { forbidden, unauthorized } from './errors.js';

/**
 * Who may call a route (`config.access`; the API contract gives every /api route its rule). The server refuses to
 * start when an /api route has none, and the permission-matrix test walks them all.
 *   public     - anyone, signed in or not
 *   user       - any signed-in, non-suspended account
 *   admin      - role admin or SuperAdmin
 *   superadmin - role SuperAdmin (or the isSuperAdmin flag)
 */
export type { Access };

export interface RouteAccessConfig {
  access?: Access;
  /** The product's own denial text for this route, where it has one (core/messages.ts). */
  deniedMessage?: string;
  /** The product's own text for a missing sign-in on this route, where it has one. */
  unauthenticatedMessage?: string;
}

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- module augmentation merges the fields in
  interface FastifyContextConfig extends RouteAccessConfig {}
  interface FastifyRequest {
    user: CurrentUser | null;
  }
  interface FastifyInstance {
    /** Every /api route with its access rule, in registration order (walked by the permission tests). */
    apiRoutes: ApiRoute[];
    /** Every route of the app (HEAD aside), with its access rule where it declares one (/metrics does). */
    allRoutes: RouteRule[];
  }
}

export interface ApiRoute {
  method: string;
  url: string;
  access: Access;
}

/** A route as the permission matrix sees it; `access` null: no rule, open to everyone (/healthz, better-auth). */
export interface RouteRule {
  method: string;
  url: string;
  access: Access | null;
}

export interface CurrentUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  isSuperAdmin: boolean;
  sessionId: string;
}

export const isAdmin = (u: Pick<CurrentUser, 'role' | 'isSuperAdmin'>) =>
  u.role === 'admin' || u.role === 'SuperAdmin' || u.isSuperAdmin;
export const isSuperAdmin = (u: Pick<CurrentUser, 'role' | 'isSuperAdmin'>) =>
  u.role === 'SuperAdmin' || u.isSuperAdmin;

export const DEFAULT_DENIED = 'You do not have permission to do that.';

export type SessionLoader = (request: FastifyRequest) => Promise<CurrentUser | null>;

/** Routes whose access is decided by another mechanism (better-auth's own endpoints, static files). */
const isApiRoute = (url: string) => url.startsWith('/api/') && !url.startsWith('/api/auth/');

export function registerAccessControl(app: FastifyInstance, loadUser: SessionLoader): void {
  app.decorateRequest('user', null);
  const routes: ApiRoute[] = [];
  const all: RouteRule[] = [];
  app.decorate('apiRoutes', routes);
  app.decorate('allRoutes', all);

  app.addHook('onRoute', (route) => {
    const access = route.config?.access ?? null;
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).map(String);
    for (const method of methods) {
      if (method !== 'HEAD') all.push({ method, url: route.url, access });
    }
    if (!isApiRoute(route.url)) return;
    if (!access) {
      throw new Error(`Route ${methods.join(',')} ${route.url} has no access rule (config.access)`);
    }
    for (const method of methods) {
      if (method !== 'HEAD') routes.push({ method, url: route.url, access });
    }
  });

  app.addHook('onRequest', async (request: FastifyRequest, _reply: FastifyReply) => {
    const config = request.routeOptions.config as RouteAccessConfig | undefined;
    const access = config?.access;
    if (!access) return;
    request.user = await loadUser(request);
    if (access === 'public') return;
    const user = request.user;
    if (!user) throw unauthorized(config.unauthenticatedMessage);
    if (access === 'admin' && !isAdmin(user)) throw forbidden(config.deniedMessage ?? DEFAULT_DENIED);
    if (access === 'superadmin' && !isSuperAdmin(user)) {
      throw forbidden(config.deniedMessage ?? DEFAULT_DENIED);
    }
  });
}

export function nodeHeaders(request: FastifyRequest): Headers {
  return fromNodeHeaders(request.headers);
}

/** The signed-in user of a route whose access rule guarantees one. */
export function currentUser(request: FastifyRequest): CurrentUser {
  if (!request.user) throw unauthorized();
  return request.user;
}
