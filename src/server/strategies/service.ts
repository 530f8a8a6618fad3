import type { Db } from '../db/database.js';
import { nowIso } from '../db/database.js';
import type { JobQueue } from '../jobs/queue.js';
import { HttpError, badRequest } from '../http/errors.js';
import { readLatestScan } from '../scans/repository.js';
import { REP_NAME_SLOT, type Strategy } from '../../core/strategy/schema.js';
import type { StrategyInput } from '../../core/strategy/input.js';
import { AI_BUSY, SET_CATEGORY_FIRST } from '../../core/strategy/messages.js';
import { strategyRequestSchema, type StrategyRequest } from '../../core/api/strategy.js';
import {
  findStrategy,
  recordStrategyRequest,
  SHARED,
  storeStrategy,
  type KeptStrategy,
} from './repository.js';
import { timeOrderedId } from '../call-logs/service.js';

export const STRATEGY_JOB = 'strategy';
/** The browser polls from 800 ms growing to 2,500 ms; the server suggests the first interval. */
export const POLL_AFTER_MS = 800;
/** New strategy jobs one user may start per minute before being asked to back off (429); joining one is free. */
export const STRATEGY_REQUESTS_PER_MINUTE = 20;

const BREAKDOWN_KEYS = ['fit', 'presence', 'scale', 'keywords', 'distance', 'qualitySpread'] as const;

/** The generator's input from a prospect: business facts plus the analysis's score, reasoning and breakdown. */
export function toStrategyInput(p: StrategyRequest, rep?: { name: string }): StrategyInput {
  const input: StrategyInput = {
    name: p.name,
    category: p.category,
    types: p.types ?? [],
    reviews: p.reviews ?? 0,
    score: p.aiAnalysis?.score ?? Math.round(p.score * 100),
  };
  if (p.distance !== undefined) input.distanceMiles = p.distance;
  if (p.rating !== undefined) input.rating = p.rating;
  if (p.website) input.website = p.website;
  if (p.phone) input.phone = p.phone;
  if (p.address) input.address = p.address;
  if (p.city) input.city = p.city;
  if (p.state) input.state = p.state;
  if (p.signals?.length) input.signals = p.signals.map((s) => ({ kind: s.kind, label: s.label }));
  const breakdown = p.aiAnalysis?.breakdown;
  if (p.aiAnalysis?.reasoning) input.reasoning = p.aiAnalysis.reasoning;
  if (breakdown) {
    if (typeof breakdown.vertical === 'string') input.vertical = breakdown.vertical;
    const parts: Record<string, number> = {};
    for (const key of BREAKDOWN_KEYS) {
      const v = breakdown[key];
      if (typeof v === 'number' && Number.isFinite(v)) parts[key] = v;
    }
    input.breakdown = parts;
  }
  if (rep) input.repName = rep.name;
  return input;
}

export interface GeneratedStrategy {
  strategy: Strategy;
  source: 'ai' | 'playbook' | 'fallback';
  model?: string | undefined;
}

/** `deadlineMs`: what is left of the job's AI budget; past it the generator answers with the playbook. */
export type StrategyGenerator = (
  input: StrategyInput,
  limits: { deadlineMs: number },
) => Promise<GeneratedStrategy>;

/**
 * Whose facts a strategy is written from, and so who sees it once kept. When the prospect is in the user's
 * latest scan, the server's own copy (found, scored and stored by the server) supplies the facts and the
 * strategy is shared by every rep. Otherwise (a saved card from an older scan, say) only the client's facts
 * are at hand: they are used, but the strategy is kept for this user alone, so nobody can replace what the
 * other reps see with a strategy built on made-up facts.
 */
export interface StrategySubject {
  businessId: string;
  /** SHARED ('') or the user's id. */
  ownerId: string;
  prospect: StrategyRequest;
}

export async function resolveSubject(
  db: Db,
  userId: string,
  sent: StrategyRequest,
): Promise<StrategySubject> {
  const latest = await readLatestScan(db.kysely, userId);
  const known = latest?.prospects.find((p) => p.id === sent.id);
  const parsed = known ? strategyRequestSchema.safeParse(known) : undefined;
  if (parsed?.success) return { businessId: sent.id, ownerId: SHARED, prospect: parsed.data };
  return { businessId: sent.id, ownerId: userId, prospect: sent };
}

/** A job key starts with whose strategy it is: everyone's, or one rep's. */
const SHARED_KEY_PREFIX = 'shared:';
const ownKeyPrefix = (userId: string) => `user:${userId}:`;

/** Jobs with the same key are joined: reps asking for the same shared strategy share one job. */
export function strategyJobKey(subject: Pick<StrategySubject, 'businessId' | 'ownerId'>): string {
  const prefix = subject.ownerId === SHARED ? SHARED_KEY_PREFIX : ownKeyPrefix(subject.ownerId);
  return `${prefix}${subject.businessId}`;
}

/**
 * Whether a rep may read a strategy job: a shared one (any rep could ask for it and would join it), or a
 * private one of their own. Another rep's private strategy was made from what that rep sent, so it is theirs.
 */
export function mayReadStrategyJob(jobKey: string, userId: string): boolean {
  return jobKey.startsWith(SHARED_KEY_PREFIX) || jobKey.startsWith(ownKeyPrefix(userId));
}

interface StrategyPayload {
  prospect: unknown;
  repName?: string;
  businessId?: string;
  ownerId?: string;
}

export type StartResult =
  { kind: 'kept'; kept: KeptStrategy } | { kind: 'job'; jobId: string; joined: boolean };

/** POST /api/strategies: the kept strategy, or a new (or joined) job; 400 without a category, 429 too often. */
export async function startStrategy(
  deps: { db: Db; jobs: JobQueue },
  me: { id: string; name: string },
  sent: StrategyRequest,
  regenerate: boolean,
): Promise<StartResult> {
  const subject = await resolveSubject(deps.db, me.id, sent);
  const category = subject.prospect.category.trim();
  if (!category || category === 'Business') throw badRequest(SET_CATEGORY_FIRST);
  const recorded = (result: StartResult) =>
    recordStrategyRequest(deps.db.kysely, {
      id: timeOrderedId(),
      user_id: me.id,
      business_id: subject.businessId,
      name: subject.prospect.name,
      category,
      created_at: nowIso(),
    }).then(() => result);
  if (!regenerate) {
    // A job under way is joined before the kept strategy is read: read the other way round, a job finishing
    // in between would be found neither kept nor running, and started again.
    const active = await deps.jobs.activeJob(STRATEGY_JOB, strategyJobKey(subject));
    if (active) return recorded({ kind: 'job', jobId: active, joined: true });
    const kept = await findStrategy(deps.db.kysely, subject.businessId, me.id);
    if (kept) return recorded({ kind: 'kept', kept });
  }
  const payload: StrategyPayload = {
    prospect: subject.prospect,
    // Written with the slot, not this rep's name: a shared strategy is read by every rep (personalise).
    repName: REP_NAME_SLOT,
    businessId: subject.businessId,
    ownerId: subject.ownerId,
  };
  // Counted and added in one step: requests sent at once cannot all pass the count (jobs/queue.ts).
  const added = await deps.jobs.enqueueWithin(STRATEGY_JOB, strategyJobKey(subject), me.id, payload, {
    max: STRATEGY_REQUESTS_PER_MINUTE,
    withinMs: 60_000,
  });
  if (!added) throw new HttpError(429, AI_BUSY, { retryAfterMs: 5_000 });
  return recorded({ kind: 'job', jobId: added.id, joined: added.joined });
}

export const keptStrategy = (db: Db, businessId: string, userId: string) =>
  findStrategy(db.kysely, businessId, userId);

/**
 * The worker side: generate, keep the result per business, hand it back as the job's result. The AI work of
 * a job ends `jobDeadlineMs` after the job was started (time spent waiting in the queue counts), so the
 * browser, which polls for 180 s, always gets an answer.
 */
export function registerStrategyWorker(
  queue: JobQueue,
  db: Db,
  generate: StrategyGenerator,
  { jobDeadlineMs }: { jobDeadlineMs: number },
): void {
  queue.register(STRATEGY_JOB, async (payload, job) => {
    const { prospect, repName, businessId, ownerId } = payload as StrategyPayload;
    const input = toStrategyInput(
      strategyRequestSchema.parse(prospect),
      repName ? { name: repName } : undefined,
    );
    const deadlineMs = Date.parse(job.createdAt) + jobDeadlineMs - Date.now();
    const generated = await generate(input, { deadlineMs });
    // Jobs enqueued before strategies had owners carry no businessId: their key was the business id.
    await storeStrategy(
      db.kysely,
      { businessId: businessId ?? job.key, ownerId: ownerId ?? SHARED },
      {
        strategy: generated.strategy,
        source: generated.source,
        model: generated.model ?? null,
        createdAt: nowIso(),
      },
    );
    return generated;
  });
}
