// `npm run backup -- FILE`: a consistent copy of the live SQLite database, taken with SQLite's online
// backup API while the app keeps running (readers and writers are not stopped). For PostgreSQL use
// pg_dump (see README).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { ConfigError, parseConfig } from '../config.js';

export async function backupSqlite(source: string, target: string): Promise<{ pages: number }> {
  const db = new SQLite(source, { readonly: true, fileMustExist: true });
  try {
    let pages = 0;
    await db.backup(target, {
      progress: ({ totalPages }) => {
        pages = totalPages;
        return 200; // pages per step: keeps each step short so the live app is not held up
      },
    });
    return { pages };
  } finally {
    db.close();
  }
}

async function main(): Promise<number> {
  const target = process.argv[2];
  if (!target) {
    console.error('Usage: npm run backup -- FILE   (copies the SQLite database under DATA_DIR to FILE)');
    return 2;
  }
  const config = parseConfig();
  if (config.database.kind !== 'sqlite') {
    console.error('DATABASE_URL names PostgreSQL: use pg_dump instead (see README, "Backups").');
    return 2;
  }
  if (!existsSync(config.database.file)) {
    console.error(`No database at ${config.database.file}`);
    return 1;
  }
  const out = resolve(target);
  if (existsSync(out)) {
    console.error(`${out} already exists; choose a new file name.`);
    return 1;
  }
  const { pages } = await backupSqlite(config.database.file, out);
  console.log(`Backed up ${config.database.file} to ${out} (${pages} pages)`);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]).endsWith('backup.ts')) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof ConfigError ? error.message : error);
      process.exit(1);
    },
  );
}
