// Follow-ups (docs/PRODUCT.md, "Follow-ups, routes and the pipeline"): the quick picks of the log form and
// the Today tab's grouping. Pure: "today" is the browser's local date (core/local-days.ts computes it from
// the clock and the zone), so the same rules run in the browser, on the server (the digest) and in tests with
// any clock.
import { addDays, isLocalDate, type LocalDate } from './local-days';
import { zoneOffsetMs } from './time-zone';

export const QUICK_PICKS = ['Tomorrow', 'Next week', 'In 2 weeks'] as const;
export type QuickPick = (typeof QUICK_PICKS)[number];

/** The longest "next step" text a follow-up keeps. */
export const NEXT_STEP_MAX = 200;

const PICK_DAYS: Record<QuickPick, number> = { Tomorrow: 1, 'Next week': 7, 'In 2 weeks': 14 };

/** The due date a quick pick sets, counted from the rep's local `today`. */
export function quickPickDate(pick: QuickPick, today: LocalDate): LocalDate {
  return addDays(today, PICK_DAYS[pick]);
}

const TIME_RE = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Whether text is a wall-clock time 'HH:MM' (00:00 to 23:59). */
export function isLocalTime(text: string): boolean {
  return TIME_RE.test(text);
}

export { isLocalDate };

export interface DueItem {
  dueDate: LocalDate;
  dueTime: string | null;
}

export interface FollowUpGroups<T> {
  overdue: T[];
  today: T[];
  upcoming: T[];
}

/** Earliest first; on one day, the ones without a time first (they are "any time that day"), then by time. */
export function compareDue(a: DueItem, b: DueItem): number {
  if (a.dueDate !== b.dueDate) return a.dueDate < b.dueDate ? -1 : 1;
  if (a.dueTime === b.dueTime) return 0;
  if (a.dueTime === null) return -1;
  if (b.dueTime === null) return 1;
  return a.dueTime < b.dueTime ? -1 : 1;
}

/** Open follow-ups into Overdue (before today), Today and Upcoming, each earliest first. */
export function groupFollowUps<T extends DueItem>(items: readonly T[], today: LocalDate): FollowUpGroups<T> {
  const sorted = [...items].sort(compareDue);
  return {
    overdue: sorted.filter((i) => i.dueDate < today),
    today: sorted.filter((i) => i.dueDate === today),
    upcoming: sorted.filter((i) => i.dueDate > today),
  };
}

/** What the Today tab's label counts: overdue and due today. */
export function countDue(items: readonly DueItem[], today: LocalDate): number {
  return items.filter((i) => i.dueDate <= today).length;
}

/** "Tomorrow", "Yesterday", "Today" or the weekday and date, for a due date seen from `today`. */
export function dueLabel(item: DueItem, today: LocalDate): string {
  const day =
    item.dueDate === today
      ? 'Today'
      : item.dueDate === addDays(today, 1)
        ? 'Tomorrow'
        : item.dueDate === addDays(today, -1)
          ? 'Yesterday'
          : new Date(`${item.dueDate}T12:00:00Z`).toLocaleDateString('en-US', {
              weekday: 'short',
              month: 'short',
              day: 'numeric',
              timeZone: 'UTC',
            });
  return item.dueTime ? `${day} ${item.dueTime}` : day;
}

/** The instant (epoch ms) a local date and wall-clock time 'HH:MM' in an IANA zone stand for. */
export function localInstant(date: LocalDate, time: string, timeZone: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  const wall = Date.UTC(y, m - 1, d, hh, mm);
  // Two passes, as startOfLocalDay: the offset at the guess may differ from the offset at the answer.
  let t = wall - zoneOffsetMs(wall, timeZone);
  t = wall - zoneOffsetMs(t, timeZone);
  return t;
}
