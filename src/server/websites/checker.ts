// The polite website check of one business (issue 17): robots.txt first (robots-parser, the identifying
// User-Agent), then the home page and at most a few pages it links to (contact, locations, about, booking),
// each request through the host's gate (one at a time per host, a pause between them), each one a safeFetch
// (SSRF guard, deadline, size cap, HTML only). Never throws: the outcome is a WebsiteEvidence.
import robotsParser from 'robots-parser';
import {
  detectPage,
  evidenceFromPages,
  evidenceOfFailure,
  type FetchedPage,
} from '../../core/websites/detect.js';
import type { WebsiteEvidence } from '../../core/websites/signals.js';
import { normalizeWebsite, safeFetch, type FetchOptions, type FetchResult } from './fetcher.js';

/** One request at a time per host, with a pause after each (per instance). */
export class HostGate {
  private readonly tails = new Map<string, Promise<void>>();
  constructor(private readonly pauseMs: number) {}

  async run<T>(host: string, fn: () => Promise<T>): Promise<T> {
    const key = host.toLowerCase();
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    await previous;
    try {
      return await fn();
    } finally {
      setTimeout(() => {
        release();
        if (this.tails.get(key) === tail) this.tails.delete(key);
      }, this.pauseMs);
    }
  }

  /** Hosts with a request under way or queued (for tests and metrics). */
  get busyHosts(): number {
    return this.tails.size;
  }
}

export interface CheckOptions extends FetchOptions {
  /** Pages read besides the home page (at most). */
  extraPages: number;
}

type Robots = ReturnType<typeof robotsParser>;

/** A failure that says the site is dead (it answered, or refused): the others mean "could not check". */
function isDead(r: Extract<FetchResult, { ok: false }>): boolean {
  if (r.failure === 'http_error') return (r.status ?? 0) >= 400;
  return r.failure === 'unreachable' && /ECONNREFUSED|ECONNRESET|CERT|SSL|TLS|EPROTO/i.test(r.reason);
}

/**
 * robots.txt of an origin, per RFC 9309: a 4xx (none) allows everything, a 5xx disallows everything; an
 * unreachable one is the site's failure.
 */
async function readRobots(
  origin: string,
  opts: CheckOptions,
  gate: HostGate,
): Promise<{ robots: Robots } | { failed: Extract<FetchResult, { ok: false }> } | { disallowAll: string }> {
  const url = `${origin}/robots.txt`;
  const host = new URL(origin).host;
  const answer = await gate.run(host, () =>
    safeFetch(url, { ...opts, maxBytes: Math.min(opts.maxBytes, 500_000) }, ['text/plain', 'text/html']),
  );
  if (answer.ok) return { robots: robotsParser(answer.url, answer.body) };
  if (answer.failure === 'http_error' && (answer.status ?? 0) >= 500)
    return { disallowAll: `robots.txt answered HTTP ${answer.status}` };
  if (answer.failure === 'http_error' || answer.failure === 'not_html' || answer.failure === 'too_large')
    return { robots: robotsParser(url, '') };
  return { failed: answer };
}

/** Check one business's website. `now` is the clock of the evidence. */
export async function checkWebsite(
  website: string,
  opts: CheckOptions,
  gate: HostGate,
  now: () => Date = () => new Date(),
): Promise<WebsiteEvidence> {
  const start = normalizeWebsite(website);
  if (!start) return evidenceOfFailure(website, 'failed', 'not an http or https address', now());
  const site = start.href;
  const robotsByOrigin = new Map<string, Awaited<ReturnType<typeof readRobots>>>();
  const robotsFor = async (url: URL) => {
    let r = robotsByOrigin.get(url.origin);
    if (!r) {
      r = await readRobots(url.origin, opts, gate);
      robotsByOrigin.set(url.origin, r);
    }
    return r;
  };
  const allowed = async (url: URL): Promise<{ ok: true } | { ok: false; evidence: WebsiteEvidence }> => {
    const r = await robotsFor(url);
    if ('failed' in r) {
      const f = r.failed;
      return {
        ok: false,
        evidence: evidenceOfFailure(site, isDead(f) ? 'unreachable' : 'failed', f.reason, now()),
      };
    }
    if ('disallowAll' in r)
      return { ok: false, evidence: evidenceOfFailure(site, 'failed', r.disallowAll, now()) };
    if (r.robots.isDisallowed(url.href, opts.userAgent) === true)
      return {
        ok: false,
        evidence: evidenceOfFailure(site, 'failed', 'robots.txt disallows checking this site', now()),
      };
    return { ok: true };
  };

  const gateHome = await allowed(start);
  if (!gateHome.ok) return gateHome.evidence;
  const home = await gate.run(start.host, () => safeFetch(site, opts));
  if (!home.ok) return evidenceOfFailure(site, isDead(home) ? 'unreachable' : 'failed', home.reason, now());
  const pages: FetchedPage[] = [{ url: home.url, html: home.body }];
  const follow = detectPage(home.body, home.url, now()).follow.slice(0, opts.extraPages);
  for (const link of follow) {
    const url = new URL(link);
    const ok = await allowed(url);
    if (!ok.ok) continue;
    const page = await gate.run(url.host, () => safeFetch(link, opts));
    if (page.ok) pages.push({ url: page.url, html: page.body });
  }
  return evidenceFromPages(site, pages, now());
}
