// The polite website check of one business: robots.txt first (robots-parser, the identifying User-Agent),
// then the home page and at most a few pages it links to (contact, locations, about, booking). Every request,
// the first and each redirect's, goes through the gate of its own host (one at a time per host, a pause
// between them; across instances: hosts.ts) and, for pages, the robots.txt of its own origin: a redirect to
// another origin is checked against that origin's rules. Each one is a safeFetch (SSRF guard, deadline, size
// cap, HTML only). The outcome is a WebsiteEvidence; the only throw is HostBusy (the job comes back later).
import robotsParser from 'robots-parser';
import {
  detectPage,
  evidenceFromPages,
  evidenceOfFailure,
  type FetchedPage,
} from '../../core/websites/detect.js';
import type { WebsiteEvidence } from '../../core/websites/signals.js';
import { normalizeWebsite, safeFetch, type FetchOptions, type FetchResult } from './fetcher.js';

/** Runs one request to a host when the host's politeness allows it. */
export interface RequestGate {
  run<T>(host: string, fn: () => Promise<T>): Promise<T>;
}

/** A host another check holds (another instance, or another job of this one): come back at `freeAt`. */
export class HostBusy extends Error {
  constructor(
    readonly host: string,
    readonly freeAt: Date,
  ) {
    super(`${host} is being checked by another job`);
    this.name = 'HostBusy';
  }
}

/** One request at a time per host, with a pause after each, waiting in turn (one process; the bench and tests). */
export class HostGate implements RequestGate {
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

/** Why a page may not be read: the evidence of the check when it is the home page. */
class Refused extends Error {
  constructor(readonly evidence: WebsiteEvidence) {
    super(evidence.reason ?? 'refused');
  }
}

/**
 * robots.txt of an origin, per RFC 9309: a 4xx (none) allows everything, a 5xx disallows everything; an
 * unreachable one is the site's failure. Its own redirects go through the gate of each host they reach.
 */
async function readRobots(
  origin: string,
  opts: CheckOptions,
  gate: RequestGate,
): Promise<{ robots: Robots } | { failed: Extract<FetchResult, { ok: false }> } | { disallowAll: string }> {
  const url = `${origin}/robots.txt`;
  const answer = await safeFetch(
    url,
    {
      ...opts,
      maxBytes: Math.min(opts.maxBytes, 500_000),
      around: (hop, request) => gate.run(hop.host, request),
    },
    ['text/plain', 'text/html'],
  );
  if (answer.ok) return { robots: robotsParser(answer.url, answer.body) };
  if (answer.failure === 'http_error' && (answer.status ?? 0) >= 500)
    return { disallowAll: `robots.txt answered HTTP ${answer.status}` };
  if (answer.failure === 'http_error' || answer.failure === 'not_html' || answer.failure === 'too_large')
    return { robots: robotsParser(url, '') };
  return { failed: answer };
}

/** Check one business's website. `now` is the clock of the evidence. Throws only HostBusy. */
export async function checkWebsite(
  website: string,
  opts: CheckOptions,
  gate: RequestGate,
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
  /** Throws Refused when the robots.txt of the URL's own origin does not let us read it. */
  const mayRead = async (url: URL): Promise<void> => {
    const r = await robotsFor(url);
    if ('failed' in r) {
      const f = r.failed;
      throw new Refused(evidenceOfFailure(site, isDead(f) ? 'unreachable' : 'failed', f.reason, now()));
    }
    if ('disallowAll' in r) throw new Refused(evidenceOfFailure(site, 'failed', r.disallowAll, now()));
    if (r.robots.isDisallowed(url.href, opts.userAgent) === true)
      throw new Refused(evidenceOfFailure(site, 'failed', 'robots.txt disallows checking this site', now()));
  };
  // Every hop of a page's chain: its origin's robots.txt, then its host's gate.
  const page = (url: string) =>
    safeFetch(url, {
      ...opts,
      around: async (hop, request) => {
        await mayRead(hop);
        return gate.run(hop.host, request);
      },
    });

  let home: FetchResult;
  try {
    home = await page(site);
  } catch (error) {
    if (error instanceof Refused) return error.evidence;
    throw error;
  }
  if (!home.ok) return evidenceOfFailure(site, isDead(home) ? 'unreachable' : 'failed', home.reason, now());
  const pages: FetchedPage[] = [{ url: home.url, html: home.body }];
  const follow = detectPage(home.body, home.url, now()).follow.slice(0, opts.extraPages);
  for (const link of follow) {
    try {
      const extra = await page(link);
      if (extra.ok) pages.push({ url: extra.url, html: extra.body });
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
    }
  }
  return evidenceFromPages(site, pages, now());
}
