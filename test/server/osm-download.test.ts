// `npm run import:osm -- --region NAME`: download from a mirror (here a local HTTP server serving the repository's
// fixture extract with Range support and .md5 files), resume, verify, import.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { fixtureExtract } from '../helpers/osm-data.js';
import { BUSINESS_NODES, WAYS } from '../fixtures/osm/prairie-junction.js';
import { countPlaces } from '../../src/server/places/local-store.js';
import { regionPath, regionUrl } from '../../src/server/places/osm-download.js';

const run = promisify(execFile);
const CLI = 'src/server/cli/import-osm.ts';
const EXTRACT = readFileSync(fixtureExtract());
const MD5 = createHash('md5').update(EXTRACT).digest('hex');
const ETAG = `"${MD5}"`;
const CUT_AT = 1000;
const IMPORTED = BUSINESS_NODES.length + WAYS.length - 1; // every business but the way missing a node

interface Seen {
  path: string;
  range: string | undefined;
}
const seen: Seen[] = [];
const cutOnce = new Set<string>();

/** A mirror with the Geofabrik layout. Paths under /cut/ break the first response after CUT_AT bytes. */
function handle(req: IncomingMessage, res: ServerResponse): void {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  seen.push({ path, range: req.headers.range });
  if (path.endsWith('.osm.pbf.md5')) {
    if (path.includes('/nosum/')) {
      res.writeHead(404).end('not found');
      return;
    }
    const sum = path.includes('/badsum/') ? createHash('md5').update('something else').digest('hex') : MD5;
    res
      .writeHead(200, { 'content-type': 'text/plain' })
      .end(`${sum}  ${path.split('/').pop()?.slice(0, -4)}\n`);
    return;
  }
  if (!path.endsWith('-latest.osm.pbf') || path.includes('/missing')) {
    res.writeHead(404, 'Not Found').end('not found');
    return;
  }
  const headers = { etag: ETAG, 'accept-ranges': 'bytes', 'content-type': 'application/octet-stream' };
  const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
  const ifRange = req.headers['if-range'];
  if (m && (!ifRange || ifRange === ETAG)) {
    const start = Number(m[1]);
    if (start >= EXTRACT.length) {
      res.writeHead(416, { 'content-range': `bytes */${EXTRACT.length}` }).end();
      return;
    }
    res.writeHead(206, {
      ...headers,
      'content-length': EXTRACT.length - start,
      'content-range': `bytes ${start}-${EXTRACT.length - 1}/${EXTRACT.length}`,
    });
    res.end(EXTRACT.subarray(start));
    return;
  }
  res.writeHead(200, { ...headers, 'content-length': EXTRACT.length });
  if (path.startsWith('/cut/') && !cutOnce.has(path)) {
    cutOnce.add(path);
    // The connection drops midway: the client has CUT_AT bytes of a file announced longer.
    res.write(EXTRACT.subarray(0, CUT_AT), () => setTimeout(() => res.socket?.destroy(), 50));
    return;
  }
  res.end(EXTRACT);
}

let server: Server;
let mirror: string;
let testDb: TestDatabase;

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  mirror = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  testDb = await createTestDatabase();
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await testDb.drop();
});

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = {
    ...process.env,
    NODE_ENV: 'test',
    DATA_DIR: testDb.dataDir,
    DATABASE_URL: testDb.database.kind === 'postgres' ? testDb.database.url : '',
    OSM_MIRROR_URL: mirror,
  };
  try {
    // node --import tsx rather than npx: npm's own warnings would land in stderr.
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', CLI, ...args], {
      env,
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** How many businesses are stored, and the newest import time: what a refused download must leave as it was. */
async function placesStored(): Promise<{ n: number; newest: unknown }> {
  const db = testDb.open();
  try {
    const row = await db.kysely
      .selectFrom('places')
      .select((eb) => eb.fn.max('imported_at').as('newest'))
      .executeTakeFirstOrThrow();
    return { n: await countPlaces(db.kysely), newest: row.newest };
  } finally {
    await db.destroy();
  }
}

const downloads = () => join(testDb.dataDir, 'downloads');

describe('region names', () => {
  it('map to paths on a Geofabrik-style mirror', () => {
    expect(regionPath('us/alabama')).toBe('north-america/us/alabama-latest.osm.pbf');
    expect(regionPath('europe/monaco')).toBe('europe/monaco-latest.osm.pbf');
    expect(regionPath('canada/ontario')).toBe('north-america/canada/ontario-latest.osm.pbf');
    expect(regionPath('north-america/us/alabama-latest.osm.pbf')).toBe(
      'north-america/us/alabama-latest.osm.pbf',
    );
    expect(regionUrl('us/alabama')).toBe(
      'https://download.geofabrik.de/north-america/us/alabama-latest.osm.pbf',
    );
    expect(regionUrl('us/alabama', 'http://mirror.local/osm/')).toBe(
      'http://mirror.local/osm/north-america/us/alabama-latest.osm.pbf',
    );
    expect(() => regionPath('alabama')).toThrow(/Unknown region "alabama"/);
    expect(() => regionPath('us/../../etc')).toThrow(/Not a region name/);
  });
});

describe('npm run import:osm -- --region', () => {
  it('downloads a region with progress, checks its MD5 and imports it', async () => {
    seen.length = 0;
    const r = await cli('--region', 'us/alabama');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Downloading ${mirror}/north-america/us/alabama-latest.osm.pbf`);
    // Not a terminal: a line per 5 %, ending at 100 %.
    expect(r.stdout).toMatch(/\[#{30}\] 100% 0\.0 of 0\.0 MB/);
    expect(r.stdout).toContain(`MD5 ${MD5} matches the mirror's, PBF structure checked`);
    expect(r.stdout).toMatch(/Done in [\d.]+ s: .* businesses stored\./);
    expect(readFileSync(join(downloads(), 'alabama-latest.osm.pbf')).equals(EXTRACT)).toBe(true);
    expect(existsSync(join(downloads(), 'alabama-latest.osm.pbf.part'))).toBe(false);
    expect(seen.map((s) => s.path)).toEqual([
      '/north-america/us/alabama-latest.osm.pbf',
      '/north-america/us/alabama-latest.osm.pbf.md5',
    ]);
    expect((await placesStored()).n).toBe(IMPORTED);
    // The Admin Panel lists it as the region's area (refreshable there by the same name).
    const db = testDb.open();
    try {
      const areas = await db.kysely.selectFrom('place_areas').selectAll().execute();
      expect(areas).toEqual([
        expect.objectContaining({
          key: 'north-america/us/alabama-latest.osm.pbf',
          name: 'us/alabama',
          region: 'us/alabama',
          source: `${mirror}/north-america/us/alabama-latest.osm.pbf`,
          businesses: IMPORTED,
          data_date: null,
        }),
      ]);
    } finally {
      await db.destroy();
    }
  });

  it('a 404 is one clear line, and the previous import stays as it was', async () => {
    const before = await placesStored();
    expect(before.n).toBe(IMPORTED);
    const r = await cli('--region', 'us/missing');
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([
      `Download failed: HTTP 404 Not Found from ${mirror}/north-america/us/missing-latest.osm.pbf. The businesses imported before are unchanged.`,
    ]);
    expect(await placesStored()).toEqual(before);
  });

  it('refuses a download whose MD5 does not match the mirror’s, deleting it and importing nothing', async () => {
    const before = await placesStored();
    const r = await cli('--region', 'europe/badsum/town');
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^Download failed: checksum mismatch for town-latest\.osm\.pbf: the mirror's \.md5 says [0-9a-f]{32}, the download is [0-9a-f]{32}; deleted it/,
    );
    expect(existsSync(join(downloads(), 'town-latest.osm.pbf'))).toBe(false);
    expect(existsSync(join(downloads(), 'town-latest.osm.pbf.part'))).toBe(false);
    expect(await placesStored()).toEqual(before);
  });

  it('resumes a download cut off midway with a Range request, ending with the same file and the import', async () => {
    seen.length = 0;
    // A full URL on the mirror is accepted too.
    const r = await cli('--region', `${mirror}/cut/north-america/us/cutville-latest.osm.pbf`);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const gets = seen.filter((s) => !s.path.endsWith('.md5'));
    expect(gets).toEqual([
      { path: '/cut/north-america/us/cutville-latest.osm.pbf', range: undefined },
      { path: '/cut/north-america/us/cutville-latest.osm.pbf', range: `bytes=${CUT_AT}-` },
    ]);
    expect(r.stdout).toContain(`resumed at byte ${CUT_AT.toLocaleString('en-US')}`);
    expect(readFileSync(join(downloads(), 'cutville-latest.osm.pbf')).equals(EXTRACT)).toBe(true);
    expect(r.stdout).toMatch(/Done in [\d.]+ s: .* businesses stored\./);
    expect((await placesStored()).n).toBe(IMPORTED);
  });

  it('resumes in a later run from the .part a broken run left behind', async () => {
    seen.length = 0;
    const part = join(downloads(), 'later-latest.osm.pbf.part');
    const url = `${mirror}/nosum/later-latest.osm.pbf`;
    writeFileSync(part, EXTRACT.subarray(0, 1500));
    writeFileSync(`${part}.json`, JSON.stringify({ url, validator: ETAG }));
    const r = await cli('--region', url);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(seen[0]).toEqual({ path: '/nosum/later-latest.osm.pbf', range: 'bytes=1500-' });
    expect(r.stdout).toContain('the mirror publishes no checksum, PBF structure checked');
    expect(readFileSync(join(downloads(), 'later-latest.osm.pbf')).equals(EXTRACT)).toBe(true);
  });
});
