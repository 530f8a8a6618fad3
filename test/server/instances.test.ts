// Several app instances on one PostgreSQL database. Two real servers (buildApp + listen on port 0)
// share one database: live events cross instances, each strategy job is worked exactly once, a session made on
// one instance is valid on the other, and the per-user scan cooldown holds across both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { buildApp } from '../../src/server/app.js';
import { parseConfig } from '../../src/server/config.js';
import type { Db } from '../../src/server/db/database.js';
import { createInvitation } from '../../src/server/invitations/service.js';
import { registerAccount } from '../../src/server/users/accounts.js';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../helpers/db.js';
import { ORIGIN, sessionCookie } from '../helpers/app.js';
import { scannedBusiness } from '../helpers/businesses.js';

const onPostgres = testDatabaseKind === 'postgres';

interface Instance {
  app: FastifyInstance;
  db: Db;
  base: string;
}

let testDb: TestDatabase;
const instances: Instance[] = [];

async function startInstance(secret: string): Promise<Instance> {
  const config = parseConfig({
    NODE_ENV: 'test',
    DATA_DIR: testDb.dataDir,
    DATABASE_URL: testDb.database.kind === 'postgres' ? testDb.database.url : '',
    PUBLIC_URL: ORIGIN,
    LOG_LEVEL: 'silent',
    AUTH_SECRET: secret,
    SIGN_IN_RATE_LIMIT: '1000',
    SIGN_IN_IP_RATE_LIMIT: '1000',
    SCAN_COOLDOWN_MS: '60000',
    PLACE_PROVIDERS: 'demo',
  });
  const db = testDb.open();
  const mailer = { send: () => Promise.resolve() };
  const app = await buildApp({ config, db, mailer, serveWeb: false });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, db, base };
}

function call(instance: Instance, method: string, path: string, body?: unknown, cookie = '') {
  return fetch(instance.base + path, {
    method,
    headers: {
      origin: ORIGIN,
      ...(cookie ? { cookie } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function newUser(instance: Instance): Promise<{ email: string; password: string; cookie: string }> {
  const email = `rep-${randomBytes(4).toString('hex')}@example.com`;
  const password = `pw-${randomBytes(6).toString('hex')}`;
  const invitation = await createInvitation(
    instance.db,
    { id: null as never, name: 'factory' },
    undefined,
  ).catch(() => null);
  await registerAccount(instance.db, { name: 'Rep', email, password, invitationCode: invitation?.code }, 8);
  const res = await call(instance, 'POST', '/api/session', { email, password });
  expect(res.status).toBe(200);
  return { email, password, cookie: sessionCookie(res.headers.getSetCookie()) };
}

/** The next SSE event of a type on an open /api/events stream, or an error after `timeoutMs`. */
async function openEvents(instance: Instance, cookie: string) {
  const controller = new AbortController();
  const res = await fetch(`${instance.base}/api/events`, {
    headers: { cookie, origin: ORIGIN, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const waitFor = async (type: string, timeoutMs: number): Promise<Record<string, unknown>> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event === type && data) return JSON.parse(data) as Record<string, unknown>;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no '${type}' event within ${timeoutMs} ms`);
      let timer: NodeJS.Timeout | undefined;
      const chunk = await Promise.race([
        reader.read(),
        new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), left))),
      ]);
      clearTimeout(timer);
      if (chunk === 'timeout') throw new Error(`no '${type}' event within ${timeoutMs} ms`);
      if (chunk.done) throw new Error('stream ended');
      buffer += chunk.value;
    }
  };
  return {
    waitFor,
    close: () => {
      controller.abort();
      return reader.cancel().catch(() => {});
    },
  };
}

function prospect(i: number) {
  return {
    id: `osm:node/${700_000 + i}`,
    name: `Instance Test Business ${i}`,
    category: i % 2 ? 'Dental' : 'Auto Repair',
    address: `${100 + i} Market St, San Francisco, CA`,
    lat: 37.79,
    lng: -122.4,
    score: 0.6,
    reviews: 12,
    types: [i % 2 ? 'dentist' : 'car_repair'],
  };
}

describe.skipIf(!onPostgres)('two app instances on one PostgreSQL database', () => {
  beforeAll(async () => {
    testDb = await createTestDatabase('postgres');
    const secret = randomBytes(32).toString('hex');
    // One after the other: the first runs the migrations, the second finds them applied.
    instances.push(await startInstance(secret));
    instances.push(await startInstance(secret));
  });
  afterAll(async () => {
    for (const i of instances.splice(0)) {
      await i.app.close();
      await i.db.destroy();
    }
    await testDb?.drop();
  });

  it('serves a session made on one instance on the other', async () => {
    const [first, second] = instances as [Instance, Instance];
    const rep = await newUser(first);
    const me = await call(second, 'GET', '/api/me', undefined, rep.cookie);
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ user: { email: rep.email } });
    // Signed out on the second: the first no longer accepts the cookie either.
    expect((await call(second, 'POST', '/api/auth/sign-out', {}, rep.cookie)).status).toBe(200);
    expect((await call(first, 'GET', '/api/me', undefined, rep.cookie)).status).toBe(401);
  });

  it('delivers an advertiser marked on the first to an event stream on the second within 2 s', async () => {
    const [first, second] = instances as [Instance, Instance];
    const rep = await newUser(first);
    await scannedBusiness(first.db, 'osm:node/424242', 'Cross Instance Motors');
    const stream = await openEvents(second, rep.cookie);
    try {
      const marked = await call(
        first,
        'POST',
        '/api/current-advertisers',
        { businessId: 'osm:node/424242', label: 'Cross Instance Motors' },
        rep.cookie,
      );
      expect(marked.status).toBe(201);
      const event = await stream.waitFor('advertisers', 2000);
      expect(event).toMatchObject({ action: 'marked', businessId: 'osm:node/424242' });
    } finally {
      await stream.close();
    }
  });

  it('completes 20 strategy jobs submitted across both instances, each exactly once', async () => {
    const [first, second] = instances as [Instance, Instance];
    // Two reps: one rep may start at most 20 strategies a minute.
    const reps = [await newUser(first), await newUser(second)];
    const started = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const via = i % 2 ? second : first;
        const res = await call(
          via,
          'POST',
          '/api/strategies',
          { prospect: prospect(i) },
          reps[i % 2]!.cookie,
        );
        expect(res.status).toBe(202);
        return ((await res.json()) as { jobId: string }).jobId;
      }),
    );
    expect(new Set(started).size).toBe(20);
    // Poll each job, alternating instances, until every one is complete.
    const deadline = Date.now() + 60_000;
    const done = new Set<string>();
    for (let round = 0; done.size < 20 && Date.now() < deadline; round++) {
      for (const [i, jobId] of started.entries()) {
        if (done.has(jobId)) continue;
        const via = (i + round) % 2 ? first : second;
        const res = await call(via, 'GET', `/api/strategies/jobs/${jobId}`, undefined, reps[i % 2]!.cookie);
        if (res.status === 200) done.add(jobId);
        else expect(res.status).toBe(202);
      }
      if (done.size < 20) await new Promise((r) => setTimeout(r, 200));
    }
    expect(done.size).toBe(20);
    const rows = await first.db.kysely
      .selectFrom('jobs')
      .select(['id', 'status', 'attempts', 'locked_by'])
      .where('id', 'in', started)
      .execute();
    expect(rows).toHaveLength(20);
    for (const row of rows) expect(row).toMatchObject({ status: 'complete', attempts: 1 });
  });

  it('holds the scan cooldown across instances: a second scan on the other instance gets 429', async () => {
    const [first, second] = instances as [Instance, Instance];
    const rep = await newUser(first);
    const scan = { lat: 37.79, lng: -122.4, radiusMiles: 1, count: 10 };
    const [a, b] = await Promise.all([
      call(first, 'POST', '/api/scans', scan, rep.cookie),
      call(second, 'POST', '/api/scans', scan, rep.cookie),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 429]);
    const refused = a.status === 429 ? a : b;
    expect(await refused.json()).toMatchObject({ error: 'Please wait a moment before scanning again.' });
  });
});

describe.skipIf(onPostgres)('two app instances (SQLite)', () => {
  it.skip('needs PostgreSQL: with SQLite the app runs as one instance (run with TEST_DATABASE=postgres)', () => {});
});
