import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Prospect, ProspectAnalysis } from '../../core/types.js';
import { updateLatestScan } from '../scans/repository.js';

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
const RETRIES = 6;

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
 * was written for (the latest scan may be a newer one that found the same business). Only those prospects
 * change, on the CURRENT stored list: a compare-and-set on the row's version (updateLatestScan), read again
 * and re-applied when a scan, a quick search or the website job wrote in between. Returns how many changed.
 */
export async function writeLatestScanReasoning(
  db: Conn,
  userId: string,
  written: readonly WrittenReasoning[],
): Promise<number> {
  const byHash = new Map(written.map((w) => [w.businessHash, w]));
  const done = await updateLatestScan(db, userId, ({ prospects }) => {
    let changed = 0;
    const next = prospects.map((p) => {
      const a = p.aiAnalysis;
      const w = a && byHash.get(a.businessHash);
      if (!a || !w || a.analyzedAt !== w.analyzedAt) return p;
      if (a.reasoning === w.reasoning && a.reasoningModel === w.model) return p;
      changed++;
      return { ...p, aiAnalysis: { ...a, reasoning: w.reasoning, reasoningModel: w.model } };
    });
    return changed === 0 ? null : { prospects: next, answer: changed };
  });
  return typeof done === 'number' ? done : 0;
}

/**
 * Puts the texts into the team's list (All Prospects), on the copy of each business whose analysis is the one
 * the text was written for; a copy a later scan replaced is left alone (compare-and-set on the JSON). Returns
 * how many copies changed.
 */
export async function writeTeamReasoning(db: Conn, written: readonly WrittenReasoning[]): Promise<number> {
  let changed = 0;
  for (const w of written) {
    const ids = await db
      .selectFrom('team_prospects')
      .select('business_id')
      .where('analysis_hash', '=', w.businessHash)
      .execute();
    for (const { business_id: id } of ids) {
      // Compare-and-set on the copy, read again when another writer (the website job) changed it in between.
      for (let attempt = 0; attempt < RETRIES; attempt++) {
        const row = await db
          .selectFrom('team_prospects')
          .select('prospect')
          .where('business_id', '=', id)
          .executeTakeFirst();
        if (!row) break;
        const p = JSON.parse(row.prospect) as Prospect;
        const a = p.aiAnalysis;
        if (!a || a.analyzedAt !== w.analyzedAt) break;
        if (a.reasoning === w.reasoning && a.reasoningModel === w.model) break;
        const next = JSON.stringify({
          ...p,
          aiAnalysis: { ...a, reasoning: w.reasoning, reasoningModel: w.model },
        });
        const result = await db
          .updateTable('team_prospects')
          .set({ prospect: next })
          .where('business_id', '=', id)
          .where('prospect', '=', row.prospect)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 1) {
          changed++;
          break;
        }
      }
    }
  }
  return changed;
}
