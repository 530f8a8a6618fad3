import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.js';
import { currentUser, isAdmin, type CurrentUser } from '../http/access.js';
import type { Prospect } from '../../core/types.js';
import { recordAudit } from '../audit/service.js';
import { badRequest, forbidden, HttpError, notFound } from '../http/errors.js';
import {
  ADDRESS_EMPTY,
  ADDRESS_NOT_FOUND,
  CATEGORY_ALREADY_SET,
  PLEASE_LOG_IN,
} from '../../core/messages.js';
import { CATEGORY_TEXT_MESSAGES, checkCategoryText, hasRealCategory } from '../../core/categories.js';

import { readAlgorithmSettings } from '../settings/service.js';
import { cacheStats, clearCaches } from './cache.js';
import { clearLatestScan, setLatestProspectCategory } from './repository.js';
import type { AppEvent } from '../events/bus.js';
import { route } from '../http/route.js';
import { scheduleReasoning, type ReasoningDeps } from '../reasoning/service.js';
import { readEvidence, scheduleWebsiteChecks } from '../websites/service.js';
import {
  latestPage,
  quickSearch,
  runScan,
  type ScanDeps,
  type ScanInput,
  type ScanPage,
  type ScanProgress,
} from './service.js';
import { lapsedIds, withBilling } from '../billing/service.js';
import { territoryToScan } from '../territories/service.js';
import { territoryCircle, territoryContains } from '../../core/territory.js';
import type { TerritoryScanInput } from '../../core/api/scans.js';
import { inTransaction, type Db } from '../db/database.js';

/** A page's prospects with their standing in the imported billing, as this reader may see it. */
async function billed<P extends { prospects: Prospect[] }>(
  ctx: AppContext,
  user: CurrentUser,
  page: P,
): Promise<P> {
  const clock = { currentMonths: ctx.config.billing.currentMonths };
  return { ...page, prospects: await withBilling(ctx.db, user, page.prospects, clock) };
}

/**
 * A territory scan as the scan service takes it: the territory's bounding circle, limited to its outline (404 for
 * an unknown territory, 403 for a rep not assigned to it).
 */
async function territoryScan(
  db: Db,
  request: FastifyRequest,
  { territoryId, ...input }: Omit<TerritoryScanInput, 'scanId'>,
): Promise<Omit<ScanInput, 'onProgress'>> {
  const territory = await territoryToScan(db, currentUser(request), territoryId);
  const { center, radiusMiles } = territoryCircle(territory.area);
  return {
    ...input,
    ...center,
    radiusMiles,
    locationLabel: input.locationLabel ?? territory.name,
    within: { territoryId, box: territory.box, contains: territoryContains(territory.area) },
  };
}

export const scanRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { db, config } = ctx;
  const deps: ScanDeps = {
    db,
    places: ctx.places,
    score: ctx.score,
    log: ctx.log,
    radiusMaxMiles: config.discovery.radiusMaxMiles,
    cooldownMs: config.discovery.scanCooldownMs,
    settings: () => readAlgorithmSettings(db),
    timed: (step, seconds) => ctx.metrics.scanStepSeconds.observe({ step }, seconds),
    lapsed: () => lapsedIds(db, { currentMonths: config.billing.currentMonths }),
    websites: {
      read: (found) => readEvidence(db, found),
      schedule: (userId, businesses) =>
        scheduleWebsiteChecks({ db, queue: ctx.websites.queue }, userId, businesses).catch((err: unknown) => {
          ctx.log.warn({ err }, 'could not schedule the website checks');
          return 0;
        }),
    },
  };
  const reasoning: ReasoningDeps = {
    db,
    jobs: ctx.jobs,
    client: ctx.ai,
    topN: config.ai.analysisTopN,
  };
  /** Model-written reasoning of the top results, when switched on: one insert here, the model is never awaited. */
  const afterScan = (request: FastifyRequest, userId: string, page: ScanPage) =>
    scheduleReasoning(reasoning, userId, page).catch((err: unknown) => {
      request.log.warn({ err }, 'could not schedule the AI reasoning of the top results');
      return null;
    });

  route(
    app,
    'POST /api/scans',
    { config: { unauthenticatedMessage: PLEASE_LOG_IN } },
    async (request, reply) => {
      const userId = currentUser(request).id;
      const { scanId, ...input } = request.body;
      // Progress notices go out one after another, so every instance's streams see them in order.
      let sent = Promise.resolve();
      const onProgress = scanId
        ? (p: ScanProgress) => {
            const event: AppEvent = {
              type: 'scan',
              action: p.phase,
              userId,
              scanId,
              ...(p.phase === 'fetching' ? { providers: p.providers } : { count: p.count }),
              at: new Date().toISOString(),
            };
            sent = sent
              .then(() => ctx.events.publish(event))
              .catch((err: unknown) => request.log.warn({ err }, 'scan progress not sent'));
          }
        : undefined;
      const scan = 'territoryId' in input ? await territoryScan(db, request, input) : input;
      const page = await runScan(deps, userId, { ...scan, onProgress }).catch((error: unknown) => {
        // The cooldown's 429 also says when to come back the standard way: Retry-After, whole seconds.
        const wait = error instanceof HttpError ? error.extra?.retryAfterMs : undefined;
        if (typeof wait === 'number') void reply.header('retry-after', String(Math.ceil(wait / 1000)));
        throw error;
      });
      await afterScan(request, userId, page);
      ctx.metrics.scans.inc();
      for (const source of page.sources)
        if (!source.ok) ctx.metrics.providerErrors.inc({ provider: source.provider });
      return billed(ctx, currentUser(request), page);
    },
  );

  route(
    app,
    'POST /api/quick-search',
    { config: { unauthenticatedMessage: PLEASE_LOG_IN } },
    async (request) => {
      const userId = currentUser(request).id;
      const page = await quickSearch(deps, userId, request.body);
      await afterScan(request, userId, page);
      return billed(ctx, currentUser(request), page);
    },
  );

  route(app, 'GET /api/geocode', async (request) => {
    const q = request.query.q.trim();
    if (!q) throw badRequest(ADDRESS_EMPTY);
    const found = await ctx.places.geocode(q);
    if (!found) throw notFound(ADDRESS_NOT_FOUND);
    return found;
  });

  route(app, 'GET /api/reverse-geocode', async (request) => {
    const { lat: la, lng: ln } = request.query;
    const label = await ctx.places.reverse(la, ln);
    return { label: label ?? `${la.toFixed(4)}, ${ln.toFixed(4)}` };
  });

  route(
    app,
    'GET /api/places/:id/details',
    async (request) => (await ctx.places.details(request.params.id)) ?? {},
  );

  route(
    app,
    'GET /api/scans/latest',
    { config: { unauthenticatedMessage: PLEASE_LOG_IN } },
    async (request) => {
      const user = currentUser(request);
      const page = await latestPage(db, user.id, request.query.offset, request.query.limit);
      return billed(
        ctx,
        user,
        page ?? { searchId: null, total: 0, loadable: 0, offset: 0, prospects: [], at: null },
      );
    },
  );

  route(app, 'DELETE /api/scans/latest', async (request, reply) => {
    await clearLatestScan(db.kysely, currentUser(request).id);
    return reply.status(204).send();
  });

  route(app, 'PATCH /api/scans/latest/prospects/:id/category', async (request) => {
    const me = currentUser(request);
    const checked = checkCategoryText(request.body.category);
    if (!checked.ok) throw badRequest(CATEGORY_TEXT_MESSAGES[checked.reason]);
    const admin = isAdmin(me);
    const change = await setLatestProspectCategory(db.kysely, me.id, request.params.id, checked.category, {
      mayOverwrite: admin,
    });
    if (!change) throw notFound('That prospect is not in your current results.');
    if (change === 'busy') throw new HttpError(409, 'Your results were changing. Please try again.');
    if (change === 'forbidden') throw forbidden(CATEGORY_ALREADY_SET);
    // Anyone may fill in a missing category; replacing a real one (in the rep's list or the
    // team's) is the admin's correction, and is audited.
    const { prospect, previous, teamPrevious } = change;
    if (admin && (hasRealCategory(previous) || hasRealCategory(teamPrevious))) {
      await recordAudit(
        db,
        me,
        'prospect.category_change',
        { type: 'business', id: prospect.id, label: prospect.name },
        { from: hasRealCategory(teamPrevious) ? teamPrevious : previous, to: prospect.category },
      );
    }
    return { prospect };
  });

  route(app, 'GET /api/admin/cache', async () => cacheStats(db.kysely));

  route(app, 'DELETE /api/admin/cache', async (request, reply) => {
    // One transaction: the caches are not emptied without the entry that says who emptied them.
    await inTransaction(db.kysely, async (trx) => {
      await clearCaches(trx);
      await recordAudit(trx, currentUser(request), 'cache.clear', {
        type: 'cache',
        id: 'analysis+business',
      });
    });
    return reply.status(204).send();
  });
};
