import { describe, expect, it } from 'vitest';
import { weeklyOpenHours } from './opening-hours';

describe('weeklyOpenHours', () => {
  it('counts the hours of a reference week', () => {
    expect(weeklyOpenHours('Mo-Fr 09:00-17:00')).toBe(40);
    expect(weeklyOpenHours('Mo-Fr 08:00-18:00')).toBe(50);
    expect(weeklyOpenHours('Mo-Su 08:00 - 20:00')).toBe(84);
    expect(weeklyOpenHours('24/7')).toBe(168);
    expect(weeklyOpenHours('Mo-Fr 09:00-12:00,13:00-17:00; Sa 10:00-14:00')).toBe(39);
  });

  it('says null for a missing or unreadable value, and never throws', () => {
    expect(weeklyOpenHours(undefined)).toBeNull();
    expect(weeklyOpenHours('  ')).toBeNull();
    expect(weeklyOpenHours('by appointment, call ahead')).toBeNull();
  });

  it('reads a week without public holidays, whatever the rule says of them', () => {
    expect(weeklyOpenHours('Mo-Fr 09:00-17:00; PH off')).toBe(40);
  });
});
