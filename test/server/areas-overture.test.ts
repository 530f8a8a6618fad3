// The Admin Panel imports Overture places too: a file uploaded from the admin's computer, or one already on the
// server given by its path, checked before a job is queued, then imported as a job the panel follows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';
import { writeOvertureParquet } from '../fixtures/overture/parquet-writer.js';
import { townPlaces } from '../fixtures/overture/places.js';
import { countPlaces } from '../../src/server/places/local-store.js';
import { NOT_A_PARQUET_PATH, uploadName } from '../../src/server/areas/overture.js';
import type { AreasAnswer, RefreshStarted, RegionRefresh } from '../../src/core/api/areas.js';

let t: TestContext;
let admin: TestUser;
let user: TestUser;
let town: string;

beforeAll(async () => {
  t = await createTestContext({ JOB_CONCURRENCY: '1' });
  admin = await t.newUser('admin');
  user = await t.newUser('user');
  await t.app.ready();
  town = join(t.testDb.dataDir, 'town.parquet');
  await writeOvertureParquet(town, townPlaces('town', 40, { lat: 40.2, lng: -100.65 }), { rowGroupSize: 10 });
});
afterAll(() => t.close());

async function poll(jobId: string): Promise<RegionRefresh> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await t.request({ method: 'GET', url: `/api/admin/areas/jobs/${jobId}`, as: admin });
    expect(res.statusCode).toBe(200);
    const job = res.json<RegionRefresh>();
    if (job.status === 'complete' || job.status === 'error') return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${JSON.stringify(job)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const upload = (
  body: Buffer | string,
  name: string,
  as: TestUser = admin,
  type = 'application/octet-stream',
) =>
  t.request({
    method: 'POST',
    url: `/api/admin/areas/overture-upload?name=${encodeURIComponent(name)}`,
    headers: { 'content-type': type },
    payload: body,
    as,
  });

const fromPath = (path: string, as: TestUser = admin) =>
  t.request({ method: 'POST', url: '/api/admin/areas/overture-file', payload: { path }, as });

const uploads = () => {
  const dir = join(t.testDb.dataDir, 'uploads');
  return existsSync(dir) ? readdirSync(dir) : [];
};

describe('Overture places from the Admin Panel', () => {
  it('imports an uploaded file as a job: its counts and what was left out, the area listed, the upload removed', async () => {
    const res = await upload(readFileSync(town), 'My Town.parquet');
    expect(res.statusCode).toBe(202);
    const started = res.json<RefreshStarted>();
    expect(started).toMatchObject({ region: 'My_Town.parquet', status: 'pending' });
    const job = await poll(started.jobId);
    expect(job.error).toBeNull();
    expect(job.status).toBe('complete');
    expect(job.result?.businesses).toBeGreaterThan(0);
    expect(job.result?.total).toBe(await countPlaces(t.db.kysely));
    expect(job.result?.note).toMatch(
      /merged with OpenStreetMap businesses; left out: \d+ under the confidence/,
    );
    const listed = (
      await t.request({ method: 'GET', url: '/api/admin/areas', as: admin })
    ).json<AreasAnswer>();
    expect(listed.areas.map((a) => a.name)).toContain('Overture My_Town.parquet');
    expect(uploads()).toEqual([]);
  });

  it('imports a file on the server by its path', async () => {
    const res = await fromPath(town);
    expect(res.statusCode).toBe(202);
    const job = await poll(res.json<RefreshStarted>().jobId);
    expect(job.status).toBe('complete');
    expect(job.result?.region).toBe('town.parquet');
    // The file on the server is the admin's: kept.
    expect(existsSync(town)).toBe(true);
  });

  it('refuses what is not an Overture places file with one clear line, before any job and keeping nothing', async () => {
    const before = await countPlaces(t.db.kysely);
    const notParquet = await upload('name,phone\nAcme,555\n', 'list.parquet');
    expect(notParquet.statusCode).toBe(400);
    expect(notParquet.json<{ error: string }>().error).toMatch(
      /^list\.parquet is not a readable parquet file/,
    );
    expect(uploads()).toEqual([]);
    expect((await upload('', 'empty.parquet')).json<{ error: string }>().error).toMatch(
      /The upload was empty/,
    );
    const json = await t.request({
      method: 'POST',
      url: '/api/admin/areas/overture-upload',
      payload: { file: 'x' },
      as: admin,
    });
    expect(json.statusCode).toBe(415);

    expect((await fromPath('places.parquet')).json()).toEqual({ error: NOT_A_PARQUET_PATH });
    expect((await fromPath('/etc/passwd')).json()).toEqual({ error: NOT_A_PARQUET_PATH });
    const missing = join(t.testDb.dataDir, 'missing.parquet');
    expect((await fromPath(missing)).json()).toEqual({
      error: `There is no file at ${missing} on the server.`,
    });
    const fake = join(t.testDb.dataDir, 'fake.parquet');
    writeFileSync(fake, 'not parquet at all');
    const refused = await fromPath(fake);
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ error: string }>().error).toMatch(/^fake\.parquet is not a readable parquet file/);
    expect(await countPlaces(t.db.kysely)).toBe(before);
  });

  it('keeps an upload under a safe, short name of its own', () => {
    expect(uploadName('My Town.parquet')).toBe('My_Town.parquet');
    expect(uploadName('../../etc/passwd')).toBe('passwd.parquet');
    expect(uploadName('')).toBe('places.parquet');
    expect(uploadName(`${'y'.repeat(300)}.parquet`)).toBe(`${'y'.repeat(100)}.parquet`);
  });

  it('is for admins', async () => {
    expect((await upload(readFileSync(town), 'town.parquet', user)).statusCode).toBe(403);
    expect((await fromPath(town, user)).statusCode).toBe(403);
    expect(uploads()).toEqual([]);
  });
});
