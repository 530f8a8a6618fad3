import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './errors.js';

/** The answer to a state-changing request that a page of another site (or another port) sent. */
export const CROSS_SITE_REFUSED =
  'This request came from another site and was refused. Open Prospect Finder at its own address and try again.';

/** Methods that change something: the only ones a forged cross-site request could abuse. */
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** `scheme://host[:port]` of a URL or origin (default ports dropped, lower case), or null when it is none. */
export function originOf(value: string | undefined | null): string | null {
  if (!value || value === 'null') return null;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.origin;
  } catch {
    return null;
  }
}

/** PUBLIC_URL's origin and ALLOWED_ORIGINS', normalised: the addresses the app answers to besides its own. */
export function configuredOrigins(publicUrl: string, allowedOrigins: readonly string[]): string[] {
  return [...new Set([publicUrl, ...allowedOrigins].map(originOf).filter((o): o is string => o !== null))];
}

/** The origin the request was sent to, as the app sees it (scheme and host, through a trusted proxy). */
export function ownOrigin(request: FastifyRequest): string | null {
  const host = request.host;
  if (!host || /[/\\@?#\s]/.test(host)) return null;
  return originOf(`${request.protocol}://${host}`);
}

/** The answer to a request sent to a host name the app does not answer to (DNS rebinding). */
export const hostRefused = (publicUrl: string) =>
  `This server does not answer to that address. Open Prospect Finder at ${publicUrl}.`;

/** The host name of a Host header value (lower case, IDN as punycode, no port, no trailing dot), or null. */
export function hostNameOf(host: string): string | null {
  if (/[/\\@?#\s]/.test(host)) return null;
  try {
    return new URL(`http://${host}`).hostname.replace(/\.$/, '');
  } catch {
    return null;
  }
}

/** An IPv4 address or a bracketed IPv6 address, as URL writes a host name. */
const isIpLiteral = (name: string) => name.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/.test(name);

/**
 * Whether a request sent to this Host may be answered. DNS rebinding points a name the attacker owns at the
 * app's address, so the victim's browser reads the app as the attacker's own site; the browser then sends
 * the attacker's name as the Host. A name is therefore answered only when it is PUBLIC_URL's or an allowed
 * origin's host (any port), or localhost. An IP address is always answered: no DNS name is involved, so
 * no rebinding, and it keeps a phone on the LAN address and a probe of /healthz on 127.0.0.1 working. A
 * request without a Host (HTTP/1.0 scripts) is no browser's and passes.
 */
export function hostAllowed(host: string | undefined, names: ReadonlySet<string>): boolean {
  if (host === undefined || host === '') return true;
  const name = hostNameOf(host);
  if (name === null) return false;
  return names.has(name) || name === 'localhost' || isIpLiteral(name);
}

type HeaderValue = string | string[] | undefined;
const first = (value: HeaderValue) => (Array.isArray(value) ? value[0] : value);

/**
 * Whether a state-changing request may proceed, from what the browser says about where it comes from:
 *   - `Origin` naming the app's own origin (the address the request was sent to), PUBLIC_URL or one of
 *     ALLOWED_ORIGINS: yes;
 *   - `Sec-Fetch-Site: same-origin` (set by the browser, no page can forge it): yes. It covers `Origin: null`,
 *     which browsers send on same-origin requests under the `Referrer-Policy: no-referrer` the app serves;
 *   - any other `Origin`, or `Sec-Fetch-Site` cross-site / same-site / none: no;
 *   - without either, a `Referer` of another origin: no;
 *   - no browser signal at all (scripts, the CLI, curl, monitoring): yes. A browser always sends `Origin`
 *     on these methods, so a forged request never arrives without one.
 */
export function crossSiteVerdict(
  headers: Record<string, HeaderValue>,
  allowed: (origin: string) => boolean,
): 'allow' | 'refuse' {
  const origin = first(headers.origin);
  const site = first(headers['sec-fetch-site'])?.toLowerCase();
  const fromOrigin = originOf(origin);
  if (fromOrigin && allowed(fromOrigin)) return 'allow';
  if (site === 'same-origin') return 'allow';
  if (origin !== undefined || site !== undefined) return 'refuse';
  const referer = first(headers.referer);
  if (referer !== undefined) {
    const fromReferer = originOf(referer);
    return fromReferer && allowed(fromReferer) ? 'allow' : 'refuse';
  }
  return 'allow';
}

/**
 * With PUBLIC_URL or ALLOWED_ORIGINS set, refuses (421) any request sent to another host name (hostAllowed).
 * Refuses (403) a POST, PUT, PATCH or DELETE that a page of another origin sent: a plain HTML form or
 * fetch() on any other site, another port of the host or a sibling subdomain would otherwise act with the
 * signed-in user's cookie (SameSite=Lax lets same-site requests carry it). Runs first among the onRequest
 * hooks, before the session is read. Also removes Fastify's text/plain body parser: JSON routes take
 * application/json only (415 otherwise), so no body a cross-site form can send is ever parsed. better-auth's
 * own Origin check is given the same list (auth.ts), so both agree.
 */
export function registerCrossSiteGuard(
  app: FastifyInstance,
  options: { publicUrl: string; allowedOrigins: readonly string[]; checkHost: boolean },
): void {
  const configured = new Set(configuredOrigins(options.publicUrl, options.allowedOrigins));
  const names = new Set([...configured].map((o) => new URL(o).hostname.replace(/\.$/, '')));
  const publicOrigin = new URL(options.publicUrl).origin;
  app.removeContentTypeParser('text/plain');
  app.addHook('onRequest', (request, _reply, done) => {
    // Every method: a rebound name would otherwise read the signed-in user's data with GETs.
    if (options.checkHost && !hostAllowed(request.host, names)) {
      request.log.warn({ host: request.host }, 'request to an unknown host name refused');
      return done(new HttpError(421, hostRefused(publicOrigin)));
    }
    if (!STATE_CHANGING.has(request.method)) return done();
    const own = ownOrigin(request);
    const verdict = crossSiteVerdict(request.headers, (o) => o === own || configured.has(o));
    if (verdict === 'refuse') {
      request.log.warn(
        { origin: request.headers.origin, secFetchSite: request.headers['sec-fetch-site'] },
        'cross-site request refused',
      );
      return done(new HttpError(403, CROSS_SITE_REFUSED));
    }
    done();
  });
}

/**
 * better-auth's trustedOrigins for one request of its handler, so its own Origin check agrees with the
 * guard above: the configured origins, the request's own (auth/routes.ts builds the web Request's URL on the
 * address the request was sent to) and, when the browser vouches for it (`Sec-Fetch-Site: same-origin`),
 * the page's origin.
 */
export function trustedOriginsFor(configured: readonly string[], request: Request | undefined): string[] {
  if (!request) return [...configured];
  const list = [...configured];
  const own = originOf(request.url);
  if (own) list.push(own);
  const page = originOf(request.headers.get('origin'));
  if (page && request.headers.get('sec-fetch-site') === 'same-origin') list.push(page);
  return list;
}
