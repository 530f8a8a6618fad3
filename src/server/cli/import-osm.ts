// `npm run import:osm -- FILE.osm.pbf [FILE2.osm ...]`: import OpenStreetMap extracts into the `local` place
// provider, into the configured database (DATABASE_URL or the SQLite file under DATA_DIR). A file is PBF
// (.osm.pbf) or OSM XML, plain or compressed (.osm, .osm.gz, .osm.bz2), told by its content.
// `npm run import:osm -- --region us/alabama`: first download that region's extract from OSM_MIRROR_URL
// (default: the Geofabrik download server) into DATA_DIR/downloads, resuming and verifying it (osm-download.ts).
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError, parseConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { buildApp } from '../app.js';
import { formatProgress, importOsmFile } from '../places/osm-import.js';
import {
  downloadExtract,
  DownloadError,
  formatDownloadProgress,
  regionUrl,
  type DownloadProgress,
} from '../places/osm-download.js';

const USAGE =
  'Usage: npm run import:osm -- FILE.osm.pbf [MORE ...]   (OpenStreetMap PBF, or XML: .osm, .osm.gz, .osm.bz2)\n' +
  '       npm run import:osm -- --region us/alabama   (a region of the OSM_MIRROR_URL download server)';

/** The download's progress: a bar redrawn in place on a terminal, else one line per 5 %. */
function downloadReporter(tty: boolean): (p: DownloadProgress) => void {
  let lastStep = -1;
  let lastDraw = 0;
  return (p) => {
    if (tty) {
      const now = Date.now();
      if (now - lastDraw < 100 && p.bytes < p.total) return;
      lastDraw = now;
      process.stdout.write(`\r${formatDownloadProgress(p)}\u001b[K`);
      return;
    }
    const step = p.total > 0 ? Math.floor((p.bytes / p.total) * 20) : Math.floor(p.bytes / 50e6);
    if (step === lastStep) return;
    lastStep = step;
    console.log(formatDownloadProgress(p));
  };
}

async function main(): Promise<number> {
  const args = process.argv.slice(2).filter((a) => a !== '--');
  const files: string[] = [];
  const regions: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (a === '--region') {
      const next = args[++i];
      if (!next) {
        console.error(USAGE);
        return 2;
      }
      regions.push(next);
    } else if (a.startsWith('--region=')) regions.push(a.slice('--region='.length));
    else files.push(a);
  }
  if (
    (files.length === 0 && regions.length === 0) ||
    files.some((f) => f === '-h' || f === '--help' || f.startsWith('-'))
  ) {
    console.error(USAGE);
    return 2;
  }
  for (const f of files) {
    if (!existsSync(f)) {
      console.error(`No such file: ${f}`);
      return 2;
    }
  }
  const config = parseConfig({ ...process.env, LOG_LEVEL: 'warn' });
  const tty = process.stdout.isTTY;
  // Each file with the region it was downloaded as: the Admin Panel lists it as that region's area.
  const downloaded: { file: string; region?: string; source?: string }[] = [];
  for (const region of regions) {
    try {
      const url = regionUrl(region, config.osmMirrorUrl);
      console.log(`Downloading ${url}`);
      const d = await downloadExtract(url, {
        dir: join(config.dataDir, 'downloads'),
        userAgent: config.discovery.osm.userAgent,
        progress: downloadReporter(tty),
      });
      if (tty) process.stdout.write('\n');
      console.log(
        `Downloaded ${d.file} (${(d.bytes / 1e6).toFixed(1)} MB` +
          (d.resumedAt.length > 0
            ? `, resumed at byte ${d.resumedAt.map((b) => b.toLocaleString('en-US')).join(', ')}`
            : '') +
          (d.md5 ? `, MD5 ${d.md5} matches the mirror's` : ', the mirror publishes no checksum') +
          (d.format === 'pbf' ? ', PBF structure checked)' : ', OSM XML: checked as it is imported)'),
      );
      downloaded.push({ file: d.file, region, source: url });
    } catch (error) {
      if (tty) process.stdout.write('\n');
      if (!(error instanceof DownloadError)) throw error;
      console.error(`Download failed: ${error.message}. The businesses imported before are unchanged.`);
      return 1;
    }
  }
  // A large extract's statements (bulk inserts, VACUUM ANALYZE) may rightly outlast the request timeout.
  const db = openDatabase({
    database:
      config.database.kind === 'postgres' ? { ...config.database, statementTimeoutMs: 0 } : config.database,
  });
  // Building the app applies the migrations, exactly as a normal start would.
  const app = await buildApp({ config, db, serveWeb: false });
  try {
    for (const { file, region, source } of [
      ...files.map((file): (typeof downloaded)[number] => ({ file })),
      ...downloaded,
    ]) {
      console.log(
        `Importing ${resolve(file)} into ${config.database.kind === 'sqlite' ? config.database.file : 'PostgreSQL'}`,
      );
      const r = await importOsmFile(db, file, {
        ...(region !== undefined && { region }),
        ...(source !== undefined && { source }),
        progress: (p) => {
          const line = formatProgress(p);
          if (tty) process.stdout.write(`\r${line}\u001b[K`);
          else console.log(line);
        },
      });
      if (tty) process.stdout.write('\n');
      console.log(
        `Done in ${(r.ms / 1000).toFixed(1)} s: ${r.nodes.toLocaleString('en-US')} business nodes and ${r.ways.toLocaleString('en-US')} business ways` +
          (r.skippedWays > 0 ? ` (${r.skippedWays} ways left out: nodes missing from the extract)` : '') +
          `; ${r.upserted.toLocaleString('en-US')} rows written, ${r.total.toLocaleString('en-US')} businesses stored.`,
      );
      console.log(
        `${r.market.multiLocation.toLocaleString('en-US')} places belong to businesses with several locations, ` +
          `${r.market.manyCities.toLocaleString('en-US')} to businesses with places in several cities (chains). ` +
          'Running servers scan the new data at once.',
      );
    }
    return 0;
  } catch (error) {
    if (tty) process.stdout.write('\n');
    console.error(`Import failed: ${error instanceof Error ? error.message : String(error)}`);
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
