import { describe, expect, it } from 'vitest';
import type { StrategyInput } from './input';
import { strategyInputFromProspect } from './input';
import { playbookStrategy } from './playbook';
import { signalLines } from './website-signals';
import type { Prospect } from '../types';

const HVAC: StrategyInput = {
  name: 'Valley Comfort Heating & Air',
  category: 'HVAC',
  types: ['hvac'],
  website: 'https://valleycomfort.example',
  phone: '+1 555 555 0100',
  city: 'Springfield',
  score: 53,
};
const sig = (kind: string, label: string) => ({ kind, label });

describe('the strategy uses the website evidence', () => {
  it('opens with the advertising the business already buys', () => {
    const s = playbookStrategy({
      ...HVAC,
      signals: [sig('google_ads', 'Runs Google Ads'), sig('meta_pixel', 'Meta Pixel')],
    });
    expect(s.keyTalkingPoints[0]).toBe(
      'You already run search ads (Google Ads); streaming TV reaches the households who then search for you, so every search dollar works harder.',
    );
    expect(s.keyTalkingPoints[1]).toContain(
      'You already advertise on social (Meta (Facebook/Instagram) ads)',
    );
  });

  it('turns what the site lacks into angles and discovery questions', () => {
    const s = playbookStrategy({
      ...HVAC,
      signals: [
        sig('unreachable', 'Website unreachable'),
        sig('not_mobile_friendly', 'Site not mobile-friendly'),
      ],
    });
    expect(s.discoveryQuestions).toContain(
      'Your website did not load when we looked: is it being rebuilt? Campaigns can run call-first until it is back.',
    );
    expect((s.competitiveAngles ?? []).some((a) => a.includes('mobile-friendly landing page'))).toBe(true);
  });

  it('without signals the playbook is unchanged', () => {
    expect(playbookStrategy({ ...HVAC, signals: [] })).toEqual(playbookStrategy(HVAC));
    expect(signalLines('x', undefined)).toEqual({ talkingPoints: [], angles: [], questions: [] });
  });

  it('a scanned prospect hands its signals to the strategy', () => {
    const p = {
      id: 'p1',
      name: 'X',
      category: 'HVAC',
      address: '',
      lat: 0,
      lng: 0,
      openNow: true,
      reviews: 0,
      source: 'local',
      distance: 1,
      score: 0.5,
      types: ['hvac'],
      signals: [
        {
          kind: 'google_ads',
          label: 'Runs Google Ads',
          url: 'https://x.example/',
          seenAt: '2026-11-24T00:00:00Z',
        },
      ],
    } satisfies Prospect;
    expect(strategyInputFromProspect(p).signals).toEqual([{ kind: 'google_ads', label: 'Runs Google Ads' }]);
  });
});
