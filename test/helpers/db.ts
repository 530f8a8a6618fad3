import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase, type Db } from '../../src/server/db/database.js';

/** Which database the db-project tests run on: TEST_DATABASE=postgres, else SQLite. */
export const testDatabaseKind: 'sqlite' | 'postgres' =
  process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite';

export const POSTGRES_ADMIN_URL =
  process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  /** Value for the config's `database` field. */
  database: { kind: 'sqlite'; file: string; synchronous: 'FULL' } | { kind: 'postgres'; url: string };
  dataDir: string;
  open(): Db;
  drop(): Promise<void>;
}

/**
 * A fresh, empty database for one test file: a temporary SQLite file, or a uniquely named PostgreSQL
 * database created on the local server and dropped afterwards. Nothing is shared between files.
 */
export async function createTestDatabase(kind = testDatabaseKind): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pf-test-'));
  if (kind === 'sqlite') {
    const database = { kind: 'sqlite' as const, file: join(dataDir, 'app.db'), synchronous: 'FULL' as const };
    return {
      database,
      dataDir,
      open: () => openDatabase({ database }),
      drop: () => {
        rmSync(dataDir, { recursive: true, force: true });
        return Promise.resolve();
      },
    };
  }
  const name = `pf_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  const database = { kind: 'postgres' as const, url: url.toString() };
  return {
    database,
    dataDir,
    open: () => openDatabase({ database }),
    drop: async () => {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
