import { describe, expect, it } from 'vitest';
import { buildReference, standingOf, STANDING } from './calibration';

describe('standingOf (market standing, model v3)', () => {
  // 101 businesses with intrinsic scores 0.00, 0.01, ..., 1.00
  const ref = buildReference(
    'local',
    Array.from({ length: 101 }, (_, i) => i / 100),
    '2026-11-25T00:00:00Z',
  )!;

  it('is half rank, half spread from the 10th percentile to the best', () => {
    expect(STANDING).toEqual({ rank: 0.5, spreadFrom: 0.1 });
    expect(standingOf(ref, 1)).toBeCloseTo(1, 9);
    // at the 55th percentile: rank 0.55, spread (0.55 - 0.10) / 0.90 = 0.5
    expect(standingOf(ref, 0.55)).toBeCloseTo(0.5 * 0.55 + 0.5 * 0.5, 6);
    // below the 10th percentile only the rank separates
    expect(standingOf(ref, 0.05)).toBeCloseTo(0.5 * 0.05, 6);
    expect(standingOf(ref, 0)).toBe(0);
  });

  it('rises with the intrinsic score', () => {
    const xs = [0.02, 0.2, 0.4, 0.6, 0.8, 0.95, 0.99];
    const s = xs.map((x) => standingOf(ref, x));
    for (let i = 1; i < s.length; i++) expect(s[i]!).toBeGreaterThan(s[i - 1]!);
  });
});
