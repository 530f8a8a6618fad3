// `npm run bench -- scan [--scans=200] [--places=1000000] [--skip-postgres] [--skip-sqlite] [--skip-sf]`
// Latency of a whole scan on the `local` provider — the service call POST /api/scans makes: radius query,
// de-duplication, blocklist, scoring of up to 500 candidates, cache reads and writes, the search record and
// the user's latest results — on the SF extract and on a synthetic city of 1,000,000 businesses, on SQLite
// (synchronous=FULL, the default) and PostgreSQL. Writes docs/PERFORMANCE.md's "Scan: end to end" section.
// With --places above 1,000,000 the rest are a national file's other places, spread over the contiguous United
// States, and the figures go to the section "Scan: a national file" (--places=15000000: the United States).
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { importOsmFile } from '../src/server/places/osm-import.js';
import { createPlaceChain } from '../src/server/places/index.js';
import { parseConfig } from '../src/server/config.js';
import { createScoreFn } from '../src/server/scans/analysis.js';
import {
  FIRST_READ,
  runScan,
  SCAN_STEPS,
  type ScanDeps,
  type ScanStep,
} from '../src/server/scans/service.js';
import { placeTypesForGroups, resolveGroups } from '../src/core/categories.js';
import { DEFAULT_ALGORITHM_SETTINGS } from '../src/server/settings/service.js';
import { registerAccount } from '../src/server/users/accounts.js';
import { getBrandIndex } from '../src/core/scoring/nsi.js';
import { settleAfterAnswer } from '../src/server/scans/after-answer.js';
import { readEvidence } from '../src/server/websites/service.js';
import { osmExtract } from '../test/helpers/osm-data.js';
import {
  arg,
  CITY_ROWS,
  fillSynthetic,
  openTarget,
  randomPoints,
  writeSection,
  type Target,
} from './places.bench.js';
import { untilQuiet } from './util.js';

const SF_FILE = osmExtract('sf-downtown.osm.pbf');
const silent = { warn: () => {} };

type Point = { lat: number; lng: number };

/**
 * Scans before the measured ones, at points of their own: a fresh process and database settle over the first few
 * dozen scans (V8 optimises the scan's per-scan code, the pool opens its connections, PostgreSQL analyses the
 * tables that start empty). Measured after 10, the slowest scans of a run gathered in its first 25; their own
 * p95 is reported beside the measured ones'.
 */
const WARM_UP = 50;

/**
 * Scans at `points` after scans at `warm`, and the radius query alone at `alone` (other points of the same area,
 * so none warms another's pages or repeats another's scan).
 */
async function measureScans(
  t: Target,
  points: Point[],
  alone: Point[],
  warm: { scans: Point[]; alone: Point[] },
) {
  const config = parseConfig({ PLACE_PROVIDERS: 'local', LOG_LEVEL: 'silent' });
  const steps = new Map<ScanStep, number[]>(SCAN_STEPS.map((s) => [s, []]));
  const deps: ScanDeps = {
    db: t.db,
    places: createPlaceChain(config, t.db, silent),
    score: createScoreFn(() => getBrandIndex()),
    radiusMaxMiles: 5,
    // Every scan checks and takes its slot, as under the default cooldown, without ever having to wait.
    cooldownMs: 1,
    settings: () => Promise.resolve(DEFAULT_ALGORITHM_SETTINGS),
    timed: (step, seconds) => steps.get(step)?.push(seconds * 1000),
    // As the route has it: the website evidence read started before de-duplication (no check queue here, so none
    // are scheduled).
    websites: {
      read: (found) => readEvidence(t.db, found),
      schedule: () => Promise.resolve(0),
    },
  };
  const { userId } = await registerAccount(
    t.db,
    { name: 'Bench', email: `bench-${Date.now()}@example.com`, password: 'bench-password' },
    8,
  );
  const scan = (p: { lat: number; lng: number }) =>
    runScan(deps, userId, { ...p, radiusMiles: 1, count: 20, categories: [] });
  // The radius query alone, as the scan makes it: every category group (39 place types), the whole circle ranked
  // from the grid index and the records of its best read.
  const types = placeTypesForGroups(resolveGroups([]));
  const radius = (p: { lat: number; lng: number }) =>
    deps.places.nearby({
      ...p,
      radiusMiles: 1,
      types,
      limit: FIRST_READ,
      minCount: 20,
      ranked: { showAll: false },
    });
  // One turn, side by side: the radius query alone at a point of the same area, then a whole scan at a new point,
  // then the team list's copy after the answer (scans/team-list.ts), timed on its own and finished before the
  // next query, so it never lands inside another measurement.
  const turn = async (p: Point, a: Point) => {
    const r0 = performance.now();
    await radius(a);
    const t0 = performance.now();
    const page = await scan(p);
    const t1 = performance.now();
    await settleAfterAnswer(t.db);
    return { radius: t0 - r0, scan: t1 - t0, copy: performance.now() - t1, total: page.total };
  };
  const warmTimes: number[] = [];
  for (const [i, p] of warm.scans.entries()) warmTimes.push((await turn(p, warm.alone[i]!)).scan);
  for (const list of steps.values()) list.length = 0;
  const times: number[] = [];
  const radiusTimes: number[] = [];
  const copyTimes: number[] = [];
  let candidates = 0;
  for (const [i, p] of points.entries()) {
    const r = await turn(p, alone[i % alone.length]!);
    radiusTimes.push(r.radius);
    times.push(r.scan);
    copyTimes.push(r.copy);
    candidates += r.total;
  }
  const scanStats = quantiles(times);
  const radiusStats = quantiles(radiusTimes);
  const stepMedians = Object.fromEntries(
    [...steps].map(([step, list]) => [step, quantiles(list).median]),
  ) as Record<ScanStep, number>;
  return {
    ...scanStats,
    radiusMedian: radiusStats.median,
    copyMedian: quantiles(copyTimes).median,
    radiusP95: radiusStats.p95,
    warmP95: quantiles(warmTimes).p95,
    ratio: scanStats.median / radiusStats.median,
    steps: stepMedians,
    ranked: Math.round(candidates / points.length),
  };
}

function quantiles(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { median: at(0.5), p95: at(0.95), max: at(1) };
}

const ms = (v: number) => `${v.toFixed(1)} ms`;

export default async function run(args: string[]): Promise<void> {
  const nScans = arg(args, 'scans', 200);
  const nRows = arg(args, 'places', arg(args, 'rows', CITY_ROWS));
  const national = nRows > CITY_ROWS;
  const data = national
    ? `synthetic nation (${nRows.toLocaleString('en-US')}; the city's ${CITY_ROWS.toLocaleString('en-US')})`
    : `synthetic city (${nRows.toLocaleString('en-US')})`;
  const kinds = (['sqlite', 'postgres'] as const).filter((k) => !args.includes(`--skip-${k}`));
  // A national file is measured in its city alone. A partial run (one database, or the synthetic city without SF)
  // prints its figures and leaves the docs as they are.
  const skipSf = national || args.includes('--skip-sf');
  const partial = kinds.length < 2 || (!national && skipSf);
  const heading = national ? '## Scan: a national file' : '## Scan: end to end';
  const sfBox = { minLat: 37.7719, maxLat: 37.7975, minLng: -122.4201, maxLng: -122.3926 };
  const sfPoints = randomPoints(nScans, 11, sfBox);
  const sfAlone = randomPoints(nScans, 17, sfBox);
  const city = { lat: 33.5186, lng: -86.8104 };
  const cityBox = {
    minLat: city.lat - 0.15,
    maxLat: city.lat + 0.15,
    minLng: city.lng - 0.18,
    maxLng: city.lng + 0.18,
  };
  const cityPoints = randomPoints(nScans, 13, cityBox);
  const cityAlone = randomPoints(nScans, 19, cityBox);
  const rows: string[] = [];
  const loads: number[] = [];
  const stepRows: string[] = [];
  const report = (r: Awaited<ReturnType<typeof measureScans>>, data: string, label: string) => {
    console.log(
      `${label} ${data}: median ${ms(r.median)}, p95 ${ms(r.p95)}, radius query alone median ${ms(r.radiusMedian)}, ` +
        `ratio ${r.ratio.toFixed(2)}, ranked ${r.ranked}; the ${WARM_UP} scans before, p95 ${ms(r.warmP95)}`,
    );
    console.log(
      `  step medians: ${SCAN_STEPS.map((s) => `${s} ${ms(r.steps[s])}`).join(', ')}; after the answer, ` +
        `team list copy ${ms(r.copyMedian)}`,
    );
    rows.push(
      `| ${data} | ${label} | ${r.ranked} | ${ms(r.median)} | ${ms(r.p95)} | ${ms(r.max)} | ${ms(r.radiusMedian)} | ${r.ratio.toFixed(2)} | ${ms(r.warmP95)} |`,
    );
    stepRows.push(
      `| ${data} | ${label} | ${SCAN_STEPS.map((s) => ms(r.steps[s])).join(' | ')} | ${ms(r.copyMedian)} |`,
    );
  };
  for (const kind of kinds) {
    const label = kind === 'sqlite' ? 'SQLite' : 'PostgreSQL';
    if (!skipSf) {
      const sf = await openTarget(kind, 'FULL');
      try {
        await importOsmFile(sf.db, SF_FILE);
        loads.push(await untilQuiet());
        const r = await measureScans(sf, sfPoints, sfAlone, {
          scans: randomPoints(WARM_UP, 23, sfBox),
          alone: randomPoints(WARM_UP, 29, sfBox),
        });
        report(r, `SF extract (4,006)`, label);
      } finally {
        await sf.drop();
      }
    }
    const big = await openTarget(kind, 'FULL');
    try {
      console.log(`${label}: filling ${nRows.toLocaleString('en-US')} synthetic businesses…`);
      const filled = await fillSynthetic(big, nRows, city);
      console.log(`${label}: filled in ${(filled / 1000).toFixed(0)} s`);
      loads.push(await untilQuiet());
      const r = await measureScans(big, cityPoints, cityAlone, {
        scans: randomPoints(WARM_UP, 31, cityBox),
        alone: randomPoints(WARM_UP, 37, cityBox),
      });
      report(r, data, label);
    } finally {
      await big.drop();
    }
  }
  const section = [
    heading,
    '',
    ...(national
      ? [
          `\`npm run bench -- scan --places=${nRows}\`: the scans of "Scan: end to end" in its synthetic city, with the rest`,
          "of a national file's places stored beside it (spread over the contiguous United States), so every index and",
          'table is of national size. Targets as there: scan p95 at most 25 ms, and the median whole scan at most 2.5',
          'times the median radius query alone.',
        ]
      : [
          '`npm run bench -- scan` (`bench/scan.bench.ts`; options `--scans=200 --places=1000000`, `--skip-postgres`, `--skip-sqlite`, `--skip-sf`; a partial run leaves this section as it is).',
          'Targets, on both databases, with 1,000,000 businesses stored: scan p95 at most 25 ms, and the median whole',
          'scan at most 2.5 times the median radius query alone, measured side by side in one run (in turn: the query alone',
          'at a point of the same area, then a scan). Each scan is the service call behind `POST /api/scans` at a random',
          'point (fixed seed): 1 mile, all categories, count 20 — every business of the circle ranked (ranked column) and',
          'the records of the best read, de-duplication, blocklist, scoring, the analysis cache read and writes, the search',
          'record and the latest results. Every point is new, so most scans write analysis rows (the worst case). SQLite runs',
          `with synchronous=FULL, the default. The measured scans follow ${WARM_UP} at other points of the same area, on a fresh`,
          'process and database (their p95 in the last column: the first scans are slower).',
        ]),
    '',
    `| data | database | ranked (mean) | median | p95 | max | radius query alone (median) | ratio | p95 of the ${WARM_UP} scans before |`,
    '| ---- | -------- | ------------- | ------ | --- | --- | --------------------------- | ----- | --- |',
    ...rows,
    '',
    `Median time of each step (the \`scan_step_duration_seconds\` histogram's steps):`,
    '',
    `| data | database | ${SCAN_STEPS.join(' | ')} | team list copy, after the answer |`,
    `| ---- | -------- | ${SCAN_STEPS.map(() => '---').join(' | ')} | --- |`,
    ...stepRows,
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on Node ${process.version}, ${cpus().length} CPUs, each measurement begun on a quiet machine (load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} before it, ${loadavg()[0]?.toFixed(1)} at the end of the run).`,
    '',
  ].join('\n');
  console.log(`\n${section}`);
  if (!partial) await writeSection(section, heading);
}
