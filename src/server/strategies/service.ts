import type { Db } from '../db/database.js';
import { nowIso } from '../db/database.js';
import type { JobQueue } from '../jobs/queue.js';
import type { Strategy } from '../../core/strategy/schema.js';
import type { StrategyInput } from '../../core/strategy/input.js';
import { prospectSchema, type ProspectInput } from '../saved/schema.js';

export const STRATEGY_JOB = 'strategy';
/** The browser polls from 800 ms growing to 2,500 ms (SPEC §9); the server suggests the first interval. */
export const POLL_AFTER_MS = 800;
/** Strategy requests one user may start per minute before being asked to back off (429). */
export const STRATEGY_REQUESTS_PER_MINUTE = 20;

/** The prospect as the client sends it (the same schema as a saved prospect). */
export const strategyRequestSchema = prospectSchema;
export type StrategyRequest = ProspectInput;

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

export type StrategyGenerator = (input: StrategyInput) => Promise<GeneratedStrategy>;

export async function findStrategy(db: Db, businessId: string) {
  const row = await db.kysely
    .selectFrom('strategies')
    .selectAll()
    .where('business_id', '=', businessId)
    .executeTakeFirst();
  return (
    row && {
      strategy: JSON.parse(row.strategy) as Strategy,
      source: row.source,
      model: row.model,
      createdAt: row.created_at,
    }
  );
}

async function storeStrategy(db: Db, businessId: string, generated: GeneratedStrategy): Promise<void> {
  const values = {
    strategy: JSON.stringify(generated.strategy),
    source: generated.source,
    model: generated.model ?? null,
    created_at: nowIso(),
  };
  await db.kysely
    .insertInto('strategies')
    .values({ business_id: businessId, ...values })
    .onConflict((oc) => oc.column('business_id').doUpdateSet(values))
    .execute();
}

/** The worker side: generate, keep the result per business, hand it back as the job's result. */
export function registerStrategyWorker(queue: JobQueue, db: Db, generate: StrategyGenerator): void {
  queue.register(STRATEGY_JOB, async (payload, job) => {
    const { prospect, repName } = payload as { prospect: unknown; repName?: string };
    const input = toStrategyInput(
      strategyRequestSchema.parse(prospect),
      repName ? { name: repName } : undefined,
    );
    const generated = await generate(input);
    await storeStrategy(db, job.key, generated);
    return generated;
  });
}
