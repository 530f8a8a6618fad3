// `npm run bench -- import-overture [--places=1000000] [--row-group=100000] [--skip-sqlite] [--skip-postgres] [--no-write]`
// Import of a large generated Overture places file: `--places` places (15,000,000 is the size of a national file)
// over the contiguous US, written with hyparquet-writer in Overture's schema (test/fixtures/overture/parquet-writer.ts)
// in row groups of `--row-group` places, then imported with `importOvertureFiles` into a fresh SQLite database and a
// fresh PostgreSQL one, unless skipped (the market rebuild included). Prints rows/s and the peak RSS (the
// kernel's VmHWM, reset after generating, and a 100 ms sample of process.memoryUsage().rss), which must stay under
// 1 GB. Writes docs/PERFORMANCE.md's "Import: an Overture places file" section.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseConfig } from '../src/server/config.js';
import { openDatabase } from '../src/server/db/database.js';
import { buildApp } from '../src/server/app.js';
import { importOvertureFiles, type OvertureImportResult } from '../src/server/places/overture-import.js';
import { writeOvertureParquet, type FixturePlace } from '../test/fixtures/overture/parquet-writer.js';
import { arg, rng, scratchDatabase, writeSection } from './util.js';

const LIMIT_BYTES = 1024 ** 3;
/** Categories in the proportions of a US release's most common kinds, and some the table does not know. */
const KINDS = [
  'restaurant', 'beauty_salon', 'hair_salon', 'church_cathedral', 'professional_services', 'automotive_repair',
  'dentist', 'doctor', 'lawyer', 'real_estate_agent', 'coffee_shop', 'gym', 'insurance_agency', 'plumbing',
  'contractor', 'clothing_store', 'pizza_restaurant', 'fast_food_restaurant', 'bank_credit_union', 'car_dealer',
  'landscaping', 'accountant', 'furniture_store', 'nail_salon', 'hotel', 'bar', 'school', 'park', 'toy_store',
  'hvac_services', 'chiropractor', 'personal_injury_law', 'massage', 'spas', 'event_planning', 'pet_groomer',
]; // prettier-ignore
const CHAINS = ['Subway', "McDonald's", 'Dollar General', 'Starbucks', 'Walgreens', 'State Farm', 'Great Clips', 'CVS Pharmacy']; // prettier-ignore
const WORDS = [
  'Oak',
  'River',
  'Summit',
  'Pine',
  'Main Street',
  'Lakeside',
  'Golden',
  'Liberty',
  'Valley',
  'Harbor',
];

/** The places, generated lazily (the writer pulls one row group at a time). */
function* places(count: number): Generator<FixturePlace> {
  const rand = rng(15_000);
  for (let i = 0; i < count; i++) {
    const kind = KINDS[Math.floor(rand() * KINDS.length)] ?? 'restaurant';
    const chain = rand() < 0.06 ? CHAINS[i % CHAINS.length] : undefined;
    const r = rand();
    yield {
      id: `bench-${i.toString(36).padStart(8, '0')}-0000-4000-8000-000000000000`,
      lat: 25 + rand() * 24,
      lng: -124 + rand() * 57,
      // Chains repeat; every other name is its own business, as most of a national file's are.
      name: chain ?? `${WORDS[i % WORDS.length] ?? 'Oak'} ${kind.replace(/_/g, ' ')} ${i}`,
      category: r < 0.01 ? null : kind,
      alternates: r < 0.3 ? ['professional_services'] : null,
      confidence: 0.3 + rand() * 0.7,
      operatingStatus: r > 0.98 ? 'permanently_closed' : 'open',
      phones: r < 0.9 ? [`+1${String(2_000_000_000 + (i % 7_999_999_999)).slice(0, 10)}`] : null,
      websites: r < 0.6 ? [`https://business-${i}.example.com/`] : null,
      socials: r < 0.5 ? [`https://www.facebook.com/${100_000_000 + i}`] : null,
      emails: r < 0.08 ? [`info@business-${i}.example.com`] : null,
      brand: chain ? { name: chain, wikidata: null } : null,
      addresses: [{ freeform: `${1 + (i % 9999)} ${WORDS[(i >> 3) % WORDS.length] ?? 'Oak'} St`, locality: 'Springfield', postcode: String(10_000 + (i % 89_999)), region: 'CA', country: 'US' }],
      sources: [{ dataset: i % 3 === 0 ? 'Foursquare' : 'meta', record_id: String(i), license: i % 3 === 0 ? 'Apache-2.0' : 'CDLA-Permissive-2.0' }],
    }; // prettier-ignore
  }
}

function vmHwmBytes(): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    return m?.[1] ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

const mb = (n: number) => `${(n / 1024 ** 2).toFixed(0)} MB`;

interface Run {
  database: 'sqlite' | 'postgres';
  result: OvertureImportResult;
  wallS: number;
  peak: number;
}

async function importInto(kind: 'sqlite' | 'postgres', file: string): Promise<Run> {
  const scratch = await scratchDatabase(kind, 'pf-overture-bench-');
  try {
    // Reset the kernel's peak-RSS mark (Linux 4.0+), so VmHWM is this import's own peak.
    try {
      writeFileSync('/proc/self/clear_refs', '5');
    } catch {
      // No /proc: the sampled RSS stands alone.
    }
    const config = parseConfig({
      DATA_DIR: scratch.dataDir,
      DATABASE_URL: scratch.url,
      LOG_LEVEL: 'warn',
    });
    const db = openDatabase({
      database:
        config.database.kind === 'postgres' ? { ...config.database, statementTimeoutMs: 0 } : config.database,
    });
    const app = await buildApp({ config, db, serveWeb: false });
    let sampled = process.memoryUsage().rss;
    const sampler = setInterval(() => (sampled = Math.max(sampled, process.memoryUsage().rss)), 100);
    const t = Date.now();
    let lastStep = -1;
    let result: OvertureImportResult;
    try {
      result = await importOvertureFiles(db, [file], {
        progress: (p) => {
          if (p.phase === 'commit') {
            console.log(
              `  ${kind}: committing, then the market rebuild (${Math.round((Date.now() - t) / 1000)} s)`,
            );
            return;
          }
          const step = Math.floor((p.rowGroupsDone / Math.max(1, p.rowGroups)) * 10);
          if (step === lastStep) return;
          lastStep = step;
          console.log(
            `  ${kind}: row group ${p.rowGroupsDone} of ${p.rowGroups}, ${p.kept.toLocaleString('en-US')} places kept, ` +
              `${Math.round((Date.now() - t) / 1000)} s, RSS ${mb(process.memoryUsage().rss)}`,
          );
        },
      });
    } finally {
      clearInterval(sampler);
      await app.close();
      await db.destroy();
    }
    const wallS = (Date.now() - t) / 1000;
    const peak = Math.max(vmHwmBytes() ?? 0, sampled, process.memoryUsage().rss);
    console.log(
      `${kind}: ${result.imported.toLocaleString('en-US')} of ${result.read.toLocaleString('en-US')} places imported in ${wallS.toFixed(1)} s: ` +
        `${Math.round(result.read / wallS).toLocaleString('en-US')} rows/s read, ${Math.round(result.imported / wallS).toLocaleString('en-US')} rows/s stored; peak RSS ${mb(peak)}` +
        ` (${peak < LIMIT_BYTES ? 'under' : 'OVER'} 1 GB)`,
    );
    return { database: kind, result, wallS, peak };
  } finally {
    await scratch.remove();
  }
}

const GENERATE = '--generate-overture-places';
const HEADING = '## Import: an Overture places file';

/** The table rows of a PERFORMANCE.md section, or none when it is not there. */
function readSection(heading: string): string[] {
  const file = resolve('docs/PERFORMANCE.md');
  if (!existsSync(file)) return [];
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf(`${heading}\n`);
  if (start < 0) return [];
  const end = text.indexOf('\n## ', start + heading.length);
  return text
    .slice(start, end < 0 ? undefined : end)
    .split('\n')
    .filter((line) => /^\| [\d,]+ \(/.test(line));
}

/** The earlier rows whose size and database this run did not measure, then this run's, by size. */
function mergeRows(earlier: string[], fresh: string[]): string[] {
  const key = (row: string) =>
    row
      .split('|')
      .slice(1, 3)
      .map((c) => c.trim())
      .join(' ');
  const sizeOf = (row: string) => Number(key(row).split(' ')[0]?.replace(/,/g, ''));
  const measured = new Set(fresh.map(key));
  return [...earlier.filter((row) => !measured.has(key(row))), ...fresh].sort(
    (a, b) => sizeOf(a) - sizeOf(b),
  );
}

// `node --import tsx bench/import-overture.bench.ts --generate-overture-places FILE COUNT ROW_GROUP`: the generator.
if (process.argv[2] === GENERATE) {
  const [file = '', count = '0', rowGroup = '100000'] = process.argv.slice(3);
  await writeOvertureParquet(file, places(Number(count)), { rowGroupSize: Number(rowGroup) });
}

export default async function importOvertureBench(args: string[]): Promise<void> {
  const count = arg(args, 'places', 1_000_000);
  const rowGroup = arg(args, 'row-group', 100_000);
  const dir = mkdtempSync(join(tmpdir(), 'pf-overture-bench-file-'));
  try {
    const file = join(dir, 'generated-places.parquet');
    const t = Date.now();
    // Generated in a process of its own: the writer's heap is not the import's RSS.
    execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), GENERATE, file, String(count), String(rowGroup)], { stdio: 'inherit' }); // prettier-ignore
    const bytes = statSync(file).size;
    console.log(
      `generated ${count.toLocaleString('en-US')} places, ${(bytes / 1e6).toFixed(1)} MB in row groups of ${rowGroup.toLocaleString('en-US')}, in ${((Date.now() - t) / 1000).toFixed(1)} s`,
    );
    const runs: Run[] = [];
    for (const kind of ['sqlite', 'postgres'] as const) {
      if (!args.includes(`--skip-${kind}`)) runs.push(await importInto(kind, file));
    }
    if (runs.some((r) => r.peak >= LIMIT_BYTES)) process.exitCode = 1;
    if (args.includes('--no-write') || runs.length === 0) return;
    const fresh = runs.map(
      (r) =>
        `| ${count.toLocaleString('en-US')} (${(bytes / 1e6).toFixed(0)} MB) | ${r.database} | ${r.result.imported.toLocaleString('en-US')} | ${r.wallS.toFixed(0)} s | ${Math.round(r.result.read / r.wallS).toLocaleString('en-US')} | ${mb(r.peak)} | ${new Date().toISOString().slice(0, 10)} |`,
    );
    const rows = mergeRows(readSection(HEADING), fresh).join('\n');
    const left = runs[0]?.result;
    await writeSection(
      `## Import: an Overture places file

\`npm run bench -- import-overture\` (\`bench/import-overture.bench.ts\`; options \`--places=1000000 --row-group=100000
--skip-sqlite --skip-postgres\`; \`--places=15000000\` is the size of a national file). Target: a national file imports in
bounded memory, under 1 GB RSS. The file is generated (seeded) over the contiguous US in Overture's schema
(test/fixtures/overture/parquet-writer.ts) in row groups of ${rowGroup.toLocaleString('en-US')}: 36 common categories, 6 % chain names and
every other name its own, nine in ten with a phone, 1 % without a category (all of them placed by an alternate), 2 %
closed, confidence spread from 0.3 to 1. It is imported with \`importOvertureFiles\` (read a row group at a time,
staged, committed in one transaction, the market rebuilt); rows/s is places read per second of the whole import. A
run replaces the rows of its size and databases and keeps the others.

| places (file) | database | imported | wall time | rows/s | peak RSS | measured |
| ------------- | -------- | -------- | --------- | ------ | -------- | -------- |
${rows}

Left out of ${left?.read.toLocaleString('en-US') ?? '?'} read in the last run: ${left?.notOpen.toLocaleString('en-US') ?? '?'} not open, ${left?.lowConfidence.toLocaleString('en-US') ?? '?'} under the
confidence threshold, ${left?.uncategorised.toLocaleString('en-US') ?? '?'} uncategorised. Peak RSS is the larger of the kernel's VmHWM (reset before each import) and
\`process.memoryUsage().rss\` sampled every 100 ms, in MB of 1,048,576 bytes (the target, 1 GB, is 1,024 of them).
The last run: Node ${process.version}, ${cpus().length} CPUs, shared with other work (load average ${loadavg()[0]?.toFixed(1)} at the end).
`,
      HEADING,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
