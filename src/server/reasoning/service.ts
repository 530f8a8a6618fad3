// Model-written reasoning of the top results. When an AI endpoint is configured and the team switch
// "useLlmAnalysis" (Admin Panel, Algorithm Settings) is on, a scan enqueues one background job; the scan
// answers without waiting for it. The job asks the model for each of the top N businesses' reasoning text,
// puts the texts into the analysis cache rows (with the model's name in reasoningModel) and into the user's
// stored latest results, then tells that user's open screens to refetch their list. Scores, confidence and
// recommendations stay the scoring model's. A failed or refused answer leaves the scoring model's text.
import { z } from 'zod';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.js';
import type { EventBus } from '../events/bus.js';
import type { JobQueue } from '../jobs/queue.js';
import { readAlgorithmSettings } from '../settings/service.js';
import type { AiClient } from '../ai/client.js';
import { reasoningSubjectSchema, writeReasoning, type ReasoningSubject } from '../ai/reasoning.js';
import type { Prospect } from '../../core/types.js';
import {
  writeCacheReasoning,
  writeLatestScanReasoning,
  writeTeamReasoning,
  type WrittenReasoning,
} from './repository.js';
import { settleAfterAnswer } from '../scans/after-answer.js';

export const REASONING_JOB = 'reasoning';
/** After this many failed requests in a row the endpoint is taken as down and the rest are not asked. */
const MAX_FAILURES_IN_A_ROW = 2;

const itemSchema = z.object({
  businessHash: z.string().min(1).max(200),
  analyzedAt: z.string().max(40),
  subject: reasoningSubjectSchema,
});
const payloadSchema = z.object({
  userId: z.string().min(1),
  searchId: z.string(),
  items: z.array(itemSchema).max(50),
});
type ReasoningItem = z.infer<typeof itemSchema>;

function toItem(p: Prospect): ReasoningItem | undefined {
  const a = p.aiAnalysis;
  if (!a?.businessHash) return undefined;
  const b = a.breakdown;
  const subject: ReasoningSubject = {
    name: p.name,
    category: p.category,
    types: p.types,
    reviews: p.reviews,
    hasWebsite: !!p.website?.trim(),
    hasPhone: !!p.phone?.trim(),
    score: a.score,
    vertical: b.vertical,
    rule: b.rule,
    fit: b.fit,
    presence: b.presence,
    propensity: b.propensity,
    keywordMatches: b.keywordMatches,
    brand: b.brand,
    dealerGroup: b.dealerGroup,
    recommendations: a.recommendations,
    // The website check's signals known when the scan answered (fresh evidence); those that arrive later extend
    // the model's text with the evidence sentences (websites/repository.ts), no new request.
    signals: (p.signals ?? [])
      .slice(0, 30)
      .map((x) => ({ label: x.label.slice(0, 100), url: x.url.slice(0, 2000) })),
  };
  if (p.rating !== undefined) subject.rating = p.rating;
  if (p.city) subject.city = p.city;
  if (p.state) subject.state = p.state;
  const parsed = itemSchema.safeParse({ businessHash: a.businessHash, analyzedAt: a.analyzedAt, subject });
  return parsed.success ? parsed.data : undefined;
}

export interface ReasoningDeps {
  db: Db;
  jobs: JobQueue;
  /** The configured AI endpoint, or null: then nothing is ever scheduled. */
  client: AiClient | null;
  /** At most this many of the top results (AI_ANALYSIS_TOP_N). */
  topN: number;
}

/**
 * After a scan: enqueue the rewrite of the first page's top results (the first min(N, count) prospects, best
 * first) whose text is not model-written yet. One small insert; the model is never awaited here. Resolves
 * with the job id, or null when nothing is to be done (no endpoint, switch off, nothing left to rewrite).
 */
export async function scheduleReasoning(
  deps: ReasoningDeps,
  userId: string,
  scan: { searchId: string; prospects: readonly Prospect[] },
): Promise<string | null> {
  if (!deps.client || deps.topN <= 0) return null;
  const settings = await readAlgorithmSettings(deps.db);
  if (!settings.useLlmAnalysis) return null;
  const items = scan.prospects
    .slice(0, deps.topN)
    .filter((p) => !p.aiAnalysis?.reasoningModel)
    .map(toItem)
    .filter((i): i is ReasoningItem => i !== undefined);
  if (items.length === 0) return null;
  const { id } = await deps.jobs.enqueue(REASONING_JOB, scan.searchId, userId, {
    userId,
    searchId: scan.searchId,
    items,
  });
  return id;
}

/** The worker side of the reasoning job. */
export function registerReasoningWorker(
  queue: JobQueue,
  deps: { db: Db; events: EventBus; client: AiClient; log: FastifyBaseLogger; jobDeadlineMs: number },
): void {
  queue.register(REASONING_JOB, async (payload, job) => {
    const { userId, items } = payloadSchema.parse(payload);
    // The same budget as a strategy: a slow endpoint must not hold a worker slot for long.
    const left = Date.parse(job.createdAt) + deps.jobDeadlineMs - Date.now();
    const signal = AbortSignal.timeout(Math.max(0, left));
    const written: WrittenReasoning[] = [];
    let failures = 0;
    for (const item of items) {
      if (signal.aborted) {
        deps.log.warn({ jobId: job.id }, 'AI reasoning: deadline passed');
        break;
      }
      try {
        const answer = await writeReasoning(deps.client, item.subject, { signal });
        failures = 0;
        if (answer.ok) {
          written.push({
            businessHash: item.businessHash,
            analyzedAt: item.analyzedAt,
            reasoning: answer.reasoning,
            model: answer.model,
          });
        } else {
          deps.log.warn(
            { businessHash: item.businessHash, error: answer.error },
            'AI reasoning refused; the scoring model text stays',
          );
        }
      } catch (error) {
        if (signal.aborted) {
          deps.log.warn({ jobId: job.id }, 'AI reasoning: deadline passed');
          break;
        }
        failures++;
        deps.log.warn(
          { err: error, businessHash: item.businessHash },
          'AI reasoning request failed; the scoring model text stays',
        );
        if (failures >= MAX_FAILURES_IN_A_ROW) break;
      }
    }
    if (written.length === 0) return { asked: items.length, written: 0 };
    // The scan's cache entries are written after its answer: those of this process are in before the texts go in.
    await settleAfterAnswer(deps.db);
    const cached = await writeCacheReasoning(deps.db.kysely, written);
    const shown = await writeLatestScanReasoning(deps.db.kysely, userId, written);
    const team = await writeTeamReasoning(deps.db.kysely, written);
    if (shown > 0) {
      await deps.events.publish({
        type: 'prospects',
        action: 'reasoning',
        userId,
        count: shown,
        at: new Date().toISOString(),
      });
    }
    return { asked: items.length, written: written.length, cached, shown, team };
  });
}
