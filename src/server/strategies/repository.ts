import type { Kysely } from 'kysely';
import type { Database, StrategyRequestTable } from '../db/schema.js';
import type { Strategy } from '../../core/strategy/schema.js';
import type { StrategySource } from '../../core/api/strategy.js';

type Conn = Kysely<Database>;

/** Owner of a strategy every rep sees: one written from the server's own facts about the business. */
export const SHARED = '';

export interface KeptStrategy {
  strategy: Strategy;
  source: StrategySource;
  model: string | null;
  createdAt: string;
}

/**
 * The strategy kept for a business that this user may see: the shared one or the user's own, whichever is
 * newer (a rep who regenerated from a card of their own sees what they regenerated).
 */
export async function findStrategy(
  db: Conn,
  businessId: string,
  userId: string,
): Promise<KeptStrategy | undefined> {
  const row = await db
    .selectFrom('strategies')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('owner_id', 'in', [SHARED, userId])
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  return (
    row && {
      strategy: JSON.parse(row.strategy) as Strategy,
      source: row.source as StrategySource,
      model: row.model,
      createdAt: row.created_at,
    }
  );
}

export async function storeStrategy(
  db: Conn,
  key: { businessId: string; ownerId: string },
  kept: { strategy: Strategy; source: string; model: string | null; createdAt: string },
): Promise<void> {
  const values = {
    strategy: JSON.stringify(kept.strategy),
    source: kept.source,
    model: kept.model,
    created_at: kept.createdAt,
  };
  await db
    .insertInto('strategies')
    .values({ business_id: key.businessId, owner_id: key.ownerId, ...values })
    .onConflict((oc) => oc.columns(['business_id', 'owner_id']).doUpdateSet(values))
    .execute();
}

/** A rep asked for a strategy (answered from the kept one, a joined job or a new job): the dashboard counts it. */
export async function recordStrategyRequest(db: Conn, row: StrategyRequestTable): Promise<void> {
  await db.insertInto('strategy_requests').values(row).execute();
}
