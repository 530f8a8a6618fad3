import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestContext, ORIGIN, sessionCookie, type TestContext } from '../helpers/app.js';
import { testDatabaseKind } from '../helpers/db.js';
import { STRATEGY_SECTIONS } from '../../src/core/strategy/schema.js';

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

/** A chat-completions endpoint answering with the given strategy JSON (OpenAI response format). */
async function fakeAi(answer: (body: string) => string | null): Promise<string> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const content = answer(body);
      if (content === null) return; // hang
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 1,
          model: 'test-model',
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
    });
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
            origin: ORIGIN.replace('3000', new URL(base).port),
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
