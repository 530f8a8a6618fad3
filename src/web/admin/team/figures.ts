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
