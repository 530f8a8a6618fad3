// `npm run import:osm -- FILE.osm.pbf [FILE2.osm.pbf ...]`: import OpenStreetMap extracts into the `local`
// place provider, into the configured database (DATABASE_URL or the SQLite file under DATA_DIR).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, parseConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { buildApp } from '../app.js';
import { formatProgress, importOsmFile } from '../places/osm-import.js';

async function main(): Promise<number> {
  const files = process.argv.slice(2).filter((a) => a !== '--');
  if (files.length === 0 || files.some((f) => f === '-h' || f === '--help')) {
    console.error('Usage: npm run import:osm -- FILE.osm.pbf [MORE.osm.pbf ...]');
    return 2;
  }
  for (const f of files) {
    if (!existsSync(f)) {
      console.error(`No such file: ${f}`);
      return 2;
    }
  }
  const config = parseConfig({ ...process.env, LOG_LEVEL: 'warn' });
  // A large extract's statements (bulk inserts, VACUUM ANALYZE) may rightly outlast the request timeout.
  const db = openDatabase({
    database:
      config.database.kind === 'postgres' ? { ...config.database, statementTimeoutMs: 0 } : config.database,
  });
  // Building the app applies the migrations, exactly as a normal start would.
  const app = await buildApp({ config, db, serveWeb: false });
  const tty = process.stdout.isTTY;
  try {
    for (const file of files) {
      console.log(
        `Importing ${resolve(file)} into ${config.database.kind === 'sqlite' ? config.database.file : 'PostgreSQL'}`,
      );
      const r = await importOsmFile(db, file, (p) => {
        const line = formatProgress(p);
        if (tty) process.stdout.write(`\r${line}\u001b[K`);
        else console.log(line);
      });
      if (tty) process.stdout.write('\n');
      console.log(
        `Done in ${(r.ms / 1000).toFixed(1)} s: ${r.nodes.toLocaleString('en-US')} business nodes and ${r.ways.toLocaleString('en-US')} business ways` +
          (r.skippedWays > 0 ? ` (${r.skippedWays} ways left out: nodes missing from the extract)` : '') +
          `; ${r.upserted.toLocaleString('en-US')} rows written, ${r.total.toLocaleString('en-US')} businesses stored.`,
      );
      console.log(
        r.market.referencePopulation === null
          ? 'Scores use the absolute scale: fewer than 10 businesses of the scanned kinds to calibrate against.'
          : `Scores are calibrated against ${r.market.referencePopulation.toLocaleString('en-US')} businesses of the scanned kinds; ` +
              `${r.market.multiLocation.toLocaleString('en-US')} places belong to businesses with several locations. ` +
              'Running servers pick this up within a minute.',
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
