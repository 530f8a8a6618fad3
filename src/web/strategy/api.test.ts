// The client side of strategy polling, against a scripted fetch and a fake clock: waits from 800 ms
// growing to 2,500 ms, a 429 backs off by its retryAfterMs, a kept strategy answers at once, a failed job and a
// missing category end with the server's words, and 180 s of pending ends with 'AI service is busy...'.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Prospect } from '../../core/types';
import type { Strategy } from '../../core/strategy/schema';
import { AI_BUSY, AI_JOB_FAILED, SET_CATEGORY_FIRST } from '../../core/strategy/messages';
import { ApiError } from '../api';
import { generateStrategy } from './api';

const prospect = {
  id: 'place-1',
  name: 'Bright Smile Dental',
  category: 'Dental',
  address: '450 Sutter St',
  lat: 37.79,
  lng: -122.41,
  openNow: true,
  reviews: 10,
  source: 'local',
  distance: 0.3,
  score: 0.8,
} as Prospect;

const strategy: Strategy = {
  openingLine: 'Hi',
  bestTimeToCall: 'Tuesday-Thursday 9-11 AM or 2-4 PM',
  keyTalkingPoints: ['a'],
  objectionHandlers: [{ objection: 'o', response: 'r' }],
  valueProposition: 'v',
  callToAction: 'c',
};

type Answer = { status: number; body: unknown };
const json = (status: number, body: unknown): Answer => ({ status, body });

/** A fetch that answers from a script and records each call with the fake time it was made at. */
function scripted(answer: (method: string, url: string, n: number) => Answer, clock: { t: number }) {
  const calls: { method: string; url: string; at: number; body: unknown }[] = [];
  const fetchMock = vi.fn((url: string, init: RequestInit) => {
    const method = init.method ?? 'GET';
    calls.push({
      method,
      url,
      at: clock.t,
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    });
    const a = answer(method, url, calls.length);
    return Promise.resolve(new Response(JSON.stringify(a.body), { status: a.status }));
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

function fakeTime() {
  const clock = { t: 0 };
  const waits: number[] = [];
  return {
    clock,
    waits,
    options: {
      now: () => clock.t,
      wait: (ms: number) => {
        waits.push(ms);
        clock.t += ms;
        return Promise.resolve();
      },
    },
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('strategy polling', () => {
  it('answers a kept strategy at once, without polling', async () => {
    const time = fakeTime();
    const calls = scripted(
      () => json(200, { status: 'complete', strategy, source: 'playbook', cached: true }),
      time.clock,
    );
    const result = await generateStrategy(prospect, false, time.options);
    expect(result.strategy).toEqual(strategy);
    expect(result.cached).toBe(true);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.body).toEqual({ prospect });
  });

  it('polls from 800 ms growing to 2,500 ms until the job is complete; Regenerate asks for a new one', async () => {
    const time = fakeTime();
    const calls = scripted((method, _url, n) => {
      if (method === 'POST') return json(202, { jobId: 'job-1', status: 'pending', retryAfterMs: 800 });
      return n < 8
        ? json(202, { status: 'pending', retryAfterMs: 800 })
        : json(200, { status: 'complete', strategy, source: 'ai', model: 'm' });
    }, time.clock);
    const result = await generateStrategy(prospect, true, time.options);
    expect(result.source).toBe('ai');
    expect(calls[0]!.body).toEqual({ prospect, regenerate: true });
    expect(calls.slice(1).every((c) => c.url === '/api/strategies/jobs/job-1')).toBe(true);
    expect(time.waits).toEqual([800, 1200, 1800, 2500, 2500, 2500, 2500]);
  });

  it('backs off by retryAfterMs on 429, at the start and while polling', async () => {
    const time = fakeTime();
    const calls = scripted((method, _url, n) => {
      if (n === 1) return json(429, { error: AI_BUSY, retryAfterMs: 5000 });
      if (method === 'POST') return json(202, { jobId: 'job-2', status: 'pending' });
      if (n === 3) return json(429, { error: 'slow down', retryAfterMs: 3000 });
      return json(200, { status: 'complete', strategy, source: 'playbook' });
    }, time.clock);
    await generateStrategy(prospect, false, time.options);
    expect(calls.map((c) => [c.method, c.at])).toEqual([
      ['POST', 0],
      ['POST', 5000],
      ['GET', 5800],
      ['GET', 8800],
    ]);
  });

  it("gives up after 180 s of pending with 'AI service is busy. Please try again in a moment.'", async () => {
    const time = fakeTime();
    const calls = scripted(
      (method) =>
        method === 'POST'
          ? json(202, { jobId: 'job-3', status: 'pending' })
          : json(202, { status: 'pending', retryAfterMs: 800 }),
      time.clock,
    );
    const error = await generateStrategy(prospect, false, time.options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(AI_BUSY);
    expect(time.clock.t).toBe(180_000);
    expect(calls.at(-1)!.at).toBeLessThan(180_000);
    expect(calls.length).toBeGreaterThan(60);
  });

  it("ends with the server's words for a failed job and a missing category", async () => {
    const time = fakeTime();
    scripted(
      (method) =>
        method === 'POST'
          ? json(202, { jobId: 'job-4', status: 'pending' })
          : json(502, { status: 'error', error: AI_JOB_FAILED }),
      time.clock,
    );
    await expect(generateStrategy(prospect, false, time.options)).rejects.toThrow(AI_JOB_FAILED);
    scripted(() => json(400, { error: SET_CATEGORY_FIRST }), time.clock);
    await expect(generateStrategy(prospect, false, time.options)).rejects.toThrow(SET_CATEGORY_FIRST);
  });
});
