import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.js';
import { currentUser } from '../http/access.js';
import { notFound } from '../http/errors.js';
import { route } from '../http/route.js';
import { AI_JOB_FAILED } from '../../core/strategy/messages.js';
import { personalise, type Strategy } from '../../core/strategy/schema.js';
import {
  keptStrategy,
  mayReadStrategyJob,
  POLL_AFTER_MS,
  startStrategy,
  STRATEGY_JOB,
  type GeneratedStrategy,
} from './service.js';

/** A kept strategy carries REP_NAME_SLOT where the rep's name goes: each reader sees their own. */
const forReader = <T extends { strategy: Strategy }>(kept: T, name: string): T => ({
  ...kept,
  strategy: personalise(kept.strategy, name),
});

export const strategyRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { db, jobs } = ctx;

  route(app, 'POST /api/strategies', async (request, reply) => {
    const me = currentUser(request);
    const started = await startStrategy(
      { db, jobs },
      me,
      request.body.prospect,
      request.body.regenerate ?? false,
    );
    if (started.kind === 'kept') {
      return { status: 'complete' as const, ...forReader(started.kept, me.name), cached: true };
    }
    return reply.status(202).send({
      jobId: started.jobId,
      joined: started.joined,
      status: 'pending',
      retryAfterMs: POLL_AFTER_MS,
    });
  });

  route(app, 'GET /api/strategies/jobs/:jobId', async (request, reply) => {
    const me = currentUser(request);
    const job = await jobs.get(request.params.jobId);
    // Another rep's private job answers as if it did not exist: its id says nothing to anyone else.
    if (!job || job.kind !== STRATEGY_JOB || !mayReadStrategyJob(job.key, me.id)) {
      throw notFound('Strategy job not found');
    }
    if (job.status === 'pending' || job.status === 'running') {
      return reply.status(202).send({ jobId: job.id, status: 'pending', retryAfterMs: POLL_AFTER_MS });
    }
    if (job.status === 'error') {
      return reply.status(502).send({ jobId: job.id, status: 'error', error: AI_JOB_FAILED });
    }
    const result = job.result as GeneratedStrategy;
    return { jobId: job.id, status: 'complete' as const, ...forReader(result, me.name) };
  });

  route(app, 'GET /api/strategies/:businessId', async (request) => {
    const me = currentUser(request);
    const kept = await keptStrategy(db, request.params.businessId, me.id);
    if (!kept) throw notFound('No strategy yet for this business');
    return { status: 'complete' as const, ...forReader(kept, me.name) };
  });
};
