// Storage of the website evidence (issue 17): the evidence per business key, the website jobs' queue view, and
// putting arriving evidence into the stored results (each rep's latest scan, the team's list).
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Business, Prospect, ProspectAnalysis } from '../../core/types.js';
import { isEvidenceFresh } from '../../core/websites/detect.js';
import { websiteEvidenceSchema, type WebsiteEvidence } from '../../core/websites/signals.js';
import { nowIso } from '../db/database.js';

type Conn = Kysely<Database>;
const READ_CHUNK = 500;
const RETRIES = 3;

export const WEBSITE_JOB = 'website';

function parseEvidence(text: string): WebsiteEvidence | undefined {
  try {
    const parsed = websiteEvidenceSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The stored evidence of these businesses that is fresh and of the website they have now. */
export async function readFreshEvidence(
  db: Conn,
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
      .where('business_key', 'in', part)
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
  return db.transaction().execute(async (trx) => {
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

/** A prospect with the evidence: its signals, and its analysis scored again (unless a rule or the fallback decided it). */
function withEvidence(
  p: Prospect,
  business: Business,
  evidence: WebsiteEvidence,
  rescore: Rescore,
): Prospect {
  const next: Prospect = { ...p, signals: evidence.signals };
  const a = p.aiAnalysis;
  if (a && a.breakdown.rule === null) {
    const analysis = rescore({ ...business, websiteEvidence: evidence }, p);
    if (analysis) {
      next.aiAnalysis = { ...analysis, businessHash: a.businessHash };
      next.score = analysis.score / 100;
    }
  }
  return next;
}

/**
 * Puts the evidence into every rep's latest results holding the business (by its analysis's business hash):
 * signals, score and reasoning, then the list in score order again. Compare-and-set on the stored JSON, so a
 * scan saved in between is never overwritten. Returns the users whose results changed.
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
  const changed: string[] = [];
  for (const { user_id: userId } of candidates) {
    for (let attempt = 0; attempt < RETRIES; attempt++) {
      const row = await db
        .selectFrom('latest_scans')
        .select('prospects')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!row) break;
      const prospects = JSON.parse(row.prospects) as Prospect[];
      let hits = 0;
      const next = prospects.map((p) => {
        if (p.aiAnalysis?.businessHash !== key) return p;
        hits++;
        return withEvidence(p, business, evidence, rescore);
      });
      if (hits === 0) break;
      next.sort(byScore);
      const result = await db
        .updateTable('latest_scans')
        .set({ prospects: JSON.stringify(next) })
        .where('user_id', '=', userId)
        .where('prospects', '=', row.prospects)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) {
        changed.push(userId);
        break;
      }
    }
  }
  return changed;
}

/** Puts the evidence into the team's list (All Prospects) copies of the business. Returns how many changed. */
export async function applyToTeamProspects(
  db: Conn,
  key: string,
  business: Business,
  evidence: WebsiteEvidence,
  rescore: Rescore,
): Promise<number> {
  const rows = await db
    .selectFrom('team_prospects')
    .select(['business_id', 'prospect'])
    .where('analysis_hash', '=', key)
    .execute();
  let changed = 0;
  for (const row of rows) {
    const p = withEvidence(JSON.parse(row.prospect) as Prospect, business, evidence, rescore);
    const result = await db
      .updateTable('team_prospects')
      .set({ prospect: JSON.stringify(p), score: p.score })
      .where('business_id', '=', row.business_id)
      .where('prospect', '=', row.prospect)
      .executeTakeFirst();
    changed += Number(result.numUpdatedRows);
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
