import type { Kysely } from 'kysely';
import type { Db } from '../db/database.js';
import { inTransaction, nowIso } from '../db/database.js';
import type { BillingTable, Database } from '../db/schema.js';
import type { CurrentUser } from '../http/access.js';
import { isAdmin } from '../http/access.js';
import { badRequest } from '../http/errors.js';
import type { EventBus } from '../events/bus.js';
import { recordAudit } from '../audit/service.js';
import { forEachPlace, insertAdvertisersIfAbsent } from '../advertisers/repository.js';
import { putSetting, readBillingSettings } from '../settings/service.js';
import { billingSince, placeNames, replaceMonths } from './repository.js';
import { listTerritoryRows } from '../territories/repository.js';
import { storedTerritory } from '../territories/service.js';
import { territoryContains } from '../../core/territory.js';
import {
  billingStatuses,
  earliestMonthRead,
  formatDollars,
  MAX_AMOUNT_CENTS,
  monthOf,
  parseBillingCsv,
  type BillingMonthRow,
  type BillingStatus,
} from '../../core/billing.js';
import { createBillingMatcher, groupAdvertisers } from '../../core/billing-match.js';
import type { BillingReport, LapsedAdvertiser } from '../../core/api/billing.js';
import type { Prospect } from '../../core/types.js';

// The billing import: an admin's export of the billing system, matched to the imported places, stored per
// business and month (an import replaces the months it covers). Each matched business's standing follows from
// its months and the current month (core/billing.ts): current ones are marked as current advertisers by
// "billing" (a mark a user made stays as it is), lapsed ones are listed and lead their score band in scans.

/** The name a billing mark carries (with no user id): the import made it, so the next import may take it back. */
export const BILLING_MARKER = 'billing';
/** app_settings key holding the time of the latest import: a changed value invalidates the statuses read. */
const STAMP_KEY = 'billing-import';

export interface BillingClock {
  /** BILLING_CURRENT_MONTHS. */
  currentMonths: number;
  now?: () => Date;
}

const currentMonth = (clock: BillingClock) => monthOf(clock.now?.() ?? new Date());

/**
 * Reads, matches and (unless a preview) stores a billing file. The answer lists what matched and what did not,
 * the months covered and the standing counts as they are once the file is in.
 */
export async function importBilling(
  db: Db,
  events: EventBus,
  actor: Pick<CurrentUser, 'id' | 'name' | 'email'>,
  csv: string,
  options: BillingClock & { preview: boolean },
): Promise<BillingReport> {
  const parsed = parseBillingCsv(csv);
  if ('error' in parsed) throw badRequest(parsed.error);
  const advertisers = groupAdvertisers(parsed.lines);
  const matcher = createBillingMatcher(advertisers);
  await forEachPlace(db.kysely, (place) => matcher.consider(place));
  const { matched, unmatched } = matcher.result();

  // The file's lines summed per business and month.
  const byLine = new Map<number, (typeof matched)[number]>();
  for (const m of matched) for (const line of m.advertiser.lines) byLine.set(line, m);
  const now = nowIso();
  const rows = new Map<string, BillingTable & { firstLine: number }>();
  for (const line of parsed.lines) {
    const m = byLine.get(line.line);
    if (!m) continue;
    const key = `${m.businessId}\u0000${line.month}`;
    const row = rows.get(key);
    if (row) row.amount_cents += line.amountCents;
    else
      rows.set(key, {
        business_id: m.businessId,
        month: line.month,
        amount_cents: line.amountCents,
        label: m.businessName,
        advertiser: m.advertiser.name,
        imported_at: now,
        imported_by: actor.id,
        firstLine: line.line,
      });
  }
  for (const row of rows.values()) {
    if (Math.abs(row.amount_cents) > MAX_AMOUNT_CENTS)
      throw badRequest(
        `Line ${row.firstLine}: ${row.advertiser}'s billing of ${row.month} adds up to more than ${formatDollars(MAX_AMOUNT_CENTS / 100)}.`,
      );
  }
  const stored = [...rows.values()].map(({ firstLine: _, ...row }) => row);
  const months = [...new Set(parsed.lines.map((l) => l.month))].sort();

  // The standing of every business once the file replaces its months.
  const current = currentMonth(options);
  const covered = new Set(months);
  const kept = (await billingSince(db.kysely, earliestMonthRead(current, options.currentMonths))).filter(
    (r) => !covered.has(r.month),
  );
  const statuses = billingStatuses(
    [...kept, ...stored].map((r) => ({
      businessId: r.business_id,
      month: r.month,
      amountCents: r.amount_cents,
    })),
    current,
    options.currentMonths,
  );
  const counts = { current: 0, lapsed: 0, declining: 0 };
  for (const s of statuses.values()) {
    if (s.status === 'lapsed') counts.lapsed++;
    else counts.current++;
    if (s.status === 'declining') counts.declining++;
  }

  if (!options.preview) {
    const labels = new Map([...kept, ...stored].map((r) => [r.business_id, r.label]));
    const marks = await inTransaction(db.kysely, async (trx) => {
      await replaceMonths(trx, months, stored);
      const changed = await refreshBillingMarks(trx, statuses, labels, now);
      await recordAudit(
        trx,
        actor,
        'billing.import',
        { type: 'billing' },
        {
          lines: parsed.lines.length,
          months: { first: months[0], last: months[months.length - 1] },
          matched: matched.length,
          unmatched: unmatched.length,
          ...counts,
          marked: changed.marked,
          unmarked: changed.unmarked,
        },
      );
      await putSetting(trx, STAMP_KEY, now, actor.id);
      return changed;
    });
    if (marks.marked + marks.unmarked > 0)
      await events.publish({
        type: 'advertisers',
        action: 'imported',
        count: marks.marked + marks.unmarked,
        at: now,
      });
  }

  return {
    preview: options.preview,
    matched: matched.map((m) => ({
      advertiser: m.advertiser.name,
      lines: m.advertiser.lines,
      businessId: m.businessId,
      businessName: m.businessName,
      matchedBy: m.matchedBy,
    })),
    unmatched: unmatched.map((u) => ({
      advertiser: u.advertiser.name,
      lines: u.advertiser.lines,
      reason: u.reason,
    })),
    months: { first: months[0]!, last: months[months.length - 1]!, count: months.length },
    counts,
  };
}

/**
 * The current advertisers' marks follow the billing: a business billed in the window is marked by "billing"
 * unless already marked; a mark "billing" made is removed once the business is no longer billed in the window.
 * Marks users made are never touched.
 */
async function refreshBillingMarks(
  db: Kysely<Database>,
  statuses: ReadonlyMap<string, BillingStatus>,
  labels: ReadonlyMap<string, string>,
  at: string,
): Promise<{ marked: number; unmarked: number }> {
  const current = [...statuses.values()].filter((s) => s.status !== 'lapsed').map((s) => s.businessId);
  const currentSet = new Set(current);
  const ours = await db
    .selectFrom('current_advertisers')
    .select('business_id')
    .where('marked_by', 'is', null)
    .where('marked_by_name', '=', BILLING_MARKER)
    .execute();
  const stale = ours.map((r) => r.business_id).filter((id) => !currentSet.has(id));
  for (let i = 0; i < stale.length; i += 500) {
    await db
      .deleteFrom('current_advertisers')
      .where('marked_by', 'is', null)
      .where('marked_by_name', '=', BILLING_MARKER)
      .where('business_id', 'in', stale.slice(i, i + 500))
      .execute();
  }
  const marked = await insertAdvertisersIfAbsent(
    db,
    current.map((id) => ({
      business_id: id,
      label: labels.get(id) ?? id,
      marked_by: null,
      marked_by_name: BILLING_MARKER,
      marked_at: at,
    })),
  );
  return { marked: marked.length, unmarked: stale.length };
}

/** Statuses computed for one current month and import, per database (a scan reads them on every request). */
const cached = new WeakMap<object, { key: string; statuses: Map<string, BillingStatus> }>();
const NONE = new Map<string, BillingStatus>();

/** Every business's standing now: read again after an import (on any instance) or when the month turns. */
export async function billingStatusesNow(db: Db, clock: BillingClock): Promise<Map<string, BillingStatus>> {
  const stamp = await db.kysely
    .selectFrom('app_settings')
    .select('value')
    .where('key', '=', STAMP_KEY)
    .executeTakeFirst();
  if (!stamp) return NONE;
  const month = currentMonth(clock);
  const key = `${month}|${clock.currentMonths}|${stamp.value}`;
  const hit = cached.get(db.kysely);
  if (hit?.key === key) return hit.statuses;
  const rows: BillingMonthRow[] = (
    await billingSince(db.kysely, earliestMonthRead(month, clock.currentMonths))
  ).map((r) => ({ businessId: r.business_id, month: r.month, amountCents: r.amount_cents }));
  const statuses = billingStatuses(rows, month, clock.currentMonths);
  cached.set(db.kysely, { key, statuses });
  return statuses;
}

/** Whether this reader sees billing amounts: admins always; reps when an admin shares them. */
export async function amountsShown(
  db: Db,
  user: Pick<CurrentUser, 'role' | 'isSuperAdmin'>,
): Promise<boolean> {
  return isAdmin(user) || (await readBillingSettings(db)).shareAmounts;
}

const dollars = (cents: number) => Math.round(cents) / 100;

/** The card's billing of a standing; the year's total only when the reader may see amounts. */
export function prospectBilling(s: BillingStatus, showAmounts: boolean): NonNullable<Prospect['billing']> {
  return {
    status: s.status,
    lastMonth: s.lastMonth,
    ...(showAmounts && s.status !== 'current' && { lastYearTotal: dollars(s.lastYearCents) }),
  };
}

/** The prospects of a page with their billing standing, as this reader may see it. */
export async function withBilling<T extends Prospect>(
  db: Db,
  user: Pick<CurrentUser, 'role' | 'isSuperAdmin'>,
  prospects: T[],
  clock: BillingClock,
): Promise<T[]> {
  const statuses = await billingStatusesNow(db, clock);
  if (statuses.size === 0 || !prospects.some((p) => statuses.has(p.id))) return prospects;
  const show = await amountsShown(db, user);
  return prospects.map((p) => {
    const s = statuses.get(p.id);
    return s ? { ...p, billing: prospectBilling(s, show) } : p;
  });
}

/** The ids of lapsed advertisers now (the scan's order moves them first within their score band). */
export async function lapsedIds(db: Db, clock: BillingClock): Promise<ReadonlySet<string>> {
  const statuses = await billingStatusesNow(db, clock);
  const ids = new Set<string>();
  for (const s of statuses.values()) if (s.status === 'lapsed') ids.add(s.businessId);
  return ids;
}

/** A lapsed advertiser where it is, for the territory filter. */
export interface LapsedPlace {
  businessId: string;
  lat: number | null;
  lng: number | null;
}

/**
 * Which lapsed advertisers a rep sees: with territories, those inside one of them (a business with no known place
 * is left out); with none, all. Admins are not asked: they see all.
 */
export async function repTerritoryFilter(
  db: Db,
  user: Pick<CurrentUser, 'id'>,
): Promise<((place: LapsedPlace) => boolean) | null> {
  const rows = await listTerritoryRows(db.kysely, user.id);
  if (rows.length === 0) return null;
  const inside = rows.map((row) => territoryContains(storedTerritory(row).area));
  return ({ lat, lng }) => lat !== null && lng !== null && inside.some((contains) => contains({ lat, lng }));
}

/** GET /api/advertisers/lapsed: latest month first, then the larger year. */
export async function lapsedFor(
  db: Db,
  user: Pick<CurrentUser, 'id' | 'role' | 'isSuperAdmin'>,
  clock: BillingClock,
): Promise<{ lapsed: LapsedAdvertiser[]; amountsShown: boolean }> {
  const statuses = [...(await billingStatusesNow(db, clock)).values()].filter((s) => s.status === 'lapsed');
  const show = await amountsShown(db, user);
  const places = await placeNames(
    db.kysely,
    statuses.map((s) => s.businessId),
  );
  const inScope = isAdmin(user) ? null : await repTerritoryFilter(db, user);
  const labels = new Map(
    (await billingSince(db.kysely, earliestMonthRead(currentMonth(clock), clock.currentMonths))).map((r) => [
      r.business_id,
      r.label,
    ]),
  );
  const lapsed = statuses
    .filter((s) => {
      if (!inScope) return true;
      const p = places.get(s.businessId);
      return inScope({ businessId: s.businessId, lat: p?.lat ?? null, lng: p?.lng ?? null });
    })
    .sort((a, b) => b.lastMonth.localeCompare(a.lastMonth) || b.lastYearCents - a.lastYearCents)
    .map((s) => ({
      businessId: s.businessId,
      name: places.get(s.businessId)?.name ?? labels.get(s.businessId) ?? s.businessId,
      address: places.get(s.businessId)?.address ?? '',
      lastMonth: s.lastMonth,
      ...(show && { lastYearTotal: dollars(s.lastYearCents) }),
    }));
  return { lapsed, amountsShown: show };
}
