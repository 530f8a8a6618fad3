import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Prospect, ProspectAnalysis } from '../../core/types.js';

type Conn = Kysely<Database>;

/** A model-written reasoning text for the analysis of one business, as it was when the job was asked. */
export interface WrittenReasoning {
  businessHash: string;
  /** The analysis the text was written for: a row or prospect analysed again since is left alone. */
  analyzedAt: string;
  reasoning: string;
  model: string;
}

/** How often an optimistic write is tried again when another writer changed the row in between. */
const RETRIES = 3;

/**
 * Puts the texts into the analysis cache rows of their businesses: `reasoning` and `reasoningModel` in the
 * JSON, model version and freshness unchanged (the analysis itself is the scoring model's). Each row is
 * written only if it still holds the analysis the text was written for, and only if nobody wrote it in
 * between (compare-and-set on the JSON). Returns how many rows changed.
 */
export async function writeCacheReasoning(db: Conn, written: readonly WrittenReasoning[]): Promise<number> {
  let changed = 0;
  for (const w of written) {
    for (let attempt = 0; attempt < RETRIES; attempt++) {
      const row = await db
        .selectFrom('analysis_cache')
        .select('data')
        .where('business_id', '=', w.businessHash)
        .executeTakeFirst();
      if (!row) break;
      const data = JSON.parse(row.data) as ProspectAnalysis;
      if (data.analyzedAt !== w.analyzedAt) break;
      const next = JSON.stringify({ ...data, reasoning: w.reasoning, reasoningModel: w.model });
      const result = await db
        .updateTable('analysis_cache')
        .set({ data: next })
        .where('business_id', '=', w.businessHash)
        .where('data', '=', row.data)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) {
        changed++;
        break;
      }
    }
  }
  return changed;
}

/**
 * Puts the texts into the user's stored latest results, on every prospect whose analysis is the one the text
 * was written for (the latest scan may be a newer one that found the same business). Compare-and-set on the
 * stored JSON, so a scan saved in between is never overwritten. Returns how many prospects changed.
 */
export async function writeLatestScanReasoning(
  db: Conn,
  userId: string,
  written: readonly WrittenReasoning[],
): Promise<number> {
  const byHash = new Map(written.map((w) => [w.businessHash, w]));
  for (let attempt = 0; attempt < RETRIES; attempt++) {
    const row = await db
      .selectFrom('latest_scans')
      .select('prospects')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row) return 0;
    const prospects = JSON.parse(row.prospects) as Prospect[];
    let changed = 0;
    for (const p of prospects) {
      const a = p.aiAnalysis;
      const w = a && byHash.get(a.businessHash);
      if (!a || !w || a.analyzedAt !== w.analyzedAt) continue;
      if (a.reasoning === w.reasoning && a.reasoningModel === w.model) continue;
      p.aiAnalysis = { ...a, reasoning: w.reasoning, reasoningModel: w.model };
      changed++;
    }
    if (changed === 0) return 0;
    const result = await db
      .updateTable('latest_scans')
      .set({ prospects: JSON.stringify(prospects) })
      .where('user_id', '=', userId)
      .where('prospects', '=', row.prospects)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) return changed;
  }
  return 0;
}

/**
 * Puts the texts into the team's list (All Prospects), on the copy of each business whose analysis is the one
 * the text was written for; a copy a later scan replaced is left alone (compare-and-set on the JSON). Returns
 * how many copies changed.
 */
export async function writeTeamReasoning(db: Conn, written: readonly WrittenReasoning[]): Promise<number> {
  let changed = 0;
  for (const w of written) {
    const rows = await db
      .selectFrom('team_prospects')
      .select(['business_id', 'prospect'])
      .where('analysis_hash', '=', w.businessHash)
      .execute();
    for (const row of rows) {
      const p = JSON.parse(row.prospect) as Prospect;
      const a = p.aiAnalysis;
      if (!a || a.analyzedAt !== w.analyzedAt) continue;
      if (a.reasoning === w.reasoning && a.reasoningModel === w.model) continue;
      const next = JSON.stringify({
        ...p,
        aiAnalysis: { ...a, reasoning: w.reasoning, reasoningModel: w.model },
      });
      const result = await db
        .updateTable('team_prospects')
        .set({ prospect: next })
        .where('business_id', '=', row.business_id)
        .where('prospect', '=', row.prospect)
        .executeTakeFirst();
      changed += Number(result.numUpdatedRows);
    }
  }
  return changed;
}
