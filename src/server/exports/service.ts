import type { Db } from '../db/database.js';
import type { CurrentUser } from '../http/access.js';
import { isSuperAdmin } from '../http/access.js';
import { forbidden, notFound } from '../http/errors.js';
import { fileDate, localDateTime, phoneCell, recordsToCsv, type CsvColumn } from '../../core/csv.js';
import { recordAudit } from '../audit/service.js';
import { creditOf } from '../../core/attribution.js';
import {
  countTeamProspects,
  findLatestScan,
  listTeamProspects,
  type LatestScanRow,
  type TeamProspectRow,
} from './repository.js';
import { storedProspectSchema, type StoredProspect, type TeamProspect } from '../../core/api/admin.js';
import { settleAfterAnswer } from '../scans/after-answer.js';

// Team-wide prospect views for admins, the All Prospects tab and its CSV exports
// (docs/PRODUCT.md, "Exports"): every prospect anyone has scanned (table team_prospects, written by each
// scan; one row per business, the newest scan's copy winning), blocked ones left out, by score. A rep's next
// scan or New Search does not remove any.

export const NO_PROSPECTS_TO_EXPORT = 'No prospects to export';
export const ONLY_SUPERADMINS_EXPORT_CURRENT = 'Only SuperAdmins can export the current scan';

export type { StoredProspect, TeamProspect };

/** The prospects of one rep's stored results; an item that is not a prospect is left out. */
function parseScanProspects(items: unknown[]): StoredProspect[] {
  const out: StoredProspect[] = [];
  for (const item of items) {
    const parsed = storedProspectSchema.safeParse(item);
    if (parsed.success) out.push(parsed.data);
  }
  return out;
}

function withScan(rows: LatestScanRow[]): TeamProspect[] {
  const seen = new Set<string>();
  const out: TeamProspect[] = [];
  for (const row of rows) {
    for (const p of parseScanProspects(row.prospects)) {
      if (seen.has(p.id)) continue;
      seen.add(p.id);
      out.push({ ...p, scannedBy: { id: row.user_id, name: row.user_name }, scannedAt: row.created_at });
    }
  }
  return out;
}

/** A team_prospects row as the views show it; a row whose JSON is not a prospect yields none. */
function presentTeamRows(rows: TeamProspectRow[]): TeamProspect[] {
  const out: TeamProspect[] = [];
  for (const row of rows) {
    let value: unknown;
    try {
      value = JSON.parse(row.prospect);
    } catch {
      continue;
    }
    const parsed = storedProspectSchema.safeParse(value);
    if (!parsed.success) continue;
    out.push({
      ...parsed.data,
      scannedBy: { id: row.scanned_by, name: row.scanned_by_name },
      scannedAt: row.scanned_at,
    });
  }
  return out;
}

/** Every scanned prospect across the team, one per business, without blocked businesses, by score. */
export async function teamProspects(db: Db): Promise<TeamProspect[]> {
  await settleAfterAnswer(db);
  return presentTeamRows(await listTeamProspects(db.kysely));
}

/** A page of {@link teamProspects} and how many there are in all. */
export async function teamProspectsPage(
  db: Db,
  actor: Exporter,
  offset: number,
  limit: number,
): Promise<{ prospects: TeamProspect[]; total: number }> {
  await settleAfterAnswer(db);
  const [rows, total] = await Promise.all([
    listTeamProspects(db.kysely, { offset, limit }),
    countTeamProspects(db.kysely),
  ]);
  const prospects = presentTeamRows(rows);
  // The team's prospects read page by page are the Export All file in parts: each page read is logged too.
  await recordAudit(
    db,
    actor,
    'prospects.view',
    { type: 'prospects', id: 'team' },
    { scope: 'team', offset, limit, rows: prospects.length, total },
  );
  return { prospects, total };
}

/** Street address with city, state and zip appended where the address does not already hold them. */
export function fullAddress(p: Pick<StoredProspect, 'address' | 'city' | 'state' | 'zip'>): string {
  const address = p.address.trim();
  const lower = address.toLowerCase();
  const parts = address ? [address] : [];
  const city = p.city?.trim();
  if (city && !lower.includes(city.toLowerCase())) parts.push(city);
  const stateZip = [p.state?.trim(), p.zip?.trim()]
    .filter((x): x is string => Boolean(x) && !lower.includes(x!.toLowerCase()))
    .join(' ');
  if (stateZip) parts.push(stateZip);
  return parts.join(', ');
}

/** Scores are shown as a percentage, as on the cards. */
const scorePercent = (score: number) => Math.round(Math.min(1, Math.max(0, score)) * 100);

const SUMMARY_COLUMNS: CsvColumn<TeamProspect>[] = [
  ['Name', (p) => p.name],
  ['Category', (p) => p.category],
  ['Address', (p) => fullAddress(p)],
  ['Rating', (p) => p.rating],
  ['Score', (p) => scorePercent(p.score)],
];

const detailColumns = (timeZone: string): CsvColumn<TeamProspect>[] => [
  ['Name', (p) => p.name],
  ['Category', (p) => p.category],
  ['Address', (p) => p.address],
  ['City', (p) => p.city],
  ['State', (p) => p.state],
  ['Zip', (p) => p.zip],
  ['Phone', (p) => phoneCell(p.phone)],
  ['Website', (p) => p.website],
  ['Rating', (p) => p.rating],
  ['Reviews', (p) => p.reviews],
  ['Score', (p) => scorePercent(p.score)],
  ['Confidence', (p) => p.aiAnalysis?.confidence],
  ['Reasoning', (p) => p.aiAnalysis?.reasoning],
  ['Recommendations', (p) => p.aiAnalysis?.recommendations?.join('; ')],
  ['Latitude', (p) => p.lat],
  ['Longitude', (p) => p.lng],
  ['Scanned By', (p) => p.scannedBy.name],
  ['Scanned At', (p) => localDateTime(p.scannedAt, timeZone)],
  ['Id', (p) => p.id],
  ['Time Zone', () => timeZone],
];

/**
 * The columns of an export, with the credit of the open business data as the last column when any row's fields came
 * from it (OpenStreetMap's and Overture Maps' licences ask for the credit wherever their data is shown).
 */
function withCredit(
  columns: CsvColumn<TeamProspect>[],
  prospects: readonly TeamProspect[],
): CsvColumn<TeamProspect>[] {
  if (!prospects.some((p) => creditOf(p.sources))) return columns;
  return [...columns, ['Data Source', (p) => creditOf(p.sources) ?? '']];
}

type Exporter = Pick<CurrentUser, 'id' | 'name' | 'email'>;

/** Export All: all_prospects_summary_{date}.csv with Name, Category, Address, Rating, Score. */
export async function allProspectsSummaryCsv(db: Db, actor: Exporter, now = new Date(), timeZone = 'UTC') {
  const prospects = await teamProspects(db);
  if (prospects.length === 0) throw notFound(NO_PROSPECTS_TO_EXPORT);
  const csv = recordsToCsv(withCredit(SUMMARY_COLUMNS, prospects), prospects);
  // The team's prospects leave the app in this file: the audit log says who took how many.
  await recordAudit(
    db,
    actor,
    'export.all_prospects',
    { type: 'prospects', id: 'team' },
    { scope: 'team', rows: prospects.length },
  );
  return { fileName: `all_prospects_summary_${fileDate(now, timeZone)}.csv`, csv };
}

/**
 * Export Prospects: prospects_{date}.csv with every column. `scope: 'current'` exports the caller's own
 * latest scan in its ranked order (the SuperAdmin-only Export Current Scan section), under the same file-name
 * pattern. {date} and Scanned At are in `timeZone` (the rep's, sent by the browser; UTC when none).
 */
export async function prospectsCsv(
  db: Db,
  actor: CurrentUser,
  scope: 'team' | 'current',
  now = new Date(),
  timeZone = 'UTC',
) {
  let prospects: TeamProspect[];
  if (scope === 'current') {
    if (!isSuperAdmin(actor)) throw forbidden(ONLY_SUPERADMINS_EXPORT_CURRENT);
    const row = await findLatestScan(db.kysely, actor.id);
    prospects = row ? withScan([row]) : [];
  } else {
    prospects = await teamProspects(db);
  }
  if (prospects.length === 0) throw notFound(NO_PROSPECTS_TO_EXPORT);
  const csv = recordsToCsv(withCredit(detailColumns(timeZone), prospects), prospects);
  await recordAudit(
    db,
    actor,
    'export.prospects',
    { type: 'prospects', id: scope },
    { scope, rows: prospects.length },
  );
  return { fileName: `prospects_${fileDate(now, timeZone)}.csv`, csv };
}
