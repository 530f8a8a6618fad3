// `npm run import:overture -- FILE.parquet [MORE.parquet ...] [--min-confidence 0.5] [--bbox W,S,E,N]`: import
// Overture Maps places files into the `local` place provider, into the configured database.
// `npm run import:overture -- --bbox W,S,E,N` or `--region us/alabama` [`--release 2025-09-24.0`]: read the places
// of that box from the latest release (or the one named) on OVERTURE_RELEASE_URL, only the row groups that meet
// it, by HTTP Range requests (places/overture-http.ts). A region is named as for `import:osm --region`; its box
// comes from src/core/region-boxes.ts.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, parseConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { buildApp } from '../app.js';
import {
  importOvertureFiles,
  importOvertureRelease,
  type OvertureImportProgress,
  type OvertureImportResult,
} from '../places/overture-import.js';
import { OvertureFormatError } from '../places/overture-reader.js';
import { OvertureDownloadError } from '../places/overture-http.js';
import { DownloadError, regionPath } from '../places/osm-download.js';
import { parseBox, regionBox, REGION_BOXES, type LngLatBox } from '../../core/region-boxes.js';

const USAGE =
  'Usage: npm run import:overture -- FILE.parquet [MORE.parquet ...] [--min-confidence 0.5] [--bbox W,S,E,N]\n' +
  '       npm run import:overture -- --bbox W,S,E,N [--release 2025-09-24.0]   (from OVERTURE_RELEASE_URL)\n' +
  '       npm run import:overture -- --region us/alabama [--release 2025-09-24.0]';

interface Args {
  files: string[];
  minConfidence?: number;
  box?: LngLatBox;
  region?: string;
  release?: string;
}

/** The command line, or the line saying what is wrong with it. */
function parseArgs(argv: readonly string[]): Args | string {
  const args = argv.filter((a) => a !== '--');
  const out: Args = { files: [] };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    const [flag, inline] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = (): string | undefined => inline ?? args[++i];
    if (flag === '-h' || flag === '--help') return USAGE;
    if (flag === '--min-confidence') {
      const v = Number(value());
      if (!(v >= 0 && v <= 1)) return '--min-confidence takes a number from 0 to 1';
      out.minConfidence = v;
    } else if (flag === '--bbox') {
      const box = parseBox(value() ?? '');
      if (typeof box === 'string') return box;
      out.box = box;
    } else if (flag === '--region') {
      const v = value();
      if (!v) return USAGE;
      out.region = v;
    } else if (flag === '--release') {
      const v = value();
      if (!v) return USAGE;
      out.release = v;
    } else if (flag.startsWith('-')) return `Unknown option ${flag}\n${USAGE}`;
    else out.files.push(a);
  } // prettier-ignore
  if (out.region && out.box) return 'Give either --region or --bbox, not both';
  if (out.files.length > 0 && (out.region || out.release)) {
    return '--region and --release read from the mirror: give them without files';
  }
  if (out.files.length === 0 && !out.region && !out.box) return USAGE;
  return out;
}

/** The box of a region name, or the line saying why there is none. */
function boxOfRegion(region: string): LngLatBox | string {
  let path: string;
  try {
    path = regionPath(region);
  } catch (error) {
    return error instanceof DownloadError ? error.message : String(error);
  }
  const box = regionBox(path);
  if (box) return box;
  const known = Object.keys(REGION_BOXES)
    .map((k) => k.replace(/^north-america\/us\//, 'us/'))
    .filter((k) => !k.startsWith('us/'));
  return `No box is known for region "${region}": use --bbox W,S,E,N, or a US state (us/alabama ...) or one of ${known.join(', ')}`;
}

const n = (x: number) => x.toLocaleString('en-US');

/** A progress bar on a terminal, else a line per 10 % of the row groups. */
function reporter(tty: boolean): (p: OvertureImportProgress) => void {
  let lastStep = -1;
  let lastDraw = 0;
  return (p) => {
    if (p.phase === 'commit') {
      if (tty) process.stdout.write('\n');
      console.log('Storing the places and rebuilding the market...');
      return;
    }
    const frac = p.rowGroups > 0 ? Math.min(1, p.rowGroupsDone / p.rowGroups) : 1;
    const width = 30;
    const filled = Math.round(frac * width);
    const line =
      `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.floor(frac * 100)).padStart(3)}% ` +
      `row group ${n(p.rowGroupsDone)} of ${n(p.rowGroups)} (file ${p.file} of ${p.files}), ${n(p.kept)} places kept` +
      (p.bytes > 0 ? `, ${(p.bytes / 1e6).toFixed(1)} MB fetched` : '');
    if (tty) {
      const now = Date.now();
      if (now - lastDraw < 100 && frac < 1) return;
      lastDraw = now;
      process.stdout.write(`\r${line}\u001b[K`);
      return;
    }
    const step = Math.floor(frac * 10);
    if (step === lastStep) return;
    lastStep = step;
    console.log(line);
  };
}

/** The import's summary lines. */
function summaryLines(r: OvertureImportResult): string[] {
  const lines = [
    `Done in ${(r.ms / 1000).toFixed(1)} s: ${n(r.read)} places read from ${n(r.rowGroups.read)} of ${n(r.rowGroups.total)} row groups` +
      (r.transfer ? ` (${(r.transfer.bytes / 1e6).toFixed(1)} MB fetched in ${n(r.transfer.requests)} requests${r.transfer.retries ? `, ${n(r.transfer.retries)} retried` : ''})` : '') +
      `; ${n(r.imported)} imported, ${n(r.total)} businesses stored.`,
    `Left out: ${n(r.notOpen)} not open, ${n(r.lowConfidence)} under the confidence threshold, ${n(r.uncategorised)} uncategorised` +
      (r.invalid ? `, ${n(r.invalid)} without an id, a name or a position` : '') + '.',
  ]; // prettier-ignore
  if (r.unmapped.length > 0) {
    const places = r.unmapped.reduce((s, [, c]) => s + c, 0);
    lines.push(
      `${n(r.unmapped.length)} categories are not in the category table (${n(places)} places, stored by their alternates or under the category's own name): ` +
        r.unmapped.map(([c, count]) => `${c} ${n(count)}`).join(', '),
    );
  }
  lines.push(
    `${n(r.market.multiLocation)} places belong to businesses with several locations, ` +
      `${n(r.market.manyCities)} to businesses with places in several cities (chains). Running servers scan the new data at once.`,
  );
  return lines;
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  if (typeof args === 'string') {
    console.error(args);
    return 2;
  }
  for (const f of args.files) {
    if (!existsSync(f)) {
      console.error(`No such file: ${f}`);
      return 2;
    }
  }
  let box = args.box;
  if (args.region) {
    const b = boxOfRegion(args.region);
    if (typeof b === 'string') {
      console.error(b);
      return 2;
    }
    box = b;
  }
  const config = parseConfig({ ...process.env, LOG_LEVEL: 'warn' });
  const tty = process.stdout.isTTY;
  // A large import's statements (bulk inserts, VACUUM ANALYZE) may rightly outlast the request timeout.
  const db = openDatabase({
    database:
      config.database.kind === 'postgres' ? { ...config.database, statementTimeoutMs: 0 } : config.database,
  });
  // Building the app applies the migrations, exactly as a normal start would.
  const app = await buildApp({ config, db, serveWeb: false });
  const minConfidence = args.minConfidence ?? config.overture.minConfidence;
  const progress = reporter(tty);
  try {
    const target = config.database.kind === 'sqlite' ? config.database.file : 'PostgreSQL';
    let result: OvertureImportResult;
    if (args.files.length > 0) {
      console.log(`Importing ${args.files.map((f) => resolve(f)).join(', ')} into ${target}`);
      result = await importOvertureFiles(db, args.files, { minConfidence, box: box ?? null, progress });
    } else {
      const where = args.region ?? [box?.west, box?.south, box?.east, box?.north].join(',');
      console.log(
        `Importing the Overture places of ${where} from ${config.overture.releaseUrl} into ${target}`,
      );
      result = await importOvertureRelease(db, {
        box: box as LngLatBox,
        releaseUrl: config.overture.releaseUrl,
        minConfidence,
        progress,
        userAgent: config.discovery.osm.userAgent,
        ...(args.release !== undefined && { release: args.release }),
        ...(args.region !== undefined && { region: args.region }),
      });
    }
    if (tty) process.stdout.write('\n');
    for (const line of summaryLines(result)) console.log(line);
    return 0;
  } catch (error) {
    if (tty) process.stdout.write('\n');
    const known = error instanceof OvertureFormatError || error instanceof OvertureDownloadError;
    console.error(`Import failed: ${error instanceof Error ? error.message : String(error)}`);
    if (!known && error instanceof Error && error.stack) console.error(error.stack);
    console.error('The businesses imported before are unchanged.');
    return 1;
  } finally {
    await app.close();
    await db.destroy();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  },
);
