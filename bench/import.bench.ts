// `npm run bench -- import [--businesses=500000] [--plain=1500000,10000000] [--ways=60000] [--no-write]`
// Import of a large generated extract, the size of a small US state's: `--businesses` named business nodes,
// `--plain` untagged nodes (the street geometry that makes up most of a real extract), `--ways` business ways
// (buildings, 5 nodes each) and as many untagged road ways, over Alabama's bounding box, in blocks of 8,000
// elements as real extracts are written (test/fixtures/osm/pbf-writer.ts). The file is imported with
// `importOsmFile` into a fresh SQLite database, market rebuild included. Prints rows/s, MB/s, wall time and the
// peak RSS (the kernel's VmHWM, and a 100 ms sample of process.memoryUsage().rss during the import), which must
// stay under 1 GB. Writes docs/PERFORMANCE.md's "Import: a state-sized extract" section.
import {
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../src/server/config.js';
import { openDatabase } from '../src/server/db/database.js';
import { buildApp } from '../src/server/app.js';
import { formatProgress, importOsmFile } from '../src/server/places/osm-import.js';
import { pbfDataBlock, pbfHeader, type PbfNode, type PbfWay } from '../test/fixtures/osm/pbf-writer.js';
import { arg, rng, writeSection } from './util.js';

const BLOCK = 8000;
const LIMIT_BYTES = 1024 ** 3;
const SHOPS: Record<string, string>[] = [
  { shop: 'hairdresser' },
  { shop: 'convenience' },
  { shop: 'car_repair' },
  { shop: 'clothes' },
  { shop: 'bakery' },
  { amenity: 'restaurant', cuisine: 'american' },
  { amenity: 'fast_food' },
  { amenity: 'cafe' },
  { amenity: 'dentist' },
  { amenity: 'pharmacy' },
  { office: 'lawyer' },
  { craft: 'plumber' },
  { leisure: 'fitness_centre' },
  { tourism: 'hotel' },
];
const BRANDS = ['Dollar General', "McDonald's", 'Subway', 'Walgreens', 'Waffle House', 'CVS Pharmacy'];
const WORDS = [
  'Magnolia',
  'Oak',
  'River',
  'Cotton',
  'Pine',
  'Red Hill',
  'Gulf',
  'Cahaba',
  'Main Street',
  'Pecan',
];

/** The VmHWM (peak resident set) of this process, from /proc; null where there is no /proc. */
function vmHwmBytes(): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    return m?.[1] ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Write the extract block by block, so generating it holds one block in memory at a time. */
function generate(file: string, businesses: number, plain: number, ways: number): { elements: number } {
  const rand = rng(14_15);
  const fd = openSync(file, 'w');
  let elements = 0;
  try {
    writeSync(fd, pbfHeader('prospect-finder bench/import.bench.ts'));
    // Ids: plain nodes 1..plain, business nodes after them; ways 1..2*ways.
    const lat = () => 30.2 + rand() * 4.8;
    const lon = () => -88.4 + rand() * 3.5;
    let block: PbfNode[] = [];
    const flushNodes = () => {
      if (block.length === 0) return;
      writeSync(fd, pbfDataBlock(block, [], 6));
      elements += block.length;
      block = [];
    };
    for (let id = 1; id <= plain; id++) {
      block.push({ id, lat: lat(), lon: lon() });
      if (block.length === BLOCK) flushNodes();
    }
    for (let i = 0; i < businesses; i++) {
      const kind = SHOPS[i % SHOPS.length] ?? {};
      const branded = rand() < 0.06;
      const name = branded
        ? (BRANDS[i % BRANDS.length] ?? 'Subway')
        : `${WORDS[Math.floor(rand() * WORDS.length)] ?? 'Oak'} ${Object.values(kind)[0] ?? 'shop'} ${i}`;
      const tags: Record<string, string> = { ...kind, name };
      if (i % 3 === 0) tags.phone = `+1 205 555 ${String(i % 10_000).padStart(4, '0')}`;
      if (i % 4 === 0) tags.website = `https://example.com/${i}`;
      if (i % 5 === 0) tags.opening_hours = 'Mo-Fr 08:00-17:00; Sa 09:00-13:00';
      if (i % 7 === 0) tags['addr:street'] = `${WORDS[i % WORDS.length] ?? 'Oak'} Avenue`;
      block.push({ id: plain + 1 + i, lat: lat(), lon: lon(), tags });
      if (block.length === BLOCK) flushNodes();
    }
    flushNodes();
    let wayBlock: PbfWay[] = [];
    const flushWays = () => {
      if (wayBlock.length === 0) return;
      writeSync(fd, pbfDataBlock([], wayBlock, 6));
      elements += wayBlock.length;
      wayBlock = [];
    };
    for (let i = 0; i < 2 * ways; i++) {
      // A business building (every other way) and an untagged road, each over 5 consecutive plain nodes.
      const first = 1 + Math.floor(rand() * (plain - 5));
      const refs = [first, first + 1, first + 2, first + 3, first];
      const tags: Record<string, string> =
        i % 2 === 0
          ? { building: 'retail', shop: 'supermarket', name: `Market ${i}` }
          : { highway: 'residential' };
      wayBlock.push({ id: i + 1, refs: i % 2 === 0 ? refs : refs.slice(0, 4), tags });
      if (wayBlock.length === BLOCK) flushWays();
    }
    flushWays();
  } finally {
    closeSync(fd);
  }
  return { elements };
}

const mb = (n: number) => `${(n / 1024 ** 2).toFixed(0)} MB`;

interface Run {
  bytes: number;
  elements: number;
  upserted: number;
  wallS: number;
  peak: number;
  hwmReset: boolean;
}

/** Generate one extract with `plain` untagged nodes and import it into a fresh SQLite database. */
async function measure(businesses: number, plain: number, ways: number): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'pf-import-bench-'));
  try {
    const file = join(dir, 'generated-state.osm.pbf');
    let t = Date.now();
    const { elements } = generate(file, businesses, plain, ways);
    const bytes = statSync(file).size;
    console.log(
      `generated ${elements.toLocaleString('en-US')} elements, ${(bytes / 1e6).toFixed(1)} MB in ${((Date.now() - t) / 1000).toFixed(1)} s`,
    );
    // Reset the kernel's peak-RSS mark (Linux 4.0+), so VmHWM is the import's own peak, not the generator's
    // (nor an earlier run's).
    let hwmReset = true;
    try {
      writeFileSync('/proc/self/clear_refs', '5');
    } catch {
      hwmReset = false;
    }
    const config = parseConfig({ DATA_DIR: dir, LOG_LEVEL: 'warn' });
    const db = openDatabase({ database: config.database });
    const app = await buildApp({ config, db, serveWeb: false });
    let sampledPeak = process.memoryUsage().rss;
    const sampler = setInterval(() => {
      sampledPeak = Math.max(sampledPeak, process.memoryUsage().rss);
    }, 100);
    let lastStep = '';
    t = Date.now();
    let result: Awaited<ReturnType<typeof importOsmFile>>;
    try {
      result = await importOsmFile(db, file, (p) => {
        // A line per pass and 10 % of the file.
        const step = `${p.pass}:${Math.floor((p.bytesRead / Math.max(1, p.totalBytes)) * 10)}`;
        if (step !== lastStep) console.log(formatProgress(p));
        lastStep = step;
      });
    } finally {
      clearInterval(sampler);
      await app.close();
      await db.destroy();
    }
    const wallS = (Date.now() - t) / 1000;
    sampledPeak = Math.max(sampledPeak, process.memoryUsage().rss);
    const hwm = vmHwmBytes();
    const peak = Math.max(hwm ?? 0, sampledPeak);
    console.log(
      `imported ${result.upserted.toLocaleString('en-US')} businesses (${result.nodes.toLocaleString('en-US')} nodes, ${result.ways.toLocaleString('en-US')} ways) in ${wallS.toFixed(1)} s: ` +
        `${Math.round(result.upserted / wallS).toLocaleString('en-US')} rows/s, ${(bytes / 1e6 / wallS).toFixed(2)} MB/s; peak RSS ${mb(peak)} (VmHWM ${hwm ? mb(hwm) : 'n/a'}, sampled ${mb(sampledPeak)})`,
    );
    console.log(peak < LIMIT_BYTES ? 'peak RSS is under 1 GB' : 'PEAK RSS IS OVER 1 GB');
    return { bytes, elements, upserted: result.upserted, wallS, peak, hwmReset };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export default async function importBench(args: string[]): Promise<void> {
  const businesses = arg(args, 'businesses', 500_000);
  const ways = arg(args, 'ways', 60_000);
  // One extract per --plain value: the same businesses in a small file and in one the size of a state's.
  const plainArg = args.find((a) => a.startsWith('--plain='))?.split('=')[1] ?? '1500000,10000000';
  const plains = plainArg.split(',').map(Number);
  const runs: Run[] = [];
  for (const plain of plains) runs.push(await measure(businesses, plain, ways));
  const over = runs.some((r) => r.peak >= LIMIT_BYTES);
  if (over) process.exitCode = 1;
  if (args.includes('--no-write')) return;
  const rows = runs
    .map(
      (r) =>
        `| ${`${(r.bytes / 1e6).toFixed(1)} MB, ${r.elements.toLocaleString('en-US')} elements`.padEnd(34)} | ${r.upserted.toLocaleString('en-US').padEnd(17)} | ${`${r.wallS.toFixed(1)} s`.padEnd(9)} | ${Math.round(
          r.upserted / r.wallS,
        )
          .toLocaleString('en-US')
          .padEnd(6)} | ${(r.bytes / 1e6 / r.wallS).toFixed(2).padEnd(4)} | ${mb(r.peak).padEnd(8)} |`,
    )
    .join('\n');
  await writeSection(
    `## Import: a state-sized extract

\`npm run bench -- import\` (\`bench/import.bench.ts\`; options \`--businesses=500000 --ways=60000
--plain=1500000,10000000\`). Target: a state-sized extract imports in bounded memory, under 1 GB RSS. Each
extract is generated (seeded) over Alabama's bounding box in blocks of 8,000 elements, as real extracts are
written: ${businesses.toLocaleString('en-US')} named business nodes (14 kinds, 6% chain brands, a
third with a phone, a fifth with opening hours), ${ways.toLocaleString('en-US')} business buildings (ways placed
at their centroid in the second pass), as many untagged roads, and ${plains.map((p) => p.toLocaleString('en-US')).join(' or ')}
untagged nodes (the street geometry that makes up most of a real extract). It is
imported with \`importOsmFile\` into a fresh SQLite database (synchronous=FULL), the market rebuild included;
wall time is the whole import, rows/s is businesses stored per second of it.

| extract                            | businesses stored | wall time | rows/s | MB/s | peak RSS |
| ---------------------------------- | ----------------- | --------- | ------ | ---- | -------- |
${rows}

Peak RSS is the larger of the kernel's VmHWM (${runs.every((r) => r.hwmReset) ? "reset after generating each extract, so the import's own" : 'for the whole run, generation included'}) and
\`process.memoryUsage().rss\` sampled every 100 ms during the import. Measured ${new Date().toISOString().slice(0, 10)} on Node
${process.version}, ${cpus().length} CPUs, shared with other work (load average ${loadavg()[0]?.toFixed(1)} at the end), so the
rates vary between runs.

Where the memory goes: the two passes over the file (about 400 MB after them, measured with VmHWM between the
phases: Node and tsx, the name-suggestion-index brand table of about 75 MB, the parser's garbage not yet
collected; the rows themselves are already in the staging table), then the market rebuild (\`refreshMarket\`),
which counts each business's places in the database and reads the places a page of 5,000 at a time. Memory grows
with the number of businesses and of business ways' node refs, not with the size of the file: the untagged nodes
are only streamed through. PostgreSQL is not measured here.
`,
    '## Import: a state-sized extract',
  );
}
