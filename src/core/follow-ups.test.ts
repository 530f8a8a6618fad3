import { describe, expect, it } from 'vitest';
import {
  compareDue,
  countDue,
  dueLabel,
  groupFollowUps,
  isLocalTime,
  localInstant,
  quickPickDate,
} from './follow-ups';

const item = (dueDate: string, dueTime: string | null = null, id = dueDate + (dueTime ?? '')) => ({
  id,
  dueDate,
  dueTime,
});

describe('follow-up quick picks', () => {
  it('counts from the local today, across month and year ends and leap days', () => {
    expect(quickPickDate('Tomorrow', '2026-11-25')).toBe('2026-11-26');
    expect(quickPickDate('Next week', '2026-11-25')).toBe('2026-12-02');
    expect(quickPickDate('In 2 weeks', '2026-12-25')).toBe('2027-01-08');
    expect(quickPickDate('Tomorrow', '2028-02-28')).toBe('2028-02-29');
    expect(quickPickDate('Tomorrow', '2026-12-31')).toBe('2027-01-01');
  });

  it('accepts only real wall-clock times', () => {
    expect(isLocalTime('09:30')).toBe(true);
    expect(isLocalTime('23:59')).toBe(true);
    expect(isLocalTime('24:00')).toBe(false);
    expect(isLocalTime('9:30')).toBe(false);
    expect(isLocalTime('09:60')).toBe(false);
  });
});

describe('follow-up grouping', () => {
  const today = '2026-11-25';
  const items = [
    item('2026-11-26', '09:00'),
    item('2026-11-25', '14:00'),
    item('2026-11-20'),
    item('2026-11-25'),
    item('2026-11-24', '08:00'),
    item('2026-12-10'),
  ];

  it('puts earlier days in Overdue, today in Today, later in Upcoming, earliest first', () => {
    const g = groupFollowUps(items, today);
    expect(g.overdue.map((i) => i.id)).toEqual(['2026-11-20', '2026-11-2408:00']);
    expect(g.today.map((i) => i.id)).toEqual(['2026-11-25', '2026-11-2514:00']);
    expect(g.upcoming.map((i) => i.id)).toEqual(['2026-11-2609:00', '2026-12-10']);
  });

  it('counts overdue and today as due', () => {
    expect(countDue(items, today)).toBe(4);
    expect(countDue(items, '2026-11-19')).toBe(0);
    expect(countDue(items, '2026-12-31')).toBe(6);
  });

  it('orders a day without a time before timed ones', () => {
    expect(compareDue(item('2026-11-25'), item('2026-11-25', '00:00'))).toBe(-1);
    expect(compareDue(item('2026-11-25', '10:00'), item('2026-11-25', '09:59'))).toBe(1);
    expect(compareDue(item('2026-11-24', '23:00'), item('2026-11-25'))).toBe(-1);
  });

  it('labels due dates relative to today', () => {
    expect(dueLabel(item(today), today)).toBe('Today');
    expect(dueLabel(item('2026-11-26', '09:00'), today)).toBe('Tomorrow 09:00');
    expect(dueLabel(item('2026-11-24'), today)).toBe('Yesterday');
    expect(dueLabel(item('2026-12-10'), today)).toBe('Thu, Dec 10');
  });
});

describe('localInstant', () => {
  it('turns a local date and time into the UTC instant, daylight saving included', () => {
    expect(new Date(localInstant('2026-11-26', '09:30', 'America/Chicago')).toISOString()).toBe(
      '2026-11-26T15:30:00.000Z',
    );
    expect(new Date(localInstant('2026-07-01', '09:30', 'America/Chicago')).toISOString()).toBe(
      '2026-07-01T14:30:00.000Z',
    );
    expect(new Date(localInstant('2026-03-08', '12:00', 'America/New_York')).toISOString()).toBe(
      '2026-03-08T16:00:00.000Z',
    );
    expect(new Date(localInstant('2026-11-26', '00:15', 'Asia/Tokyo')).toISOString()).toBe(
      '2026-11-25T15:15:00.000Z',
    );
  });
});
