// `npm run bench -- places [--points=200] [--rows=1000000] [--skip-postgres]`
// Import time of the San Francisco extract, and the latency of the `local` provider's radius query (the whole
// provider call a scan makes: index pass, full rows, mapping to Business with open-now) on the SF data and on a
// synthetic city of 1,000,000 businesses, on SQLite and on PostgreSQL. Writes docs/PERFORMANCE.md's
// "Places: import and radius query" section.
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseConfig } from '../src/server/config.js';
import { openDatabase, withoutTimeouts, type Db } from '../src/server/db/database.js';
import { buildApp } from '../src/server/app.js';
import { importOsmFile } from '../src/server/places/osm-import.js';
import { createLocalProvider } from '../src/server/places/local.js';
import { commitStaged, storedRow } from '../src/server/places/local-store.js';
import { TYPE_BITS } from '../src/server/places/type-mask.js';
import { ALL_GROUPS, labelForPlaceType, placeTypesForGroups } from '../src/core/categories.js';
import { getBrandIndex } from '../src/core/scoring/nsi.js';
import { osmExtract } from '../test/helpers/osm-data.js';

import { arg, rng, scratchDatabase, writeSection } from './util.js';

export { arg, rng, writeSection };

const SF_FILE = osmExtract('sf-downtown.osm.pbf');
const SCAN_TYPES = placeTypesForGroups(ALL_GROUPS);

export interface Target {
  kind: 'sqlite' | 'postgres';
  db: Db;
  drop(): Promise<void>;
}

/** A fresh, migrated database (migrations applied through the app, as at start-up). */
export async function openTarget(
  kind: 'sqlite' | 'postgres',
  synchronous: 'FULL' | 'NORMAL' = 'NORMAL',
): Promise<Target> {
  const scratch = await scratchDatabase(kind, 'pf-bench-places-');
  const config = parseConfig({
    NODE_ENV: 'test',
    DATA_DIR: scratch.dataDir,
    DATABASE_URL: scratch.url,
    LOG_LEVEL: 'silent',
    SQLITE_SYNCHRONOUS: synchronous,
    AUTH_SECRET: randomBytes(32).toString('hex'),
  });
  const db = openDatabase(config);
  const app = await buildApp({ config, db, serveWeb: false });
  await app.close();
  return {
    kind,
    db,
    drop: async () => {
      await db.destroy();
      await scratch.remove();
    },
  };
}

/** The places of the synthetic city; more are the rest of a nation's. */
export const CITY_ROWS = 1_000_000;

const OTHER_KINDS = ['restaurant', 'cafe', 'clothes', 'fast_food', 'bar', 'convenience', 'hotel', 'company', 'estate_agent', 'supermarket']; // prettier-ignore

/** The contiguous United States, roughly: where the places of a national file beyond the city lie. */
const NATION = { minLat: 25, maxLat: 49, minLng: -124, maxLng: -67 };

/** A point of the synthetic city: about 28 x 28 miles around its centre. */
function cityPoint(rand: () => number, center: { lat: number; lng: number }) {
  return { lat: center.lat + (rand() * 2 - 1) * 0.2, lng: center.lng + (rand() * 2 - 1) * 0.24 };
}

/** A point of the rest of the nation: anywhere in NATION outside the city's box. */
function nationPoint(rand: () => number, center: { lat: number; lng: number }) {
  for (;;) {
    const lat = NATION.minLat + rand() * (NATION.maxLat - NATION.minLat);
    const lng = NATION.minLng + rand() * (NATION.maxLng - NATION.minLng);
    if (Math.abs(lat - center.lat) > 0.2 || Math.abs(lng - center.lng) > 0.24) return { lat, lng };
  }
}

/** Row i of the synthetic data at `at`; 35% carry one of the scan categories' place types. */
function syntheticRow(i: number, rand: () => number, { lat, lng }: { lat: number; lng: number }, at: string) {
  const typed = rand() < 0.35;
  const type = typed
    ? (TYPE_BITS[Math.floor(rand() * TYPE_BITS.length)] ?? 'bank')
    : (OTHER_KINDS[Math.floor(rand() * OTHER_KINDS.length)] ?? 'cafe');
  const name = `Business ${i}`;
  // As an import makes it (local-store.ts storedRow): with its profile and its rank.
  return storedRow(
    {
      id: `synthetic:${i}`,
      name,
      lat,
      lng,
      types: [type],
      category: labelForPlaceType(type),
      address: `${1 + (i % 9000)} Main Street, Birmingham, AL 35203`,
      city: 'Birmingham',
      state: 'AL',
      zip: '35203',
      phone: i % 3 === 0 ? `(205) 555-${String(i % 10000).padStart(4, '0')}` : null,
      website: i % 4 === 0 ? `https://b${i}.example.com` : null,
      openingHours: i % 5 === 0 ? 'Mo-Fr 09:00-17:00' : null,
      brand: null,
      brandWikidata: null,
      tags: { name, [typed ? 'office' : 'amenity']: type },
    },
    at,
    getBrandIndex(),
  );
}

const COLS = ['id', 'name', 'lat', 'lng', 'cell_lat', 'type_mask', 'types', 'category', 'address', 'city', 'state', 'zip', 'phone', 'website', 'opening_hours', 'brand', 'brand_wikidata', 'tags', 'imported_at', 'profile', 'rank_score', 'rank_rule', 'name_key', 'site_domain'] as const; // prettier-ignore
const PG_TYPES = ['text', 'text', 'float8', 'float8', 'int4', 'int8', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'float8', 'int4', 'text', 'text']; // prettier-ignore

/**
 * The synthetic city, written as an import writes it: rows staged in batches, then moved into `places` by
 * commitStaged (in the grid index's order), then fresh statistics (and on PostgreSQL the visibility map). Up to
 * CITY_ROWS in the city (about 1,300 per square mile, downtown San Francisco has about 2,000); beyond, a national
 * file's other places, spread over the rest of the contiguous United States.
 */
export async function fillSynthetic(
  t: Target,
  rows: number,
  center: { lat: number; lng: number },
): Promise<number> {
  const point = (i: number) => (i < CITY_ROWS ? cityPoint(rand, center) : nationPoint(rand, center));
  const started = performance.now();
  const rand = rng(42);
  const at = new Date().toISOString();
  const batch = 10_000;
  const importId = 'synthetic';
  // A national file takes most of an hour to write: a line per million rows shows it moving.
  const progress = (done: number) => {
    if (rows > CITY_ROWS && done % 1_000_000 === 0)
      console.log(
        `  ${done.toLocaleString('en-US')} staged, ${((performance.now() - started) / 1000).toFixed(0)} s`,
      );
  };
  const staged = ['import_id', ...COLS];
  if (t.kind === 'sqlite' && t.db.sqlite) {
    const sqlite = t.db.sqlite;
    const insert = sqlite.prepare(
      `INSERT INTO places_staging (${staged.join(',')}) VALUES (${staged.map((c) => `@${c}`).join(',')})`,
    );
    const many = sqlite.transaction((list: ReturnType<typeof syntheticRow>[]) => {
      for (const r of list) insert.run({ ...r, import_id: importId });
    });
    for (let i = 0; i < rows; i += batch) {
      const list = [];
      for (let j = i; j < Math.min(rows, i + batch); j++) list.push(syntheticRow(j, rand, point(j), at));
      many(list);
      progress(i + batch);
    }
    await commitStaged(t.db.kysely, importId);
    sqlite.exec('ANALYZE');
  } else if (t.db.pool) {
    const pool = t.db.pool;
    const sql = `INSERT INTO places_staging (${staged.join(',')}) SELECT $1, * FROM unnest(${COLS.map((_, k) => `$${k + 2}::${PG_TYPES[k]}[]`).join(',')})`;
    for (let i = 0; i < rows; i += batch) {
      const columns: unknown[][] = COLS.map(() => []);
      for (let j = i; j < Math.min(rows, i + batch); j++) {
        const r = syntheticRow(j, rand, point(j), at);
        COLS.forEach((c, k) => columns[k]?.push(r[c]));
      }
      await pool.query(sql, [importId, ...columns]);
      progress(i + batch);
    }
    const unbounded = withoutTimeouts(t.db);
    try {
      await commitStaged(unbounded.kysely, importId);
    } finally {
      await unbounded.close();
    }
    await pool.query('VACUUM ANALYZE places');
  }
  return performance.now() - started;
}

interface Latency {
  median: number;
  p95: number;
  meanCount: number;
}

async function measure(
  db: Db,
  points: { lat: number; lng: number }[],
  radiusMiles: number,
  types: string[],
): Promise<Latency> {
  const provider = createLocalProvider(db);
  const signal = new AbortController().signal;
  // Warm-up: prepared statements, caches, JIT.
  for (const p of points.slice(0, 20))
    await provider.nearby({ ...p, radiusMiles, types, limit: 500 }, signal);
  const times: number[] = [];
  let total = 0;
  for (const p of points) {
    const t0 = performance.now();
    const found = await provider.nearby({ ...p, radiusMiles, types, limit: 500 }, signal);
    times.push(performance.now() - t0);
    total += found.length;
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? NaN;
  return { median: at(0.5), p95: at(0.95), meanCount: Math.round(total / points.length) };
}

export function randomPoints(
  n: number,
  seed: number,
  box: { minLat: number; maxLat: number; minLng: number; maxLng: number },
) {
  const rand = rng(seed);
  return Array.from({ length: n }, () => ({
    lat: box.minLat + rand() * (box.maxLat - box.minLat),
    lng: box.minLng + rand() * (box.maxLng - box.minLng),
  }));
}

const ms = (v: number) => `${v.toFixed(v < 10 ? 2 : 1)} ms`;

export default async function run(args: string[]): Promise<void> {
  const nPoints = arg(args, 'points', 200);
  const nRows = arg(args, 'rows', 1_000_000);
  const kinds: ('sqlite' | 'postgres')[] = args.includes('--skip-postgres')
    ? ['sqlite']
    : ['sqlite', 'postgres'];
  // SF: the README's middle-90% box of the POIs.
  const sfPoints = randomPoints(nPoints, 7, {
    minLat: 37.7719,
    maxLat: 37.7975,
    minLng: -122.4201,
    maxLng: -122.3926,
  });
  const city = { lat: 33.5186, lng: -86.8104 };
  const cityPoints = randomPoints(nPoints, 9, {
    minLat: city.lat - 0.15,
    maxLat: city.lat + 0.15,
    minLng: city.lng - 0.18,
    maxLng: city.lng + 0.18,
  });

  const importRows: string[] = [];
  const queryRows: string[] = [];
  for (const kind of kinds) {
    const label = kind === 'sqlite' ? 'SQLite' : 'PostgreSQL';
    // 1. SF extract: import, then queries.
    const sf = await openTarget(kind);
    try {
      const r = await importOsmFile(sf.db, SF_FILE);
      const line = `| ${label} | ${r.total.toLocaleString('en-US')} | ${(r.ms / 1000).toFixed(2)} s |`;
      console.log(`import SF extract (${label}): ${r.total} businesses in ${(r.ms / 1000).toFixed(2)} s`);
      importRows.push(line);
      for (const [what, types] of [
        ['all 9 category groups', SCAN_TYPES],
        ['any business', []],
      ] as const) {
        const l = await measure(sf.db, sfPoints, 1, [...types]);
        console.log(
          `SF ${label}, 1 mile, ${what}: median ${ms(l.median)}, p95 ${ms(l.p95)} (${l.meanCount} found)`,
        );
        queryRows.push(
          `| SF extract (${r.total.toLocaleString('en-US')}) | ${label} | 1 mi, ${what} | ${l.meanCount} | ${ms(l.median)} | ${ms(l.p95)} |`,
        );
      }
    } finally {
      await sf.drop();
    }
    // 2. Synthetic city.
    const syn = await openTarget(kind);
    try {
      const fillMs = await fillSynthetic(syn, nRows, city);
      console.log(
        `synthetic city (${label}): ${nRows.toLocaleString('en-US')} rows written in ${(fillMs / 1000).toFixed(1)} s`,
      );
      for (const [radius, what, types] of [
        [1, 'all 9 category groups', SCAN_TYPES],
        [1, 'any business', []],
        [5, 'all 9 category groups', SCAN_TYPES],
      ] as const) {
        const l = await measure(syn.db, cityPoints, radius, [...types]);
        console.log(
          `synthetic ${label}, ${radius} mi, ${what}: median ${ms(l.median)}, p95 ${ms(l.p95)} (${l.meanCount} found)`,
        );
        queryRows.push(
          `| synthetic city (${nRows.toLocaleString('en-US')}) | ${label} | ${radius} mi, ${what} | ${l.meanCount} | ${ms(l.median)} | ${ms(l.p95)} |`,
        );
      }
    } finally {
      await syn.drop();
    }
  }

  const section = [
    '## Places: import and radius query',
    '',
    `\`npm run bench -- places\` (\`bench/places.bench.ts\`; options \`--points=${nPoints} --rows=${nRows}\`, \`--skip-postgres\`).`,
    'Target: p95 under 100 ms for the whole `local` provider query with 1,000,000 businesses stored, on both databases.',
    '',
    'Import: `importOsmFile` on a fresh, migrated database (structure check, two streaming passes over the file,',
    'staging table, one upsert transaction; on PostgreSQL also `VACUUM ANALYZE`).',
    '',
    '| database | businesses | import time |',
    '| -------- | ---------- | ----------- |',
    ...importRows,
    '',
    'Radius query: `createLocalProvider(db).nearby({lat, lng, radiusMiles, types, limit: 500})`, the nearest 500 (a',
    'scan instead ranks its whole circle, "Scan: end to end"): the grid-index pass (widening from 0.5 mile until 500',
    'matches or the radius), the full rows of the nearest 500 and their mapping to `Business` with open-now.',
    `${nPoints} points per row, drawn with a fixed seed (SF: the README's middle-90% box of the POIs; synthetic: the`,
    'inner 21 x 21 miles of the city), after 20 warm-up queries. "all 9 category groups" is the type filter of a scan',
    `with every category selected (39 place types). The synthetic city: ${nRows.toLocaleString('en-US')} businesses spread uniformly over about`,
    '28 x 28 miles around Birmingham, AL (about 1,300 per square mile, downtown San Francisco has about 2,000), 35%',
    'with one of the 39 place types, 20% with opening hours.',
    '',
    `| data | database | query | found (mean) | median | p95 |`,
    `| ---- | -------- | ----- | ------------ | ------ | --- |`,
    ...queryRows,
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on Node ${process.version}, ${cpus().length} CPUs, PostgreSQL and the benchmark on the same`,
    `machine, shared with other work (load average ${loadavg()[0]?.toFixed(1)} at the end of the run), so the figures vary`,
    'between runs; the p95 column is the one to compare with the target.',
    '',
  ].join('\n');
  console.log(`\n${section}`);
  await writeSection(section);
}
