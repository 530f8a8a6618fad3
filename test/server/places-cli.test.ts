import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { fixtureExtract } from '../helpers/osm-data.js';
import { ALL_NODES, BUSINESS_NODES, WAYS } from '../fixtures/osm/prairie-junction.js';
import { writeOsmXml } from '../fixtures/osm/osm-xml-writer.js';
import { countPlaces } from '../../src/server/places/local-store.js';

const run = promisify(execFile);
const CLI = 'src/server/cli/import-osm.ts';
const EXTRACT = fixtureExtract(); // in the repository: runs everywhere

let testDb: TestDatabase;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  testDb = await createTestDatabase();
  env = {
    ...process.env,
    NODE_ENV: 'test',
    DATA_DIR: testDb.dataDir,
    DATABASE_URL: testDb.database.kind === 'postgres' ? testDb.database.url : '',
  };
});
afterAll(() => testDb.drop());

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('npx', ['tsx', CLI, ...args], { env, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe('npm run import:osm', () => {
  it('imports an extract into the configured database, printing progress and a summary', async () => {
    const r = await cli(EXTRACT);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/pass 1\/2 reading businesses: \d+%/);
    expect(r.stdout).toMatch(
      /Done in [\d.]+ s: \d+ business nodes and \d+ business ways \(1 ways left out: nodes missing from the extract\); \d+ rows written, \d+ businesses stored\./,
    );
    const db = testDb.open();
    try {
      const n = await countPlaces(db.kysely);
      // Every named business node, and every building outline but the one missing a node.
      expect(n).toBe(BUSINESS_NODES.length + WAYS.length - 1);
      expect(r.stdout).toContain(`${n} businesses stored.`);
      // The market the import makes: places of multi-location businesses and of chains in several cities.
      expect(r.stdout).toMatch(
        /\d+ places belong to businesses with several locations, \d+ to businesses with places in several cities/,
      );
    } finally {
      await db.destroy();
    }
  });

  it('exits non-zero with a clear message for a bad file, a missing file and no argument', async () => {
    const bad = join(testDb.dataDir, 'bad.osm.pbf');
    writeFileSync(bad, 'this is not a PBF file');
    const r = await cli(bad);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Import failed: not an OpenStreetMap PBF file');
    expect(r.stderr).toContain('The businesses imported before are unchanged.');
    const missing = await cli(join(testDb.dataDir, 'nope.osm.pbf'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('No such file');
    const none = await cli();
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Usage: npm run import:osm -- FILE.osm.pbf');
    expect(none.stderr).toContain('.osm, .osm.gz, .osm.bz2');
  });

  it('imports OSM XML (here gzipped) and names what is wrong with a bad XML file', async () => {
    const gz = join(testDb.dataDir, 'town.osm.gz');
    writeFileSync(gz, gzipSync(writeOsmXml(ALL_NODES, WAYS)));
    const r = await cli(gz);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(`${BUSINESS_NODES.length} business nodes and 2 business ways \\(1 ways left out`),
    );
    const bad = join(testDb.dataDir, 'page.osm');
    writeFileSync(bad, '<html><body>Too many requests</body></html>');
    const failed = await cli(bad);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(
      'Import failed: not an OpenStreetMap XML file: its root element is <html>, not <osm>',
    );
    expect(failed.stderr).toContain('The businesses imported before are unchanged.');
  });
});
