// Local HTTP servers for the website checks: the fixture sites of test/fixtures/websites served by
// path (`/sites/<name>/`), plus hostile routes (endless redirects, an endless body, a slow drip, broken
// encoding, errors). Counts requests in flight per Host header, so tests can prove the checker's politeness.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';

export const FIXTURE_DIR = new URL('../fixtures/websites/', import.meta.url);
export const fixtureHtml = (name: string) => readFileSync(new URL(`${name}.html`, FIXTURE_DIR), 'utf8');

export interface SiteServer {
  server: Server;
  port: number;
  /** http://127.0.0.1:PORT */
  origin: string;
  requests: { host: string; path: string; userAgent: string }[];
  /** Each request's arrival and the end of its answer (ms), per Host header, in arrival order. */
  timeline: { host: string; path: string; start: number; end?: number }[];
  /** The most requests ever in flight at once, per Host header. */
  maxInFlight: Map<string, number>;
  /** Extra routes: return true when handled. */
  routes: Map<string, (req: IncomingMessage, res: ServerResponse) => void>;
  /** robots.txt per Host header (default: none, 404). */
  robots: Map<string, string>;
  /** Delay before each answer (ms). */
  delayMs: number;
  close(): Promise<void>;
}

export async function startSiteServer(): Promise<SiteServer> {
  const inFlight = new Map<string, number>();
  const state: Omit<SiteServer, 'server' | 'port' | 'origin' | 'close'> = {
    requests: [],
    timeline: [],
    maxInFlight: new Map(),
    routes: new Map(),
    robots: new Map(),
    delayMs: 0,
  };
  const server = createServer((req, res) => {
    const host = String(req.headers.host ?? '');
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    state.requests.push({ host, path, userAgent: String(req.headers['user-agent'] ?? '') });
    const n = (inFlight.get(host) ?? 0) + 1;
    inFlight.set(host, n);
    state.maxInFlight.set(host, Math.max(state.maxInFlight.get(host) ?? 0, n));
    const span: SiteServer['timeline'][number] = { host, path, start: Date.now() };
    state.timeline.push(span);
    res.on('close', () => {
      span.end = Date.now();
      inFlight.set(host, (inFlight.get(host) ?? 1) - 1);
    });
    const answer = () => {
      const route = state.routes.get(path);
      if (route) return route(req, res);
      if (path === '/robots.txt') {
        const body = state.robots.get(host);
        if (body === undefined) return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return res.writeHead(200, { 'content-type': 'text/plain' }).end(body);
      }
      const site = /^\/sites\/([\w-]+)\/(.*)$/.exec(path);
      if (site) {
        try {
          const html = fixtureHtml(site[1]!);
          return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
        } catch {
          return res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
        }
      }
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
    };
    if (state.delayMs > 0) setTimeout(answer, state.delayMs);
    else answer();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(state, {
    server,
    port,
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  });
}

/** Hostile routes: /loop (redirects to itself for ever), /endless (a body that never ends), /drip (a byte now
 * and then, never finishing), /broken (invalid bytes in a bogus charset), /image (not HTML), /fail (HTTP 500),
 * /to-private and /to-metadata (redirects to a private and the metadata address). */
export function addHostileRoutes(s: SiteServer): void {
  let loops = 0;
  s.routes.set('/loop', (_req, res) => {
    loops++;
    res.writeHead(302, { location: `/loop?n=${loops}` }).end();
  });
  s.routes.set('/endless', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const pump = () => {
      while (res.write(chunk)) {
        /* keep writing until the socket pushes back */
      }
    };
    res.on('drain', pump);
    res.on('close', () => res.off('drain', pump));
    pump();
  });
  s.routes.set('/drip', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.write('<html>');
    const t = setInterval(() => res.write(' '), 100);
    res.on('close', () => clearInterval(t));
  });
  s.routes.set('/broken', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=no-such-charset' });
    res.end(
      Buffer.concat([
        Buffer.from('<html><head><meta name="viewport" content="width=device-width"></head><body>'),
        Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1]),
        Buffer.from('<script src="https://cdn.callrail.com/companies/1/2/swap.js"></script></body></html>'),
      ]),
    );
  });
  s.routes.set('/image', (_req, res) =>
    res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(10)),
  );
  s.routes.set('/fail', (_req, res) =>
    res.writeHead(500, { 'content-type': 'text/html' }).end('<h1>Error</h1>'),
  );
  s.routes.set('/to-private', (_req, res) => res.writeHead(301, { location: 'http://10.0.0.7/admin' }).end());
  s.routes.set('/to-metadata', (_req, res) =>
    res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
  );
}
