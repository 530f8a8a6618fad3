// What an open screen learns about a scan while it is open. A scan sent with a scanId publishes its phases
// (fetching from the named providers, N found, analysing N, done) on the event stream of that user only. A
// business blocked after the scan is left out of the restored (or, after a lost
// event stream, refreshed) latest results too.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importOsmFile } from '../../src/server/places/index.js';
import {
  createTestContext,
  ORIGIN,
  startSecondInstance,
  type SecondInstance,
  type TestContext,
  type TestUser,
} from '../helpers/app.js';
import { testDatabaseKind } from '../helpers/db.js';
import { openStream, type SseEvent } from '../helpers/sse.js';
import { fixtureExtract } from '../helpers/osm-data.js';
import { CENTER } from '../fixtures/osm/prairie-junction.js';

// The repository's own extract: this suite runs on every machine.
const EXTRACT = fixtureExtract();

let t: TestContext;
let baseUrl: string;
let ann: TestUser;
let ben: TestUser;
beforeAll(async () => {
  t = await createTestContext({ SCAN_COOLDOWN_MS: '0' });
  await importOsmFile(t.db, EXTRACT);
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  ann = await t.newUser();
  ben = await t.newUser();
}, 120_000);
afterAll(() => t.close());

const scan = (as: TestUser, body: Record<string, unknown>) =>
  t.request({
    method: 'POST',
    url: '/api/scans',
    payload: { ...CENTER, radiusMiles: 1, count: 20, ...body },
    as,
  });

/** The next `n` scan notices of a stream, in the order they arrived. */
async function scanEvents(stream: Awaited<ReturnType<typeof openStream>>, n: number): Promise<SseEvent[]> {
  const got: SseEvent[] = [];
  for (let i = 0; i < n; i++) got.push(await stream.next((e) => e.event === 'scan', 3000));
  return got;
}

describe('scan progress on the event stream', () => {
  it('sends the phases in order to the scanning user only', async () => {
    const annStream = await openStream(baseUrl, ann);
    const benStream = await openStream(baseUrl, ben);
    try {
      const scanId = randomUUID();
      const res = await scan(ann, { scanId });
      expect(res.statusCode).toBe(200);
      const page = res.json<{ total: number }>();

      const events = await scanEvents(annStream, 4);
      expect(events.map((e) => e.data.action)).toEqual(['fetching', 'found', 'analysing', 'done']);
      for (const e of events) expect(e.data).toMatchObject({ type: 'scan', scanId, userId: ann.id });
      const [fetching, found, analysing, done] = events.map((e) => e.data);
      expect(fetching!.providers).toEqual(['local']);
      expect(found!.count).toBeGreaterThanOrEqual(analysing!.count!);
      expect(analysing!.count).toBeGreaterThanOrEqual(page.total);
      expect(page.total).toBeGreaterThan(20);
      expect(done!.count).toBe(page.total);

      // Ben's own scan: the first scan notice on his stream is his, so none of Ann's reached him.
      const benScan = randomUUID();
      expect((await scan(ben, { scanId: benScan })).statusCode).toBe(200);
      const benEvents = await scanEvents(benStream, 4);
      expect(benEvents.map((e) => [e.data.scanId, e.data.action])).toEqual([
        [benScan, 'fetching'],
        [benScan, 'found'],
        [benScan, 'analysing'],
        [benScan, 'done'],
      ]);
      expect(benEvents.every((e) => e.data.userId === ben.id)).toBe(true);

      // Without a scan id nothing is sent (scripts and older clients).
      expect((await scan(ann, {})).statusCode).toBe(200);
      await expect(annStream.next((e) => e.event === 'scan', 500)).rejects.toThrow(/no matching event/);
    } finally {
      await annStream.close();
      await benStream.close();
    }
  });

  it('takes only a UUID as the scan id', async () => {
    const res = await scan(ann, { scanId: 'not-a-uuid' });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: string }>().error).toMatch(/scanId/);
  });
});

describe('the latest results after a block', () => {
  it('leave out a business blocked since the scan, and count it out of the total', async () => {
    const admin = await t.newUser('admin');
    expect((await scan(ben, { count: 20 })).statusCode).toBe(200);
    const before = (
      await t.request({ method: 'GET', url: '/api/scans/latest?offset=0&limit=20', as: ben })
    ).json<{ total: number; loadable: number; prospects: { id: string; name: string }[] }>();
    const victim = before.prospects[1]!;
    const blocked = await t.request({
      method: 'POST',
      url: '/api/blocklist',
      payload: { businessId: victim.id, label: victim.name },
      as: admin,
    });
    expect(blocked.statusCode).toBe(201);
    const after = (
      await t.request({ method: 'GET', url: '/api/scans/latest?offset=0&limit=20', as: ben })
    ).json<typeof before>();
    expect(after.prospects.map((p) => p.id)).not.toContain(victim.id);
    expect(after.prospects.slice(0, 19).map((p) => p.id)).toEqual(
      before.prospects.filter((p) => p.id !== victim.id).map((p) => p.id),
    );
    expect(after.prospects).toHaveLength(20);
    expect(after.total).toBe(before.total - 1);
  });
});

describe.skipIf(testDatabaseKind !== 'postgres')('scan progress across instances (LISTEN/NOTIFY)', () => {
  let second: SecondInstance;
  beforeAll(async () => {
    second = await startSecondInstance(t);
  });
  afterAll(() => second.close());

  it("reaches the user's stream on another instance, in order, and nobody else's", async () => {
    const annThere = await openStream(second.url, ann);
    const benThere = await openStream(second.url, ben);
    try {
      const scanId = randomUUID();
      const res = await fetch(`${baseUrl}/api/scans`, {
        method: 'POST',
        headers: { cookie: ann.cookie, origin: ORIGIN, 'content-type': 'application/json' },
        body: JSON.stringify({ ...CENTER, radiusMiles: 1, count: 20, scanId }),
      });
      expect(res.status).toBe(200);
      const events = await scanEvents(annThere, 4);
      expect(events.map((e) => [e.data.scanId, e.data.action])).toEqual([
        [scanId, 'fetching'],
        [scanId, 'found'],
        [scanId, 'analysing'],
        [scanId, 'done'],
      ]);
      await expect(benThere.next((e) => e.event === 'scan', 500)).rejects.toThrow(/no matching event/);
    } finally {
      await annThere.close();
      await benThere.close();
    }
  });
});
