// `npm run backup -- FILE`: a consistent copy of the live SQLite database, taken with SQLite's online
// backup API while the app keeps running (readers and writers are not stopped). For PostgreSQL use
// pg_dump (README, "Backups").
import { existsSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { ConfigError, parseConfig } from '../config.js';

/** Pages per backup step: all of them (better-sqlite3 takes a page count, SQLite's INT_MAX). */
const ALL_PAGES = 0x7fffffff;

/**
 * Copy `source` to `target` with the online backup API, in one step.
 *
 * SQLite restarts a backup from the first page whenever another connection writes to the source between
 * two steps, so a copy taken a few hundred pages at a time may never finish on a large database that is
 * written to all the time. One step reads everything inside a single read transaction: a consistent
 * snapshot that no write can restart. In WAL mode (the app's) a reader does not block writers, so the
 * live app is not held up meanwhile; it only keeps the WAL from being checkpointed past the snapshot
 * until the copy is done.
 */
export async function backupSqlite(source: string, target: string): Promise<{ pages: number }> {
  const db = new SQLite(source, { readonly: true, fileMustExist: true });
  try {
    // better-sqlite3's first step opens the backup (0 pages); the callback sets the size of every later step.
    const { totalPages } = await db.backup(target, { progress: () => ALL_PAGES });
    return { pages: totalPages };
  } finally {
    db.close();
  }
}

const USAGE = 'Usage: npm run backup -- FILE   (copies the SQLite database under DATA_DIR to FILE)';

/** The command line: returns the exit code; messages go to stdout and stderr. */
export async function runBackupCli(
  args: string[],
  env: Record<string, string | undefined> = process.env,
): Promise<number> {
  const target = args[0];
  if (!target || args.length > 1 || target.startsWith('-')) {
    console.error(USAGE);
    return 2;
  }
  const config = parseConfig(env);
  if (config.database.kind !== 'sqlite') {
    console.error('DATABASE_URL names PostgreSQL: use pg_dump instead (see README, "Backups").');
    return 2;
  }
  const source = config.database.file;
  if (!existsSync(source)) {
    console.error(`No database at ${source} (set DATA_DIR to the folder that holds app.db).`);
    return 1;
  }
  const out = resolve(target);
  if (existsSync(out)) {
    console.error(`${out} already exists; choose a new file name.`);
    return 1;
  }
  if (!existsSync(dirname(out))) {
    console.error(`The folder ${dirname(out)} does not exist.`);
    return 1;
  }
  try {
    const { pages } = await backupSqlite(source, out);
    console.log(`Backed up ${source} to ${out} (${pages} pages)`);
    return 0;
  } catch (error) {
    // Never leave a half-written file that looks like a backup.
    rmSync(out, { force: true });
    throw error;
  }
}

if (process.argv[1] && resolve(process.argv[1]).endsWith('backup.ts')) {
  runBackupCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(
        error instanceof ConfigError
          ? error.message
          : `Backup failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      process.exit(1);
    },
  );
}
