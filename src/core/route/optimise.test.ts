import { describe, expect, it } from 'vitest';
import { haversineMiles } from '../geo';
import { optimiseRoute, pathCost, seededRandom, type DistanceMatrix } from './optimise';

/** The exact optimum of an open path from 0 through every stop: every permutation (n ≤ 9: 362,880). */
function bruteForce(d: DistanceMatrix): number {
  const n = d.length - 1;
  const used = new Array<boolean>(n + 1).fill(false);
  let best = Infinity;
  const walk = (at: number, count: number, cost: number) => {
    if (cost >= best) return;
    if (count === n) {
      best = cost;
      return;
    }
    for (let j = 1; j <= n; j++) {
      if (used[j]) continue;
      used[j] = true;
      walk(j, count + 1, cost + d[at]![j]!);
      used[j] = false;
    }
  };
  walk(0, 0, 0);
  return best;
}

/** Random points in a ~10-mile box, haversine distances (symmetric). */
function pointsMatrix(random: () => number, n: number): number[][] {
  const pts = Array.from({ length: n + 1 }, () => ({
    lat: 33.5 + random() * 0.15,
    lng: -86.8 + random() * 0.15,
  }));
  return pts.map((a) => pts.map((b) => haversineMiles(a, b)));
}

/**
 * Road-like asymmetric costs: the straight line times a detour factor that differs by direction (one-way
 * streets), so d[i][j] !== d[j][i].
 */
function asymmetricMatrix(random: () => number, n: number): number[][] {
  const base = pointsMatrix(random, n);
  return base.map((row, i) => row.map((c, j) => (i === j ? 0 : c * (1 + random() * 0.8))));
}

/** Costs with no geometry at all (random, asymmetric): the hardest case for a geometric heuristic. */
function randomMatrix(random: () => number, n: number): number[][] {
  return Array.from({ length: n + 1 }, (_, i) =>
    Array.from({ length: n + 1 }, (_, j) => (i === j ? 0 : 1 + random() * 20)),
  );
}

function isPermutation(order: number[], n: number) {
  return [...order].sort((a, b) => a - b).join(',') === Array.from({ length: n }, (_, i) => i + 1).join(',');
}

describe('optimiseRoute against the exact optimum (within 2 % for up to 9 stops)', () => {
  const cases: { kind: string; make: (r: () => number, n: number) => number[][] }[] = [
    { kind: 'symmetric (haversine)', make: pointsMatrix },
    { kind: 'asymmetric (road-like)', make: asymmetricMatrix },
    { kind: 'asymmetric (random costs)', make: randomMatrix },
  ];
  for (const { kind, make } of cases) {
    it(`${kind}: 120 seeded random sets of 2–9 stops`, () => {
      const random = seededRandom(20261125);
      let worst = 0;
      let exact = 0;
      for (let t = 0; t < 120; t++) {
        const n = 2 + (t % 8);
        const d = make(random, n);
        const { order, cost } = optimiseRoute(d);
        expect(isPermutation(order, n)).toBe(true);
        expect(cost).toBeCloseTo(pathCost(d, [0, ...order]), 9);
        const optimum = bruteForce(d);
        const ratio = cost / optimum;
        worst = Math.max(worst, ratio);
        if (ratio < 1 + 1e-9) exact++;
        expect(ratio).toBeLessThanOrEqual(1.02);
      }
      expect(worst).toBeLessThanOrEqual(1.02);
      // Most sets come out exact; the 2 % is head-room, not the norm.
      expect(exact).toBeGreaterThan(100);
    });
  }
});

describe('optimiseRoute', () => {
  it('answers the trivial cases', () => {
    expect(optimiseRoute([[0]])).toEqual({ order: [], cost: 0 });
    expect(
      optimiseRoute([
        [0, 5],
        [7, 0],
      ]),
    ).toEqual({ order: [1], cost: 5 });
  });

  it('is an open path: it does not pay to come back to the start', () => {
    // Points on a line: start at 0, stops at 1, 2, 3 miles. Open path cost 3 (a tour would be 6).
    const xs = [0, 1, 2, 3];
    const d = xs.map((a) => xs.map((b) => Math.abs(a - b)));
    expect(optimiseRoute(d)).toEqual({ order: [1, 2, 3], cost: 3 });
    // From the middle, the shorter side first: 1.5 -> 1 -> 0 -> 3 (0.5 + 1 + 3 = 4.5) beats 2 -> 3 -> back (5.5).
    const ys = [1.5, 0, 1, 3];
    const e = ys.map((a) => ys.map((b) => Math.abs(a - b)));
    expect(optimiseRoute(e).cost).toBeCloseTo(4.5, 9);
  });

  it('follows one-way costs (asymmetric matrix)', () => {
    // Going 1 -> 2 is cheap, 2 -> 1 is dear: the order must be 1 then 2 even though 2 is nearer the start.
    const d = [
      [0, 5, 4],
      [5, 0, 1],
      [4, 50, 0],
    ];
    expect(optimiseRoute(d).order).toEqual([1, 2]);
  });

  it('is deterministic: the same matrix and seed give the same order', () => {
    const d = randomMatrix(seededRandom(7), 30);
    expect(optimiseRoute(d)).toEqual(optimiseRoute(d));
    expect(optimiseRoute(d, { seed: 3 })).toEqual(optimiseRoute(d, { seed: 3 }));
  });

  it('beats or equals plain nearest neighbour on 50 stops', () => {
    const d = pointsMatrix(seededRandom(11), 50);
    const { order, cost } = optimiseRoute(d);
    expect(isPermutation(order, 50)).toBe(true);
    const nn = optimiseRoute(d, { perturbations: 0 });
    expect(cost).toBeLessThanOrEqual(nn.cost + 1e-9);
  });

  it('refuses a matrix that is not square or has a negative or infinite cost', () => {
    expect(() => optimiseRoute([[0, 1], [1]])).toThrow(/square/);
    expect(() =>
      optimiseRoute([
        [0, -1],
        [1, 0],
      ]),
    ).toThrow(/finite/);
    expect(() =>
      optimiseRoute([
        [0, Infinity],
        [1, 0],
      ]),
    ).toThrow(/finite/);
    expect(() => optimiseRoute([])).toThrow(/start/);
  });
});
