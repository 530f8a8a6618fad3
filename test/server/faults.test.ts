// Faults: outside providers that hang, fail or answer garbage; PostgreSQL going away or hanging while
// the app runs; the server killed with SIGKILL during 1,000 concurrent writes; graceful shutdown on SIGTERM.
//
// The provider tests always run. The PostgreSQL outages (refusing, and hanging: accepting connections and never
// answering) need TEST_DATABASE=postgres. The two tests that spawn real server processes (SIGKILL, SIGTERM) are
// slower and run when RUN_FAULT_TESTS=1 (CI sets it). SIGTERM runs on the database under test (TEST_DATABASE);
// SIGKILL durability is SQLite's setting (journal, synchronous) and runs on SQLite only, since PostgreSQL's
// durability is its own.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../../src/server/app.js';
import { parseConfig } from '../../src/server/config.js';
import { openDatabase } from '../../src/server/db/database.js';
import { createTestContext, ORIGIN, sessionCookie, type TestContext, type TestUser } from '../helpers/app.js';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../helpers/db.js';
import { json, startFakeService, type FakeService } from '../helpers/places-http.js';
import { startTcpProxy, type TcpProxy } from '../helpers/proxy.js';
import { call, registerFirstUser, startServerProcess, type ServerProcess } from '../helpers/process.js';
import { chatCompletion } from '../helpers/fake-ai.js';

const FAKE_GOOGLE_KEY = `AIza${'x1'.repeat(17)}Q`; // 39 characters, shaped like a real key
const runProcessFaults = process.env.RUN_FAULT_TESTS === '1';

describe('a place provider that hangs, fails or answers garbage', () => {
  const TIMEOUT_MS = 500;
  let google: FakeService;
  let t: TestContext;
  let rep: TestUser;
  beforeAll(async () => {
    google = await startFakeService();
    t = await createTestContext({
      PLACE_PROVIDERS: 'google,demo',
      GOOGLE_MAPS_API_KEY: FAKE_GOOGLE_KEY,
      GOOGLE_PLACES_URL: google.url,
      GOOGLE_GEOCODING_URL: google.url,
      PROVIDER_TIMEOUT_MS: String(TIMEOUT_MS),
      SCAN_COOLDOWN_MS: '0',
    });
    rep = await t.newUser();
  });
  afterAll(async () => {
    await t.close();
    await google.close();
  });

  const cases: [string, Parameters<FakeService['handle']>[0]][] = [
    ['hangs', () => {}],
    ['answers 500', (_req, res) => json(res, 500, { error: { code: 500, message: 'Internal error' } })],
    ['answers garbage', (_req, res) => json(res, 200, '<html>not json at all')],
    ['answers JSON of the wrong shape', (_req, res) => json(res, 200, { places: 'nope', 42: [null] })],
  ];

  for (const [what, handler] of cases) {
    it(`scans within the bounded time with the other provider's results when google ${what}`, async () => {
      google.handle(handler);
      const before = google.requests.length;
      const started = Date.now();
      const res = await t.request({
        method: 'POST',
        url: '/api/scans',
        payload: { lat: 37.7897, lng: -122.4003, radiusMiles: 1, count: 10 },
        as: rep,
      });
      const elapsed = Date.now() - started;
      expect(res.statusCode).toBe(200);
      expect(google.requests.length).toBeGreaterThan(before); // google really was asked
      // Bounded by PROVIDER_TIMEOUT_MS (plus generous room for a slow machine).
      expect(elapsed).toBeLessThan(TIMEOUT_MS + 4_000);
      const body = res.json<{
        prospects: unknown[];
        sources: { provider: string; ok: boolean; error?: string }[];
      }>();
      expect(body.prospects.length).toBeGreaterThan(0);
      const bySource = Object.fromEntries(body.sources.map((s) => [s.provider, s]));
      expect(bySource.google).toMatchObject({ ok: false, count: 0 });
      expect(bySource.google?.error).toEqual(expect.any(String));
      expect(bySource.google?.error).not.toBe('');
      expect(bySource.demo).toMatchObject({ ok: true });
    });
  }
});

describe.skipIf(testDatabaseKind !== 'postgres')('PostgreSQL going away while the app runs', () => {
  const unavailable = 'The database is unavailable right now. Please try again in a moment.';
  const log = { prospectId: 'osm:node/1', name: 'Before The Outage', outcome: 'Called' };

  type Inject = (
    method: 'GET' | 'POST',
    url: string,
    cookie: string,
    payload?: object,
  ) => Promise<LightMyRequestResponse>;

  /** The app on a fresh database reached through a TCP proxy the test can cut or stall; runs `body`. */
  async function throughProxy(
    env: Record<string, string>,
    body: (ctx: { proxy: TcpProxy; app: FastifyInstance; inject: Inject }) => Promise<void>,
  ) {
    const testDb = await createTestDatabase('postgres');
    const target = new URL(testDb.database.kind === 'postgres' ? testDb.database.url : '');
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(target);
    viaProxy.port = String(proxy.port);
    const config = parseConfig({
      NODE_ENV: 'test',
      DATA_DIR: testDb.dataDir,
      DATABASE_URL: viaProxy.toString(),
      PUBLIC_URL: ORIGIN,
      LOG_LEVEL: process.env.DEBUG_FAULTS ? 'error' : 'silent',
      AUTH_SECRET: randomBytes(32).toString('hex'),
      ...env,
    });
    const db = openDatabase(config);
    const app = await buildApp({ config, db, mailer: { send: () => Promise.resolve() }, serveWeb: false });
    const inject = (method: 'GET' | 'POST', url: string, cookie: string, payload?: object) =>
      app.inject({ method, url, headers: { origin: ORIGIN, cookie }, ...(payload && { payload }) });
    try {
      await body({ proxy, app, inject });
    } finally {
      // Close the proxy first: a connection left silent by hang() is never closed by the server, and a pg
      // client ending it would wait for ever for the server's side of the close.
      await proxy.close();
      await app.close();
      await db.destroy();
      await testDb.drop();
    }
  }

  /** While the database is away: each kind of request answers 503 with the message and Retry-After. */
  async function expectUnavailable(app: FastifyInstance, inject: Inject, cookie: string) {
    for (const [method, url, payload] of [
      ['GET', '/api/call-logs', undefined],
      ['POST', '/api/call-logs', { ...log, name: 'During The Outage' }],
      ['GET', '/api/me', undefined],
      ['POST', '/api/session', { email: 'owner@example.com', password: 'password1' }],
    ] as const) {
      const res = await inject(method, url, cookie, payload);
      expect({ url, status: res.statusCode, body: res.json<unknown>() }).toEqual({
        url,
        status: 503,
        body: { error: unavailable },
      });
      expect(res.headers['retry-after']).toBeDefined();
    }
    const health = await app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(503);
    expect(health.json()).toMatchObject({ status: 'unavailable' });
  }

  /** The database is back: with no restart the app answers again within a few seconds and lost nothing. */
  async function expectRecovered(app: FastifyInstance, inject: Inject, cookie: string) {
    let healthy = 0;
    for (let i = 0; i < 100 && healthy !== 200; i++) {
      healthy = (await app.inject({ method: 'GET', url: '/healthz' })).statusCode;
      if (healthy !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(healthy).toBe(200);
    expect((await inject('POST', '/api/call-logs', cookie, { ...log, name: 'After' })).statusCode).toBe(201);
    const list = await inject('GET', '/api/call-logs', cookie);
    expect(list.statusCode).toBe(200);
    expect(
      list
        .json<{ callLogs: { name: string }[] }>()
        .callLogs.map((c) => c.name)
        .sort(),
    ).toEqual(['After', 'Before The Outage']);
  }

  async function registerAndLog(inject: Inject) {
    const reg = await inject('POST', '/api/register', '', {
      name: 'Owner',
      email: 'owner@example.com',
      password: 'password1',
    });
    expect(reg.statusCode).toBe(201);
    const cookie = sessionCookie(reg.headers['set-cookie']);
    expect((await inject('POST', '/api/call-logs', cookie, log)).statusCode).toBe(201);
    return cookie;
  }

  it('answers 503 with a clear message while the database refuses connections and recovers on its own', async () => {
    await throughProxy({}, async ({ proxy, app, inject }) => {
      const cookie = await registerAndLog(inject);
      await proxy.cut();
      await expectUnavailable(app, inject, cookie);
      await proxy.restore();
      await expectRecovered(app, inject, cookie);
    });
  });

  it('drops a pooled connection whose query the server never answered instead of reusing it', async () => {
    const testDb = await createTestDatabase('postgres');
    const target = new URL(testDb.database.kind === 'postgres' ? testDb.database.url : '');
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(target);
    viaProxy.port = String(proxy.port);
    const db = openDatabase({
      database: {
        kind: 'postgres',
        url: viaProxy.toString(),
        connectTimeoutMs: 1000,
        statementTimeoutMs: 500,
      },
    });
    try {
      await sql`select 1`.execute(db.kysely);
      expect(db.pool?.totalCount).toBe(1);
      proxy.hang(); // that connection now never answers, and is never closed either
      await expect(sql`select 1`.execute(db.kysely)).rejects.toThrow('Query read timeout');
      expect(db.pool?.totalCount).toBe(0); // dropped, not back among the idle ones
      await proxy.restore();
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(db.kysely);
      expect(rows).toEqual([{ one: 1 }]); // the very next query works, on a new connection
    } finally {
      await proxy.close();
      await db.destroy();
      await testDb.drop();
    }
  });

  it('answers 503 within the timeouts while the database hangs (accepts, never answers) and recovers', async () => {
    const CONNECT_MS = 1000;
    const STATEMENT_MS = 1000;
    await throughProxy(
      {
        DATABASE_CONNECT_TIMEOUT_MS: String(CONNECT_MS),
        DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_MS),
      },
      async ({ proxy, app, inject }) => {
        const cookie = await registerAndLog(inject);
        proxy.hang();
        const started = Date.now();
        await expectUnavailable(app, inject, cookie);
        // Five requests, each bounded by a timeout (the client gives up 1 s after the statement timeout),
        // with generous room for a slow machine: without the timeouts the first one would never answer.
        expect(Date.now() - started).toBeLessThan(5 * (STATEMENT_MS + 1000 + CONNECT_MS) + 10_000);
        await proxy.restore();
        await expectRecovered(app, inject, cookie);
      },
    );
  }, 60_000);
});

describe.skipIf(!runProcessFaults)('the real server process (RUN_FAULT_TESTS=1)', () => {
  const started: ServerProcess[] = [];
  const dirs: string[] = [];
  const servers: Server[] = [];
  const databases: TestDatabase[] = [];
  afterEach(async () => {
    for (const s of started.splice(0)) await s.kill('SIGKILL');
    for (const d of databases.splice(0)) await d.drop();
    for (const s of servers.splice(0)) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const tempDir = () => {
    const d = mkdtempSync(join(tmpdir(), 'pf-faults-'));
    dirs.push(d);
    return d;
  };

  it.skipIf(testDatabaseKind !== 'sqlite')(
    'keeps every call-log write it answered 2xx when killed with SIGKILL during 1,000 concurrent writes',
    async () => {
      const dataDir = tempDir();
      const env = { DATA_DIR: dataDir, DATABASE_URL: '', AUTH_SECRET: randomBytes(32).toString('hex') };
      const first = await startServerProcess(env);
      started.push(first);
      const cookie = await registerFirstUser(first);

      const acknowledged = new Map<string, string>(); // note -> id answered with 2xx
      let answered = 0;
      let failed = 0;
      let killed = false;
      const writes = Array.from({ length: 1000 }, async (_, i) => {
        const note = `write-${i}-${randomBytes(4).toString('hex')}`;
        try {
          const res = await call(
            first,
            'POST',
            '/api/call-logs',
            { prospectId: `osm:node/${i}`, name: `Business ${i}`, outcome: 'Called', note },
            cookie,
          );
          if (res.status >= 200 && res.status < 300) {
            const { callLog } = (await res.json()) as { callLog: { id: string } };
            acknowledged.set(note, callLog.id);
          }
          answered += 1;
        } catch {
          failed += 1; // the connection died with the server: never acknowledged
        }
        // Kill once a good part of the writes has been answered, while the rest are in flight.
        if (!killed && answered >= 300) {
          killed = true;
          first.child.kill('SIGKILL');
        }
      });
      await Promise.all(writes);
      expect(await first.exited).toBe('SIGKILL');
      expect(acknowledged.size).toBeGreaterThanOrEqual(300);
      expect(failed).toBeGreaterThan(0); // the kill really landed in the middle

      const second = await startServerProcess({ ...env, PORT: String(first.port) });
      started.push(second);
      // Every page of the Log (500 at a time).
      const stored = new Map<string, string>();
      for (let cursor: string | null = ''; cursor !== null;) {
        const page = `/api/call-logs?limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const res = await call(second, 'GET', page, undefined, cookie);
        expect(res.status).toBe(200);
        const body = (await res.json()) as {
          callLogs: { id: string; note: string }[];
          nextCursor: string | null;
        };
        for (const c of body.callLogs) stored.set(c.note, c.id);
        cursor = body.nextCursor;
      }
      const lost = [...acknowledged].filter(([note, id]) => stored.get(note) !== id);
      expect(lost).toEqual([]);
    },
    120_000,
  );

  it(`on SIGTERM finishes in-flight requests and the job in hand, claims no new job and exits cleanly (${testDatabaseKind})`, async () => {
    const testDb = await createTestDatabase();
    databases.push(testDb);
    // A slow place provider (answers after 1.5 s) and an AI endpoint that holds the first job until released.
    const slowGoogle = await startFakeService((_req, res) => {
      setTimeout(() => json(res, 200, { places: [] }), 1500);
    });
    let aiRequests = 0;
    let release: () => void = () => {};
    const released = new Promise<void>((r) => (release = r));
    const ai = createServer((req, res) => {
      aiRequests += 1;
      req.resume();
      void released.then(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(chatCompletion('not json'));
      });
    });
    servers.push(ai);
    await new Promise<void>((r) => ai.listen(0, '127.0.0.1', r));
    const server = await startServerProcess({
      DATA_DIR: testDb.dataDir,
      DATABASE_URL: testDb.database.kind === 'postgres' ? testDb.database.url : '',
      PLACE_PROVIDERS: 'google',
      GOOGLE_MAPS_API_KEY: FAKE_GOOGLE_KEY,
      GOOGLE_PLACES_URL: slowGoogle.url,
      PROVIDER_TIMEOUT_MS: '10000',
      AI_BASE_URL: `http://127.0.0.1:${(ai.address() as AddressInfo).port}/v1`,
      AI_MAX_RETRIES: '0',
      // One job at a time, so the second job is certainly waiting when SIGTERM comes.
      JOB_CONCURRENCY: '1',
      LOG_LEVEL: 'info',
    });
    started.push(server);
    try {
      const cookie = await registerFirstUser(server);
      const prospect = (n: number) => ({
        id: `osm:node/${n}`,
        name: `Shutdown Dental ${n}`,
        category: 'Dental',
        address: '1 Main St',
        lat: 37.79,
        lng: -122.4,
        score: 0.5,
      });
      const jobIds: string[] = [];
      for (const n of [1, 2]) {
        const res = await call(server, 'POST', '/api/strategies', { prospect: prospect(n) }, cookie);
        expect(res.status).toBe(202);
        jobIds.push(((await res.json()) as { jobId: string }).jobId);
      }
      for (let i = 0; i < 200 && aiRequests === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(aiRequests).toBe(1); // the first job is in the middle of its AI call; the second waits

      const scanning = call(
        server,
        'POST',
        '/api/scans',
        { lat: 37.79, lng: -122.4, radiusMiles: 1, count: 10 },
        cookie,
      );
      for (let i = 0; i < 200 && slowGoogle.requests.length === 0; i++)
        await new Promise((r) => setTimeout(r, 20));
      expect(slowGoogle.requests.length).toBeGreaterThan(0); // the scan is in flight

      server.child.kill('SIGTERM');
      const termAt = Date.now();
      await new Promise((r) => setTimeout(r, 300));
      release(); // the job in hand may now finish
      const scan = await scanning;
      expect(scan.status).toBe(200);
      expect(((await scan.json()) as { sources: { ok: boolean }[] }).sources[0]).toMatchObject({ ok: true });
      expect(await server.exited).toBe(0);
      // Exits once the work in hand is done, not after the keep-alive timeout (72 s) of the busy connection.
      expect(Date.now() - termAt).toBeLessThan(20_000);

      const db = testDb.open();
      try {
        const rows = await db.kysely
          .selectFrom('jobs')
          .select(['id', 'status', 'attempts', 'locked_by'])
          .orderBy('created_at')
          .execute();
        const byId = new Map(rows.map((r) => [r.id, r]));
        expect(byId.get(jobIds[0]!)).toMatchObject({ status: 'complete', attempts: 1, locked_by: null });
        // Not claimed after SIGTERM: still pending for the next start, never half-done.
        expect(byId.get(jobIds[1]!)).toMatchObject({ status: 'pending', attempts: 0, locked_by: null });
        expect(rows.filter((r) => r.status === 'running')).toEqual([]);
      } finally {
        await db.destroy();
      }
    } finally {
      await slowGoogle.close();
    }
  }, 120_000);
});
