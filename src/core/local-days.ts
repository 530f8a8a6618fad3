// Calendar days in an IANA time zone (for the Team tab): the UTC instant each local day starts at, the days
// of a period, and the dashboard's preset periods. Computed with Intl, so daylight-saving changes are
// honoured (a day may be 23 or 25 hours long, or start at 01:00 where midnight is skipped). The database then
// counts rows between these instants, which works the same on SQLite (no time zone support) and PostgreSQL.

import { localDateOf, zoneOffsetMs } from './time-zone';

/** 'YYYY-MM-DD' */
export type LocalDate = string;

const DAY_MS = 86_400_000;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether text is a real calendar date 'YYYY-MM-DD' (2024-02-30 is not). */
export function isLocalDate(text: string): boolean {
  const m = DATE_RE.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === text;
}

/** The calendar date n days after `date` (negative n: before). */
export function addDays(date: LocalDate, n: number): LocalDate {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d) + n * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from `a` to `b` (b - a). */
export function daysBetween(a: LocalDate, b: LocalDate): number {
  const ms = (s: LocalDate) => {
    const [y, m, d] = s.split('-').map(Number) as [number, number, number];
    return Date.UTC(y, m - 1, d);
  };
  return Math.round((ms(b) - ms(a)) / DAY_MS);
}

/**
 * The first instant (epoch ms) whose local date in `timeZone` is `date`: local midnight, or the first moment
 * after it where a daylight-saving change skips midnight.
 */
export function startOfLocalDay(date: LocalDate, timeZone: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d);
  // Two passes: the offset at the first guess may differ from the offset at the answer (a change that day).
  let t = wall - zoneOffsetMs(wall, timeZone);
  t = wall - zoneOffsetMs(t, timeZone);
  // Midnight skipped (the guess fell on the day before): step forward to the first instant of the day.
  const STEP = 15 * 60_000;
  while (localDateOf(t, timeZone) < date) t += STEP;
  // Midnight repeated or the guess late: step back while the instant before is still this day.
  while (localDateOf(t - STEP, timeZone) === date) t -= STEP;
  return t;
}

/** One local day of a period and the UTC instants [start, end) it covers, as ISO text (how rows store time). */
export interface DayBounds {
  date: LocalDate;
  start: string;
  end: string;
}

/** Every day from `from` to `to` inclusive, with its bounds in `timeZone`. */
export function periodDays(from: LocalDate, to: LocalDate, timeZone: string): DayBounds[] {
  const days: DayBounds[] = [];
  let start = startOfLocalDay(from, timeZone);
  for (let date = from; date <= to; date = addDays(date, 1)) {
    const end = startOfLocalDay(addDays(date, 1), timeZone);
    days.push({ date, start: new Date(start).toISOString(), end: new Date(end).toISOString() });
    start = end;
  }
  return days;
}

export type PresetPeriod = 'this-week' | 'last-week' | 'this-month';

/** The dates of a preset period around `now` in `timeZone`; weeks run Monday to Sunday. */
export function presetPeriod(
  preset: PresetPeriod,
  now: number,
  timeZone: string,
): { from: LocalDate; to: LocalDate } {
  const today = localDateOf(now, timeZone);
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  if (preset === 'this-month') {
    const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
    return { from: today.slice(0, 8) + '01', to: today.slice(0, 8) + String(last).padStart(2, '0') };
  }
  const weekday = (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7; // Monday 0
  const monday = addDays(today, -weekday - (preset === 'last-week' ? 7 : 0));
  return { from: monday, to: addDays(monday, 6) };
}
