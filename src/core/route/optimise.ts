// The order of a day's stops (docs/PRODUCT.md, "Follow-ups, routes and the pipeline"): an open path from the
// rep's start that visits every stop once with the least travel, over a distance matrix that may be
// asymmetric (road distances: one-way streets). Pure and deterministic: nearest neighbour from the start,
// then local search (2-opt and Or-opt) to a local optimum, then a few seeded double-bridge perturbations each
// followed by the local search again, keeping the best path found (iterated local search). No I/O, no
// Math.random.

/** distances[i][j]: the cost from point i to point j; point 0 is the start, 1..n the stops. */
export type DistanceMatrix = readonly (readonly number[])[];

export interface OptimiseOptions {
  /** Double-bridge kicks after the first local optimum (default: more for small sets, fewer for large). */
  perturbations?: number;
  /** Seed of the PRNG choosing the kicks (default 1): the same input gives the same order. */
  seed?: number;
}

export interface OptimisedRoute {
  /** The stops in visiting order, as indices 1..n of the matrix (0, the start, left out). */
  order: number[];
  /** The path's total cost from the start to the last stop (no return). */
  cost: number;
}

/** mulberry32: a small, well-mixed 32-bit PRNG, seeded. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The cost of an open path (path[0] the start). */
export function pathCost(d: DistanceMatrix, path: readonly number[]): number {
  let cost = 0;
  for (let k = 0; k + 1 < path.length; k++) cost += d[path[k]!]![path[k + 1]!]!;
  return cost;
}

const EPS = 1e-9;

function nearestNeighbour(d: DistanceMatrix, n: number): number[] {
  const path = [0];
  const left = new Set<number>();
  for (let i = 1; i <= n; i++) left.add(i);
  let at = 0;
  while (left.size > 0) {
    let best = -1;
    let bestCost = Infinity;
    for (const j of left) {
      const c = d[at]![j]!;
      if (c < bestCost || (c === bestCost && j < best)) [best, bestCost] = [j, c];
    }
    path.push(best);
    left.delete(best);
    at = best;
  }
  return path;
}

/**
 * 2-opt on an open path, asymmetric-safe: reversing path[i..j] turns its inner edges around, so the change counts
 * the reversed inner cost (prefix sums of the forward and backward edges make each try O(1)). First improvement.
 */
function twoOpt(d: DistanceMatrix, path: number[]): boolean {
  const last = path.length - 1;
  const fwd = new Float64Array(path.length);
  const rev = new Float64Array(path.length);
  const prefix = () => {
    for (let k = 1; k <= last; k++) {
      fwd[k] = fwd[k - 1]! + d[path[k - 1]!]![path[k]!]!;
      rev[k] = rev[k - 1]! + d[path[k]!]![path[k - 1]!]!;
    }
  };
  prefix();
  let improved = false;
  let again = true;
  while (again) {
    again = false;
    for (let i = 1; i < last; i++) {
      const a = path[i - 1]!;
      const si = path[i]!;
      for (let j = i + 1; j <= last; j++) {
        const sj = path[j]!;
        const b = j < last ? path[j + 1]! : -1;
        const before = d[a]![si]! + (b >= 0 ? d[sj]![b]! : 0) + (fwd[j]! - fwd[i]!);
        const after = d[a]![sj]! + (b >= 0 ? d[si]![b]! : 0) + (rev[j]! - rev[i]!);
        if (after < before - EPS) {
          for (let x = i, y = j; x < y; x++, y--) [path[x], path[y]] = [path[y]!, path[x]!];
          prefix();
          improved = again = true;
          break;
        }
      }
      if (again) break;
    }
  }
  return improved;
}

/**
 * Or-opt: move a run of 1 to 3 stops (kept or turned around) to another place in the path. First improvement.
 */
function orOpt(d: DistanceMatrix, path: number[]): boolean {
  const last = path.length - 1;
  let improved = false;
  let again = true;
  while (again) {
    again = false;
    search: for (let len = 1; len <= 3; len++) {
      for (let i = 1; i + len - 1 <= last; i++) {
        const e = i + len - 1;
        const a = path[i - 1]!;
        const s0 = path[i]!;
        const sl = path[e]!;
        const b = e < last ? path[e + 1]! : -1;
        let inner = 0;
        let innerRev = 0;
        for (let k = i; k < e; k++) {
          inner += d[path[k]!]![path[k + 1]!]!;
          innerRev += d[path[k + 1]!]![path[k]!]!;
        }
        const removeGain = d[a]![s0]! + (b >= 0 ? d[sl]![b]! + -d[a]![b]! : 0);
        // Insert between path[k] and path[k+1] (k+1 = path.length: after the last), outside [i-1, e].
        for (let k = 0; k <= last; k++) {
          if (k >= i - 1 && k <= e) continue;
          const c = path[k]!;
          const nx = k < last ? path[k + 1]! : -1;
          // After removal, a stop at the very end has no successor; only the real last stop (k === last) does so.
          const base = nx >= 0 ? d[c]![nx]! : 0;
          const keep = d[c]![s0]! + (nx >= 0 ? d[sl]![nx]! : 0) - base;
          const turned = d[c]![sl]! + (nx >= 0 ? d[s0]![nx]! : 0) - base + (innerRev - inner);
          const reversed = turned < keep;
          const add = reversed ? turned : keep;
          if (add < removeGain - EPS) {
            const run = path.slice(i, e + 1);
            if (reversed) run.reverse();
            const rest = [...path.slice(0, i), ...path.slice(e + 1)];
            const at = k < i ? k + 1 : k + 1 - len;
            rest.splice(at, 0, ...run);
            for (let x = 0; x < rest.length; x++) path[x] = rest[x]!;
            improved = again = true;
            break search;
          }
        }
      }
    }
  }
  return improved;
}

function localSearch(d: DistanceMatrix, path: number[]): void {
  for (let round = 0; round < 1000; round++) {
    const a = twoOpt(d, path);
    const b = orOpt(d, path);
    if (!a && !b) return;
  }
}

/** Cut the stops into four runs A B C D and reconnect them as A C B D (the start stays first). */
function doubleBridge(path: readonly number[], random: () => number): number[] {
  const n = path.length - 1;
  const cuts = new Set<number>();
  while (cuts.size < 3) cuts.add(1 + Math.floor(random() * n));
  const [p, q, r] = [...cuts].sort((x, y) => x - y) as [number, number, number];
  return [...path.slice(0, p), ...path.slice(q, r), ...path.slice(p, q), ...path.slice(r)];
}

/** A seeded random order of stops 1..n after the start (Fisher–Yates). */
function shuffled(n: number, random: () => number): number[] {
  const stops = Array.from({ length: n }, (_, i) => i + 1);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [stops[i], stops[j]] = [stops[j]!, stops[i]!];
  }
  return [0, ...stops];
}

const defaultPerturbations = (n: number) => (n <= 12 ? 40 : 60);

/** The order to visit stops 1..n of `d` from point 0, open path (no return to the start). */
export function optimiseRoute(d: DistanceMatrix, options: OptimiseOptions = {}): OptimisedRoute {
  const n = d.length - 1;
  if (n < 0) throw new Error('optimiseRoute: the matrix needs the start point');
  for (const row of d) {
    if (row.length !== d.length || row.some((c) => !Number.isFinite(c) || c < 0)) {
      throw new Error('optimiseRoute: the matrix must be square with finite costs ≥ 0');
    }
  }
  if (n <= 1) return { order: n === 1 ? [1] : [], cost: n === 1 ? d[0]![1]! : 0 };
  let best = nearestNeighbour(d, n);
  localSearch(d, best);
  let bestCost = pathCost(d, best);
  if (n >= 3) {
    const random = seededRandom(options.seed ?? 1);
    const kicks = options.perturbations ?? defaultPerturbations(n);
    for (let k = 0; k < kicks; k++) {
      // On small sets every other try starts afresh from a shuffled order (kicks alone can fall back into the
      // same basin); on larger ones a fresh start costs a long local search, so only kicks.
      const restart = n <= 12 && k % 2 === 1;
      const candidate = restart ? shuffled(n, random) : doubleBridge(best, random);
      localSearch(d, candidate);
      const cost = pathCost(d, candidate);
      if (cost < bestCost - EPS) [best, bestCost] = [candidate, cost];
    }
  }
  return { order: best.slice(1), cost: bestCost };
}
