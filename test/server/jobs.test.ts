import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { JobQueue } from '../../src/server/jobs/queue.js';
import { migrateToLatest } from '../../src/server/db/migrate.js';
import { createTestContext, type TestContext } from '../helpers/app.js';
import { testDatabaseKind } from '../helpers/db.js';
import type { FastifyBaseLogger } from 'fastify';

const log: FastifyBaseLogger = Fastify({ logger: false }).log;
const waitFor = async (check: () => Promise<boolean>, ms = 10_000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('timed out waiting');
};

let t: TestContext;
beforeEach(async () => {
  t = await createTestContext();
});
afterEach(() => t.close());

describe('job queue', () => {
  it('runs a job, and a second request for the same key joins the running job', async () => {
    const q = new JobQueue(t.db, log, { pollMs: 20 });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let calls = 0;
    q.register('echo', async (payload) => {
      calls += 1;
      await gate;
      return { got: payload };
    });
    q.start();
    const a = await q.enqueue('echo', 'biz-1', null, { n: 1 });
    const b = await q.enqueue('echo', 'biz-1', null, { n: 2 });
    expect(b).toEqual({ id: a.id, joined: true });
    release();
    await waitFor(async () => (await q.get(a.id))?.status === 'complete');
    expect((await q.get(a.id))?.result).toEqual({ got: { n: 1 } });
    expect(calls).toBe(1);
    const c = await q.enqueue('echo', 'biz-1', null, { n: 3 });
    expect(c.joined).toBe(false);
    await q.stop();
  });

  it('records a failing job as error with its message', async () => {
    const q = new JobQueue(t.db, log, { pollMs: 20 });
    q.register('boom', () => Promise.reject(new Error('model exploded')));
    q.start();
    const { id } = await q.enqueue('boom', 'k', null, {});
    await waitFor(async () => (await q.get(id))?.status === 'error');
    expect((await q.get(id))?.error).toBe('model exploded');
    await q.stop();
  });

  it('finishes after a restart the job a killed worker left running', async () => {
    // What SIGKILL leaves behind: a row claimed by a worker that no longer exists, its lease run out.
    const now = new Date().toISOString();
    await t.db.kysely
      .insertInto('jobs')
      .values({
        id: 'orphan',
        kind: 'echo',
        key: 'k',
        user_id: null,
        payload: '{"n":7}',
        status: 'running',
        result: null,
        error: null,
        attempts: 1,
        locked_by: 'dead-worker',
        locked_until: new Date(Date.now() - 1000).toISOString(),
        created_at: now,
        updated_at: now,
      })
      .execute();
    const q = new JobQueue(t.db, log, { pollMs: 20 });
    q.register('echo', (payload) => Promise.resolve(payload));
    q.start();
    await waitFor(async () => (await q.get('orphan'))?.status === 'complete');
    expect((await q.get('orphan'))?.result).toEqual({ n: 7 });
    await q.stop();
  });

  it('lets a graceful stop finish the job in hand and claim nothing more', async () => {
    const q = new JobQueue(t.db, log, { pollMs: 20 });
    let started!: () => void;
    const begun = new Promise<void>((r) => (started = r));
    q.register('slow', async () => {
      started();
      await new Promise((r) => setTimeout(r, 200));
      return 'done';
    });
    q.start();
    const first = await q.enqueue('slow', 'a', null, {});
    await begun;
    const second = await q.enqueue('slow', 'b', null, {});
    await q.stop();
    expect((await q.get(first.id))?.status).toBe('complete');
    expect((await q.get(second.id))?.status).toBe('pending');
  });

  it.skipIf(testDatabaseKind !== 'postgres')(
    'works each of 20 jobs exactly once across two workers on one PostgreSQL database',
    async () => {
      const second = t.testDb.open();
      await migrateToLatest(second);
      const seen: string[] = [];
      const make = (db: typeof t.db, name: string) => {
        const q = new JobQueue(db, log, { pollMs: 10, workerId: name });
        q.register('count', async (_p, job) => {
          seen.push(job.key);
          await new Promise((r) => setTimeout(r, 5));
          return name;
        });
        q.start();
        return q;
      };
      const q1 = make(t.db, 'one');
      const q2 = make(second, 'two');
      const ids = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? q1 : q2).enqueue('count', `job-${i}`, null, {})),
      );
      await waitFor(async () => {
        const rows = await t.db.kysely
          .selectFrom('jobs')
          .select('status')
          .where('status', '=', 'complete')
          .execute();
        return rows.length === 20;
      });
      await q1.stop();
      await q2.stop();
      await second.destroy();
      expect(seen.sort()).toEqual(ids.map((_, i) => `job-${i}`).sort());
      const workers = await t.db.kysely.selectFrom('jobs').select('result').execute();
      expect(new Set(workers.map((w) => w.result))).toEqual(new Set(['"one"', '"two"']));
    },
  );
});
