// Billing: the export of a station's traffic/billing system (one line per advertiser and month), read into
// months and amounts, and what the months say of each advertiser: still buying (current), stopped (lapsed) or
// buying much less than a year before (declining). Pure: the server feeds it the file and the stored rows.
import { parseCsv } from './csv';
import { cleanName } from './api/common';
import { MONTH_FULL_NAMES } from './billing-text';

export { billingLine, formatDollars, monthName } from './billing-text';

/** A billing month, 'YYYY-MM'. */
export type Month = string;

/** The columns a billing file is read by, each under the spellings billing systems and spreadsheets use. */
export const BILLING_COLUMNS = {
  name: ['advertiser', 'advertiser name', 'advertisers', 'client', 'client name', 'account', 'account name',
    'customer', 'customer name', 'name', 'business', 'business name', 'company', 'company name'],
  address: ['address', 'street', 'street address', 'address 1', 'address1', 'address line 1', 'addr'],
  city: ['city', 'town'],
  zip: ['zip', 'zip code', 'zipcode', 'postal code', 'postcode'],
  phone: ['phone', 'phone number', 'telephone', 'tel', 'phone #', 'main phone'],
  website: ['website', 'web site', 'url', 'web', 'site', 'domain', 'homepage'],
  month: ['month', 'period', 'billing month', 'broadcast month', 'billing period', 'bill month', 'invoice month',
    'air month', 'month billed'],
  amount: ['amount', 'net', 'gross', 'billed', 'revenue', 'net amount', 'gross amount', 'billed amount',
    'net revenue', 'gross revenue', 'total', 'amount billed', 'billing'],
} as const satisfies Record<string, readonly string[]>; // prettier-ignore

export type BillingField = keyof typeof BILLING_COLUMNS;

/** The most lines a billing file may have (a year of a large station's advertisers, with room). */
export const MAX_BILLING_LINES = 50_000;
/** The largest amount one line, or one advertiser's month, may carry: $10,000,000.00, in cents. */
export const MAX_AMOUNT_CENTS = 1_000_000_000;

export const BILLING_EMPTY = 'The file is empty.';
export const BILLING_NO_ROWS = 'The file has a header but no billing lines.';
export const billingMissingColumn = (what: string, spellings: readonly string[]) =>
  `The file has no ${what} column (the header may call it ${spellings.slice(0, 4).join(', ')}).`;
export const BILLING_TOO_MANY = `The file has more than ${MAX_BILLING_LINES} lines; split it by months.`;

const headerKey = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9#]+/g, ' ')
    .trim();

const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

const pad = (m: number) => String(m).padStart(2, '0');
const yearOf = (y: string) => (y.length === 2 ? 2000 + Number(y) : Number(y));
const valid = (year: number, month: number): Month | null =>
  year >= 1990 && year <= 2100 && month >= 1 && month <= 12 ? `${year}-${pad(month)}` : null;

/**
 * A billing month from the ways exports write it: '2026-03', '2026/03', '2026-03-01', '03/2026', '3/2026',
 * '03/01/2026' (a date: its month), 'Mar 2026', 'March 2026', 'Mar-26', '2026 Mar'; null when it is none of them.
 */
export function parseMonth(raw: string): Month | null {
  const s = raw.trim().toLowerCase();
  let m = /^(\d{4})[-/.](\d{1,2})(?:[-/.]\d{1,2})?$/.exec(s);
  if (m) return valid(Number(m[1]), Number(m[2]));
  m = /^(\d{1,2})[-/.](\d{4})$/.exec(s);
  if (m) return valid(Number(m[2]), Number(m[1]));
  m = /^(\d{1,2})[-/.]\d{1,2}[-/.](\d{4})$/.exec(s);
  if (m) return valid(Number(m[2]), Number(m[1]));
  m = /^([a-z]{3,9})\.?[\s,/-]*('?\d{2}|\d{4})$/.exec(s);
  if (m) return namedMonth(m[1]!, m[2]!.replace("'", ''));
  m = /^(\d{4})[\s,/-]*([a-z]{3,9})\.?$/.exec(s);
  if (m) return namedMonth(m[2]!, m[1]!);
  return null;
}

function namedMonth(name: string, year: string): Month | null {
  const at = MONTH_NAMES.indexOf(name.slice(0, 3));
  if (at < 0) return null;
  // 'Sept' and the full name are fine; 'Marchx' is not.
  const full = MONTH_FULL_NAMES[at]!.toLowerCase();
  if (name.length > 3 && !full.startsWith(name) && name !== 'sept') return null;
  return valid(yearOf(year), at + 1);
}

/**
 * An amount in cents from the ways exports write money: '$12,500.00', '12500', '12,500', '-1200', '(1,200)' and
 * '($1,200.00)' (negative: a credit), '1200.5', 'USD 1,200'; null when it is not an amount.
 */
export function parseAmount(raw: string): number | null {
  let s = raw.trim().replace(/\s+/g, '');
  if (!s) return null;
  let negative = false;
  const paren = /^\((.*)\)$/.exec(s);
  if (paren) {
    negative = true;
    s = paren[1]!;
  }
  if (s.startsWith('-')) {
    negative = !negative;
    s = s.slice(1);
  }
  s = s.replace(/^(usd|us\$|\$)/i, '').replace(/(usd)$/i, '');
  if (s.startsWith('-') && !negative) {
    negative = true;
    s = s.slice(1);
  }
  if (!/^(\d{1,3}(,\d{3})+|\d+)(\.\d{1,2})?$|^\.\d{1,2}$/.test(s)) return null;
  const [whole = '0', fraction = ''] = s.replace(/,/g, '').split('.');
  const cents = Number(whole || '0') * 100 + Number(fraction.padEnd(2, '0') || '0');
  if (!Number.isSafeInteger(cents) || cents > MAX_AMOUNT_CENTS) return null;
  return negative ? -cents : cents;
}

/** One line of a billing file. */
export interface BillingLine {
  /** The line of the file it starts on (1 is the header). */
  line: number;
  name: string;
  address: string;
  city: string;
  zip: string;
  phone: string;
  website: string;
  month: Month;
  amountCents: number;
}

/**
 * Reads a billing file, or says what is wrong with it (the first problem, naming its line): every line needs
 * an advertiser name, a month and an amount; a blank amount is 0. Never throws.
 */
export function parseBillingCsv(csv: string): { lines: BillingLine[] } | { error: string } {
  const parsed = parseCsv(csv);
  const [header, ...records] = parsed.records;
  if (!header || header.every((h) => h.trim() === '')) return { error: BILLING_EMPTY };
  const columns = new Map<BillingField, number>();
  header.forEach((h, i) => {
    const key = headerKey(h);
    for (const [field, spellings] of Object.entries(BILLING_COLUMNS) as [BillingField, readonly string[]][]) {
      if (!columns.has(field) && spellings.includes(key)) columns.set(field, i);
    }
  });
  for (const [field, what] of [
    ['name', 'advertiser name'],
    ['month', 'month'],
    ['amount', 'amount'],
  ] as const) {
    if (!columns.has(field)) return { error: billingMissingColumn(what, BILLING_COLUMNS[field]) };
  }
  if (records.length === 0) return { error: BILLING_NO_ROWS };
  if (records.length > MAX_BILLING_LINES) return { error: BILLING_TOO_MANY };
  const problem = parsed.problems[0];
  if (problem) return { error: `Line ${problem.line}: a quoted value is never closed.` };

  const lines: BillingLine[] = [];
  for (let i = 0; i < records.length; i++) {
    const record = records[i]!;
    const line = parsed.lines[i + 1] ?? i + 2;
    const get = (f: BillingField) => {
      const at = columns.get(f);
      return at === undefined ? '' : cleanName(record[at] ?? '');
    };
    if (record.every((v) => v.trim() === '')) continue;
    const name = get('name');
    if (!name) return { error: `Line ${line}: the advertiser name is empty.` };
    const rawMonth = get('month');
    const month = parseMonth(rawMonth);
    if (!month)
      return {
        error: rawMonth
          ? `Line ${line}: "${rawMonth.slice(0, 40)}" is not a month (write it as 2026-03, 03/2026 or Mar 2026).`
          : `Line ${line}: the month is empty.`,
      };
    const rawAmount = get('amount');
    const amountCents = rawAmount === '' ? 0 : parseAmount(rawAmount);
    if (amountCents === null)
      return {
        error: `Line ${line}: "${rawAmount.slice(0, 40)}" is not an amount (write it as 12500 or $12,500.00).`,
      };
    lines.push({
      line,
      name,
      address: get('address'),
      city: get('city'),
      zip: get('zip'),
      phone: get('phone'),
      website: get('website'),
      month,
      amountCents,
    });
  }
  if (lines.length === 0) return { error: BILLING_NO_ROWS };
  return { lines };
}

/** Months counted from year 0: 'YYYY-MM' -> year * 12 + month - 1. */
export const monthIndex = (m: Month): number => Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7)) - 1;
export const monthOfIndex = (i: number): Month => `${Math.floor(i / 12)}-${pad((i % 12) + 1)}`;
/** The month a date falls in (UTC). */
export const monthOf = (date: Date): Month => `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}`;
export const addMonths = (m: Month, n: number): Month => monthOfIndex(monthIndex(m) + n);

/** How many months of billing a business keeps its standing from: the window, the year before it, a year back. */
export const LAPSED_YEAR_MONTHS = 12;
/** Declining compares the last this-many months with the same months a year before. */
export const DECLINE_MONTHS = 3;

export type BillingStatusKind = 'current' | 'lapsed' | 'declining';

export interface BillingStatus {
  businessId: string;
  status: BillingStatusKind;
  /** The latest month with billing. */
  lastMonth: Month;
  /** Billed in the 12 months before the current window (cents). */
  lastYearCents: number;
  /** Billed in the last DECLINE_MONTHS months, and in the same months a year before (cents). */
  recentCents: number;
  yearBeforeCents: number;
}

export interface BillingMonthRow {
  businessId: string;
  month: Month;
  amountCents: number;
}

/**
 * The first month a status reads, for a current month and window: the start of the 12 months before the
 * window, or of the declining comparison's months a year back, whichever is earlier.
 */
export function earliestMonthRead(current: Month, currentMonths: number): Month {
  const windowStart = monthIndex(current) - currentMonths + 1;
  return monthOfIndex(
    Math.min(windowStart - LAPSED_YEAR_MONTHS, monthIndex(current) - 12 - (DECLINE_MONTHS - 1)),
  );
}

/**
 * Each business's standing from its billed months, relative to the current month:
 *
 * - billed (a positive amount) in the window, the last `currentMonths` months up to and including the current
 *   one (or in a later month, billed ahead) -> **current**;
 * - of those, the last DECLINE_MONTHS months' total at most half of the same months a year before (which billed
 *   something) -> **declining**;
 * - not billed in the window but in the 12 months before it -> **lapsed**;
 * - billed only before that -> no standing (not listed).
 *
 * A month's amount is the sum of its rows; a month whose credits cancel its billing counts as not billed.
 */
export function billingStatuses(
  rows: readonly BillingMonthRow[],
  current: Month,
  currentMonths: number,
): Map<string, BillingStatus> {
  const now = monthIndex(current);
  const windowStart = now - Math.max(1, currentMonths) + 1;
  const yearStart = windowStart - LAPSED_YEAR_MONTHS;
  const recentStart = now - DECLINE_MONTHS + 1;
  const perBusiness = new Map<string, Map<number, number>>();
  for (const r of rows) {
    let months = perBusiness.get(r.businessId);
    if (!months) perBusiness.set(r.businessId, (months = new Map<number, number>()));
    const at = monthIndex(r.month);
    months.set(at, (months.get(at) ?? 0) + r.amountCents);
  }
  const out = new Map<string, BillingStatus>();
  for (const [businessId, months] of perBusiness) {
    let last = -Infinity;
    let inWindow = false;
    let lastYearCents = 0;
    let recentCents = 0;
    let yearBeforeCents = 0;
    for (const [at, cents] of months) {
      if (cents <= 0) continue;
      last = Math.max(last, at);
      if (at >= windowStart) inWindow = true;
      if (at >= yearStart && at < windowStart) lastYearCents += cents;
      if (at >= recentStart && at <= now) recentCents += cents;
      if (at >= recentStart - 12 && at <= now - 12) yearBeforeCents += cents;
    }
    if (last === -Infinity) continue;
    const base = { businessId, lastMonth: monthOfIndex(last), lastYearCents, recentCents, yearBeforeCents };
    if (inWindow) {
      const declining = yearBeforeCents > 0 && recentCents * 2 <= yearBeforeCents;
      out.set(businessId, { ...base, status: declining ? 'declining' : 'current' });
    } else if (last >= yearStart) {
      out.set(businessId, { ...base, status: 'lapsed' });
    }
  }
  return out;
}

/** Display score points of one band: lapsed advertisers lead within it. */
export const LAPSED_BAND_POINTS = 10;

/**
 * The ranking with lapsed advertisers moved first within their score band (display points 90-100, 80-89, ...):
 * the call most likely to pay, among prospects the model rates alike. The order is otherwise kept, so without
 * a lapsed business it is unchanged.
 */
export function lapsedFirst<T extends { score: number }>(
  sorted: readonly T[],
  isLapsed: (e: T) => boolean,
): T[] {
  const band = (e: T) => Math.min(9, Math.floor(Math.round(e.score * 100) / LAPSED_BAND_POINTS + 1e-9));
  const out: T[] = [];
  let i = 0;
  while (i < sorted.length) {
    const b = band(sorted[i]!);
    let j = i;
    while (j < sorted.length && band(sorted[j]!) === b) j++;
    const group = sorted.slice(i, j);
    out.push(...group.filter(isLapsed), ...group.filter((e) => !isLapsed(e)));
    i = j;
  }
  return out;
}
