// Website checks' politeness across instances: two app instances (two website job workers) on one database
// check several businesses whose sites are on one local fixture host. The host is claimed in website_hosts,
// so the fixture server (which counts requests in flight per host) never sees two at once, and every request
// starts at least the pause after the previous one ended; jobs whose host was busy went back to the queue
// instead of waiting in a slot. Runs on SQLite and PostgreSQL (TEST_DATABASE=postgres).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { placeRow } from '../../src/server/places/local-store.js';
import { HostLeases } from '../../src/server/websites/hosts.js';
import { buildSecondApp, createTestContext, type TestContext } from '../helpers/app.js';
import { startSiteServer, type SiteServer } from '../helpers/websites.js';

const CENTRE = { lat: 41.0, lng: -74.0 };
const PAUSE_MS = 120;
const FIXTURES = ['google-ads', 'meta-pixel', 'callrail', 'jsonld', 'booking', 'chat'];

let sites: SiteServer;
let t: TestContext;
let second: FastifyInstance;

async function checksDone(timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await t.db.kysely
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('kind', '=', 'website')
      .where('status', 'in', ['pending', 'running'])
      .executeTakeFirstOrThrow();
    if (Number(row.n) === 0) return;
    if (Date.now() > deadline) throw new Error('website checks did not finish');
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  sites = await startSiteServer();
  sites.delayMs = 25;
  t = await createTestContext({
    SCAN_COOLDOWN_MS: '0',
    WEBSITE_CHECKS: 'on',
    WEBSITE_CHECKS_ALLOW_LOOPBACK: 'true',
    WEBSITE_CHECK_HOST_PAUSE_MS: String(PAUSE_MS),
    WEBSITE_CHECK_CONCURRENCY: '3',
  });
  second = await buildSecondApp(t);
  await t.app.ready();
  const at = new Date().toISOString();
  await t.db.kysely
    .insertInto('places')
    .values(
      FIXTURES.map((f, i) =>
        placeRow(
          {
            id: `osm:node/${i + 1}`,
            lat: CENTRE.lat + (i + 1) * 0.0005,
            lng: CENTRE.lng,
            tags: {
              name: `Shared Host Business ${i + 1}`,
              amenity: 'dentist',
              phone: `+1 555 555 02${String(i).padStart(2, '0')}`,
              website: `${sites.origin}/sites/${f}/`,
            },
          },
          at,
        ),
      ),
    )
    .execute();
});
afterAll(async () => {
  await second?.close();
  await t?.close();
  await sites?.close();
});

describe('one host, two instances', () => {
  it('never two requests at once to the host, the pause between them, busy jobs deferred', async () => {
    const rep = await t.newUser('user');
    const res = await t.request({
      method: 'POST',
      url: '/api/scans',
      payload: { ...CENTRE, radiusMiles: 1, count: 20 },
      as: rep,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ total: number }>().total).toBe(FIXTURES.length);
    // The checks are scheduled just after the answer: wait for them, then for their end.
    await expect
      .poll(
        async () =>
          (await t.db.kysely.selectFrom('jobs').select('id').where('kind', '=', 'website').execute()).length,
        { timeout: 10_000, interval: 25 },
      )
      .toBe(FIXTURES.length);
    // The first instance starts alone; once it has finished a check, the second starts and both work the queue
    // together; then the first stops (gracefully: its jobs in hand finish, deferred ones wait in the queue), so
    // the second surely checks some too.
    await expect
      .poll(
        async () =>
          (
            await t.db.kysely
              .selectFrom('jobs')
              .select('id')
              .where('kind', '=', 'website')
              .where('status', '=', 'complete')
              .execute()
          ).length,
        { timeout: 30_000, interval: 10 },
      )
      .toBeGreaterThanOrEqual(1);
    await second.ready();
    await new Promise((r) => setTimeout(r, 600));
    await t.app.close();
    await checksDone();

    const host = `127.0.0.1:${sites.port}`;
    const spans = sites.timeline.filter((x) => x.host === host).sort((a, b) => a.start - b.start);
    // robots.txt, each home page and the pages they link to.
    expect(spans.length).toBeGreaterThan(FIXTURES.length);
    expect(sites.maxInFlight.get(host)).toBe(1);
    for (let i = 1; i < spans.length; i++) {
      // The previous answer ended (server side) before the client released the host; 5 ms of timer slack.
      expect(spans[i]!.start - spans[i - 1]!.end!, `request ${i}`).toBeGreaterThanOrEqual(PAUSE_MS - 5);
    }

    const jobs = await t.db.kysely
      .selectFrom('jobs')
      .select(['status', 'result', 'deferrals', 'attempts'])
      .where('kind', '=', 'website')
      .execute();
    expect(jobs).toHaveLength(FIXTURES.length);
    for (const j of jobs) {
      expect(j.status).toBe('complete');
      expect(JSON.parse(j.result!)).toMatchObject({ status: 'checked' });
      // A deferral gives its attempt back.
      expect(j.attempts).toBe(1);
    }
    // Six jobs, six slots, one host: most of them found it busy and went back to the queue.
    expect(jobs.reduce((n, j) => n + Number(j.deferrals), 0)).toBeGreaterThan(0);
    // Both instances' workers checked some.
    const workers = new Set(jobs.map((j) => (JSON.parse(j.result!) as { worker: string }).worker));
    expect(workers.size).toBe(2);
    // Every host released, its pause recorded.
    const row = await t.db.kysely
      .selectFrom('website_hosts')
      .selectAll()
      .where('host', '=', host)
      .executeTakeFirstOrThrow();
    expect(row.holder).toBeNull();
  });

  it('claims are compare-and-set: one winner at once, the pause, a dead holder taken over', async () => {
    const other = t.testDb.open();
    try {
      const a = new HostLeases(t.db.kysely, { pauseMs: 200, leaseMs: 300 });
      const b = new HostLeases(other.kysely, { pauseMs: 200, leaseMs: 300 });
      const claims = await Promise.all([
        a.claim('race.test', 'a'),
        b.claim('race.test', 'b'),
        a.claim('race.test', 'a2'),
        b.claim('race.test', 'b2'),
      ]);
      expect(claims.filter((c) => c === true)).toHaveLength(1);
      const winner = ['a', 'b', 'a2', 'b2'][claims.indexOf(true)]!;
      const now = Date.now();
      await a.release('race.test', winner, now + 200);
      // During the pause: come back when it ends.
      const early = await b.claim('race.test', 'c', now + 50);
      expect(early).toEqual(new Date(now + 200));
      expect(await b.claim('race.test', 'c', now + 201)).toBe(true);
      // A holder that died: its lease (300 ms) ends, then another may claim.
      expect(await a.claim('race.test', 'd', now + 400)).toBeInstanceOf(Date);
      expect(await a.claim('race.test', 'd', now + 502)).toBe(true);
      // A release by someone who no longer holds it changes nothing.
      await b.release('race.test', 'c', now + 10_000);
      const row = await t.db.kysely
        .selectFrom('website_hosts')
        .selectAll()
        .where('host', '=', 'race.test')
        .executeTakeFirstOrThrow();
      expect(row.holder).toBe('d');
    } finally {
      await other.destroy();
    }
  });
});
