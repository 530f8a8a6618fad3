// Storage of the website evidence: the evidence per business key, the website jobs' queue view, and putting
// arriving evidence into the stored results (each rep's latest scan, the team's list).
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Business, Prospect, ProspectAnalysis } from '../../core/types.js';
import { isEvidenceFresh } from '../../core/websites/detect.js';
import { websiteEvidenceSchema, type WebsiteEvidence } from '../../core/websites/signals.js';
import { inTexts, nowIso, type Db, inTransaction } from '../db/database.js';
import { updateLatestScan } from '../scans/repository.js';
import { sourceFields } from '../../core/scoring/index.js';
import { websiteSentences } from '../../core/scoring/website-evidence.js';

type Conn = Kysely<Database>;
const READ_CHUNK = 500;
/** Tries of a compare-and-set on one team copy before giving up (a copy replaced that often is newer). */
const RETRIES = 6;

export const WEBSITE_JOB = 'website';

/** A stored evidence document, or undefined when it is not one (a damaged row counts as no check). */
export function parseEvidence(text: string): WebsiteEvidence | undefined {
  try {
    const parsed = websiteEvidenceSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The stored evidence of these businesses that is fresh and of the website they have now. */
export async function readFreshEvidence(
  { kysely: db, kind }: Db,
  wanted: readonly { key: string; website: string }[],
  now = Date.now(),
): Promise<Map<string, WebsiteEvidence>> {
  const out = new Map<string, WebsiteEvidence>();
  const websiteOf = new Map(wanted.map((w) => [w.key, w.website]));
  const keys = [...websiteOf.keys()];
  for (let i = 0; i < keys.length; i += READ_CHUNK) {
    const part = keys.slice(i, i + READ_CHUNK);
    const rows = await db
      .selectFrom('website_evidence')
      .select(['business_key', 'website', 'evidence'])
      .where(inTexts(kind, 'business_key', part))
      .execute();
    for (const row of rows) {
      if (row.website !== websiteOf.get(row.business_key)) continue;
      const e = parseEvidence(row.evidence);
      if (e && isEvidenceFresh(e, now)) out.set(row.business_key, e);
    }
  }
  return out;
}

export async function writeEvidence(
  db: Conn,
  key: string,
  website: string,
  evidence: WebsiteEvidence,
  business: Business,
): Promise<void> {
  const row = {
    business_key: key,
    website,
    status: evidence.status,
    rules: evidence.rules,
    checked_at: evidence.checkedAt,
    evidence: JSON.stringify(evidence),
    business: JSON.stringify({ ...business, websiteEvidence: undefined }),
  };
  await db
    .insertInto('website_evidence')
    .values(row)
    .onConflict((oc) =>
      oc.column('business_key').doUpdateSet({
        website: row.website,
        status: row.status,
        rules: row.rules,
        checked_at: row.checked_at,
        evidence: row.evidence,
        business: row.business,
      }),
    )
    .execute();
}

export async function readEvidenceRow(db: Conn, key: string) {
  const row = await db
    .selectFrom('website_evidence')
    .selectAll()
    .where('business_key', '=', key)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    key: row.business_key,
    website: row.website,
    evidence: parseEvidence(row.evidence),
    business: JSON.parse(row.business) as Business,
  };
}

/**
 * Adds a website job for each business that has none pending or running, in one transaction (on PostgreSQL
 * under one advisory lock, so two instances do not both add one). Returns how many were added.
 */
export async function enqueueChecks(
  db: Conn,
  kind: 'postgres' | 'sqlite',
  userId: string | null,
  items: readonly { key: string; payload: unknown }[],
): Promise<number> {
  if (items.length === 0) return 0;
  return inTransaction(db, async (trx) => {
    if (kind === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${WEBSITE_JOB}))`.execute(trx);
    const active = new Set<string>();
    for (let i = 0; i < items.length; i += READ_CHUNK) {
      const rows = await trx
        .selectFrom('jobs')
        .select('key')
        .where('kind', '=', WEBSITE_JOB)
        .where('status', 'in', ['pending', 'running'])
        .where(
          'key',
          'in',
          items.slice(i, i + READ_CHUNK).map((x) => x.key),
        )
        .execute();
      for (const r of rows) active.add(r.key);
    }
    const now = nowIso();
    const fresh = items.filter((x, i) => !active.has(x.key) && items.findIndex((y) => y.key === x.key) === i);
    for (let i = 0; i < fresh.length; i += 100) {
      await trx
        .insertInto('jobs')
        .values(
          fresh.slice(i, i + 100).map((x) => ({
            id: randomUUID(),
            kind: WEBSITE_JOB,
            key: x.key,
            user_id: userId,
            payload: JSON.stringify(x.payload),
            status: 'pending' as const,
            result: null,
            error: null,
            attempts: 0,
            locked_by: null,
            locked_until: null,
            created_at: now,
            updated_at: now,
          })),
        )
        .execute();
    }
    return fresh.length;
  });
}

/** Re-scores one prospect with the evidence (the business as scanned, at the prospect's distance). */
export type Rescore = (business: Business, prospect: Prospect) => ProspectAnalysis | null;

function byScore(a: Prospect, b: Prospect): number {
  return (
    b.score - a.score || a.distance - b.distance || a.name.localeCompare(b.name) || a.id.localeCompare(b.id)
  );
}

/**
 * A prospect with the evidence: its signals, and its analysis scored again (unless a rule or the fallback decided
 * it). A reasoning text the model wrote before the evidence arrived stays, extended with the evidence sentences
 * (no new request to the model); `modelText` is that text as the model wrote it (the analysis cache's), so a
 * second check replaces the sentences of the first instead of adding to them.
 */
function withEvidence(
  p: Prospect,
  business: Business,
  evidence: WebsiteEvidence,
  rescore: Rescore,
  modelText: string | undefined,
): Prospect {
  const next: Prospect = { ...p, signals: evidence.signals };
  const a = p.aiAnalysis;
  if (a && a.breakdown.rule === null) {
    const analysis = rescore({ ...business, websiteEvidence: evidence }, p);
    if (analysis) {
      next.aiAnalysis = { ...analysis, businessHash: a.businessHash };
      if (a.reasoningModel) {
        const base = modelText ?? a.reasoning;
        const extra = websiteSentences(evidence, sourceFields(business.source));
        next.aiAnalysis.reasoning = extra ? `${base} ${extra}` : base;
        next.aiAnalysis.reasoningModel = a.reasoningModel;
      }
      next.score = analysis.score / 100;
    }
  }
  return next;
}

/** The model-written reasoning of a business as the reasoning job cached it, if any. */
async function cachedModelText(db: Conn, key: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('analysis_cache')
    .select('data')
    .where('business_id', '=', key)
    .executeTakeFirst();
  if (!row) return undefined;
  try {
    const data = JSON.parse(row.data) as Partial<ProspectAnalysis>;
    return data.reasoningModel && typeof data.reasoning === 'string' ? data.reasoning : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Puts the evidence into every rep's latest results holding the business (by its analysis's business hash):
 * signals, score and reasoning. Only those prospects change, on the CURRENT stored list (updateLatestScan: a
 * compare-and-set on the row's version, read again and re-applied when a scan or quick search wrote in
 * between). A ranked list (a scan, a category search) is put in score order again; a business lookup's list
 * keeps the businesses found on top, so nothing moves there. Returns the users whose results changed.
 */
export async function applyToLatestScans(
  db: Conn,
  key: string,
  business: Business,
  evidence: WebsiteEvidence,
  rescore: Rescore,
): Promise<string[]> {
  const needle = `%"businessHash":${JSON.stringify(key)}%`;
  const candidates = await db
    .selectFrom('latest_scans')
    .select('user_id')
    .where('prospects', 'like', needle)
    .execute();
  if (candidates.length === 0) return [];
  const modelText = await cachedModelText(db, key);
  const changed: string[] = [];
  for (const { user_id: userId } of candidates) {
    const done = await updateLatestScan(db, userId, ({ prospects, kind }) => {
      let hits = 0;
      const next = prospects.map((p) => {
        if (p.aiAnalysis?.businessHash !== key) return p;
        hits++;
        return withEvidence(p, business, evidence, rescore, modelText);
      });
      if (hits === 0) return null;
      if (kind !== 'quick-business') next.sort(byScore);
      return { prospects: next, answer: true };
    });
    if (done === true) changed.push(userId);
  }
  return changed;
}

/**
 * Puts the evidence into the team's list (All Prospects) copies of the business: compare-and-set on each copy,
 * read again when a scan replaced it in between. Returns how many changed.
 */
export async function applyToTeamProspects(
  db: Conn,
  key: string,
  business: Business,
  evidence: WebsiteEvidence,
  rescore: Rescore,
): Promise<number> {
  const ids = await db
    .selectFrom('team_prospects')
    .select('business_id')
    .where('analysis_hash', '=', key)
    .execute();
  if (ids.length === 0) return 0;
  const modelText = await cachedModelText(db, key);
  let changed = 0;
  for (const { business_id: id } of ids) {
    for (let attempt = 0; attempt < RETRIES; attempt++) {
      const row = await db
        .selectFrom('team_prospects')
        .select(['prospect', 'analysis_hash'])
        .where('business_id', '=', id)
        .executeTakeFirst();
      if (!row || row.analysis_hash !== key) break;
      const p = withEvidence(JSON.parse(row.prospect) as Prospect, business, evidence, rescore, modelText);
      const result = await db
        .updateTable('team_prospects')
        .set({ prospect: JSON.stringify(p), score: p.score })
        .where('business_id', '=', id)
        .where('prospect', '=', row.prospect)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) {
        changed++;
        break;
      }
    }
  }
  return changed;
}

/** The website checks' queue for the Admin Panel: waiting, done and failed, and the latest ones. */
export async function websiteQueue(db: Conn, limit = 50) {
  const rows = await db
    .selectFrom('jobs')
    .select(['status', (eb) => eb.fn.countAll<string | number>().as('n')])
    .where('kind', '=', WEBSITE_JOB)
    .groupBy('status')
    .execute();
  const count = (s: string) => Number(rows.find((r) => r.status === s)?.n ?? 0);
  const failedChecks = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('kind', '=', WEBSITE_JOB)
    .where('status', '=', 'complete')
    .where('result', 'like', '%"status":"failed"%')
    .executeTakeFirstOrThrow();
  const recent = await db
    .selectFrom('jobs')
    .select(['id', 'key', 'status', 'payload', 'result', 'error', 'created_at', 'updated_at'])
    .where('kind', '=', WEBSITE_JOB)
    .orderBy('updated_at', 'desc')
    .limit(limit)
    .execute();
  const failed = Number(failedChecks.n);
  return {
    waiting: count('pending') + count('running'),
    done: count('complete') - failed,
    failed: count('error') + failed,
    recent: recent.map((r) => {
      const asked = JSON.parse(r.payload) as { website?: string; business?: { name?: string } };
      const result = r.result
        ? (JSON.parse(r.result) as {
            status?: string;
            reason?: string | null;
            website?: string;
            name?: string;
          })
        : null;
      return {
        id: r.id,
        businessKey: r.key,
        name: result?.name ?? asked.business?.name ?? null,
        website: result?.website ?? asked.website ?? null,
        state:
          r.status === 'pending' || r.status === 'running'
            ? ('waiting' as const)
            : r.status === 'error' || result?.status === 'failed'
              ? ('failed' as const)
              : ('done' as const),
        outcome: result?.status ?? null,
        reason: r.error ?? result?.reason ?? null,
        updatedAt: r.updated_at,
      };
    }),
  };
}
