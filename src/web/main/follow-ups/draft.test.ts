import { describe, expect, it } from 'vitest';
import { localDateOf, runtimeTimeZone } from '../../../core/time-zone';
import { browserToday, EMPTY_DRAFT, followUpFromDraft } from './draft';

describe('the log form’s follow-up draft', () => {
  it('sends nothing without a pick, and a quick pick as a date counted from today', () => {
    expect(followUpFromDraft(EMPTY_DRAFT, '2026-11-25')).toBeUndefined();
    expect(followUpFromDraft({ ...EMPTY_DRAFT, pick: 'Tomorrow' }, '2026-11-25')).toEqual({
      dueDate: '2026-11-26',
      timeZone: runtimeTimeZone(),
    });
    expect(
      followUpFromDraft(
        { pick: 'Next week', date: '', time: '09:30', nextStep: '  Bring the kit ', isMeeting: true },
        '2026-12-28',
      ),
    ).toEqual({
      dueDate: '2027-01-04',
      dueTime: '09:30',
      timeZone: runtimeTimeZone(),
      nextStep: 'Bring the kit',
      isMeeting: true,
    });
  });

  it('uses the picked date, and none until one is picked', () => {
    expect(followUpFromDraft({ ...EMPTY_DRAFT, pick: 'date', date: '' }, '2026-11-25')).toBeUndefined();
    expect(
      followUpFromDraft({ ...EMPTY_DRAFT, pick: 'date', date: '2027-02-01' }, '2026-11-25')?.dueDate,
    ).toBe('2027-02-01');
  });
});

describe('browserToday', () => {
  it("is today's date on this runtime's clock, in its zone", () => {
    expect(browserToday()).toBe(localDateOf(Date.now(), runtimeTimeZone()));
  });
});
