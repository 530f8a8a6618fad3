// With an AI endpoint configured and the team switch "useLlmAnalysis" on, a scan enqueues a
// background job that has the model rewrite the reasoning text of the top results. Scores stay the scoring
// model's; the text lands in the analysis cache rows, in the user's latest results, and that user's open
// screens are told to refetch. Against a local server speaking the OpenAI chat-completions protocol.
import { MODEL_VERSION } from '../../src/core/scoring/constants.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Prospect, ProspectAnalysis } from '../../src/core/types.js';
import { createTestContext, ORIGIN, type TestContext, type TestUser } from '../helpers/app.js';
import { scannedBusiness } from '../helpers/businesses.js';
import { chatCompletion } from '../helpers/fake-ai.js';
import { placeRow } from '../../src/server/places/local-store.js';
import { startSiteServer, type SiteServer } from '../helpers/websites.js';
import { settleAfterAnswer } from '../../src/server/scans/after-answer.js';

const ANSWER_MODEL = 'reasoning-model-1';
const AREA = { lat: 37.79, lng: -122.4, radiusMiles: 1 };

interface FakeAi {
  url: string;
  prompts: string[];
}

const servers: Server[] = [];
const contexts: TestContext[] = [];
afterEach(async () => {
  for (const t of contexts.splice(0)) await t.close();
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** An OpenAI-compatible endpoint: 'ok' writes a paragraph naming the business, 'fail' answers 500. */
async function fakeAi(mode: 'ok' | 'fail'): Promise<FakeAi> {
  const prompts: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const request = JSON.parse(body) as { messages: { role: string; content: string }[] };
      const prompt = request.messages.find((m) => m.role === 'user')?.content ?? '';
      prompts.push(prompt);
      if (mode === 'fail') {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'The server had an error', type: 'server_error' } }));
        return;
      }
      const name = /^- Business: (.*)$/m.exec(prompt)?.[1] ?? '?';
      const content = JSON.stringify({
        reasoning: `Model text for ${name}: a local business whose customers watch streaming TV nearby.`,
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(chatCompletion(content, ANSWER_MODEL));
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, prompts };
}

async function fresh(env: Record<string, string>) {
  const t = await createTestContext({
    PLACE_PROVIDERS: 'demo',
    SCAN_COOLDOWN_MS: '0',
    AI_MODEL: 'configured-model',
    AI_MAX_RETRIES: '0',
    ...env,
  });
  contexts.push(t);
  await t.app.ready();
  return t;
}

async function setSwitch(t: TestContext, on: boolean) {
  const boss = await t.newUser('SuperAdmin');
  const res = await t.request({
    method: 'PATCH',
    url: '/api/admin/settings',
    payload: { useLlmAnalysis: on },
    as: boss,
  });
  expect(res.statusCode).toBe(200);
}

async function scan(t: TestContext, as: TestUser, count: number): Promise<Prospect[]> {
  const res = await t.request({ method: 'POST', url: '/api/scans', payload: { ...AREA, count }, as });
  expect(res.statusCode).toBe(200);
  return res.json<{ prospects: Prospect[] }>().prospects;
}

const reasoningJobs = (t: TestContext) =>
  t.db.kysely.selectFrom('jobs').selectAll().where('kind', '=', 'reasoning').execute();

async function jobsDone(t: TestContext) {
  for (let i = 0; i < 400; i++) {
    const jobs = await reasoningJobs(t);
    if (jobs.length > 0 && jobs.every((j) => j.status === 'complete' || j.status === 'error')) return jobs;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('reasoning job never finished');
}

async function cached(t: TestContext, prospects: Prospect[]) {
  await settleAfterAnswer(t.db); // a scan writes its cache entries after its answer
  const rows = await t.db.kysely
    .selectFrom('analysis_cache')
    .selectAll()
    .where(
      'business_id',
      'in',
      prospects.map((p) => p.aiAnalysis!.businessHash),
    )
    .execute();
  const byId = new Map(rows.map((r) => [r.business_id, r]));
  return prospects.map((p) => {
    const row = byId.get(p.aiAnalysis!.businessHash)!;
    return { modelVersion: row.model_version, data: JSON.parse(row.data) as ProspectAnalysis };
  });
}

async function latest(t: TestContext, as: TestUser, limit: number): Promise<Prospect[]> {
  const res = await t.request({ method: 'GET', url: `/api/scans/latest?offset=0&limit=${limit}`, as });
  return res.json<{ prospects: Prospect[] }>().prospects;
}

/** An SSE stream of /api/events: the type of each event, in order. */
async function openEvents(base: string, cookie: string) {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/events`, {
    headers: { cookie, origin: ORIGIN, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  return {
    /** The next event, whatever its type. */
    async next(): Promise<{ type: string; data: Record<string, unknown> }> {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const type = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (type && data) return { type, data: JSON.parse(data) as Record<string, unknown> };
          continue;
        }
        const chunk = await reader.read();
        if (chunk.done) throw new Error('stream ended');
        buffer += chunk.value;
      }
    },
    close: async () => {
      controller.abort();
      await reader.cancel().catch(() => {});
    },
  };
}

describe('model-written reasoning of the top results', () => {
  it('rewrites the text of the top 10 (AI_ANALYSIS_TOP_N) in the cache and the latest scan; scores stay', async () => {
    const ai = await fakeAi('ok');
    const t = await fresh({ AI_BASE_URL: ai.url });
    await setSwitch(t, true);
    const rep = await t.newUser('user');
    const other = await t.newUser('user');
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const mine = await openEvents(base, rep.cookie);
    const theirs = await openEvents(base, other.cookie);
    try {
      const scanned = await scan(t, rep, 12);
      expect(scanned).toHaveLength(12);
      // The scan answered with the scoring model's texts; the model works in the background.
      for (const p of scanned) expect(p.aiAnalysis?.reasoningModel).toBeUndefined();
      const [job] = await jobsDone(t);
      expect(job).toMatchObject({ status: 'complete', user_id: rep.id });
      expect(ai.prompts).toHaveLength(10);

      const top = scanned.slice(0, 10);
      const rest = scanned.slice(10);
      for (const [i, row] of (await cached(t, top)).entries()) {
        const before = top[i]!.aiAnalysis!;
        expect(row.modelVersion).toBe(MODEL_VERSION);
        expect(row.data.reasoning).toBe(
          `Model text for ${top[i]!.name}: a local business whose customers watch streaming TV nearby.`,
        );
        expect(row.data.reasoningModel).toBe(ANSWER_MODEL);
        expect(row.data.score).toBe(before.score);
        expect(row.data.confidence).toBe(before.confidence);
        expect(row.data.recommendations).toEqual(before.recommendations);
        expect(row.data.analyzedAt).toBe(before.analyzedAt);
      }
      for (const [i, row] of (await cached(t, rest)).entries()) {
        expect(row.data.reasoning).toBe(rest[i]!.aiAnalysis!.reasoning);
        expect(row.data.reasoningModel).toBeUndefined();
      }

      // A reload shows the new texts with the same scores and order.
      const reloaded = await latest(t, rep, 12);
      expect(reloaded.map((p) => p.id)).toEqual(scanned.map((p) => p.id));
      for (const [i, p] of reloaded.entries()) {
        const before = scanned[i]!;
        expect(p.score).toBe(before.score);
        expect(p.aiAnalysis!.score).toBe(before.aiAnalysis!.score);
        if (i < 10) {
          expect(p.aiAnalysis!.reasoning).toMatch(/^Model text for /);
          expect(p.aiAnalysis!.reasoningModel).toBe(ANSWER_MODEL);
        } else {
          expect(p.aiAnalysis!.reasoning).toBe(before.aiAnalysis!.reasoning);
          expect(p.aiAnalysis!.reasoningModel).toBeUndefined();
        }
      }

      // The team's list (All Prospects) carries the same texts.
      const team = await t.db.kysely
        .selectFrom('team_prospects')
        .select(['business_id', 'prospect'])
        .where(
          'business_id',
          'in',
          scanned.map((p) => p.id),
        )
        .execute();
      const teamById = new Map(team.map((r) => [r.business_id, JSON.parse(r.prospect) as Prospect]));
      for (const [i, p] of scanned.entries()) {
        expect(teamById.get(p.id)!.aiAnalysis!.reasoningModel).toBe(i < 10 ? ANSWER_MODEL : undefined);
      }

      // The prompt carries the facts and forbids numbers that would be wrong elsewhere; it gives none itself.
      for (const prompt of ai.prompts) {
        expect(prompt).toMatch(/^- Business: /m);
        expect(prompt).toMatch(/^- Channel fit of its kind of business: /m);
        expect(prompt).not.toMatch(/\/100|miles|\d%/);
      }

      // The rep's screen is told to refetch; another rep's is not (their next event is a later, shared one).
      expect(await mine.next()).toMatchObject({
        type: 'prospects',
        data: { action: 'reasoning', userId: rep.id, count: 10 },
      });
      await scannedBusiness(t.db, 'osm:node/shared-notice', 'Shared Notice Motors');
      const marked = await t.request({
        method: 'POST',
        url: '/api/current-advertisers',
        payload: { businessId: 'osm:node/shared-notice', label: 'Shared Notice Motors' },
        as: other,
      });
      expect(marked.statusCode).toBe(201);
      expect((await theirs.next()).type).toBe('advertisers');

      // A second scan of the area finds the texts already written: nothing is asked again.
      await scan(t, rep, 12);
      expect(await reasoningJobs(t)).toHaveLength(1);
      expect(ai.prompts).toHaveLength(10);
    } finally {
      await mine.close();
      await theirs.close();
    }
  });

  it('asks for at most the scan count when it is smaller', async () => {
    const ai = await fakeAi('ok');
    const t = await fresh({ AI_BASE_URL: ai.url });
    await setSwitch(t, true);
    const rep = await t.newUser('user');
    await scan(t, rep, 5);
    await jobsDone(t);
    expect(ai.prompts).toHaveLength(5);
  });

  it('does nothing with the switch off', async () => {
    const ai = await fakeAi('ok');
    const t = await fresh({ AI_BASE_URL: ai.url });
    await setSwitch(t, false);
    const rep = await t.newUser('user');
    const scanned = await scan(t, rep, 10);
    expect(await reasoningJobs(t)).toEqual([]);
    expect(ai.prompts).toEqual([]);
    for (const row of await cached(t, scanned)) expect(row.data.reasoningModel).toBeUndefined();
  });

  it('does nothing with no AI endpoint configured, even with the switch on', async () => {
    const t = await fresh({});
    await setSwitch(t, true);
    const rep = await t.newUser('user');
    await scan(t, rep, 10);
    expect(await reasoningJobs(t)).toEqual([]);
  });

  it("keeps the scoring model's texts when the model fails, and stops asking a failing endpoint", async () => {
    const ai = await fakeAi('fail');
    const t = await fresh({ AI_BASE_URL: ai.url });
    await setSwitch(t, true);
    const rep = await t.newUser('user');
    const scanned = await scan(t, rep, 10);
    const [job] = await jobsDone(t);
    expect(job?.status).toBe('complete');
    expect(ai.prompts).toHaveLength(2); // two failures in a row: the rest are not asked
    for (const [i, row] of (await cached(t, scanned)).entries()) {
      expect(row.data.reasoning).toBe(scanned[i]!.aiAnalysis!.reasoning);
      expect(row.data.reasoningModel).toBeUndefined();
    }
    expect(await latest(t, rep, 10)).toEqual(scanned);
  });
});

describe('model-written reasoning and website evidence', () => {
  const sitesStarted: SiteServer[] = [];
  afterEach(async () => {
    for (const s of sitesStarted.splice(0)) await s.close();
  });
  const CENTRE = { lat: 42.0, lng: -71.0 };

  /** An app with website checks on the local fixture server and two local businesses pointing at it. */
  async function withSites(ai: FakeAi) {
    const sites = await startSiteServer();
    sitesStarted.push(sites);
    const t = await fresh({
      AI_BASE_URL: ai.url,
      PLACE_PROVIDERS: 'auto',
      WEBSITE_CHECKS: 'on',
      WEBSITE_CHECKS_ALLOW_LOOPBACK: 'true',
      WEBSITE_CHECK_HOST_PAUSE_MS: '0',
    });
    const at = new Date().toISOString();
    await t.db.kysely
      .insertInto('places')
      .values([
        placeRow(
          {
            id: 'osm:node/71',
            lat: CENTRE.lat,
            lng: CENTRE.lng,
            tags: {
              name: 'Harbor Heating & Air',
              craft: 'hvac',
              phone: '+1 555 555 0171',
              website: `${sites.origin}/sites/google-ads/`,
            },
          },
          at,
        ),
        placeRow(
          {
            id: 'osm:node/72',
            lat: CENTRE.lat + 0.001,
            lng: CENTRE.lng,
            tags: {
              name: 'Cove Family Dental',
              amenity: 'dentist',
              phone: '+1 555 555 0172',
              website: `${sites.origin}/sites/meta-pixel/`,
            },
          },
          at,
        ),
      ])
      .execute();
    return { t, sites };
  }
  const websiteJobsDone = async (t: TestContext, count: number) => {
    for (let i = 0; i < 400; i++) {
      const jobs = await t.db.kysely.selectFrom('jobs').selectAll().where('kind', '=', 'website').execute();
      if (jobs.length >= count && jobs.every((j) => j.status === 'complete' || j.status === 'error')) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('website checks never finished');
  };
  const scanHere = async (t: TestContext, as: TestUser) => {
    const res = await t.request({
      method: 'POST',
      url: '/api/scans',
      payload: { ...CENTRE, radiusMiles: 1, count: 10 },
      as,
    });
    expect(res.statusCode).toBe(200);
    return res.json<{ prospects: Prospect[] }>().prospects;
  };

  it("the prompt lists each signal's label and the page it was seen on", async () => {
    const ai = await fakeAi('ok');
    const { t, sites } = await withSites(ai);
    const rep = await t.newUser('user');
    // First scan with the switch off: the checks run and the evidence is stored with the businesses.
    await scanHere(t, rep);
    await websiteJobsDone(t, 2);
    await setSwitch(t, true);
    // The next scan carries the fresh evidence; the model is told what was seen, and where.
    const scanned = await scanHere(t, rep);
    expect(scanned.find((p) => p.name === 'Harbor Heating & Air')!.signals!.length).toBeGreaterThan(0);
    await jobsDone(t);
    const harbor = ai.prompts.find((p) => p.includes('Business: Harbor Heating & Air'))!;
    expect(harbor).toMatch(
      new RegExp(`^- Seen on its website: .*Runs Google Ads \\(on ${sites.origin}/sites/google-ads/\\)`, 'm'),
    );
    const cove = ai.prompts.find((p) => p.includes('Business: Cove Family Dental'))!;
    expect(cove).toContain(`Meta Pixel (on ${sites.origin}/sites/meta-pixel/)`);
  });

  it("a model text written before the evidence is extended with the evidence's sentences, no new AI call", async () => {
    const ai = await fakeAi('ok');
    const { t, sites } = await withSites(ai);
    // The sites answer slowly, so the model's text is written before the evidence arrives.
    sites.delayMs = 700;
    await setSwitch(t, true);
    const rep = await t.newUser('user');
    await scanHere(t, rep);
    await jobsDone(t);
    const asked = ai.prompts.length;
    expect(asked).toBe(2);
    const written = await latest(t, rep, 10);
    const harborText =
      'Model text for Harbor Heating & Air: a local business whose customers watch streaming TV nearby.';
    expect(written.find((p) => p.name === 'Harbor Heating & Air')!.aiAnalysis!.reasoning).toBe(harborText);
    expect(written.every((p) => (p.signals ?? []).length === 0)).toBe(true);

    await websiteJobsDone(t, 2);
    const after = await latest(t, rep, 10);
    const harbor = after.find((p) => p.name === 'Harbor Heating & Air')!;
    expect(harbor.signals!.map((s) => s.kind)).toContain('google_ads');
    expect(harbor.aiAnalysis!.reasoningModel).toBe(ANSWER_MODEL);
    expect(harbor.aiAnalysis!.reasoning).toBe(
      `${harborText} Already advertising: its website carries Google Ads tags.`,
    );
    const cove = after.find((p) => p.name === 'Cove Family Dental')!;
    expect(cove.aiAnalysis!.reasoning).toMatch(
      /^Model text for Cove Family Dental: .*Meta \(Facebook\/Instagram\) ads/,
    );
    // The team's copy too.
    const team = await t.db.kysely
      .selectFrom('team_prospects')
      .select('prospect')
      .where('business_id', '=', harbor.id)
      .executeTakeFirstOrThrow();
    expect((JSON.parse(team.prospect) as Prospect).aiAnalysis!.reasoning).toBe(harbor.aiAnalysis!.reasoning);

    // A second check replaces the evidence sentences rather than adding to them; the model is not asked again.
    const admin = await t.newUser('admin');
    const recheck = await t.request({
      method: 'POST',
      url: '/api/admin/website-checks',
      payload: { businessKey: harbor.aiAnalysis!.businessHash },
      as: admin,
    });
    expect(recheck.statusCode).toBe(202);
    await websiteJobsDone(t, 3);
    const again = await latest(t, rep, 10);
    expect(again.find((p) => p.name === 'Harbor Heating & Air')!.aiAnalysis!.reasoning).toBe(
      harbor.aiAnalysis!.reasoning,
    );
    expect(ai.prompts).toHaveLength(asked);
  });
});
