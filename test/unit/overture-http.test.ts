// Overture releases read from a mirror over HTTP (src/server/places/overture-http.ts) against a local server
// (test/helpers/overture-mirror.ts) serving a multi-file release written by the test: folder listings (an HTML
// index, or the S3 API), range reads with their byte counts, a connection cut mid-range and resumed, and a box
// that reads only the row groups it meets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  httpAsyncBuffer,
  latestRelease,
  listFolder,
  newTransferStats,
  OvertureDownloadError,
  releaseFiles,
} from '../../src/server/places/overture-http.js';
import { readOvertureFile, type OverturePlace } from '../../src/server/places/overture-reader.js';
import { writeOvertureParquet } from '../fixtures/overture/parquet-writer.js';
import { townPlaces } from '../fixtures/overture/places.js';
import { startOvertureMirror, type OvertureMirror } from '../helpers/overture-mirror.js';

const RELEASE = '2025-11-19.0';
const FOLDER = `${RELEASE}/theme=places/type=place`;
/** Two files of eight row groups each, every group a town of its own: only Springfield's group meets BOX. */
const TOWNS = [
  { name: 'springfield', lat: 37.78, lng: -122.41 },
  ...Array.from({ length: 15 }, (_, i) => ({ name: `town${i}`, lat: 30 + i, lng: -100 + i })),
];
const BOX = { west: -122.43, south: 37.76, east: -122.39, north: 37.8 };
const PER_TOWN = 1000;

let dir: string;
let mirror: OvertureMirror;
let sizes: Record<string, number>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pf-overture-http-'));
  mirror = await startOvertureMirror();
  sizes = {};
  for (const [i, part] of ['part-00000.zstd.parquet', 'part-00001.zstd.parquet'].entries()) {
    const file = join(dir, part);
    const towns = TOWNS.slice(i * 8, i * 8 + 8);
    await writeOvertureParquet(
      file,
      towns.flatMap((t) => townPlaces(t.name, PER_TOWN, t)),
      { rowGroupSize: PER_TOWN },
    );
    const bytes = readFileSync(file);
    sizes[part] = bytes.length;
    mirror.set(`${FOLDER}/${part}`, bytes);
  }
  // An older release beside it: the latest is chosen.
  mirror.set('2025-10-22.0/theme=places/type=place/part-00000.zstd.parquet', Buffer.from('old'));
});

afterAll(async () => {
  await mirror.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('release listing', () => {
  it('lists folders from an HTML index and picks the latest release', async () => {
    const top = await listFolder(`${mirror.releaseUrl}/`);
    expect(top.folders.sort()).toEqual(['2025-10-22.0', RELEASE]);
    const r = await releaseFiles(mirror.releaseUrl);
    expect(r.release).toBe(RELEASE);
    expect(r.files.map((f) => f.url)).toEqual([
      `${mirror.releaseUrl}/${FOLDER}/part-00000.zstd.parquet`,
      `${mirror.releaseUrl}/${FOLDER}/part-00001.zstd.parquet`,
    ]);
  });

  it('lists through the S3 API where the mirror writes no index', async () => {
    const s3 = await startOvertureMirror({ s3: true });
    try {
      s3.set(`${FOLDER}/a.parquet`, Buffer.from('x'.repeat(10)));
      s3.set(`${FOLDER}/b.parquet`, Buffer.from('y'));
      const r = await releaseFiles(s3.releaseUrl);
      expect(r.release).toBe(RELEASE);
      expect(r.files).toEqual([
        { url: `${s3.releaseUrl}/${FOLDER}/a.parquet`, size: 10 },
        { url: `${s3.releaseUrl}/${FOLDER}/b.parquet`, size: 1 },
      ]);
      expect(s3.requests.some((q) => q.includes('list-type=2'))).toBe(true);
    } finally {
      await s3.close();
    }
  });

  it('orders releases by date, then by their number', () => {
    expect(latestRelease(['2025-09-24.0', '2025-10-22.1', '2025-10-22.0', 'README', '2024-12-18.0'])).toBe(
      '2025-10-22.1',
    );
    expect(latestRelease(['x'])).toBeNull();
  });

  it('says in one line when a release or a mirror is not there', async () => {
    await expect(releaseFiles(mirror.releaseUrl, { release: '2020-01-01.0' })).rejects.toThrow(
      OvertureDownloadError,
    );
    await expect(releaseFiles('http://127.0.0.1:9/release')).rejects.toThrow(/network error listing/);
  });
});

describe('httpAsyncBuffer', () => {
  const part = `${FOLDER}/part-00000.zstd.parquet`;
  const url = () => `${mirror.releaseUrl}/${part}`;

  it('answers any slice of the file, later reads inside a kept range from the cache', async () => {
    const local = readFileSync(join(dir, 'part-00000.zstd.parquet'));
    const stats = newTransferStats();
    const buf = await httpAsyncBuffer(url(), { stats });
    expect(buf.byteLength).toBe(local.length);
    for (const [s, e] of [[0, 4], [10, 70_000], [local.length - 8, local.length], [1000, 1010], [1010, 1020]] as const) {
      expect(Buffer.from(await buf.slice(s, e)).equals(local.subarray(s, e))).toBe(true);
    }
    // [1000,1010) and [1010,1020) came from the range [10, 70,000) kept.
    expect(stats.bytes).toBe(4 + (70_000 - 10) + 8);
  }); // prettier-ignore

  it('resumes a range whose connection is cut, from the byte where it stopped', async () => {
    const local = readFileSync(join(dir, 'part-00000.zstd.parquet'));
    const stats = newTransferStats();
    const buf = await httpAsyncBuffer(url(), { stats, retryDelayMs: 10 });
    const before = mirror.requests.length;
    mirror.cutOnce(part, 30_000);
    const got = Buffer.from(await buf.slice(100_000, 300_000));
    expect(got.equals(local.subarray(100_000, 300_000))).toBe(true);
    expect(stats.retries).toBe(1);
    const ranges = mirror.requests.slice(before).filter((r) => r.startsWith('GET'));
    expect(ranges).toEqual([
      `GET /release/${part} bytes=100000-299999`,
      `GET /release/${part} bytes=130000-299999`,
    ]);
  });

  it('gets a range within its attempts, and names a missing file in one line', async () => {
    const buf = await httpAsyncBuffer(url(), { attempts: 2, retryDelayMs: 5 });
    mirror.cutOnce(part, 10);
    await expect(buf.slice(200_000, 400_000)).resolves.toBeDefined();
    await expect(httpAsyncBuffer(`${mirror.releaseUrl}/${FOLDER}/missing.parquet`)).rejects.toThrow(
      /HTTP 404/,
    );
  });
});

describe('a box read from a multi-file release', () => {
  it('fetches only the row groups that meet it, well under the files’ size', async () => {
    const { files } = await releaseFiles(mirror.releaseUrl);
    const stats = newTransferStats();
    const places: OverturePlace[] = [];
    let groups = 0;
    for (const f of files) {
      const buf = await httpAsyncBuffer(f.url, { stats });
      const summary = await readOvertureFile(buf, f.url, (b) => void places.push(...b), { box: BOX });
      groups += summary.rowGroups.read;
    }
    expect(groups).toBe(1);
    expect(places.length).toBeGreaterThan(PER_TOWN * 0.5);
    expect(places.every((p) => p.id.startsWith('springfield-'))).toBe(true);
    const total = Object.values(sizes).reduce((a, b) => a + b, 0);
    // One group of sixteen, plus the two footers: well under a quarter of the bytes.
    expect(stats.bytes).toBeLessThan(total / 4);
    expect(mirror.bytesSent()).toBeGreaterThanOrEqual(stats.bytes);
  });
});
