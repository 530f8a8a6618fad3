import { describe, expect, it } from 'vitest';
import { addDays, isLocalDate, periodDays, presetPeriod, startOfLocalDay } from './local-days.js';
import { localDateOf } from './time-zone.js';

const iso = (ms: number) => new Date(ms).toISOString();

describe('local days', () => {
  it('starts a day at local midnight, in UTC and in zones either side of it', () => {
    expect(iso(startOfLocalDay('2026-11-24', 'UTC'))).toBe('2026-11-24T00:00:00.000Z');
    expect(iso(startOfLocalDay('2026-11-24', 'America/Los_Angeles'))).toBe('2026-11-24T08:00:00.000Z');
    expect(iso(startOfLocalDay('2026-11-24', 'Asia/Kolkata'))).toBe('2026-11-23T18:30:00.000Z');
    expect(iso(startOfLocalDay('2026-11-24', 'Asia/Kathmandu'))).toBe('2026-11-23T18:15:00.000Z');
  });

  it('gives daylight-saving days 23 and 25 hours', () => {
    const [spring] = periodDays('2026-03-08', '2026-03-08', 'America/New_York');
    expect(spring).toEqual({
      date: '2026-03-08',
      start: '2026-03-08T05:00:00.000Z',
      end: '2026-03-09T04:00:00.000Z',
    });
    const [fall] = periodDays('2026-11-01', '2026-11-01', 'America/New_York');
    expect(fall).toEqual({
      date: '2026-11-01',
      start: '2026-11-01T04:00:00.000Z',
      end: '2026-11-02T05:00:00.000Z',
    });
  });

  it('starts a day whose midnight is skipped at the first instant after it', () => {
    // Chile moves clocks from 00:00 to 01:00 on the first Sunday of September (2026-09-06).
    const start = startOfLocalDay('2026-09-06', 'America/Santiago');
    expect(localDateOf(start, 'America/Santiago')).toBe('2026-09-06');
    expect(localDateOf(start - 1, 'America/Santiago')).toBe('2026-09-05');
  });

  it('lists consecutive days that tile the period', () => {
    const days = periodDays('2026-10-24', '2026-10-27', 'Europe/London');
    expect(days.map((d) => d.date)).toEqual(['2026-10-24', '2026-10-25', '2026-10-26', '2026-10-27']);
    for (let i = 1; i < days.length; i++) expect(days[i]!.start).toBe(days[i - 1]!.end);
    expect(days[1]!.start).toBe('2026-10-24T23:00:00.000Z'); // BST
    expect(days[2]!.start).toBe('2026-10-26T00:00:00.000Z'); // GMT from 25 October
  });

  it('finds this week (Monday to Sunday), last week and this month on the local calendar', () => {
    // Tuesday 24 November 2026 22:30 UTC is already Wednesday the 25th in Tokyo.
    const now = Date.parse('2026-11-24T22:30:00Z');
    expect(presetPeriod('this-week', now, 'UTC')).toEqual({ from: '2026-11-23', to: '2026-11-29' });
    expect(presetPeriod('last-week', now, 'UTC')).toEqual({ from: '2026-11-16', to: '2026-11-22' });
    expect(presetPeriod('this-month', now, 'Asia/Tokyo')).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    expect(presetPeriod('this-month', Date.parse('2026-11-30T20:00:00Z'), 'Asia/Tokyo')).toEqual({
      from: '2026-12-01',
      to: '2026-12-31',
    });
    // Sunday 29 November in UTC, Monday 30 in Tokyo.
    const sunday = Date.parse('2026-11-29T20:00:00Z');
    expect(presetPeriod('this-week', sunday, 'UTC').from).toBe('2026-11-23');
    expect(presetPeriod('this-week', sunday, 'Asia/Tokyo').from).toBe('2026-11-30');
  });

  it('validates calendar dates and steps across months', () => {
    expect(isLocalDate('2024-02-29')).toBe(true);
    expect(isLocalDate('2026-02-29')).toBe(false);
    expect(isLocalDate('2026-1-5')).toBe(false);
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });
});
