// Markers drawn on their own (the best prospects) may sit on one spot: offices of one building, shops of one
// mall. Each group of markers closer than a marker's width is laid on a small circle around its centre, so every
// number stays readable and clickable; a thin line leads from each moved marker back to its business.

export interface Point {
  x: number;
  y: number;
}

/** At most this many rounds of laying out groups: a laid-out group that now touches another joins it. */
const ROUNDS = 6;

/**
 * Where to draw each point (in screen pixels) so that no two are closer than `gap`: points that are already far
 * enough apart stay; each chain of points closer than `gap` is placed on a circle around the centre of its
 * points, in the order given (the first at the top, then clockwise).
 */
export function fanOut(points: readonly Point[], gap: number): Point[] {
  let placed = points.map((p) => ({ ...p }));
  for (let round = 0; round < ROUNDS; round++) {
    const groups = touchingGroups(placed, gap).filter((g) => g.length > 1);
    if (groups.length === 0) break;
    const next = placed.map((p) => ({ ...p }));
    for (const group of groups) {
      const centre = {
        x: mean(group.map((i) => points[i]!.x)),
        y: mean(group.map((i) => points[i]!.y)),
      };
      // Neighbours on the circle are `gap` apart (a chord of the circle), and a pair sits `gap` apart.
      const radius = gap / (2 * Math.sin(Math.PI / Math.max(group.length, 2)));
      group.forEach((index, k) => {
        const angle = -Math.PI / 2 + (2 * Math.PI * k) / group.length;
        next[index] = { x: centre.x + radius * Math.cos(angle), y: centre.y + radius * Math.sin(angle) };
      });
    }
    placed = next;
  }
  return placed;
}

/** The indexes of points chained by distances under `gap`, each group in ascending order. */
function touchingGroups(points: readonly Point[], gap: number): number[][] {
  const parent = points.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i]!)));
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) {
      // A hair under the gap: neighbours laid on a circle are exactly `gap` apart, give or take rounding.
      if (Math.hypot(points[i]!.x - points[j]!.x, points[i]!.y - points[j]!.y) < gap - 1e-6) {
        parent[root(j)] = root(i);
      }
    }
  }
  const groups = new Map<number, number[]>();
  points.forEach((_, i) => {
    const r = root(i);
    groups.set(r, [...(groups.get(r) ?? []), i]);
  });
  return [...groups.values()];
}

const mean = (values: readonly number[]) => values.reduce((a, v) => a + v, 0) / values.length;
