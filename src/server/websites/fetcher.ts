// A safe, bounded HTTP GET for website checks. Only http/https; the host is resolved here and every address
// checked (address.ts) before connecting, after every redirect too, and the connection goes to the checked
// address (no second DNS lookup). At most `maxRedirects` redirects, one deadline for the whole chain (a slow
// drip cannot stretch it), the body streamed and abandoned past `maxBytes`, only the content types asked.
import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import { resolveAllowed, systemResolver, type Resolver } from './address.js';

export interface FetchOptions {
  userAgent: string;
  /** Tests only (WEBSITE_CHECKS_ALLOW_LOOPBACK): loopback addresses may be fetched. */
  allowLoopback: boolean;
  /** The whole request, redirects included. */
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  resolve?: Resolver;
  /**
   * Wraps each request of the chain, the first and every redirect's (the checker passes its robots.txt check and
   * host gate for the hop's own origin). What it throws is thrown by safeFetch.
   */
  around?: <T>(url: URL, request: () => Promise<T>) => Promise<T>;
}

export const DEFAULT_FETCH_LIMITS = { timeoutMs: 10_000, maxBytes: 2_000_000, maxRedirects: 5 } as const;

export type FetchFailure =
  | 'refused'
  | 'unreachable'
  | 'timeout'
  | 'too_large'
  | 'not_html'
  | 'http_error'
  | 'too_many_redirects'
  | 'bad_url';

export type FetchResult =
  | { ok: true; url: string; status: number; contentType: string; body: string }
  | { ok: false; url: string; failure: FetchFailure; reason: string; status?: number };

const HTML_TYPES = ['text/html', 'application/xhtml+xml'];

/** The URL if it is an absolute http(s) URL without credentials, else null. */
export function parseWebUrl(raw: string, base?: string): URL | null {
  let url: URL;
  try {
    url = base ? new URL(raw, base) : new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password) return null;
  url.hash = '';
  return url;
}

/** A site as the checks store it: a bare "example.com" means http(s)://example.com/. */
export function normalizeWebsite(raw: string): URL | null {
  const text = raw.trim();
  if (!text || text.length > 2000) return null;
  return parseWebUrl(/^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `http://${text}`);
}

/** Text of a body in its declared charset (header, else <meta charset>), broken bytes replaced, never thrown. */
export function decodeBody(bytes: Buffer, contentType: string): string {
  const head = bytes.subarray(0, 2048).toString('latin1');
  const declared =
    /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType)?.[1] ??
    /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1] ??
    'utf-8';
  try {
    return new TextDecoder(declared, { fatal: false }).decode(bytes);
  } catch {
    return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  }
}

interface Hop {
  status: number;
  headers: IncomingMessage['headers'];
  body?: Buffer;
  failure?: { failure: FetchFailure; reason: string };
}

/** One request to one checked address; resolves with the answer, its body read up to the cap. */
function requestOnce(
  url: URL,
  address: { address: string; family: 4 | 6 },
  opts: FetchOptions & { accept: readonly string[] },
  signal: AbortSignal,
): Promise<Hop> {
  return new Promise((resolve) => {
    const isHttps = url.protocol === 'https:';
    const mod = isHttps ? https : http;
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    let settled = false;
    const done = (hop: Hop) => {
      if (settled) return;
      settled = true;
      resolve(hop);
    };
    const req = mod.request(
      {
        protocol: url.protocol,
        host: address.address,
        family: address.family,
        port: url.port || (isHttps ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        agent: false,
        signal,
        ...(isHttps && !/^[\d.]+$|:/.test(host) ? { servername: host } : {}),
        headers: {
          host: url.host,
          'user-agent': opts.userAgent,
          accept: opts.accept.includes('text/plain')
            ? 'text/plain, */*;q=0.1'
            : 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
          'accept-encoding': 'identity',
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && res.headers.location) {
          res.resume();
          done({ status, headers: res.headers });
          req.destroy();
          return;
        }
        if (status >= 400) {
          res.resume();
          done({ status, headers: res.headers });
          req.destroy();
          return;
        }
        const type = (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
        if (type && !opts.accept.includes(type)) {
          done({
            status,
            headers: res.headers,
            failure: { failure: 'not_html', reason: `not a web page (${type})` },
          });
          req.destroy();
          return;
        }
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > opts.maxBytes) {
          done({
            status,
            headers: res.headers,
            failure: { failure: 'too_large', reason: `page larger than ${opts.maxBytes} bytes` },
          });
          req.destroy();
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > opts.maxBytes) {
            done({
              status,
              headers: res.headers,
              failure: { failure: 'too_large', reason: `page larger than ${opts.maxBytes} bytes` },
            });
            req.destroy();
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => done({ status, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', (error) => fail(error));
      },
    );
    const fail = (error: Error) => {
      if (signal.aborted) {
        done({
          status: 0,
          headers: {},
          failure: { failure: 'timeout', reason: `no complete answer within ${opts.timeoutMs} ms` },
        });
        return;
      }
      const code = (error as { code?: string }).code;
      done({
        status: 0,
        headers: {},
        failure: { failure: 'unreachable', reason: `could not connect${code ? ` (${code})` : ''}` },
      });
    };
    req.on('error', fail);
    req.end();
  });
}

/**
 * GET a page safely. Never throws (except what `opts.around` throws): every failure is a
 * `{ ok: false, failure, reason }` in bounded time (`timeoutMs` for the whole chain of redirects).
 */
export async function safeFetch(
  rawUrl: string,
  opts: FetchOptions,
  accept: readonly string[] = HTML_TYPES,
): Promise<FetchResult> {
  const resolve = opts.resolve ?? systemResolver;
  let url = parseWebUrl(rawUrl);
  if (!url) return { ok: false, url: rawUrl, failure: 'bad_url', reason: 'not an http or https address' };
  const signal = AbortSignal.timeout(opts.timeoutMs);
  const timedOut = (): FetchResult => ({
    ok: false,
    url: url!.href,
    failure: 'timeout',
    reason: `no complete answer within ${opts.timeoutMs} ms`,
  });
  for (let hop = 0; hop <= opts.maxRedirects; hop++) {
    const target = await Promise.race([
      resolveAllowed(url.hostname, resolve, opts.allowLoopback),
      new Promise<null>((r) => signal.addEventListener('abort', () => r(null), { once: true })),
    ]);
    if (target === null) return timedOut();
    if (!target.ok) {
      const failure = target.reason.startsWith('refused') ? 'refused' : 'unreachable';
      return { ok: false, url: url.href, failure, reason: target.reason };
    }
    if (signal.aborted) return timedOut();
    const hop = url;
    const request = () => requestOnce(hop, target.address, { ...opts, accept }, signal);
    const answer = opts.around ? await opts.around(hop, request) : await request();
    if (answer.failure) return { ok: false, url: url.href, ...answer.failure, status: answer.status };
    const location = answer.headers.location;
    if (answer.status >= 300 && answer.status < 400 && location) {
      const next = parseWebUrl(location, url.href);
      if (!next) {
        return { ok: false, url: url.href, failure: 'bad_url', reason: 'redirected to a non-web address' };
      }
      url = next;
      continue;
    }
    if (answer.status >= 400 || answer.status < 200) {
      return {
        ok: false,
        url: url.href,
        failure: 'http_error',
        reason: `answered HTTP ${answer.status}`,
        status: answer.status,
      };
    }
    const contentType = String(answer.headers['content-type'] ?? '');
    const body = answer.body ?? Buffer.alloc(0);
    if (!contentType && !/^\s*</.test(body.subarray(0, 512).toString('latin1'))) {
      return { ok: false, url: url.href, failure: 'not_html', reason: 'not a web page (no content type)' };
    }
    return {
      ok: true,
      url: url.href,
      status: answer.status,
      contentType,
      body: decodeBody(body, contentType),
    };
  }
  return {
    ok: false,
    url: url.href,
    failure: 'too_many_redirects',
    reason: `more than ${opts.maxRedirects} redirects`,
  };
}

export const TEXT_TYPES = ['text/plain'] as const;
