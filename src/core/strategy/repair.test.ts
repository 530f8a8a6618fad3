import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  apportion,
  canonicalChannel,
  extractJson,
  normalizeMediaMix,
  normalizeStrategy,
  parseStrategyAnswer,
  repairStrategy,
} from './repair';
import { DEFAULT_BEST_TIME_TO_CALL, StrategySchema } from './schema';

const core = {
  openingLine: 'Hi there',
  bestTimeToCall: 'Mornings',
  keyTalkingPoints: ['One', 'Two'],
  objectionHandlers: [{ objection: 'Too expensive', response: 'Start small' }],
  valueProposition: 'More customers',
  callToAction: 'Meet for 15 minutes?',
};

describe('extractJson', () => {
  it('parses plain JSON', () => {
    expect(extractJson('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
  });

  it('takes the JSON out of a code fence with prose around it', () => {
    const answer = 'Here is the strategy you asked for:\n```json\n{"a": {"b": [1, 2]}}\n```\nGood luck!';
    expect(extractJson(answer)).toEqual({ ok: true, value: { a: { b: [1, 2] } } });
  });

  it('skips leading and trailing prose without a fence, braces inside strings included', () => {
    const answer = 'Sure! {"text": "use {braces} and \\"quotes\\"", "n": 2} Hope this helps.';
    expect(extractJson(answer)).toEqual({ ok: true, value: { text: 'use {braces} and "quotes"', n: 2 } });
  });

  it('tolerates trailing commas and a byte-order mark', () => {
    expect(extractJson('\uFEFF{"a": [1, 2,], "b": "x,]",}')).toEqual({
      ok: true,
      value: { a: [1, 2], b: 'x,]' },
    });
  });

  it('fails on an answer without JSON', () => {
    expect(extractJson('I cannot help with that.').ok).toBe(false);
    expect(extractJson('').ok).toBe(false);
    expect(extractJson('{"openingLine').ok).toBe(false);
  });

  it('keeps the complete part of an answer cut off mid-way (token limit)', () => {
    expect(extractJson('{"openingLine": "Hi", "keyTalking')).toEqual({
      ok: true,
      value: { openingLine: 'Hi' },
    });
    expect(extractJson('```json\n{"a": [1, 2, {"b": "x"}, {"c": "unfinished')).toEqual({
      ok: true,
      value: { a: [1, 2, { b: 'x' }] },
    });
    expect(extractJson('{"a": "x, y", "b": ["p", "q')).toEqual({ ok: true, value: { a: 'x, y', b: ['p'] } });
  });
});

describe('media mix repair', () => {
  it('keeps only the allowed channels and renames SEM', () => {
    const mix = normalizeMediaMix([
      { channel: 'Linear TV', percent: 20, why: 'a' },
      { channel: 'Radio', percent: 20, why: 'dropped' },
      { channel: 'SEM', percent: 20, why: 'b' },
      { channel: 'Billboards', percent: 10, why: 'dropped' },
      { channel: 'Display', percent: 30, why: 'c' },
    ]);
    expect(mix.map((r) => r.channel)).toEqual(['Linear TV', 'Search Engine Marketing', 'Display']);
    expect(mix.map((r) => r.why)).toEqual(['a', 'b', 'c']);
  });

  it('accepts each listed channel, case and spacing aside, and nothing else', () => {
    for (const name of [
      'Linear TV',
      'Streaming TV',
      'CTV',
      'Online Video',
      'Display',
      'Search Engine Marketing',
    ]) {
      expect(canonicalChannel(name)).toBe(name);
      expect(canonicalChannel(`  ${name.toUpperCase()} `)).toBe(name);
    }
    expect(canonicalChannel('sem')).toBe('Search Engine Marketing');
    for (const name of ['Radio', 'Social Media', 'Print', 'OTT', 'Connected TV', 'Search', 'Email', '']) {
      expect(canonicalChannel(name)).toBeNull();
    }
  });

  it('rescales the kept rows to whole percents summing to 100, merging SEM into Search Engine Marketing', () => {
    const mix = normalizeMediaMix([
      { channel: 'CTV', percent: '40%', why: 'big screen' },
      { channel: 'Radio', percent: 20, why: 'x' },
      { channel: 'SEM', percent: 10, why: 'intent' },
      { channel: 'Search Engine Marketing', percent: 10, why: 'near me' },
    ]);
    expect(mix).toEqual([
      { channel: 'CTV', percent: 67, why: 'big screen' },
      { channel: 'Search Engine Marketing', percent: 33, why: 'intent near me' },
    ]);
  });

  it('reads a channel-to-percent object and drops rows without a number', () => {
    expect(
      normalizeMediaMix({ Display: 50, 'Online Video': { percent: 50, why: 'video' }, CTV: 'lots' }),
    ).toEqual([
      { channel: 'Display', percent: 50, why: '' },
      { channel: 'Online Video', percent: 50, why: 'video' },
    ]);
  });
});

describe('apportion', () => {
  it('gives whole numbers summing exactly to 100, each within 1 of the exact share', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 1000, noNaN: true }), { minLength: 1, maxLength: 8 }),
        (ws) => {
          const out = apportion(ws);
          expect(out.reduce((a, b) => a + b, 0)).toBe(100);
          const sum = ws.reduce((a, b) => a + b, 0);
          out.forEach((p, i) => {
            const exact = sum > 0 ? ((ws[i] ?? 0) / sum) * 100 : 100 / ws.length;
            expect(Number.isInteger(p)).toBe(true);
            expect(Math.abs(p - exact)).toBeLessThan(1);
          });
        },
      ),
    );
  });

  it('breaks ties towards earlier rows', () => {
    expect(apportion([1, 1, 1])).toEqual([34, 33, 33]);
  });
});

describe('normalizeStrategy and repairStrategy', () => {
  it('caps talking points and objection handlers at 12', () => {
    const many = Array.from({ length: 15 }, (_, i) => `Point ${i + 1}`);
    const handlers = Array.from({ length: 15 }, (_, i) => ({ objection: `O${i}`, response: `R${i}` }));
    const r = repairStrategy({
      ...core,
      keyTalkingPoints: many,
      objectionHandlers: handlers,
      hookLines: many,
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.strategy.keyTalkingPoints).toEqual(many.slice(0, 12));
    expect(r.strategy.objectionHandlers).toHaveLength(12);
    expect(r.strategy.objectionHandlers[11]).toEqual({ objection: 'O11', response: 'R11' });
    expect(r.strategy.hookLines).toHaveLength(15);
  });

  it('accepts snake_case keys, a wrapping object and lists written as one bulleted string', () => {
    const r = repairStrategy({
      strategy: {
        opening_line: 'Hello',
        best_time_to_call: 'Tue 10 AM',
        key_talking_points: '- First point\n- Second point\n\n3. Third point',
        objection_handlers: [{ concern: 'No budget', answer: 'Start small' }],
        value_proposition: 'Value',
        call_to_action: 'Meet?',
        media_mix: [{ name: 'sem', percentage: 100, rationale: 'intent' }],
        '30_day_plan': [{ week: 'Week 1', action: 'Kick-off' }],
        intro_email: { subject: 'Hi', body: 'Body text' },
      },
    });
    expect(r).toEqual({
      ok: true,
      strategy: {
        openingLine: 'Hello',
        bestTimeToCall: 'Tue 10 AM',
        keyTalkingPoints: ['First point', 'Second point', 'Third point'],
        objectionHandlers: [{ objection: 'No budget', response: 'Start small' }],
        valueProposition: 'Value',
        callToAction: 'Meet?',
        mediaMix: [{ channel: 'Search Engine Marketing', percent: 100, why: 'intent' }],
        plan30Day: ['Week 1: Kick-off'],
        introEmail: 'Subject: Hi\n\nBody text',
      },
    });
  });

  it('splits objection handlers written as text', () => {
    const out = normalizeStrategy({
      ...core,
      objectionHandlers: [
        'Objection: We have no budget. Response: Start with a small test.',
        '"We tried TV" -> Streaming TV is measured by household.',
        'Send me info? Happy to, after two quick questions.',
        'just a sentence with no answer',
      ],
    });
    expect(out['objectionHandlers']).toEqual([
      { objection: 'We have no budget.', response: 'Start with a small test.' },
      { objection: '"We tried TV"', response: 'Streaming TV is measured by household.' },
      { objection: 'Send me info?', response: 'Happy to, after two quick questions.' },
    ]);
  });

  it('fills a missing best time to call with the default', () => {
    const { bestTimeToCall: _omit, ...rest } = core;
    const r = repairStrategy(rest);
    expect(r.ok && r.strategy.bestTimeToCall).toBe(DEFAULT_BEST_TIME_TO_CALL);
  });

  it('drops an empty media mix instead of failing, and drops unknown keys', () => {
    const r = repairStrategy({ ...core, mediaMix: [{ channel: 'Radio', percent: 100 }], extra: 'x' });
    expect(r.ok).toBe(true);
    if (r.ok) expect(Object.keys(r.strategy)).not.toContain('mediaMix');
    if (r.ok) expect(Object.keys(r.strategy)).not.toContain('extra');
  });

  it('fails, naming the field, when a required section is missing or empty', () => {
    const r = repairStrategy({ ...core, keyTalkingPoints: [], valueProposition: '' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/keyTalkingPoints|valueProposition/);
    expect(repairStrategy('not an object').ok).toBe(false);
    expect(repairStrategy(null).ok).toBe(false);
  });

  it('parseStrategyAnswer goes from fenced text to a valid strategy', () => {
    const r = parseStrategyAnswer(`Here you go:\n\`\`\`json\n${JSON.stringify(core)}\n\`\`\``);
    expect(r.ok).toBe(true);
    if (r.ok) expect(StrategySchema.parse(r.strategy)).toEqual(r.strategy);
    const bad = parseStrategyAnswer('Sorry, here is my answer: openingLine = Hi');
    expect(bad).toEqual({ ok: false, error: expect.stringMatching(/^invalid JSON/) as unknown });
  });
});
