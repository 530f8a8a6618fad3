// Website evidence as background jobs. After a scan answers, each kept business with a website and no fresh
// evidence gets a 'website' job (one insert for all); a queue of its own (WEBSITE_CHECK_CONCURRENCY slots,
// apart from the strategy and reasoning jobs, which website checks must never hold up) checks the site
// politely (each host held through website_hosts, so every instance is polite together; a job whose host
// another check holds goes back to the queue with JobDeferred instead of waiting in a slot), stores the
// evidence with the business, scores its prospects again in every rep's latest results and the team's list,
// and tells those reps' open screens to reload.
import { z } from 'zod';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.js';
import type { EventBus } from '../events/bus.js';
import { JobDeferred, type JobQueue } from '../jobs/queue.js';
import type { Business } from '../../core/types.js';
import { businessCacheKey } from '../../core/types.js';
import type { WebsiteEvidence } from '../../core/websites/signals.js';
import { checkWebsite, HostBusy, type CheckOptions } from './checker.js';
import { deferUntil, HostLeases } from './hosts.js';
import { DEFAULT_FETCH_LIMITS, normalizeWebsite } from './fetcher.js';
import { MAX_EXTRA_PAGES } from '../../core/websites/rules.js';
import type { Resolver } from './address.js';
import {
  applyToLatestScans,
  applyToTeamProspects,
  enqueueChecks,
  readEvidenceRow,
  readFreshEvidence,
  writeEvidence,
  WEBSITE_JOB,
  type Rescore,
} from './repository.js';

export interface WebsiteSettings {
  enabled: boolean;
  allowLoopback: boolean;
  userAgent: string;
  hostPauseMs: number;
  concurrency: number;
}

const payloadSchema = z.object({
  key: z.string().min(1).max(500),
  website: z.string().min(1).max(2000),
  business: z.looseObject({ id: z.string(), name: z.string() }),
});

/** The site a business's website field names, normalised, or null when it is not an http(s) address. */
export function siteOf(b: Pick<Business, 'website'>): string | null {
  const w = b.website?.trim();
  return w ? (normalizeWebsite(w)?.href ?? null) : null;
}

/** The business key and normalised site of each of `businesses` that has a website. */
function sitesOf(businesses: readonly Business[]): { key: string; website: string }[] {
  const wanted: { key: string; website: string }[] = [];
  for (const b of businesses) {
    const site = siteOf(b);
    if (site) wanted.push({ key: businessCacheKey(b), website: site });
  }
  return wanted;
}

/** The evidence read for a scan: `attach(kept)` puts it on the businesses kept of those it was started for. */
export interface EvidenceRead {
  attach(kept: Business[]): Promise<Business[]>;
}

/**
 * Starts reading the fresh evidence of `found` (a scan starts it before de-duplicating, beside its other reads).
 * `attach(kept)` puts it on the businesses kept of them (each
 * `websiteEvidence`; those without stay as they are), reading on its own only what de-duplication changed: a
 * website a kept business took over from its duplicate. A failed read fails `attach`.
 */
export function readEvidence(db: Db, found: readonly Business[], now = Date.now()): EvidenceRead {
  const asked = sitesOf(found);
  const first =
    asked.length === 0
      ? Promise.resolve(new Map<string, WebsiteEvidence>())
      : readFreshEvidence(db, asked, now);
  first.catch(() => undefined); // awaited (and its failure thrown) by attach
  return {
    async attach(kept) {
      const early = await first;
      const askedSite = new Map(asked.map((w) => [w.key, w.website]));
      // Each kept business's key and site, once; those whose site differs from the one asked are read again.
      const wanted = kept.map((b) => {
        const website = siteOf(b);
        return website ? { key: businessCacheKey(b), website } : null;
      });
      const changed = wanted.filter(
        (w): w is { key: string; website: string } => w !== null && askedSite.get(w.key) !== w.website,
      );
      const late = changed.length === 0 ? undefined : await readFreshEvidence(db, changed, now);
      if (early.size === 0 && !late?.size) return kept;
      return kept.map((b, i) => {
        const w = wanted[i];
        const e = w && (askedSite.get(w.key) === w.website ? early.get(w.key) : late?.get(w.key));
        return e ? { ...b, websiteEvidence: e } : b;
      });
    },
  };
}

/**
 * After a scan: a check for each business with a website and no fresh evidence (businesses that came with
 * evidence attached have it). One transaction; resolves with how many checks were added.
 */
export async function scheduleWebsiteChecks(
  deps: { db: Db; queue: JobQueue | null },
  userId: string,
  businesses: readonly Business[],
): Promise<number> {
  if (!deps.queue) return 0;
  const items = businesses.flatMap((b) => {
    const site = siteOf(b);
    if (!site || b.websiteEvidence) return [];
    const { websiteEvidence: _drop, ...business } = b;
    return [{ key: businessCacheKey(b), payload: { key: businessCacheKey(b), website: site, business } }];
  });
  const added = await enqueueChecks(deps.db.kysely, deps.db.kind, userId, items);
  if (added > 0) deps.queue.wake();
  return added;
}

/** An admin's re-check of one business already checked once: a new job, whatever the freshness. */
export async function recheckBusiness(
  deps: { db: Db; queue: JobQueue | null },
  userId: string,
  key: string,
): Promise<'queued' | 'unknown' | 'off'> {
  if (!deps.queue) return 'off';
  const row = await readEvidenceRow(deps.db.kysely, key);
  if (!row) return 'unknown';
  await enqueueChecks(deps.db.kysely, deps.db.kind, userId, [
    { key, payload: { key, website: row.website, business: row.business } },
  ]);
  deps.queue.wake();
  return 'queued';
}

export interface WebsiteWorkerDeps {
  db: Db;
  events: EventBus;
  log: FastifyBaseLogger;
  settings: WebsiteSettings;
  rescore: Rescore;
  /**
   * Raises an imported place's stored rank to what the evidence makes possible (places/ranks.ts), so the scans that
   * rank its circle read it when they should.
   */
  rankPlace?: (placeId: string, evidence: WebsiteEvidence) => Promise<void>;
  /** Tests: resolve host names without DNS. */
  resolve?: Resolver;
}

/** The worker side: check, store, apply, tell. A check that could not be made completes with its reason. */
export function registerWebsiteWorker(queue: JobQueue, deps: WebsiteWorkerDeps): { leases: HostLeases } {
  const pauseMs = deps.settings.hostPauseMs;
  // A lease well past one request's deadline; renewed while the check reads its pages.
  const leases = new HostLeases(deps.db.kysely, {
    pauseMs,
    leaseMs: Math.max(30_000, 3 * DEFAULT_FETCH_LIMITS.timeoutMs),
  });
  const opts: CheckOptions = {
    userAgent: deps.settings.userAgent,
    allowLoopback: deps.settings.allowLoopback,
    ...DEFAULT_FETCH_LIMITS,
    extraPages: MAX_EXTRA_PAGES,
    ...(deps.resolve ? { resolve: deps.resolve } : {}),
  };
  queue.register(WEBSITE_JOB, async (payload, job) => {
    const p = payloadSchema.parse(payload);
    const business = p.business as unknown as Business;
    const hosts = leases.session();
    let evidence: WebsiteEvidence;
    try {
      evidence = await checkWebsite(p.website, opts, hosts);
    } catch (error) {
      if (error instanceof HostBusy) {
        throw new JobDeferred(deferUntil(error.freeAt, job.deferrals, pauseMs), error.message);
      }
      throw error;
    } finally {
      await hosts.done();
    }
    const before = await readEvidenceRow(deps.db.kysely, p.key);
    await writeEvidence(deps.db.kysely, p.key, p.website, evidence, business);
    if (business.source === 'local' && evidence.status !== 'failed')
      await deps.rankPlace?.(business.id, evidence);
    // A check that could not be made scores as no evidence (core/scoring/website-evidence.ts) and shows no
    // signal: unless the business showed signals of an earlier check, no rep's list changes, and none is read
    // or rewritten (that would search every stored list of the team for the business and rewrite each that
    // holds it).
    const changesLists = evidence.status !== 'failed' || (before?.evidence?.signals.length ?? 0) > 0;
    const users = changesLists
      ? await applyToLatestScans(deps.db.kysely, p.key, business, evidence, deps.rescore)
      : [];
    const team = changesLists
      ? await applyToTeamProspects(deps.db.kysely, p.key, business, evidence, deps.rescore)
      : 0;
    for (const userId of users) {
      await deps.events.publish({
        type: 'prospects',
        action: 'website',
        userId,
        businessId: business.placeId ?? business.id,
        count: evidence.signals.length,
        at: new Date().toISOString(),
      });
    }
    if (evidence.status === 'failed') {
      deps.log.info({ website: p.website, reason: evidence.reason }, 'website check could not be made');
    }
    return {
      status: evidence.status,
      reason: evidence.reason,
      website: p.website,
      name: business.name,
      signals: evidence.signals.map((s) => s.kind),
      shown: users.length,
      worker: queue.workerId,
      team,
    };
  });
  return { leases };
}
