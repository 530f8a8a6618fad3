import { describe, expect, it } from 'vitest';
import { fanOut, type Point } from './fan-out';

const closest = (points: readonly Point[]) => {
  let best = Infinity;
  for (let i = 0; i < points.length; i++)
    for (let j = i + 1; j < points.length; j++)
      best = Math.min(best, Math.hypot(points[i]!.x - points[j]!.x, points[i]!.y - points[j]!.y));
  return best;
};

describe('fanOut', () => {
  it('leaves points that are far enough apart where they are', () => {
    const points = [
      { x: 0, y: 0 },
      { x: 40, y: 0 },
      { x: 0, y: 40 },
    ];
    expect(fanOut(points, 30)).toEqual(points);
  });

  it('lays markers on one spot around it, the first at the top, each a gap from the next', () => {
    const spot = { x: 100, y: 100 };
    const placed = fanOut([spot, spot, spot, spot], 30);
    expect(closest(placed)).toBeGreaterThanOrEqual(30 - 1e-9);
    expect(placed[0]!.x).toBeCloseTo(100);
    expect(placed[0]!.y).toBeLessThan(100);
    const centre = { x: placed.reduce((a, p) => a + p.x, 0) / 4, y: placed.reduce((a, p) => a + p.y, 0) / 4 };
    expect(centre.x).toBeCloseTo(100);
    expect(centre.y).toBeCloseTo(100);
  });

  it('moves only the touching ones, and a group that comes to touch another joins it', () => {
    const placed = fanOut(
      [
        { x: 0, y: 0 },
        { x: 5, y: 0 },
        { x: 300, y: 300 },
      ],
      30,
    );
    expect(placed[2]).toEqual({ x: 300, y: 300 });
    expect(closest(placed)).toBeGreaterThanOrEqual(30 - 1e-9);

    // Ten markers of one block: a row 6 px apart.
    const row = Array.from({ length: 10 }, (_, i) => ({ x: i * 6, y: 0 }));
    expect(closest(fanOut(row, 30))).toBeGreaterThanOrEqual(30 - 1e-9);
    // Two clumps that would touch once spread.
    const clumps = [
      ...Array.from({ length: 4 }, () => ({ x: 0, y: 0 })),
      ...Array.from({ length: 4 }, () => ({ x: 45, y: 0 })),
    ];
    expect(closest(fanOut(clumps, 30))).toBeGreaterThanOrEqual(30 - 1e-9);
  });
});
