// Markers drawn on their own (the best prospects) may sit on one spot: offices of one building, shops of one
// mall. Each group of markers closer than a marker's width is laid on a small circle around its spot, so every
// number stays readable and clickable; a thin line leads from each moved marker back to its business. The circle
// is turned and widened until it keeps clear of what else is drawn there (the other prospects' markers and
// clusters, the rep's own position), where that can be done within a few markers' widths.

export interface Point {
  x: number;
  y: number;
}

/** At most this many rounds of merging groups whose circles came to touch. */
const ROUNDS = 8;
/** The turns of a circle tried, and how many gaps wider it may grow. */
const TURNS = 12;
const WIDER = 3;

/**
 * Where to draw each point (in screen pixels) so that no two are closer than `gap` and, where it can be done,
 * none is closer than `clearance` to an obstacle (a fixed point: something else drawn on the map). A point far
 * enough from everything stays. Each chain of points closer than `gap` to each other (or one point on an obstacle)
 * is placed on a circle around its centre, in the order given (clockwise), neighbours at least `gap` apart; of the
 * circles tried (turned, then widened by a gap at a time) the first clear of obstacles and of the other groups
 * wins, else the one with the fewest conflicts. Groups whose circles touch are laid out as one.
 */
export function fanOut(
  points: readonly Point[],
  gap: number,
  obstacles: readonly Point[] = [],
  clearance = gap,
): Point[] {
  let groups = chains(points, gap);
  let placed = layOut(points, groups, gap, obstacles, clearance);
  for (let round = 0; round < ROUNDS; round++) {
    const merged = chains(placed, gap, groups);
    if (merged.length === groups.length) break;
    groups = merged;
    placed = layOut(points, groups, gap, obstacles, clearance);
  }
  return placed;
}

function layOut(
  points: readonly Point[],
  groups: readonly (readonly number[])[],
  gap: number,
  obstacles: readonly Point[],
  clearance: number,
): Point[] {
  const placed = points.map((p) => ({ ...p }));
  const conflicts = (spot: Point, others: readonly Point[]) =>
    obstacles.filter((o) => distance(o, spot) < clearance - 1e-6).length +
    others.filter((o) => distance(o, spot) < gap - 1e-6).length;
  // Groups laid out so far, and the points of groups not laid out yet, to keep clear of.
  const settled: Point[] = [];
  for (const [g, group] of groups.entries()) {
    const members = group.map((i) => points[i]!);
    const elsewhere = [...settled, ...groups.slice(g + 1).flatMap((later) => later.map((i) => points[i]!))];
    if (group.length === 1 && conflicts(members[0]!, elsewhere) === 0) {
      settled.push(placed[group[0]!]!);
      continue;
    }
    const centre = { x: mean(members.map((p) => p.x)), y: mean(members.map((p) => p.y)) };
    // Neighbours on the circle are `gap` apart (a chord); one point alone moves a gap off its spot.
    const spaced = group.length > 1 ? gap / (2 * Math.sin(Math.PI / group.length)) : gap;
    let best: { spots: Point[]; conflicts: number } | undefined;
    for (let wider = 0; wider <= WIDER && best?.conflicts !== 0; wider++) {
      for (let turn = 0; turn < TURNS && best?.conflicts !== 0; turn++) {
        const radius = spaced + wider * gap;
        const spots = group.map((_, k) => {
          const angle = -Math.PI / 2 + (2 * Math.PI * (k + turn / TURNS)) / group.length;
          return { x: centre.x + radius * Math.cos(angle), y: centre.y + radius * Math.sin(angle) };
        });
        const count = spots.reduce((sum, spot) => sum + conflicts(spot, elsewhere), 0);
        if (!best || count < best.conflicts) best = { spots, conflicts: count };
      }
    }
    group.forEach((index, k) => {
      placed[index] = best!.spots[k]!;
      settled.push(placed[index]);
    });
  }
  return placed;
}

/**
 * The indexes of points chained by distances under `gap` (a hair under: neighbours on a circle are exactly `gap`
 * apart, give or take rounding), each group in ascending order; `joined` groups stay together.
 */
function chains(
  points: readonly Point[],
  gap: number,
  joined: readonly (readonly number[])[] = [],
): number[][] {
  const parent = points.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i]!)));
  for (const group of joined) for (const i of group) parent[root(i)] = root(group[0]!);
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) {
      if (distance(points[i]!, points[j]!) < gap - 1e-6) parent[root(j)] = root(i);
    }
  }
  const groups = new Map<number, number[]>();
  points.forEach((_, i) => groups.set(root(i), [...(groups.get(root(i)) ?? []), i]));
  return [...groups.values()];
}

const distance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);
const mean = (values: readonly number[]) => values.reduce((a, v) => a + v, 0) / values.length;
