// The calendar feed and single-follow-up downloads as iCalendar, written by ical-generator (the maintained
// generator: escaping, folding and date forms are its job, not ours). A follow-up without a time is an
// all-day event on its local date; one with a time starts at that wall-clock time in the rep's zone (written
// in UTC, which every calendar app shows in its own zone) and lasts 30 minutes, a meeting an hour.
import ical, { ICalCalendarMethod } from 'ical-generator';
import type { FollowUp } from '../../core/api/follow-ups.js';
import { localInstant } from '../../core/follow-ups.js';

const MINUTE = 60_000;

/**
 * A single-line text property: line breaks become spaces. ical-generator escapes commas and semicolons, and a
 * description's line breaks, but writes a calendar's name (NAME, X-WR-CALNAME) as given, so a business name
 * holding CR/LF would start properties, even events, of its own.
 */
const oneLine = (text: string) => text.replace(/[\r\n\u2028\u2029]+/g, ' ');

function eventSummary(f: FollowUp): string {
  const what = f.isMeeting ? 'Meeting' : 'Follow up';
  return oneLine(f.nextStep ? `${what}: ${f.name} — ${f.nextStep}` : `${what}: ${f.name}`);
}

function eventDescription(f: FollowUp, appUrl: string): string {
  return [
    f.nextStep && `Next step: ${f.nextStep}`,
    f.category && `Category: ${f.category}`,
    f.address && `Address: ${f.address}`,
    f.phone && `Phone: ${f.phone}`,
    f.website && `Website: ${f.website}`,
    `Open in Prospect Finder: ${appUrl}`,
  ]
    .filter(Boolean)
    .join('\n');
}

/** The app's Today tab, where the follow-up can be done or rescheduled. */
export const todayUrl = (publicUrl: string) => `${publicUrl.replace(/\/+$/, '')}/?tab=today`;

export function followUpsCalendar(
  followUps: readonly FollowUp[],
  publicUrl: string,
  name = 'Prospect Finder follow-ups',
): string {
  const cal = ical({
    name: oneLine(name),
    prodId: { company: 'Prospect Finder', product: 'follow-ups', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
    ttl: 60 * 60,
  });
  const host = new URL(publicUrl).hostname || 'prospect-finder';
  const appUrl = todayUrl(publicUrl);
  for (const f of followUps) {
    const timed = f.dueTime !== null;
    const start = timed
      ? new Date(localInstant(f.dueDate, f.dueTime!, f.timeZone))
      : new Date(`${f.dueDate}T00:00:00Z`);
    cal.createEvent({
      id: `follow-up-${f.id}@${host}`,
      start,
      ...(timed ? { end: new Date(start.getTime() + (f.isMeeting ? 60 : 30) * MINUTE) } : { allDay: true }),
      stamp: new Date(f.createdAt),
      summary: eventSummary(f),
      description: eventDescription(f, appUrl),
      ...(f.address ? { location: oneLine(f.address) } : {}),
      url: appUrl,
    });
  }
  return cal.toString();
}
