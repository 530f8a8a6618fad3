// The work an instance does beside answering requests: the job queues and their workers, the morning digest's
// tick, region refreshes, the hourly sweeps and a scan's writes after its answer. Each task starts once the app
// is ready and stops before it closes, while the database is still open, in the order registered here.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from './context.js';
import type { Resolver } from './websites/address.js';
import { getBrandIndex } from '../core/scoring/nsi.js';
import { registerDigestWorker, startDigestScheduler, type DigestDeps } from './follow-ups/digest.js';
import { createRescoreFn } from './scans/analysis.js';
import { registerWebsiteWorker } from './websites/service.js';
import { raisePlaceRank } from './places/ranks.js';
import { registerStrategyWorker } from './strategies/service.js';
import { generateStrategy } from './ai/index.js';
import { registerReasoningWorker } from './reasoning/service.js';
import { createReleaseSweeper } from './pipeline/service.js';
import { createIdempotencySweeper } from './http/idempotency.js';
import { createRegionWorker } from './areas/service.js';
import { afterAnswer } from './scans/after-answer.js';

/** How often each instance looks for stale pipeline claims and expired Idempotency-Keys. */
const SWEEP_MS = 60 * 60 * 1000;

/** A task that runs while the app is open. */
interface Task {
  start(): void;
  stop(): Promise<void> | void;
}

/** Starts `task` when the app is ready; stops it (and waits for what it has in hand) before the app closes. */
function whileOpen(app: FastifyInstance, task: Task): void {
  app.addHook('onReady', async () => task.start());
  app.addHook('preClose', async () => task.stop());
}

export interface BackgroundOptions {
  ctx: AppContext;
  /** For tests: how website checks resolve host names (default: DNS). */
  websiteResolver?: Resolver;
}

async function background(app: FastifyInstance, { ctx, websiteResolver }: BackgroundOptions) {
  const { db, config, log } = ctx;
  ctx.market.start();
  // A rebuild under way finishes before the database closes.
  app.addHook('onClose', () => ctx.market.settled().then(() => undefined));
  await ctx.events.ready();
  app.addHook('onClose', () => ctx.events.close());

  // Website checks work on a queue of their own, so they never hold up a rep's strategy or reasoning job.
  const websiteQueue = ctx.websites.queue;
  if (websiteQueue) {
    registerWebsiteWorker(websiteQueue, {
      db,
      events: ctx.events,
      log,
      settings: config.websites,
      rescore: createRescoreFn(() => getBrandIndex()),
      rankPlace: (placeId, evidence) => raisePlaceRank(db, placeId, evidence, getBrandIndex()),
      ...(websiteResolver ? { resolve: websiteResolver } : {}),
    });
  }
  const aiClient = ctx.ai;
  registerStrategyWorker(
    ctx.jobs,
    db,
    async (input, { deadlineMs }) => {
      const result = await generateStrategy(input, aiClient, {
        deadlineMs,
        onError: (stage, error) => log.warn({ stage, error }, 'AI strategy fell back'),
      });
      return { strategy: result.strategy, source: result.source, model: result.model };
    },
    { jobDeadlineMs: config.ai.jobDeadlineMs },
  );
  if (aiClient) {
    registerReasoningWorker(ctx.jobs, {
      db,
      events: ctx.events,
      client: aiClient,
      log,
      jobDeadlineMs: config.ai.jobDeadlineMs,
    });
  }
  // The morning digest: a tick on every instance enqueues each rep's day once; the job sends it.
  const digest: DigestDeps = {
    db,
    mailer: ctx.mailer,
    log,
    publicUrl: config.publicUrl,
    digestHour: config.digestHour,
  };
  registerDigestWorker(ctx.jobs, digest);

  // The queues start once the app is ready and, on close, stop claiming and finish the jobs in hand: the website
  // checks first, then the digest tick, then the main queue the tick feeds.
  if (websiteQueue) whileOpen(app, websiteQueue);
  let digestTick: { stop(): void } | undefined;
  whileOpen(app, {
    start: () => {
      digestTick = startDigestScheduler(digest, ctx.jobs);
    },
    stop: () => digestTick?.stop(),
  });
  whileOpen(app, ctx.jobs);
  // Region refreshes (download and import, minutes for a state) work on a queue of their own, one at a time.
  whileOpen(app, createRegionWorker(ctx));
  // Stale pipeline claims are released hourly on every instance; each release is a conditional UPDATE, so
  // instances sweeping at once release each claim once.
  whileOpen(
    app,
    createReleaseSweeper({
      db,
      events: ctx.events,
      log,
      days: config.pipeline.releaseDays,
      intervalMs: SWEEP_MS,
    }),
  );
  // A scan's team list copies and cache entries are written after its answer (scans/after-answer.ts). At start
  // the copies a stopped process still owed are made; at close the writes under way finish.
  const writer = afterAnswer(db);
  writer.log = log;
  whileOpen(app, { start: () => writer.schedule(), stop: () => writer.drain() });
  // Idempotency-Keys of replayed offline writes are kept IDEMPOTENCY_KEY_DAYS, swept hourly.
  whileOpen(app, createIdempotencySweeper({ db, log, intervalMs: SWEEP_MS }));
}

/** The instance's background work, as a plugin whose hooks apply to the whole app. */
export const backgroundWork = fp(background, { name: 'background-work' });
