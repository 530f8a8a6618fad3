// What an imported place carries wherever it is scanned from, kept on its row so a scan can rank every business
// of its circle from the grid index: its intrinsic score when the model scores it (fit, presence, scale and
// keywords weighted), or the rule that decides it (a chain, a hospital...). A scan's score of the place adds only
// what depends on the scan: its standing from the intrinsic score, distance and the batch's quality spread.
import { intrinsicOf, RULE_SCORES, type BrandIndex, type ScoreRule } from '../../core/scoring/index.js';
import { toAnalysisInput } from '../../core/prospect.js';
import type { Business } from '../../core/types.js';
import type { WebsiteEvidence } from '../../core/websites/signals.js';
import { profileVersion } from '../../core/scoring/profile.js';
import type { Db } from '../db/database.js';
import { rowToBusiness } from './local.js';

/**
 * The rules by the codes rows store. Codes are written to the database: append new rules, never reorder.
 */
export const RULE_CODES: readonly ScoreRule[] = [
  'nationalChain',
  'lowPropensity',
  'restricted',
  'autoRepair',
  'chain',
  'gasStation',
  'government',
  'hospital',
  'nonProfit',
];
const CODE_OF = new Map<ScoreRule, number>(RULE_CODES.map((r, i) => [r, i]));
// Every rule has a code: a new rule added to the model without one fails here, at start.
for (const rule of Object.keys(RULE_SCORES) as ScoreRule[]) {
  if (!CODE_OF.has(rule)) throw new Error(`rule ${rule} has no code in RULE_CODES`);
}

export interface PlaceRank {
  rank_score: number | null;
  rank_rule: number | null;
}

/**
 * The rank a place's row keeps (see above), from the business as the scan would read it. With the evidence of a
 * check of its website, the higher of its ranks with and without it: a scan reads only fresh evidence, and a rank
 * must never be below what a scan can score (the scan's ranking reads the best of a circle by it).
 */
export function placeRank(
  business: Business,
  brandIndex: BrandIndex | undefined,
  evidence?: WebsiteEvidence | null,
): PlaceRank {
  const opts = brandIndex ? { brandIndex } : {};
  const r = intrinsicOf(toAnalysisInput(business, null), opts);
  if (r.rule !== null) return { rank_score: null, rank_rule: CODE_OF.get(r.rule) ?? null };
  const checked = evidence
    ? intrinsicOf({ ...toAnalysisInput(business, null), websiteEvidence: evidence }, opts)
    : r;
  const best = Math.max(r.intrinsic, checked.intrinsic ?? 0);
  return { rank_score: Math.round(best * 1e9) / 1e9, rank_rule: null };
}

/**
 * After a check of an imported place's website: its rank raised to what the evidence makes possible (see placeRank),
 * so the next scan that ranks its circle reads it when it should.
 */
export async function raisePlaceRank(
  db: Db,
  placeId: string,
  evidence: WebsiteEvidence,
  brandIndex: BrandIndex | undefined,
): Promise<void> {
  const row = await db.kysely.selectFrom('places').selectAll().where('id', '=', placeId).executeTakeFirst();
  if (!row) return;
  const business = rowToBusiness(row, undefined, undefined, profileVersion(brandIndex));
  const rank = placeRank(business, brandIndex, evidence);
  if (rank.rank_score === row.rank_score && rank.rank_rule === row.rank_rule) return;
  await db.kysely.updateTable('places').set(rank).where('id', '=', placeId).execute();
}

/** The rule a stored code names, or null for a code of no rule. */
export const ruleOfCode = (code: number | null): ScoreRule | null =>
  code === null ? null : (RULE_CODES[code] ?? null);
