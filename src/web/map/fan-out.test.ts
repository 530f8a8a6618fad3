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

describe('fanOut around what else is drawn', () => {
  it('keeps the best markers clear of other markers and clusters on their spot', () => {
    const spot = { x: 200, y: 200 };
    const obstacles = [
      { x: 200, y: 200 },
      { x: 210, y: 195 },
      { x: 190, y: 208 },
    ];
    const placed = fanOut([spot, spot, spot], 30, obstacles, 36);
    for (const p of placed) {
      for (const o of obstacles) expect(Math.hypot(p.x - o.x, p.y - o.y)).toBeGreaterThanOrEqual(30);
    }
    expect(closest(placed)).toBeGreaterThanOrEqual(30 - 1e-9);
    // One best marker alone on a spot with another marker moves out of its way.
    const [alone] = fanOut([{ x: 0, y: 0 }], 30, [{ x: 5, y: 0 }], 36);
    expect(Math.hypot(alone!.x - 5, alone!.y)).toBeGreaterThanOrEqual(30);
  });

  it('does not chain other markers into one wide circle', () => {
    const street = Array.from({ length: 20 }, (_, i) => ({ x: i * 20, y: 0 }));
    const [moved] = fanOut([{ x: 0, y: 10 }], 30, street, 36);
    // At most three gaps from where it was: a street of markers cannot all be cleared.
    expect(Math.hypot(moved!.x, moved!.y - 10)).toBeLessThanOrEqual(90 + 1e-9);
  });
});
