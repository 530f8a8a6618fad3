import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestContext, sessionCookie, type TestContext } from '../helpers/app.js';
import { testDatabaseKind } from '../helpers/db.js';
import { STRATEGY_SECTIONS } from '../../src/core/strategy/schema.js';
import { chatCompletion } from '../helpers/fake-ai.js';

const dentist = {
  id: 'osm:node/1',
  name: 'Union Square Dental Group',
  category: 'Dental',
  address: '450 Sutter St, San Francisco, CA',
  lat: 37.7895,
  lng: -122.4083,
  score: 0.74,
  reviews: 0,
  types: ['dentist'],
  website: 'https://example.com',
  aiAnalysis: {
    score: 74,
    reasoning: 'Good fit for CTV.',
    breakdown: { vertical: 'dental', fit: 0.83, presence: 0.3 },
  },
};

const contexts: TestContext[] = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const t of contexts.splice(0)) await t.close();
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

async function fresh(env: Record<string, string> = {}) {
  const t = await createTestContext(env);
  contexts.push(t);
  await t.app.ready();
  return t;
}

async function pollJob(t: TestContext, as: Awaited<ReturnType<TestContext['newUser']>>, jobId: string) {
  for (let i = 0; i < 400; i++) {
    const res = await t.request({ method: 'GET', url: `/api/strategies/jobs/${jobId}`, as });
    if (res.statusCode !== 202) return res;
    expect(res.json().retryAfterMs).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('job never finished');
}

/**
 * A chat-completions endpoint answering with the given strategy JSON (OpenAI response format). A null answer
 * hangs; with `held`, a hanging request can be answered later ('not json') by calling its entry.
 */
async function fakeAi(answer: (body: string) => string | null, held?: (() => void)[]): Promise<string> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const content = answer(body);
      if (content === null) {
        held?.push(() => respond('not json'));
        return; // hang
      }
      respond(content);
    });
    const respond = (content: string) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(chatCompletion(content));
    };
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

describe('strategy jobs', () => {
  it('generates a playbook strategy in the background, keeps it, joins duplicates and regenerates', async () => {
    const t = await fresh();
    const rep = await t.newUser('user');
    const start = await t.request({
      method: 'POST',
      url: '/api/strategies',
      payload: { prospect: dentist },
      as: rep,
    });
    expect(start.statusCode).toBe(202);
    const { jobId } = start.json();
    const join = await t.request({
      method: 'POST',
      url: '/api/strategies',
      payload: { prospect: dentist },
      as: rep,
    });
    if (join.statusCode === 202) expect(join.json()).toMatchObject({ jobId, joined: true });
    const done = await pollJob(t, rep, jobId);
    expect(done.statusCode).toBe(200);
    const body = done.json();
    expect(body.source).toBe('playbook');
    for (const section of STRATEGY_SECTIONS) expect(body.strategy[section], section).toBeTruthy();
    expect(JSON.stringify(body.strategy)).toContain('Union Square Dental Group');

    const again = await t.request({
      method: 'POST',
      url: '/api/strategies',
      payload: { prospect: dentist },
      as: rep,
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ status: 'complete', cached: true, strategy: body.strategy });
    const kept = await t.request({
      method: 'GET',
      url: `/api/strategies/${encodeURIComponent(dentist.id)}`,
      as: rep,
    });
    expect(kept.json().strategy).toEqual(body.strategy);
    const regen = await t.request({
      method: 'POST',
      url: '/api/strategies',
      payload: { prospect: dentist, regenerate: true },
      as: rep,
    });
    expect(regen.statusCode).toBe(202);
  });

  it('asks for a category first', async () => {
    const t = await fresh();
    const rep = await t.newUser('user');
    for (const category of ['', 'Business']) {
      const res = await t.request({
        method: 'POST',
        url: '/api/strategies',
        payload: { prospect: { ...dentist, category } },
        as: rep,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'Set a category first to generate a high-quality strategy.' });
    }
  });

  it('uses a configured OpenAI-compatible endpoint, sending no key to the browser', async () => {
    const strategy = {
      openingLine: 'Hi, this is Sam from the local cable ad team.',
      bestTimeToCall: 'Tuesday-Thursday 9-11 AM or 2-4 PM',
      keyTalkingPoints: ['One', 'Two', 'Three'],
      objectionHandlers: [{ objection: 'Too expensive', response: 'Start small.' }],
      valueProposition: 'Reach new patients nearby.',
      callToAction: 'Fifteen minutes on Thursday?',
      mediaMix: [{ channel: 'SEM', percent: 100, why: 'Intent' }],
    };
    const url = await fakeAi(() => JSON.stringify(strategy));
    const t = await fresh({
      AI_BASE_URL: url,
      AI_API_KEY: 'sk-test-key-not-for-browsers',
      AI_MODEL: 'test-model',
    });
    const rep = await t.newUser('user');
    const start = await t.request({
      method: 'POST',
      url: '/api/strategies',
      payload: { prospect: dentist },
      as: rep,
    });
    const done = await pollJob(t, rep, start.json().jobId);
    expect(done.json()).toMatchObject({ source: 'ai', model: 'test-model' });
    expect(done.json().strategy.mediaMix[0].channel).toBe('Search Engine Marketing');
    expect(done.body).not.toContain('sk-test-key');
    const config = await t.request({ method: 'GET', url: '/api/config' });
    expect(config.body).not.toContain('sk-test-key');
  });
});

describe('limits and failures', () => {
  it('starts exactly 20 of 40 strategies sent at once by one rep, and refuses the rest with 429', async () => {
    const t = await fresh();
    const rep = await t.newUser('user');
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        t.request({
          method: 'POST',
          url: '/api/strategies',
          payload: { prospect: { ...dentist, id: `osm:node/${500 + i}`, name: `Dental ${i}` } },
          as: rep,
        }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 202)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    const started = await t.db.kysely
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('user_id', '=', rep.id)
      .executeTakeFirstOrThrow();
    expect(Number(started.n)).toBe(20);
  });

  it('answers the 21st start within a minute with 429 and retryAfterMs, and never refuses a poll', async () => {
    const t = await fresh();
    const rep = await t.newUser('user');
    const jobIds: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await t.request({
        method: 'POST',
        url: '/api/strategies',
        payload: { prospect: { ...dentist, id: `osm:node/${100 + i}`, name: `Dental ${i}` } },
        as: rep,
      });
      expect(res.statusCode).toBe(202);
      jobIds.push(res.json().jobId);
    }
    const refused = await t.request({
      method: 'POST',
      url: '/api/strategies',
      payload: { prospect: { ...dentist, id: 'osm:node/999', name: 'One Too Many Dental' } },
      as: rep,
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      error: 'AI service is busy. Please try again in a moment.',
      retryAfterMs: expect.any(Number),
    });
    expect(refused.json().retryAfterMs).toBeGreaterThan(0);
    // Polls go on being answered: 202 while pending, 200 once done, never 429.
    for (const jobId of jobIds) {
      const polled = await t.request({ method: 'GET', url: `/api/strategies/jobs/${jobId}`, as: rep });
      expect([200, 202]).toContain(polled.statusCode);
    }
    for (const jobId of jobIds) expect((await pollJob(t, rep, jobId)).statusCode).toBe(200);
    // The limit is per rep.
    const other = await t.newUser('user');
    const theirs = await t.request({
      method: 'POST',
      url: '/api/strategies',
      payload: { prospect: { ...dentist, id: 'osm:node/999', name: 'One Too Many Dental' } },
      as: other,
    });
    expect(theirs.statusCode).toBe(202);
  });

  it('polls a failed job as an error with the exact message: a failing worker and attempts used up', async () => {
    const t = await fresh({ JOB_MAX_ATTEMPTS: '3' });
    const rep = await t.newUser('user');
    const now = new Date().toISOString();
    const base = {
      kind: 'strategy',
      user_id: rep.id,
      result: null,
      error: null,
      created_at: now,
      updated_at: now,
    };
    await t.db.kysely
      .insertInto('jobs')
      .values([
        // A payload the worker cannot use: the handler throws.
        {
          ...base,
          id: 'bad-payload',
          key: `user:${rep.id}:osm:node/9`,
          payload: '{}',
          status: 'pending',
          attempts: 0,
        },
        // Its worker died three times (say it crashed the process): not tried a fourth time.
        {
          ...base,
          id: 'crashed',
          key: `shared:${dentist.id}`,
          payload: JSON.stringify({ prospect: dentist }),
          status: 'running',
          attempts: 3,
          locked_by: 'dead-worker',
          locked_until: new Date(Date.now() - 1000).toISOString(),
        },
      ])
      .execute();
    for (const id of ['bad-payload', 'crashed']) {
      const res = await pollJob(t, rep, id);
      expect(res.statusCode).toBe(502);
      expect(res.json()).toEqual({
        jobId: id,
        status: 'error',
        error: 'AI job failed on the server. Please try again.',
      });
    }
  });
});

describe('whose facts a kept strategy is written from', () => {
  it('refuses a prospect whose fields are out of range or too long', async () => {
    const t = await fresh();
    const rep = await t.newUser('user');
    const bad: Record<string, unknown>[] = [
      { reviews: -1 },
      { reviews: 1e12 },
      { rating: 6 },
      { distance: 1e7 },
      { score: 2 },
      { name: 'x'.repeat(301) },
      { name: 'Nul\u0000Dental' },
      { types: ['x'.repeat(61)] },
      { aiAnalysis: { score: 101 } },
      { aiAnalysis: { score: 50, breakdown: { fit: 5 } } },
      { aiAnalysis: { score: 50, reasoning: 'r'.repeat(2001) } },
    ];
    for (const change of bad) {
      const res = await t.request({
        method: 'POST',
        url: '/api/strategies',
        payload: { prospect: { ...dentist, ...change } },
        as: rep,
      });
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      expect(typeof res.json().error).toBe('string');
    }
  });

  it("shares a strategy built from the server's facts; one rep's made-up facts stay with that rep", async () => {
    const t = await fresh({ PLACE_PROVIDERS: 'demo', SCAN_COOLDOWN_MS: '0' });
    const [ann, bob, cat] = [
      await t.newUser('user', { name: 'Ann Archer' }),
      await t.newUser('user', { name: 'Bob Baker' }),
      await t.newUser('user', { name: 'Cat Cole' }),
    ];
    const scan = { lat: 37.79, lng: -122.4, radiusMiles: 1, count: 10 };
    const scanned = await t.request({ method: 'POST', url: '/api/scans', payload: scan, as: ann });
    expect(scanned.statusCode).toBe(200);
    const real = (scanned.json().prospects as (typeof dentist & { category: string })[]).find(
      (p) => p.category && p.category !== 'Business',
    )!;
    expect(real).toBeDefined();
    const forged = {
      ...real,
      name: 'Forged Name Dental',
      category: 'Dental',
      website: 'https://forged.example',
    };
    const strategyText = async (as: typeof ann) => {
      const res = await t.request({
        method: 'GET',
        url: `/api/strategies/${encodeURIComponent(real.id)}`,
        as,
      });
      expect(res.statusCode).toBe(200);
      return JSON.stringify(res.json().strategy);
    };

    // Ann has the business in her latest scan: whatever she sends, the server's own facts are used.
    const annStart = await t.request({
      method: 'POST',
      url: '/api/strategies',
      payload: { prospect: forged },
      as: ann,
    });
    expect(annStart.statusCode).toBe(202);
    expect((await pollJob(t, ann, annStart.json().jobId)).statusCode).toBe(200);
    const shared = await strategyText(ann);
    expect(shared).toContain(real.name);
    expect(shared).not.toContain('Forged');
    // Written once for every rep: each reader finds their own name where the rep introduces themselves.
    expect(shared).toContain('Hi, this is Ann Archer.');
    expect(shared).not.toContain('[your name]');

    // Bob never scanned it: his made-up facts are used for him alone.
    const bobStart = await t.request({
      method: 'POST',
      url: '/api/strategies',
      payload: { prospect: forged, regenerate: true },
      as: bob,
    });
    expect(bobStart.statusCode).toBe(202);
    expect((await pollJob(t, bob, bobStart.json().jobId)).statusCode).toBe(200);
    expect(await strategyText(bob)).toContain('Forged Name Dental');
    expect(await strategyText(ann)).toBe(shared);
    // A job's id shows its strategy only to those who could read it: anyone for a shared one, Bob for his own.
    const poll = (jobId: string, as: typeof ann) =>
      t.request({ method: 'GET', url: `/api/strategies/jobs/${jobId}`, as });
    expect((await poll(annStart.json().jobId, cat)).statusCode).toBe(200);
    const bobsJob = await poll(bobStart.json().jobId, ann);
    expect(bobsJob.statusCode).toBe(404);
    expect(bobsJob.body).not.toContain('Forged');
    expect((await poll(bobStart.json().jobId, bob)).statusCode).toBe(200);

    // Cat scans the same area and gets the shared strategy at once.
    expect((await t.request({ method: 'POST', url: '/api/scans', payload: scan, as: cat })).statusCode).toBe(
      200,
    );
    const catStart = await t.request({
      method: 'POST',
      url: '/api/strategies',
      payload: { prospect: real },
      as: cat,
    });
    expect(catStart.statusCode).toBe(200);
    const catText = JSON.stringify(catStart.json().strategy);
    expect(catText).not.toContain('Ann Archer');
    expect(catText).toBe(shared.replaceAll('Ann Archer', 'Cat Cole'));
  });
});

describe('a slow AI endpoint', () => {
  it('is cut at the job deadline: the playbook answers long before the browser gives up', async () => {
    let asked = 0;
    const url = await fakeAi(() => {
      asked += 1;
      return null; // never answers
    });
    const t = await fresh({
      AI_BASE_URL: url,
      AI_MODEL: 'test-model',
      AI_TIMEOUT_MS: '600000',
      AI_JOB_DEADLINE_MS: '1000',
    });
    const rep = await t.newUser('user');
    const start = await t.request({
      method: 'POST',
      url: '/api/strategies',
      payload: { prospect: dentist },
      as: rep,
    });
    expect(start.statusCode).toBe(202);
    const done = await pollJob(t, rep, start.json().jobId);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ status: 'complete', source: 'playbook' });
    expect(asked).toBeGreaterThan(0);
  });

  it('does not hold up other reps: with JOB_CONCURRENCY 2 a second job runs beside a hanging one', async () => {
    let asked = 0;
    const held: (() => void)[] = [];
    const url = await fakeAi((body) => {
      asked += 1;
      // The first request of the hanging job waits; its repair request (and everything else) is answered.
      return body.includes('Hanging Dental') && asked === 1 ? null : 'not json';
    }, held);
    const t = await fresh({
      AI_BASE_URL: url,
      AI_MODEL: 'test-model',
      AI_MAX_RETRIES: '0',
      AI_TIMEOUT_MS: '600000',
      AI_JOB_DEADLINE_MS: '170000',
      JOB_CONCURRENCY: '2',
    });
    const [a, b] = [await t.newUser('user'), await t.newUser('user')];
    const hanging = await t.request({
      method: 'POST',
      url: '/api/strategies',
      payload: { prospect: { ...dentist, id: 'osm:node/2', name: 'Hanging Dental' } },
      as: a,
    });
    expect(hanging.statusCode).toBe(202);
    for (let i = 0; i < 200 && asked === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(held).toHaveLength(1);
    const other = await t.request({
      method: 'POST',
      url: '/api/strategies',
      payload: { prospect: dentist },
      as: b,
    });
    const done = await pollJob(t, b, other.json().jobId);
    expect(done.json()).toMatchObject({ status: 'complete', source: 'fallback' });
    // Finished while the first job is still waiting for its AI answer.
    const hangingJob = `/api/strategies/jobs/${hanging.json().jobId}`;
    expect((await t.request({ method: 'GET', url: hangingJob, as: a })).statusCode).toBe(202);
    for (const answer of held.splice(0)) answer();
    expect((await pollJob(t, a, hanging.json().jobId)).statusCode).toBe(200);
  });
});

// A worker killed mid-job (SIGKILL, no graceful stop) leaves the job claimed; after a restart the job is
// taken over once its lease runs out and finishes.
describe.skipIf(testDatabaseKind !== 'sqlite')('restart', () => {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const c of children.splice(0)) c.kill('SIGKILL');
  });

  async function startServer(dataDir: string, env: Record<string, string>) {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        JOB_LEASE_MS: '1000',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    const port = await new Promise<number>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 60_000);
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        const m =
          /listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(out) ??
          /"address":"http:\/\/127\.0\.0\.1:(\d+)"/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      });
      child.on('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
    });
    return { child, base: `http://127.0.0.1:${port}` };
  }

  it('finishes a strategy job after the server was killed in the middle of it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pf-restart-'));
    try {
      let requests = 0;
      const hanging = await fakeAi(() => {
        requests += 1;
        return null;
      });
      const first = await startServer(dataDir, { AI_BASE_URL: hanging, AI_TIMEOUT_MS: '600000' });
      const post = (base: string, path: string, body: unknown, cookie = '') =>
        fetch(base + path, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            // The page's own origin: the address the server was reached at (http/cross-site.ts).
            origin: base,
            cookie,
          },
          body: JSON.stringify(body),
        });
      const reg = await post(first.base, '/api/register', {
        name: 'Ann',
        email: 'ann@example.com',
        password: 'password1',
      });
      expect(reg.status).toBe(201);
      const cookie = sessionCookie(reg.headers.getSetCookie());
      const start = await post(first.base, '/api/strategies', { prospect: dentist }, cookie);
      expect(start.status).toBe(202);
      const { jobId } = (await start.json()) as { jobId: string };
      for (let i = 0; i < 200 && requests === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(requests).toBeGreaterThan(0); // the job is in the middle of its AI call
      first.child.kill('SIGKILL');
      await new Promise((r) => first.child.once('exit', r));

      // Restarted without an AI endpoint: the job is taken over and finished by the playbook.
      const second = await startServer(dataDir, { AI_BASE_URL: '' });
      let status = 0;
      let body: { status?: string; source?: string } = {};
      for (let i = 0; i < 200; i++) {
        const res = await fetch(`${second.base}/api/strategies/jobs/${jobId}`, { headers: { cookie } });
        status = res.status;
        body = (await res.json()) as typeof body;
        if (status !== 202) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe(200);
      expect(body).toMatchObject({ status: 'complete', source: 'playbook' });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
