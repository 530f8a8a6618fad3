// `npm run bench -- route`: the route optimiser on 25 and 50 stops, median and p95 of the time to
// order them (nearest neighbour, 2-opt, Or-opt and the seeded kicks), on straight-line and road-like
// (asymmetric) matrices of random stops in a 10-mile box. Target: 25 stops well under 200 ms.
// Options: --runs=60
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { haversineMiles } from '../src/core/geo';
import { optimiseRoute, pathCost, seededRandom } from '../src/core/route/optimise';

function matrix(random: () => number, stops: number, asymmetric: boolean): number[][] {
  const points = Array.from({ length: stops + 1 }, () => ({
    lat: 33.45 + random() * 0.15,
    lng: -86.85 + random() * 0.15,
  }));
  return points.map((a, i) =>
    points.map((b, j) => (i === j ? 0 : haversineMiles(a, b) * (asymmetric ? 1.2 + random() * 0.6 : 1))),
  );
}

/** Nearest neighbour alone, for how much the local search and kicks save. */
function nearestNeighbourCost(d: number[][]): number {
  const left = new Set(d.map((_, i) => i).slice(1));
  const path = [0];
  while (left.size > 0) {
    const at = path[path.length - 1]!;
    let best = -1;
    for (const j of left) if (best < 0 || d[at]![j]! < d[at]![best]!) best = j;
    path.push(best);
    left.delete(best);
  }
  return pathCost(d, path);
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

export default function run(args: string[]): Promise<void> {
  const runs = Number(args.find((a) => a.startsWith('--runs='))?.slice(7) ?? 60);
  console.log(
    `node ${process.version}, ${cpus().length} cores, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `${runs} random sets per row (seeded), times of optimiseRoute only (the matrix is built before)`,
  );
  console.log('| stops | matrix     | median ms | p95 ms | max ms | saved vs nearest neighbour |');
  console.log('| ----: | ---------- | --------: | -----: | -----: | -------------------------: |');
  for (const stops of [25, 50]) {
    for (const asymmetric of [false, true]) {
      const random = seededRandom(stops * 31 + (asymmetric ? 1 : 0));
      // Warm-up: let the JIT compile the optimiser before timing.
      for (let i = 0; i < 5; i++) optimiseRoute(matrix(random, stops, asymmetric));
      const times: number[] = [];
      let saved = 0;
      for (let i = 0; i < runs; i++) {
        const d = matrix(random, stops, asymmetric);
        const t0 = performance.now();
        const { cost } = optimiseRoute(d);
        times.push(performance.now() - t0);
        saved += 1 - cost / nearestNeighbourCost(d);
      }
      times.sort((a, b) => a - b);
      console.log(
        `| ${String(stops).padStart(5)} | ${(asymmetric ? 'asymmetric' : 'straight').padEnd(10)} | ${quantile(
          times,
          0.5,
        )
          .toFixed(1)
          .padStart(
            9,
          )} | ${quantile(times, 0.95).toFixed(1).padStart(6)} | ${times[times.length - 1]!.toFixed(1).padStart(6)} | ${(
          (saved / runs) *
          100
        )
          .toFixed(1)
          .padStart(25)}% |`,
      );
    }
  }
  return Promise.resolve();
}
