// How the Team tab counts its figures and writes them in sentences and tables.

/** "1 call", "3 calls", "1,204 entries": a count and its noun. */
export const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** A rate as a whole percentage; '—' where there is no rate (nothing to divide by). */
export const pct = (v: number | null) => (v === null ? '—' : `${Math.round(v * 100)}%`);

/** A YYYY-MM-DD day as "Mon, Jan 5" in the browser's language (the day itself, whatever the time zone). */
export const shortDate = (date: string) => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString(undefined, {
    timeZone: 'UTC',
    weekday: 'short',
    month: 'short',
    day: 'numeric',
  });
};

/** The five kinds of activity the tab counts, per rep or per day. */
export interface ActivityCounts {
  calls: number;
  visits: number;
  saves: number;
  strategies: number;
  followUps: number;
}

/** All of a rep's or a day's activity in one number. */
export const activityOf = (r: ActivityCounts) => r.calls + r.visits + r.saves + r.strategies + r.followUps;

/** The row with the highest rate (the first of equals, a missing rate counting as 0); null with no rows. */
export function highest<T>(rows: readonly T[], rate: (r: T) => number | null): T | null {
  return rows.reduce<T | null>((a, b) => (a === null || (rate(b) ?? 0) > (rate(a) ?? 0) ? b : a), null);
}

/**
 * A rate axis from 0 % to 100 %, or to the highest value rounded up to a quarter when a rate passes 100 % (visits
 * and saves per call can), in four steps: it fits the data and never runs to 400 % for one business.
 */
export function percentTicks(data: object[], series: readonly { key: string }[]): number[] {
  let highest = 0;
  for (const row of data) {
    for (const s of series) {
      const v = (row as Record<string, unknown>)[s.key];
      if (typeof v === 'number' && Number.isFinite(v)) highest = Math.max(highest, v);
    }
  }
  const top = Math.max(1, Math.ceil(highest * 4) / 4);
  return [0, 1, 2, 3, 4].map((i) => (top * i) / 4);
}
