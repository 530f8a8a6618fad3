import { describe, expect, it } from 'vitest';
import { fallbackStrategy } from './fallback';
import { AI_BUSY, STRATEGY_POLL, strategyPollDelay } from './messages';
import { playbookStrategy } from './playbook';
import { STRATEGY_SECTIONS } from './schema';
import { SECTION_TITLES, strategyAsText } from './text';

describe('strategyAsText', () => {
  it('has every section of a full strategy, in the modal order, with its content', () => {
    const s = playbookStrategy({
      name: 'Delfino Green & Green',
      category: 'Legal Services',
      types: ['lawyer'],
    });
    const text = strategyAsText(s, 'Delfino Green & Green');
    expect(text.startsWith('Appointment strategy: Delfino Green & Green\n\nOpening line\nHi, is this')).toBe(
      true,
    );
    const positions = Object.values(SECTION_TITLES).map((t) => text.indexOf(`\n\n${t}\n`));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(Object.keys(SECTION_TITLES).sort()).toEqual([...STRATEGY_SECTIONS].sort());
    for (const h of s.objectionHandlers) expect(text).toContain(`- "${h.objection}"\n  ${h.response}`);
    for (const r of s.mediaMix ?? []) expect(text).toContain(`- ${r.channel}: ${r.percent}% (${r.why})`);
    expect(text).toContain(`1. ${s.plan30Day?.[0]}`);
    expect(text).toContain(s.voicemailScript);
    expect(text.endsWith('\n')).toBe(true);
  });

  it('leaves out empty sections, as the modal does', () => {
    const text = strategyAsText({ ...fallbackStrategy({ name: 'X' }), hookLines: [], introEmail: '  ' });
    expect(text).not.toContain('Hook lines');
    expect(text).not.toContain('Intro e-mail');
    expect(text).not.toContain('Media mix');
    expect(text).toContain('Key talking points\n- ');
    expect(text.startsWith('Opening line\n')).toBe(true);
  });
});

describe('strategy polling', () => {
  it('starts at 800 ms and grows to at most 2,500 ms', () => {
    expect([0, 1, 2, 3, 4, 10].map(strategyPollDelay)).toEqual([800, 1200, 1800, 2500, 2500, 2500]);
  });

  it('gives up after 180 s with the busy message', () => {
    let waited = 0;
    let polls = 0;
    while (waited + strategyPollDelay(polls) <= STRATEGY_POLL.giveUpMs) waited += strategyPollDelay(polls++);
    expect(polls).toBe(3 + Math.floor((180_000 - 3800) / 2500));
    expect(AI_BUSY).toBe('AI service is busy. Please try again in a moment.');
  });
});
