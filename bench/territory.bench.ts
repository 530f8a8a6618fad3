// `npm run bench -- territory [--scans=200] [--places=1000000] [--skip-postgres] [--skip-sqlite]`
// Latency of a territory scan on the `local` provider, as POST /api/scans with {territoryId} makes it: the
// territory and the rep's assignment read, then the scan of its bounding circle whose ranking pass reads the
// territory's box and keeps the places inside the outline, with de-duplication, blocklist, scoring, the cache
// reads and writes, the search record and the latest results. Territories of about 5 square miles (irregular
// octagons, fixed seed) at random points of the synthetic city of 1,000,000 businesses the scan bench uses, on
// SQLite (synchronous=FULL) and PostgreSQL. Held to the scan bench's targets: p95 at most 25 ms, and the median
// scan at most 2.5 times the median ranking pass alone, measured as the scan bench measures it (in turn, the pass
// alone over another territory of the city, never scanned, then a scan). Writes docs/PERFORMANCE.md's "Territory
// scan" section.
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
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
import { settleAfterAnswer } from '../src/server/scans/after-answer.js';
import { readEvidence } from '../src/server/websites/service.js';
import { DEFAULT_ALGORITHM_SETTINGS } from '../src/server/settings/service.js';
import { registerAccount } from '../src/server/users/accounts.js';
import { createTerritory, territoryToScan } from '../src/server/territories/service.js';
import type { EventBus } from '../src/server/events/bus.js';
import { placeTypesForGroups, resolveGroups } from '../src/core/categories.js';
import { getBrandIndex } from '../src/core/scoring/nsi.js';
import { territoryCircle, territoryContains, territorySquareMiles } from '../src/core/territory.js';
import type { TerritoryArea } from '../src/core/api/territories.js';
import { milesToLatDegrees, milesToLngDegrees, type LatLng } from '../src/core/geo.js';
import {
  arg,
  CITY_ROWS,
  fillSynthetic,
  openTarget,
  randomPoints,
  writeSection,
  type Target,
} from './places.bench.js';
import { rng, untilQuiet } from './util.js';

const SQUARE_MILES = 5;
const WARM_UP = 50;
const silent = { warn: () => {} };
const quietBus: EventBus = {
  transport: 'memory',
  publish: () => Promise.resolve(),
  subscribe: () => () => undefined,
  ready: () => Promise.resolve(),
  close: () => Promise.resolve(),
};

/** An irregular octagon of SQUARE_MILES around the point (each corner's distance jittered, then scaled). */
function territoryAt(center: LatLng, rand: () => number): TerritoryArea {
  const corners = Array.from({ length: 8 }, (_, k) => {
    const angle = (k / 8) * 2 * Math.PI + (rand() - 0.5) * 0.4;
    return { angle, miles: 0.8 + rand() * 0.4 };
  });
  const ring = (scale: number) => {
    const r = corners.map(({ angle, miles }): [number, number] => [
      center.lng + milesToLngDegrees(miles * scale * Math.cos(angle), center.lat),
      center.lat + milesToLatDegrees(miles * scale * Math.sin(angle)),
    ]);
    return [...r, r[0]!];
  };
  const unit: TerritoryArea = { type: 'Polygon', coordinates: [ring(1)] };
  return { type: 'Polygon', coordinates: [ring(Math.sqrt(SQUARE_MILES / territorySquareMiles(unit)))] };
}

function quantiles(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { median: at(0.5), p95: at(0.95), max: at(1) };
}

/**
 * Scans of the territories at `centers`, each after the ranking pass alone of a territory at `aloneCenters` (other
 * territories of the same area, never scanned, so neither warms the other's pages: the scan bench's method).
 */
async function measure(t: Target, centers: LatLng[], aloneCenters: LatLng[]) {
  const config = parseConfig({ PLACE_PROVIDERS: 'local', LOG_LEVEL: 'silent' });
  const steps = new Map<ScanStep, number[]>(SCAN_STEPS.map((s) => [s, []]));
  const deps: ScanDeps = {
    db: t.db,
    places: createPlaceChain(config, t.db, silent),
    score: createScoreFn(() => getBrandIndex()),
    radiusMaxMiles: 5,
    cooldownMs: 1,
    settings: () => Promise.resolve(DEFAULT_ALGORITHM_SETTINGS),
    websites: { read: (found) => readEvidence(t.db, found), schedule: () => Promise.resolve(0) },
    timed: (step, seconds) => steps.get(step)?.push(seconds * 1000),
  };
  const { userId } = await registerAccount(
    t.db,
    { name: 'Bench', email: `bench-${Date.now()}@example.com`, password: 'bench-password' },
    8,
  );
  const rep = { id: userId, name: 'Bench', email: '', role: 'user' as const, isSuperAdmin: false };
  const rand = rng(53);
  const territories = async (points: LatLng[], prefix: string) => {
    const ids: string[] = [];
    for (const [i, c] of points.entries()) {
      const made = await createTerritory({ db: t.db, events: quietBus, maxSquareMiles: 2000 }, rep, {
        name: `${prefix} ${i}`,
        area: territoryAt(c, rand),
        repIds: [userId],
      });
      ids.push(made.id);
    }
    return ids;
  };
  const scanned = await territories(centers, 'Territory');
  const aloneIds = await territories(aloneCenters, 'Alone');
  const types = placeTypesForGroups(resolveGroups([]));
  // The territory read, and the circle and outline a scan of it ranks, as the route makes them.
  const areaOf = async (id: string) => {
    const territory = await territoryToScan(t.db, rep, id);
    const { center, radiusMiles } = territoryCircle(territory.area);
    const within = { territoryId: id, box: territory.box, contains: territoryContains(territory.area) };
    return { center, radiusMiles, within };
  };
  const scan = async (id: string) => {
    const { center, radiusMiles, within } = await areaOf(id);
    return runScan(deps, userId, { ...center, radiusMiles, count: 20, categories: [], within });
  };
  // The ranking pass alone, as the scan makes it (timed without the territory's read): every category group,
  // every place inside the outline ranked and the records of its best read.
  const rankingPass = async (id: string) => {
    const { center, radiusMiles, within } = await areaOf(id);
    const r0 = performance.now();
    await deps.places.nearby({
      ...center,
      radiusMiles,
      types,
      limit: FIRST_READ,
      minCount: 20,
      ranked: { showAll: false },
      within,
    });
    return performance.now() - r0;
  };
  // One turn, side by side: the ranking pass alone of one territory, then the scan of another, then the team
  // list's copy after the answer (not timed), finished before the next turn.
  const turn = async (i: number) => {
    const alone = await rankingPass(aloneIds[i]!);
    const t0 = performance.now();
    const page = await scan(scanned[i]!);
    const t1 = performance.now();
    await settleAfterAnswer(t.db);
    return { scan: t1 - t0, alone, ranked: page.total };
  };
  for (let i = 0; i < WARM_UP; i++) await turn(i);
  for (const list of steps.values()) list.length = 0;
  const scans: number[] = [];
  const alone: number[] = [];
  let ranked = 0;
  for (let i = WARM_UP; i < scanned.length; i++) {
    const r = await turn(i);
    scans.push(r.scan);
    alone.push(r.alone);
    ranked += r.ranked;
  }
  const s = quantiles(scans);
  const a = quantiles(alone);
  const stepMedians = SCAN_STEPS.map((step) => `${step} ${ms(quantiles(steps.get(step) ?? []).median)}`);
  return {
    ...s,
    aloneMedian: a.median,
    ratio: s.median / a.median,
    ranked: Math.round(ranked / scans.length),
    steps: stepMedians.join(', '),
  };
}

const ms = (v: number) => `${v.toFixed(1)} ms`;

export default async function run(args: string[]): Promise<void> {
  const nScans = arg(args, 'scans', 200);
  const nRows = arg(args, 'places', CITY_ROWS);
  const kinds = (['sqlite', 'postgres'] as const).filter((k) => !args.includes(`--skip-${k}`));
  const city = { lat: 33.5186, lng: -86.8104 };
  // Territories whose outline lies inside the city's box (the octagons reach about 1.5 miles from their point).
  const box = {
    minLat: city.lat - 0.12,
    maxLat: city.lat + 0.12,
    minLng: city.lng - 0.15,
    maxLng: city.lng + 0.15,
  };
  const centers = randomPoints(WARM_UP + nScans, 41, box);
  const aloneCenters = randomPoints(WARM_UP + nScans, 43, box);
  const rows: string[] = [];
  const loads: number[] = [];
  for (const kind of kinds) {
    const label = kind === 'sqlite' ? 'SQLite' : 'PostgreSQL';
    const t = await openTarget(kind, 'FULL');
    try {
      console.log(`${label}: filling ${nRows.toLocaleString('en-US')} synthetic businesses…`);
      await fillSynthetic(t, nRows, city);
      loads.push(await untilQuiet(0.8, 2)); // a shared machine: wait a little, never long
      const r = await measure(t, centers, aloneCenters);
      console.log(
        `${label}: median ${ms(r.median)}, p95 ${ms(r.p95)}, max ${ms(r.max)}, ranking pass alone median ` +
          `${ms(r.aloneMedian)}, ratio ${r.ratio.toFixed(2)}, ranked ${r.ranked}; step medians: ${r.steps}`,
      );
      rows.push(
        `| ${label} | ${r.ranked} | ${ms(r.median)} | ${ms(r.p95)} | ${ms(r.max)} | ${ms(r.aloneMedian)} | ${r.ratio.toFixed(2)} |`,
      );
    } finally {
      await t.drop();
    }
  }
  const heading = '## Territory scan';
  const section = [
    heading,
    '',
    `\`npm run bench -- territory\`: ${nScans} scans of ${SQUARE_MILES}-square-mile octagons in the ${nRows.toLocaleString('en-US')}-business city, as \`POST /api/scans\``,
    `with a \`territoryId\` makes them (territory read included); targets as the scan's. ${cpus().length} cores, load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}.`,
    '',
    '| database | ranked (mean) | median | p95 | max | ranking pass alone (median) | ratio |',
    '| -------- | ------------- | ------ | --- | --- | --------------------------- | ----- |',
    ...rows,
    '',
  ].join('\n');
  console.log(`\n${section}`);
  if (kinds.length === 2) await writeSection(section, heading);
}
