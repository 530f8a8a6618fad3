// The AI client and strategy generation against a local server that speaks the OpenAI chat-completions protocol
// (POST /v1/chat/completions, the real response and error JSON shapes). Nothing leaves 127.0.0.1.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fallbackStrategy } from '../../src/core/strategy/fallback';
import type { StrategyInput } from '../../src/core/strategy/input';
import { playbookStrategy } from '../../src/core/strategy/playbook';
import { REQUESTED_MINIMUMS, STRATEGY_SECTIONS, type Strategy } from '../../src/core/strategy/schema';
import {
  MAX_RETRY_AFTER_MS,
  boundedFetch,
  createAiClient,
  isAiConfigured,
  retryAfterMs,
  type AiClient,
  type AiConfig,
} from '../../src/server/ai/client';
import { generateStrategy } from '../../src/server/ai/strategy';

// ---------------------------------------------------------------------------------------------------------------
// A scripted OpenAI-compatible server

type Step =
  | { kind: 'answer'; content: string; finishReason?: string }
  | { kind: 'error'; status: number; message: string; headers?: Record<string, string> }
  | { kind: 'hang' }
  | { kind: 'stall-body' };

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: {
    model: string;
    messages: { role: string; content: string }[];
    temperature: number;
    max_tokens: number;
    response_format?: {
      type: string;
      json_schema?: { name: string; schema: { properties: Record<string, unknown> } };
    };
  };
  at: number;
}

const MODEL = 'test-model-2026-01';

class FakeOpenAI {
  readonly seen: Seen[] = [];
  private script: Step[] = [];
  private server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${port}/v1`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  /** The answers to give, one per request, in order; the last one repeats. */
  answer(...steps: Step[]): void {
    this.script = steps;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    this.seen.push({
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body: JSON.parse(text) as Seen['body'],
      at: Date.now(),
    });
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      this.json(res, 404, {
        error: { message: 'Not found', type: 'invalid_request_error', param: null, code: null },
      });
      return;
    }
    const step = this.script[Math.min(this.seen.length - 1, this.script.length - 1)];
    if (!step) throw new Error('no scripted answer');
    switch (step.kind) {
      case 'answer':
        this.json(res, 200, {
          id: `chatcmpl-${this.seen.length}`,
          object: 'chat.completion',
          created: 1_790_000_000,
          model: MODEL,
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: step.content, refusal: null, annotations: [] },
              logprobs: null,
              finish_reason: step.finishReason ?? 'stop',
            },
          ],
          usage: { prompt_tokens: 612, completion_tokens: 1410, total_tokens: 2022 },
          system_fingerprint: 'fp_local_test',
        });
        return;
      case 'error':
        this.json(
          res,
          step.status,
          { error: { message: step.message, type: 'test_error', param: null, code: null } },
          step.headers,
        );
        return;
      case 'hang':
        return; // never answers
      case 'stall-body':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"id": "chatcmpl-stall", "object": "chat.completion", "choices": [');
        return; // headers and half a body, then nothing
    }
  }

  private json(
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ): void {
    res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'req_test', ...headers });
    res.end(JSON.stringify(body));
  }
}

// ---------------------------------------------------------------------------------------------------------------

const DENTIST: StrategyInput = {
  name: 'Union Square Dental Group',
  category: 'Dental',
  types: ['dentist'],
  rating: 4.7,
  reviews: 231,
  phone: '+1 415-399-1966',
  website: 'https://unionsquaredentalgroup.com',
  address: '490 Post Street',
  city: 'San Francisco',
  state: 'CA',
  distanceMiles: 0.31,
  score: 74,
  breakdown: { fit: 0.84, presence: 0.62 },
};

const list = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`);

const MODEL_STRATEGY = {
  openingLine: 'Hi, is this the practice manager of Union Square Dental Group?',
  bestTimeToCall: 'Tuesday-Thursday 2-4 PM',
  keyTalkingPoints: list('Talking point', 14),
  objectionHandlers: list('Objection', 9).map((o) => ({ objection: o, response: `Answer to ${o}` })),
  valueProposition: 'More new patients for the treatments you want.',
  callToAction: 'Can we meet for 15 minutes on Tuesday?',
  competitiveAngles: list('Angle', 6),
  verticalInsights: list('Insight', 6),
  discoveryQuestions: list('Question', 8),
  hookLines: list('Hook', 6),
  mediaMix: [
    { channel: 'CTV', percent: 40, why: 'Families nearby' },
    { channel: 'SEM', percent: 30, why: 'Near-me searches' },
    { channel: 'Radio', percent: 10, why: 'Not ours' },
    { channel: 'Online Video', percent: 20, why: 'Meet the doctor' },
  ],
  plan30Day: list('Step', 8),
  introEmail: 'Subject: An idea\n\nHi, ...',
  followUpEmail: 'Subject: Following up\n\nHi, ...',
  voicemailScript: 'Hi, this is Dana...',
};
const VALID = JSON.stringify(MODEL_STRATEGY);

let api: FakeOpenAI;
beforeEach(async () => {
  api = new FakeOpenAI();
  await api.start();
});
afterEach(async () => {
  await api.stop();
});

function client(over: Partial<AiConfig> = {}): AiClient {
  const c = createAiClient({
    baseURL: api.url,
    apiKey: 'test-key',
    model: 'gpt-test',
    timeoutMs: 2000,
    ...over,
  });
  if (!c) throw new Error('client not created');
  return c;
}

function expectRepairedModelStrategy(s: Strategy) {
  expect(s.openingLine).toBe(MODEL_STRATEGY.openingLine);
  expect(s.keyTalkingPoints).toEqual(MODEL_STRATEGY.keyTalkingPoints.slice(0, 12));
  expect(s.objectionHandlers).toHaveLength(9);
  // Radio dropped, SEM renamed; the kept rows rescaled to 100.
  expect(s.mediaMix).toEqual([
    { channel: 'CTV', percent: 45, why: 'Families nearby' },
    { channel: 'Search Engine Marketing', percent: 33, why: 'Near-me searches' },
    { channel: 'Online Video', percent: 22, why: 'Meet the doctor' },
  ]);
}

describe('configuration', () => {
  it('needs a base URL and a model; an empty base URL means the playbooks', () => {
    expect(isAiConfigured({ baseURL: '', model: 'gpt-4o-mini' })).toBe(false);
    expect(isAiConfigured({ baseURL: undefined, model: 'gpt-4o-mini' })).toBe(false);
    expect(isAiConfigured({ baseURL: 'http://127.0.0.1:11434/v1', model: ' ' })).toBe(false);
    expect(createAiClient({ baseURL: '  ', apiKey: 'k', model: 'm' })).toBeNull();
    expect(createAiClient(undefined)).toBeNull();
    const c = createAiClient({ baseURL: 'http://127.0.0.1:11434/v1', model: 'llama3.1' });
    expect(c?.timeoutMs).toBe(600_000);
    expect(c?.maxRetries).toBe(2);
  });
});

describe('generateStrategy against an OpenAI-compatible endpoint', () => {
  it('valid JSON: one request with temperature 0.1 and 1,600 tokens, the answer repaired to the strategy rules', async () => {
    api.answer({ kind: 'answer', content: VALID });
    const result = await generateStrategy(DENTIST, client());
    expect(result.source).toBe('ai');
    expect(result.model).toBe(MODEL);
    expect(result.error).toBeUndefined();
    expectRepairedModelStrategy(result.strategy);

    expect(api.seen).toHaveLength(1);
    const [req] = api.seen;
    expect(req?.method).toBe('POST');
    expect(req?.path).toBe('/v1/chat/completions');
    expect(req?.headers.authorization).toBe('Bearer test-key');
    expect(req?.body.model).toBe('gpt-test');
    expect(req?.body.temperature).toBe(0.1);
    expect(req?.body.max_tokens).toBe(1600);
    expect(req?.body.response_format?.type).toBe('json_schema');
    expect(req?.body.response_format?.json_schema?.name).toBe('appointment_strategy');
    expect(Object.keys(req?.body.response_format?.json_schema?.schema.properties ?? {})).toEqual([
      ...STRATEGY_SECTIONS,
    ]);
    const prompt = req?.body.messages.find((m) => m.role === 'user')?.content ?? '';
    expect(req?.body.messages[0]?.role).toBe('system');
    for (const fact of [
      'Business: Union Square Dental Group',
      'Category: Dental',
      'Rating: 4.7 stars from 231 reviews',
      'Website: https://unionsquaredentalgroup.com',
      'Phone: +1 415-399-1966',
      'Address: 490 Post Street, San Francisco, CA',
      'Distance from the rep: 0.3 miles',
      'Prospect score: 74/100',
      'Score breakdown (0-1): fit 0.84, presence 0.62',
      'channel propensity CTV 0.85, online video 0.8, display 0.75, SEM 0.95',
      `At least ${REQUESTED_MINIMUMS.keyTalkingPoints} key talking points (at most 12)`,
      `At least ${REQUESTED_MINIMUMS.objectionHandlers} objection handlers (at most 12)`,
      'At least 6 competitive angles, 6 vertical insights, 8 discovery questions and 6 hook lines',
      'At least 4 media-mix rows',
      'At least 8 items in the 30-day plan',
      'Tuesday-Thursday 9-11 AM or 2-4 PM',
    ]) {
      expect(prompt).toContain(fact);
    }
  });

  it('invalid then repaired JSON: the bad answer is sent back once and the corrected one used', async () => {
    const broken = `Here is your strategy:\n{"openingLine": "Hi", "keyTalkingPoints": ["a", "b"` + ' oops }}';
    api.answer(
      { kind: 'answer', content: broken },
      { kind: 'answer', content: '```json\n' + VALID + '\n```' },
    );
    const errors: string[] = [];
    const result = await generateStrategy(DENTIST, client(), { onError: (stage) => errors.push(stage) });
    expect(result.source).toBe('ai');
    expectRepairedModelStrategy(result.strategy);
    expect(api.seen).toHaveLength(2);
    const second = api.seen[1]?.body.messages ?? [];
    expect(second).toHaveLength(4);
    expect(second[2]).toEqual({ role: 'assistant', content: broken });
    expect(second[3]?.role).toBe('user');
    expect(second[3]?.content).toMatch(/^Your answer could not be used: /);
    expect(errors).toEqual(['answer']);
  });

  it('valid JSON that fails the schema is repaired the same way, naming what was wrong', async () => {
    const { keyTalkingPoints: _a, valueProposition: _b, ...incomplete } = MODEL_STRATEGY;
    api.answer({ kind: 'answer', content: JSON.stringify(incomplete) }, { kind: 'answer', content: VALID });
    const result = await generateStrategy(DENTIST, client());
    expect(result.source).toBe('ai');
    expect(api.seen).toHaveLength(2);
    const ask = api.seen[1]?.body.messages[3]?.content ?? '';
    expect(ask).toContain('keyTalkingPoints');
    expect(ask).toContain('valueProposition');
  });

  it('hopeless JSON: one repair attempt, then the generic fallback', async () => {
    api.answer(
      { kind: 'answer', content: 'I am sorry, I cannot write sales material.' },
      { kind: 'answer', content: '{"openingLine": ""}' },
    );
    const result = await generateStrategy(DENTIST, client());
    expect(result.source).toBe('fallback');
    expect(result.model).toBe(MODEL);
    expect(result.error).toMatch(/openingLine|keyTalkingPoints/);
    expect(result.strategy).toEqual(fallbackStrategy({ name: DENTIST.name, category: DENTIST.category }));
    expect(api.seen).toHaveLength(2);
  });

  it('an answer cut off by the token limit keeps its complete sections without a repair round', async () => {
    const cut = VALID.slice(0, VALID.indexOf('"plan30Day"') + 30);
    api.answer({ kind: 'answer', content: cut, finishReason: 'length' });
    const result = await generateStrategy(DENTIST, client());
    expect(result.source).toBe('ai');
    expect(api.seen).toHaveLength(1);
    expect(result.strategy.hookLines).toEqual(MODEL_STRATEGY.hookLines);
    expect(result.strategy.plan30Day).toEqual(['Step 1']);
    expect(result.strategy.introEmail).toBeUndefined();
  });

  it('429 with retry-after under 60 s: waits that long, retries and succeeds', async () => {
    api.answer(
      { kind: 'error', status: 429, message: 'Rate limit reached', headers: { 'retry-after': '1' } },
      { kind: 'answer', content: VALID },
    );
    const result = await generateStrategy(DENTIST, client());
    expect(result.source).toBe('ai');
    expect(api.seen).toHaveLength(2);
    const gap = (api.seen[1]?.at ?? 0) - (api.seen[0]?.at ?? 0);
    expect(gap).toBeGreaterThanOrEqual(950);
    expect(gap).toBeLessThan(3000);
  });

  it('429 with retry-after of 60 s or more: not honoured, backoff from 0.5 s instead', async () => {
    api.answer(
      { kind: 'error', status: 429, message: 'Rate limit reached', headers: { 'retry-after': '3600' } },
      { kind: 'answer', content: VALID },
    );
    const result = await generateStrategy(DENTIST, client());
    expect(result.source).toBe('ai');
    const gap = (api.seen[1]?.at ?? 0) - (api.seen[0]?.at ?? 0);
    // 0.5 s minus up to 25% jitter.
    expect(gap).toBeGreaterThanOrEqual(350);
    expect(gap).toBeLessThan(1500);
  });

  it('500 then success: retried', async () => {
    api.answer(
      { kind: 'error', status: 500, message: 'The server had an error' },
      { kind: 'answer', content: VALID },
    );
    const result = await generateStrategy(DENTIST, client());
    expect(result.source).toBe('ai');
    expect(api.seen).toHaveLength(2);
  });

  it('5xx on every attempt: maxRetries + 1 requests with growing backoff, then the playbook', async () => {
    api.answer({ kind: 'error', status: 503, message: 'Service unavailable' });
    const started = Date.now();
    const result = await generateStrategy(DENTIST, client({ maxRetries: 2 }));
    expect(api.seen).toHaveLength(3);
    const gaps = [1, 2].map((i) => (api.seen[i]?.at ?? 0) - (api.seen[i - 1]?.at ?? 0));
    expect(gaps[0]).toBeGreaterThanOrEqual(350); // 0.5 s - 25%
    expect(gaps[1]).toBeGreaterThanOrEqual(700); // 1 s - 25%
    expect(Date.now() - started).toBeLessThan(4000);
    expect(result.source).toBe('playbook');
    expect(result.error).toMatch(/^AI request failed: 503/);
    expect(result.strategy).toEqual(playbookStrategy(DENTIST));
  });

  it('does not retry a 401, and falls back to the playbook', async () => {
    api.answer({ kind: 'error', status: 401, message: 'Incorrect API key provided' });
    const result = await generateStrategy(DENTIST, client());
    expect(api.seen).toHaveLength(1);
    expect(result.source).toBe('playbook');
  });

  it('a hang past the timeout: each attempt cut at the timeout, retried, then the playbook in bounded time', async () => {
    api.answer({ kind: 'hang' });
    const started = Date.now();
    const result = await generateStrategy(DENTIST, client({ timeoutMs: 300, maxRetries: 1 }));
    const elapsed = Date.now() - started;
    expect(result.source).toBe('playbook');
    expect(result.error).toMatch(/timed out/i);
    expect(api.seen).toHaveLength(2);
    // two 300 ms attempts and one backoff of at most 0.5 s
    expect(elapsed).toBeGreaterThanOrEqual(600);
    expect(elapsed).toBeLessThan(2500);
  });

  it('headers then a stalled body: also cut at the timeout', async () => {
    api.answer({ kind: 'stall-body' });
    const started = Date.now();
    const result = await generateStrategy(DENTIST, client({ timeoutMs: 300, maxRetries: 0 }));
    expect(result.source).toBe('playbook');
    expect(api.seen).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('an endpoint that rejects json_schema is asked with json_object, and remembered', async () => {
    api.answer(
      {
        kind: 'error',
        status: 400,
        message: "Invalid parameter: 'response_format' of type 'json_schema' is not supported",
      },
      { kind: 'answer', content: VALID },
    );
    const c = client();
    const first = await generateStrategy(DENTIST, c);
    expect(first.source).toBe('ai');
    expect(api.seen.map((s) => s.body.response_format?.type)).toEqual(['json_schema', 'json_object']);
    await generateStrategy(DENTIST, c);
    expect(api.seen[2]?.body.response_format?.type).toBe('json_object');
  });

  it('and with no response format at all when json_object is rejected too', async () => {
    api.answer(
      { kind: 'error', status: 400, message: 'response_format not supported' },
      { kind: 'error', status: 422, message: 'response_format not supported' },
      { kind: 'answer', content: VALID },
    );
    const result = await generateStrategy(DENTIST, client());
    expect(result.source).toBe('ai');
    expect(api.seen.map((s) => s.body.response_format?.type)).toEqual([
      'json_schema',
      'json_object',
      undefined,
    ]);
  });

  it('the endpoint failing on the repair request: the playbook, not the generic fallback', async () => {
    api.answer(
      { kind: 'answer', content: 'Sorry, here is prose instead of JSON.' },
      { kind: 'error', status: 500, message: 'The server had an error' },
    );
    const stages: string[] = [];
    const result = await generateStrategy(DENTIST, client({ maxRetries: 0 }), {
      onError: (stage) => stages.push(stage),
    });
    expect(api.seen).toHaveLength(2);
    expect(result.source).toBe('playbook');
    expect(result.error).toMatch(/^AI repair request failed: 500/);
    expect(result.strategy).toEqual(playbookStrategy(DENTIST));
    expect(stages).toEqual(['answer', 'repair']);
  });

  it('a job deadline cuts a hang long before the per-attempt timeout: the playbook answers', async () => {
    api.answer({ kind: 'hang' });
    const started = Date.now();
    const result = await generateStrategy(DENTIST, client({ timeoutMs: 60_000 }), { deadlineMs: 300 });
    expect(result.source).toBe('playbook');
    expect(result.error).toBe('AI request failed: AI deadline of 300 ms passed');
    expect(result.strategy).toEqual(playbookStrategy(DENTIST));
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('the deadline also ends a retry-after wait inside the SDK', async () => {
    api.answer({
      kind: 'error',
      status: 429,
      message: 'Rate limit reached',
      headers: { 'retry-after': '30' },
    });
    const started = Date.now();
    const waited = await generateStrategy(DENTIST, client(), { deadlineMs: 400 });
    expect(waited.source).toBe('playbook');
    expect(waited.error).toMatch(/deadline/);
    expect(api.seen).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('and a hanging repair request', async () => {
    api.answer({ kind: 'answer', content: 'not json' }, { kind: 'hang' });
    const repair = await generateStrategy(DENTIST, client({ timeoutMs: 60_000 }), { deadlineMs: 400 });
    expect(repair.source).toBe('playbook');
    expect(repair.error).toBe('AI repair request failed: AI deadline of 400 ms passed');
  });

  it('a deadline already passed asks nothing and answers with the playbook', async () => {
    api.answer({ kind: 'answer', content: VALID });
    const result = await generateStrategy(DENTIST, client(), { deadlineMs: 0 });
    expect(result.source).toBe('playbook');
    expect(api.seen).toHaveLength(0);
  });

  it('an aborted signal rejects instead of falling back', async () => {
    api.answer({ kind: 'hang' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('worker stopping')), 100);
    await expect(generateStrategy(DENTIST, client(), { signal: controller.signal })).rejects.toThrow();
  });
});

describe('with no AI configured', () => {
  const SF: StrategyInput[] = [
    { name: 'Union Square Dental Group', category: 'Dental', types: ['dentist'], city: 'San Francisco' },
    {
      name: 'Mercedes-Benz of San Francisco',
      category: 'Auto Dealer',
      types: ['car_dealer'],
      city: 'San Francisco',
    },
    { name: 'Standard Sheet Metal & Marine Plumbing', category: 'Metal Construction', city: 'San Francisco' },
    { name: 'Delfino Green & Green', category: 'Legal Services', types: ['lawyer'], city: 'San Francisco' },
  ];

  it('uses the playbook: every section filled, different by vertical, byte-identical again, mix sums to 100', async () => {
    const noClient = createAiClient({ baseURL: '', apiKey: '', model: 'gpt-4o-mini' });
    const runs = await Promise.all(SF.map((input) => generateStrategy(input, noClient)));
    const again = await Promise.all(SF.map((input) => generateStrategy(input, noClient)));
    for (const [i, r] of runs.entries()) {
      expect(r.source).toBe('playbook');
      expect(r.model).toBeUndefined();
      for (const key of STRATEGY_SECTIONS) expect(r.strategy[key], key).toBeTruthy();
      expect((r.strategy.mediaMix ?? []).reduce((a, row) => a + row.percent, 0)).toBe(100);
      expect(JSON.stringify(again[i])).toBe(JSON.stringify(r));
    }
    const propositions = new Set(runs.map((r) => r.strategy.valueProposition));
    const mixes = new Set(runs.map((r) => JSON.stringify(r.strategy.mediaMix)));
    expect(propositions.size).toBe(4);
    expect(mixes.size).toBe(4);
    expect(api.seen).toHaveLength(0);
  });
});

describe('retry-after handling in the fetch given to the SDK', () => {
  const now = Date.parse('2026-11-22T08:00:00Z');

  it('reads seconds, milliseconds and HTTP dates', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(retryAfterMs(new Headers({ 'retry-after': '1.5' }), now)).toBe(1500);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Sun, 22 Nov 2026 08:00:30 GMT' }), now)).toBe(30_000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(new Headers(), now)).toBeUndefined();
  });

  it('passes a retry-after under 60 s through and drops longer, past or unreadable ones', async () => {
    const respond = (headers: Record<string, string>, status = 429) =>
      boundedFetch(() => Promise.resolve(new Response('{}', { status, headers })));
    const after = async (headers: Record<string, string>, status?: number) =>
      (await respond(headers, status)('http://127.0.0.1/')).headers.get('retry-after');
    expect(await after({ 'retry-after': '59' })).toBe('59');
    expect(await after({ 'retry-after': String(MAX_RETRY_AFTER_MS / 1000) })).toBeNull();
    expect(await after({ 'retry-after': '86400' })).toBeNull();
    expect(await after({ 'retry-after': 'Thu, 01 Jan 2015 00:00:00 GMT' })).toBeNull();
    expect(await after({ 'retry-after': 'whenever' })).toBeNull();
    // Only retryable statuses are touched.
    expect(await after({ 'retry-after': '3600' }, 200)).toBe('3600');
  });
});
