import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  bucketKey,
  floorTo,
  nextBoundary,
  splitRange,
  type RollupUnit,
  type SplitRange,
} from './rollup-range.js';
import { periodDays, startOfLocalDay } from './local-days.js';

const ms = (iso: string) => Date.parse(iso);

/** Count events through the pieces, the way the server does with its rollups. */
function countVia(split: SplitRange, events: number[]): number {
  const perKey = new Map<string, number>();
  for (const unit of ['month', 'day', 'hour'] as const) {
    for (const t of events) {
      const key = `${unit} ${bucketKey(floorTo(t, unit), unit)}`;
      perKey.set(key, (perKey.get(key) ?? 0) + 1);
    }
  }
  let total = 0;
  for (const b of split.buckets) total += b.sign * (perKey.get(`${b.unit} ${b.key}`) ?? 0);
  for (const r of split.raw) {
    const s = ms(r.start);
    const e = ms(r.end);
    total += r.sign * events.filter((t) => t >= s && t < e).length;
  }
  return total;
}

describe('splitRange', () => {
  it('writes a Chicago month as one UTC month, minus and plus six raw hours', () => {
    const start = startOfLocalDay('2026-11-01', 'America/Chicago');
    const end = startOfLocalDay('2026-12-01', 'America/Chicago');
    const split = splitRange(start, end, ['month', 'day']);
    expect(split.buckets).toEqual([{ unit: 'month', key: '2026-11', sign: 1 }]);
    expect(split.raw).toEqual([
      { start: '2026-11-01T00:00:00.000Z', end: '2026-11-01T05:00:00.000Z', sign: -1 },
      { start: '2026-12-01T00:00:00.000Z', end: '2026-12-01T06:00:00.000Z', sign: 1 },
    ]);
  });

  it('keeps whole UTC days when the period is in UTC', () => {
    const split = splitRange(ms('2026-11-02T00:00:00Z'), ms('2026-11-05T00:00:00Z'), ['day']);
    expect(split.buckets.map((b) => b.key)).toEqual(['2026-11-02', '2026-11-03', '2026-11-04']);
    expect(split.raw).toEqual([]);
  });

  it('counts the half hours of a Kolkata day from the raw rows', () => {
    const [day] = periodDays('2026-11-10', '2026-11-10', 'Asia/Kolkata');
    const split = splitRange(ms(day!.start), ms(day!.end), ['hour']);
    expect(split.buckets).toHaveLength(24);
    expect(split.buckets[0]).toEqual({ unit: 'hour', key: '2026-11-09T18', sign: 1 });
    expect(split.raw).toEqual([
      { start: '2026-11-09T18:00:00.000Z', end: '2026-11-09T18:30:00.000Z', sign: -1 },
      { start: '2026-11-10T18:00:00.000Z', end: '2026-11-10T18:30:00.000Z', sign: 1 },
    ]);
  });

  it('falls back to raw rows for a range shorter than every unit', () => {
    const split = splitRange(ms('2026-11-02T10:10:00Z'), ms('2026-11-02T10:20:00Z'), ['day', 'hour']);
    expect(split).toEqual({
      buckets: [],
      raw: [{ start: '2026-11-02T10:10:00.000Z', end: '2026-11-02T10:20:00.000Z', sign: 1 }],
    });
  });

  it('walks month boundaries of every length', () => {
    expect(nextBoundary(ms('2024-02-01T00:00:00Z'), 'month')).toBe(ms('2024-03-01T00:00:00Z'));
    expect(nextBoundary(ms('2026-12-01T00:00:00Z'), 'month')).toBe(ms('2027-01-01T00:00:00Z'));
    expect(floorTo(ms('2026-12-31T23:59:59.999Z'), 'month')).toBe(ms('2026-12-01T00:00:00Z'));
  });

  const unitLists: RollupUnit[][] = [
    ['month', 'day'],
    ['day'],
    ['hour'],
    ['month', 'day', 'hour'],
    ['day', 'hour'],
  ];
  const T0 = ms('2024-01-01T00:00:00Z');
  const SPAN = 800 * 86_400_000;

  it('counts exactly what lies in the range, for any range and events (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: SPAN }),
        fc.integer({ min: 0, max: 120 * 86_400_000 }),
        fc.array(fc.integer({ min: 0, max: SPAN + 130 * 86_400_000 }), { maxLength: 200 }),
        fc.constantFrom(...unitLists),
        (a, length, offsets, units) => {
          const start = T0 + a;
          const end = start + length;
          const events = offsets.map((o) => T0 + o);
          // Events close to the ends too, where the pieces meet.
          for (const t of [start, end]) events.push(t - 1, t, t + 1);
          const split = splitRange(start, end, units);
          const expected = events.filter((t) => t >= start && t < end).length;
          expect(countVia(split, events)).toBe(expected);
          // Every raw piece is shorter than the finest unit, so the raw rows read stay few.
          const finest = units[units.length - 1]!;
          const finestMs = finest === 'hour' ? 3_600_000 : finest === 'day' ? 86_400_000 : 31 * 86_400_000;
          for (const r of split.raw) {
            if (split.buckets.length > 0) expect(ms(r.end) - ms(r.start)).toBeLessThanOrEqual(finestMs);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('is exact for every local day of a year in zones with odd offsets (property)', () => {
    const zones = ['UTC', 'America/Chicago', 'Asia/Kolkata', 'Asia/Kathmandu', 'America/St_Johns'];
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.integer({ min: 0, max: 364 }),
        fc.array(fc.integer({ min: -86_400_000, max: 3 * 86_400_000 }), { maxLength: 50 }),
        (zone, dayIndex, offsets) => {
          const date = new Date(ms('2026-01-01T00:00:00Z') + dayIndex * 86_400_000)
            .toISOString()
            .slice(0, 10);
          const [day] = periodDays(date, date, zone);
          const start = ms(day!.start);
          const end = ms(day!.end);
          const events = offsets.map((o) => start + o);
          const split = splitRange(start, end, ['hour']);
          expect(countVia(split, events)).toBe(events.filter((t) => t >= start && t < end).length);
        },
      ),
      { numRuns: 300 },
    );
  });
});
