// The follow-up part of the log form: a quick pick or a date, an optional time, the next step and
// "It's a meeting", turned into the API's follow-up on the browser's clock and zone.
import type { FollowUpInput } from '../../api';
import { quickPickDate, type QuickPick } from '../../../core/follow-ups';
import { runtimeTimeZone } from '../../../core/time-zone';

export interface FollowUpDraft {
  /** null: no follow-up; 'date': the date field. */
  pick: QuickPick | 'date' | null;
  date: string;
  time: string;
  nextStep: string;
  isMeeting: boolean;
}

export const EMPTY_DRAFT: FollowUpDraft = { pick: null, date: '', time: '', nextStep: '', isMeeting: false };

/**
 * Today on this browser's clock, in its zone: the Date's own local fields, which a phone reads far faster than
 * it makes an Intl formatter (the Today count asks on every render of the tabs).
 */
export function browserToday(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The follow-up to send with the entry, or undefined when none was asked for (or no date picked yet). */
export function followUpFromDraft(draft: FollowUpDraft, today = browserToday()): FollowUpInput | undefined {
  if (draft.pick === null) return undefined;
  const dueDate = draft.pick === 'date' ? draft.date : quickPickDate(draft.pick, today);
  if (!dueDate) return undefined;
  return {
    dueDate,
    ...(draft.time ? { dueTime: draft.time } : {}),
    timeZone: runtimeTimeZone(),
    ...(draft.nextStep.trim() ? { nextStep: draft.nextStep.trim() } : {}),
    ...(draft.isMeeting ? { isMeeting: true } : {}),
  };
}
