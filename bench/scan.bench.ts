// `npm run bench -- scan [--scans=200] [--rows=1000000] [--skip-postgres]`
// Latency of a whole scan on the `local` provider — the service call POST /api/scans makes: radius query,
// de-duplication, blocklist, scoring of up to 500 candidates, cache reads and writes, the search record and
// the user's latest results — on the SF extract and on a synthetic city of 1,000,000 businesses, on SQLite
// (synchronous=FULL, the default) and PostgreSQL. Writes docs/PERFORMANCE.md's "Scan: end to end" section.
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { importOsmFile } from '../src/server/places/osm-import.js';
import { createPlaceChain } from '../src/server/places/index.js';
import { parseConfig } from '../src/server/config.js';
import { createScoreFn } from '../src/server/scans/analysis.js';
import { runScan, type ScanDeps } from '../src/server/scans/service.js';
import { DEFAULT_ALGORITHM_SETTINGS } from '../src/server/settings/service.js';
import { registerAccount } from '../src/server/users/accounts.js';
import { getBrandIndex } from '../src/core/scoring/nsi.js';
import { osmExtract } from '../test/helpers/osm-data.js';
import { arg, fillSynthetic, openTarget, randomPoints, writeSection, type Target } from './places.bench.js';

const SF_FILE = osmExtract('sf-downtown.osm.pbf');
const silent = { warn: () => {} };

async function measureScans(t: Target, points: { lat: number; lng: number }[]) {
  const config = parseConfig({ PLACE_PROVIDERS: 'local', LOG_LEVEL: 'silent' });
  const deps: ScanDeps = {
    db: t.db,
    places: createPlaceChain(config, t.db, silent),
    score: createScoreFn(() => getBrandIndex()),
    radiusMaxMiles: 5,
    cooldownMs: 0,
    settings: () => Promise.resolve(DEFAULT_ALGORITHM_SETTINGS),
  };
  const { userId } = await registerAccount(
    t.db,
    { name: 'Bench', email: `bench-${Date.now()}@example.com`, password: 'bench-password' },
    8,
  );
  const scan = (p: { lat: number; lng: number }) =>
    runScan(deps, userId, { ...p, radiusMiles: 1, count: 20, categories: [] });
  for (const p of points.slice(0, 10)) await scan(p); // warm-up: brand index, prepared statements, JIT
  const times: number[] = [];
  let candidates = 0;
  for (const p of points) {
    const t0 = performance.now();
    const page = await scan(p);
    times.push(performance.now() - t0);
    candidates += page.total;
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? NaN;
  return { median: at(0.5), p95: at(0.95), max: at(1), ranked: Math.round(candidates / points.length) };
}

const ms = (v: number) => `${v.toFixed(1)} ms`;

export default async function run(args: string[]): Promise<void> {
  const nScans = arg(args, 'scans', 200);
  const nRows = arg(args, 'rows', 1_000_000);
  const kinds: ('sqlite' | 'postgres')[] = args.includes('--skip-postgres')
    ? ['sqlite']
    : ['sqlite', 'postgres'];
  const sfPoints = randomPoints(nScans, 11, {
    minLat: 37.7719,
    maxLat: 37.7975,
    minLng: -122.4201,
    maxLng: -122.3926,
  });
  const city = { lat: 33.5186, lng: -86.8104 };
  const cityPoints = randomPoints(nScans, 13, {
    minLat: city.lat - 0.15,
    maxLat: city.lat + 0.15,
    minLng: city.lng - 0.18,
    maxLng: city.lng + 0.18,
  });
  const rows: string[] = [];
  for (const kind of kinds) {
    const label = kind === 'sqlite' ? 'SQLite' : 'PostgreSQL';
    const sf = await openTarget(kind, 'FULL');
    try {
      await importOsmFile(sf.db, SF_FILE);
      const r = await measureScans(sf, sfPoints);
      console.log(`${label} SF: median ${ms(r.median)}, p95 ${ms(r.p95)}, ranked ${r.ranked}`);
      rows.push(
        `| SF extract (4,006) | ${label} | ${r.ranked} | ${ms(r.median)} | ${ms(r.p95)} | ${ms(r.max)} |`,
      );
    } finally {
      await sf.drop();
    }
    const big = await openTarget(kind, 'FULL');
    try {
      console.log(`${label}: filling ${nRows.toLocaleString('en-US')} synthetic businesses…`);
      await fillSynthetic(big, nRows, city);
      const r = await measureScans(big, cityPoints);
      console.log(`${label} 1M: median ${ms(r.median)}, p95 ${ms(r.p95)}, ranked ${r.ranked}`);
      rows.push(
        `| synthetic city (${nRows.toLocaleString('en-US')}) | ${label} | ${r.ranked} | ${ms(r.median)} | ${ms(r.p95)} | ${ms(r.max)} |`,
      );
    } finally {
      await big.drop();
    }
  }
  const section = [
    '## Scan: end to end',
    '',
    '`npm run bench -- scan` (`bench/scan.bench.ts`; options `--scans=200 --rows=1000000`, `--skip-postgres`).',
    'Target from issue 3: scan p95 under 100 ms on the `local` provider with 1,000,000 businesses stored, on both',
    'databases. Each scan is the service call behind `POST /api/scans` at a random point (fixed seed): 1 mile, all',
    'categories, count 20 — radius query (up to 500), de-duplication, blocklist, scoring, analysis and business',
    'cache reads and writes, the search record and the latest results. Every point is new, so most scans write',
    'their cache entries (the worst case). SQLite runs with synchronous=FULL, the default.',
    '',
    '| data | database | ranked (mean) | median | p95 | max |',
    '| ---- | -------- | ------------- | ------ | --- | --- |',
    ...rows,
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on Node ${process.version}, ${cpus().length} CPUs, shared with`,
    `other work (load average ${loadavg()[0]?.toFixed(1)} at the end of the run).`,
    '',
  ].join('\n');
  console.log(`\n${section}`);
  writeSection(section, '## Scan: end to end');
}
