import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import pg from 'pg';
import {
  createTestContext,
  ORIGIN,
  startSecondInstance,
  type SecondInstance,
  type TestContext,
  type TestUser,
} from '../helpers/app.js';
import { scannedBusiness } from '../helpers/businesses.js';
import { openStream } from '../helpers/sse.js';
import { testDatabaseKind } from '../helpers/db.js';
import {
  createMemoryBus,
  createPostgresBus,
  type AppEvent,
  type EventBus,
} from '../../src/server/events/bus.js';
import { contractSerializerCompiler } from '../../src/server/http/contract.js';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { eventRoutes, TOO_MANY_STREAMS } from '../../src/server/events/routes.js';
import type { AppContext } from '../../src/server/context.js';
import type { CurrentUser } from '../../src/server/http/access.js';

let t: TestContext;
let baseUrl: string;
let rep: TestUser;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestContext();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  rep = await t.newUser();
  admin = await t.newUser('admin');
  await scannedBusiness(t.db, 'osm:node/900', 'Live Motors');
  await scannedBusiness(t.db, 'cross-instance-1', 'Two Instance Motors');
});
afterAll(() => t.close());

describe('live updates over Server-Sent Events', () => {
  it('needs a signed-in user', async () => {
    const res = await fetch(`${baseUrl}/api/events`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'User not authenticated' });
  });

  it('delivers an advertiser mark and unmark to an open stream', async () => {
    const stream = await openStream(baseUrl, rep);
    try {
      expect(stream.res.status).toBe(200);
      expect(stream.res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(stream.res.headers.get('cache-control')).toContain('no-cache');
      const marked = await t.request({
        method: 'POST',
        url: '/api/current-advertisers',
        payload: { businessId: 'osm:node/900', label: 'Live Motors' },
        as: admin,
      });
      expect(marked.statusCode).toBe(201);
      const event = await stream.next((e) => e.event === 'advertisers', 2000);
      expect(event.data).toMatchObject({
        type: 'advertisers',
        action: 'marked',
        businessId: 'osm:node/900',
        item: { label: 'Live Motors', markedBy: admin.id },
      });
      expect(stream.comments).toContain('connected');

      // A second mark of the same business changes nothing and sends nothing; the unmark does.
      await t.request({
        method: 'POST',
        url: '/api/current-advertisers',
        payload: { businessId: 'osm:node/900', label: 'Again' },
        as: rep,
      });
      await t.request({ method: 'DELETE', url: '/api/current-advertisers/osm%3Anode%2F900', as: admin });
      const next = await stream.next((e) => e.event === 'advertisers', 2000);
      expect(next.data).toMatchObject({ action: 'unmarked', businessId: 'osm:node/900' });
    } finally {
      await stream.close();
    }
  });

  it('delivers blocks, unblocks and clears as `blocklist` events to every open stream', async () => {
    const a = await openStream(baseUrl, rep);
    const b = await openStream(baseUrl, admin);
    try {
      await t.request({
        method: 'POST',
        url: '/api/blocklist',
        payload: { businessId: 'sse-block', label: 'Blocked Live' },
        as: admin,
      });
      for (const s of [a, b]) {
        const e = await s.next((x) => x.event === 'blocklist', 2000);
        expect(e.data).toMatchObject({
          action: 'blocked',
          businessId: 'sse-block',
          item: { label: 'Blocked Live' },
        });
      }
      await t.request({ method: 'DELETE', url: '/api/blocklist/sse-block', as: admin });
      expect((await a.next((x) => x.event === 'blocklist', 2000)).data).toMatchObject({
        action: 'unblocked',
      });
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('stream lifecycle', () => {
  /** A bare server with only the event routes, a fast heartbeat and a bus that counts its subscribers. */
  async function bareServer() {
    const inner = createMemoryBus(t.app.log);
    let subscribers = 0;
    const bus: EventBus = {
      ...inner,
      subscribe(listener) {
        subscribers += 1;
        const off = inner.subscribe(listener);
        return () => {
          subscribers -= 1;
          off();
        };
      },
    };
    const app = Fastify();
    // The route's schemas are zod (src/core/api), compiled as the app does.
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(contractSerializerCompiler(true));
    app.decorateRequest('user', null);
    // Stands in for the access hook: the session id comes from a test header.
    app.addHook('onRequest', (request, _reply, next) => {
      const sessionId = request.headers['x-test-session'];
      if (typeof sessionId === 'string') request.user = { sessionId } as CurrentUser;
      next();
    });
    await app.register(eventRoutes, { ctx: { events: bus, db: t.db } as AppContext, heartbeatMs: 50 });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    return { app, url, bus, subscribers: () => subscribers };
  }
  const until = async (test: () => boolean, ms = 2000) => {
    const deadline = Date.now() + ms;
    while (!test()) {
      if (Date.now() > deadline) throw new Error('condition not met in time');
      await new Promise((r) => setTimeout(r, 10));
    }
  };

  it('sends heartbeat comments, and unsubscribes when the client goes away', async () => {
    const s = await bareServer();
    try {
      const stream = await openStream(s.url, rep);
      await until(() => s.subscribers() === 1);
      await stream.next(() => false, 300).catch(() => undefined); // read for a while: heartbeats arrive
      expect(stream.comments.filter((c) => c === 'heartbeat').length).toBeGreaterThanOrEqual(1);
      await s.bus.publish({ type: 'blocklist', action: 'cleared', count: 3, at: new Date().toISOString() });
      expect((await stream.next((e) => e.event === 'blocklist', 2000)).data).toMatchObject({ count: 3 });
      await stream.close();
      await until(() => s.subscribers() === 0);
    } finally {
      await s.app.close();
    }
  });

  it('ends a stream at the next heartbeat once its session is gone (sign-out, suspension, deletion)', async () => {
    const s = await bareServer();
    try {
      const u = await t.newUser();
      const session = await t.db.kysely
        .selectFrom('session')
        .select('id')
        .where('userId', '=', u.id)
        .executeTakeFirstOrThrow();
      const stream = await openStream(s.url, u, { 'x-test-session': session.id });
      await until(() => s.subscribers() === 1);
      await stream.next(() => false, 200).catch(() => undefined);
      expect(stream.comments).toContain('heartbeat');
      expect(s.subscribers()).toBe(1);
      await t.db.kysely.deleteFrom('session').where('id', '=', session.id).execute();
      await expect(stream.next(() => false, 2000)).rejects.toThrow(/stream ended/);
      expect(s.subscribers()).toBe(0);
      await stream.close();
    } finally {
      await s.app.close();
    }
  });

  it('ends open streams when the server closes, so closing never hangs', async () => {
    const s = await bareServer();
    const stream = await openStream(s.url, rep);
    await until(() => s.subscribers() === 1);
    const started = Date.now();
    await s.app.close();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(s.subscribers()).toBe(0);
    await expect(stream.next(() => false, 2000)).rejects.toThrow(/stream ended|terminated/);
    await stream.close();
  });
});

describe.skipIf(testDatabaseKind !== 'postgres')(
  'several instances on one PostgreSQL (LISTEN/NOTIFY)',
  () => {
    let second: SecondInstance;
    beforeAll(async () => {
      second = await startSecondInstance(t);
    });
    afterAll(() => second.close());

    it('an advertiser marked through the first instance reaches a stream on the second within 2 s', async () => {
      const stream = await openStream(second.url, rep);
      try {
        expect(stream.res.status).toBe(200);
        const res = await fetch(`${baseUrl}/api/current-advertisers`, {
          method: 'POST',
          headers: { cookie: admin.cookie, origin: ORIGIN, 'content-type': 'application/json' },
          body: JSON.stringify({ businessId: 'cross-instance-1', label: 'Two Instance Motors' }),
        });
        expect(res.status).toBe(201);
        const event = await stream.next(
          (e) => e.event === 'advertisers' && e.data.businessId === 'cross-instance-1',
          2000,
        );
        expect(event.data).toMatchObject({ action: 'marked', item: { label: 'Two Instance Motors' } });

        // And the other way round, for a block.
        await second.app.inject({
          method: 'POST',
          url: '/api/blocklist',
          payload: { businessId: 'cross-block', label: 'Cross Block' },
          headers: { cookie: admin.cookie, origin: ORIGIN },
        });
        const local = await openStream(baseUrl, rep);
        try {
          await t.request({ method: 'DELETE', url: '/api/blocklist/cross-block', as: admin });
          expect((await local.next((e) => e.event === 'blocklist', 2000)).data).toMatchObject({
            action: 'unblocked',
          });
          expect(
            (await stream.next((e) => e.event === 'blocklist' && e.data.action === 'unblocked', 2000)).data,
          ).toMatchObject({ businessId: 'cross-block' });
        } finally {
          await local.close();
        }
      } finally {
        await stream.close();
      }
    });
  },
);

describe.skipIf(testDatabaseKind !== 'postgres')('sessions ending on another instance', () => {
  it('closes a stream on the second instance at once when its user signs out on the first', async () => {
    const second = await startSecondInstance(t);
    try {
      const u = await t.newUser();
      const stream = await openStream(second.url, u);
      expect(stream.res.status).toBe(200);
      await stream.next(() => false, 100).catch(() => undefined);
      const started = Date.now();
      expect((await t.request({ method: 'DELETE', url: '/api/session', as: u })).statusCode).toBe(200);
      await expect(stream.next(() => false, 3000)).rejects.toThrow(/stream ended/);
      expect(Date.now() - started).toBeLessThan(3000); // the heartbeat would take 25 s
      await stream.close();
    } finally {
      await second.close();
    }
  });
});

describe.skipIf(testDatabaseKind !== 'postgres')('the LISTEN connection', () => {
  it('reconnects after the server drops it, tells subscribers to resync, and delivers again', async () => {
    const pool = t.db.pool!;
    const log = t.app.log;
    const a: EventBus = createPostgresBus({
      connection: pool.options,
      pool,
      log,
      minDelayMs: 50,
      maxDelayMs: 200,
    });
    const b: EventBus = createPostgresBus({
      connection: pool.options,
      pool,
      log,
      minDelayMs: 50,
      maxDelayMs: 200,
    });
    await a.ready();
    await b.ready();
    const got: AppEvent[] = [];
    b.subscribe((e) => got.push(e));
    const waitFor = async (test: (e: AppEvent) => boolean) => {
      const deadline = Date.now() + 5000;
      while (!got.some(test)) {
        if (Date.now() > deadline) throw new Error(`event not delivered: ${JSON.stringify(got)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    try {
      await a.publish({
        type: 'blocklist',
        action: 'blocked',
        businessId: 'before-drop',
        at: new Date().toISOString(),
      });
      await waitFor((e) => e.businessId === 'before-drop');

      // Drop every LISTEN connection of this database, as a server restart or network cut would.
      const admin = new pg.Client(pool.options);
      await admin.connect();
      const killed = await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'LISTEN%' and pid <> pg_backend_pid()",
      );
      await admin.end();
      expect(killed.rowCount).toBeGreaterThanOrEqual(2);

      await waitFor((e) => e.action === 'resync' && e.type === 'advertisers');
      await waitFor((e) => e.action === 'resync' && e.type === 'blocklist');
      await a.publish({
        type: 'advertisers',
        action: 'marked',
        businessId: 'after-drop',
        at: new Date().toISOString(),
      });
      await waitFor((e) => e.businessId === 'after-drop');
      // The publisher does not hear its own notice twice.
      expect(got.filter((e) => e.businessId === 'after-drop')).toHaveLength(1);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

// A stream ends as soon as its session does, not at the next heartbeat (25 s here).
describe('streams of ended sessions', () => {
  /** Resolves once the stream has ended; fails after `ms` (far below the 25 s heartbeat). */
  const ended = (stream: Awaited<ReturnType<typeof openStream>>, ms = 2000) =>
    expect(stream.next(() => false, ms)).rejects.toThrow(/stream ended/);
  const stillOpen = async (stream: Awaited<ReturnType<typeof openStream>>) => {
    await t.request({
      method: 'POST',
      url: '/api/blocklist',
      as: admin,
      payload: { businessId: `alive-${Date.now()}` },
    });
    expect((await stream.next((e) => e.event === 'blocklist', 2000)).data.action).toBe('blocked');
  };

  it('sign-out ends the streams of that session only', async () => {
    const u = await t.newUser();
    const otherSession = { ...u, cookie: await t.signIn(u.email, u.password) };
    const mine = await openStream(baseUrl, u);
    const elsewhere = await openStream(baseUrl, otherSession);
    const bystander = await openStream(baseUrl, rep);
    try {
      expect((await t.request({ method: 'DELETE', url: '/api/session', as: u })).statusCode).toBe(200);
      await ended(mine);
      await stillOpen(elsewhere);
      await stillOpen(bystander);
      // better-auth's own sign-out endpoint too.
      const out = await t.request({
        method: 'POST',
        url: '/api/auth/sign-out',
        as: otherSession,
        payload: {},
      });
      expect(out.statusCode).toBe(200);
      await ended(elsewhere);
      await stillOpen(bystander);
    } finally {
      await Promise.all([mine.close(), elsewhere.close(), bystander.close()]);
    }
  });

  it('suspension, a profile delete and a hard delete end every stream of the user', async () => {
    const root = await t.newUser('SuperAdmin');
    for (const action of ['suspend', 'delete', 'hard-delete'] as const) {
      const u = await t.newUser();
      const second = { ...u, cookie: await t.signIn(u.email, u.password) };
      const streams = [await openStream(baseUrl, u), await openStream(baseUrl, second)];
      const bystander = await openStream(baseUrl, rep);
      try {
        const res =
          action === 'suspend'
            ? await t.request({ method: 'POST', url: `/api/users/${u.id}/suspend`, as: root })
            : action === 'delete'
              ? await t.request({ method: 'DELETE', url: `/api/users/${u.id}`, as: root })
              : await t.request({
                  method: 'POST',
                  url: `/api/users/${u.id}/hard-delete`,
                  as: root,
                  payload: { password: root.password },
                });
        expect({ action, status: res.statusCode < 300 }).toEqual({ action, status: true });
        for (const stream of streams) await ended(stream);
        await stillOpen(bystander);
      } finally {
        await Promise.all([...streams, bystander].map((s) => s.close()));
      }
    }
  });

  it('a password reset (which revokes every session) ends the streams', async () => {
    const u = await t.newUser();
    const stream = await openStream(baseUrl, u);
    try {
      const before = t.mail.length;
      await t.request({ method: 'POST', url: '/api/password-reset', payload: { email: u.email } });
      expect(t.mail).toHaveLength(before + 1);
      const token = new URL(/http\S+/.exec(t.mail.at(-1)!.text)![0]).pathname.split('/').at(-1)!;
      const done = await t.request({
        method: 'POST',
        url: '/api/password-reset/complete',
        payload: { token, newPassword: 'reset-new-pass-1' },
      });
      expect(done.statusCode).toBe(200);
      await ended(stream);
    } finally {
      await stream.close();
    }
  });
});

// Streams hold a connection each; a few per session and per user, then a clear 429.
describe('limits on open streams', () => {
  let limited: TestContext;
  let url: string;
  beforeAll(async () => {
    limited = await createTestContext({ EVENT_STREAMS_PER_SESSION: '2', EVENT_STREAMS_PER_USER: '3' });
    url = await limited.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => limited.close());

  /** A stream that must be refused: its status and body. */
  const refused = async (user: TestUser) => {
    const res = await fetch(`${url}/api/events`, { headers: { cookie: user.cookie, origin: ORIGIN } });
    const body: unknown = res.status === 200 ? await res.body?.cancel() : await res.json();
    return { status: res.status, body };
  };

  it('refuses a stream past the per-session and the per-user limit with 429, and frees a slot on close', async () => {
    const u = await limited.newUser();
    const open: Awaited<ReturnType<typeof openStream>>[] = [];
    try {
      open.push(await openStream(url, u), await openStream(url, u));
      expect(open.map((s) => s.res.status)).toEqual([200, 200]);
      expect(await refused(u)).toEqual({ status: 429, body: { error: TOO_MANY_STREAMS } });

      // Another session of the same user: one more fits under the per-user limit of 3, then no more.
      const other = { ...u, cookie: await limited.signIn(u.email, u.password) };
      const fourth = await openStream(url, other);
      expect(fourth.res.status).toBe(200);
      open.push(fourth);
      expect(await refused(other)).toEqual({ status: 429, body: { error: TOO_MANY_STREAMS } });

      // Another user is not affected.
      const someoneElse = await openStream(url, await limited.newUser());
      expect(someoneElse.res.status).toBe(200);
      open.push(someoneElse);

      // A closed stream frees its slot.
      await open.shift()!.close();
      const deadline = Date.now() + 2000;
      while ((await refused(u)).status === 429 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const again = await openStream(url, u);
      expect(again.res.status).toBe(200);
      open.push(again);
    } finally {
      await Promise.all(open.map((s) => s.close()));
    }
  });
});
