// The AI strategy prompt and the strategy request carry the website evidence.
import { describe, expect, it } from 'vitest';
import { buildStrategyPrompt } from '../../src/server/ai/strategy.js';
import { signalFacts } from '../../src/core/strategy/website-signals.js';
import { strategyRequestSchema } from '../../src/core/api/strategy.js';
import { toStrategyInput } from '../../src/server/strategies/service.js';
import type { StrategyInput } from '../../src/core/strategy/input.js';

const HVAC: StrategyInput = {
  name: 'Valley Comfort Heating & Air',
  category: 'HVAC',
  types: ['hvac'],
  website: 'https://valleycomfort.example',
  score: 53,
};
const sig = (kind: string, label: string) => ({ kind, label });

describe('website evidence in the AI strategy', () => {
  it('the AI prompt names the evidence and asks to build on it', () => {
    const prompt = buildStrategyPrompt({
      ...HVAC,
      signals: [sig('google_ads', 'Runs Google Ads'), sig('call_tracking', 'Call tracking')],
    });
    expect(prompt).toContain('- Seen on its website: Runs Google Ads, Call tracking');
    expect(prompt).toContain(
      'you already run search ads; streaming TV reaches the households who then search for you',
    );
    expect(buildStrategyPrompt(HVAC)).not.toContain('Seen on its website');
    expect(signalFacts([])).toBeUndefined();
  });

  it('a strategy request keeps the signals the generators read, and refuses unknown kinds', () => {
    const request = strategyRequestSchema.parse({
      id: 'p1',
      name: 'X',
      category: 'HVAC',
      address: '',
      lat: 0,
      lng: 0,
      score: 0.5,
      signals: [
        {
          kind: 'google_ads',
          label: 'Runs Google Ads',
          url: 'https://x.example/',
          seenAt: '2026-11-24T00:00:00Z',
        },
      ],
    });
    expect(toStrategyInput(request).signals).toEqual([{ kind: 'google_ads', label: 'Runs Google Ads' }]);
    expect(
      strategyRequestSchema.safeParse({
        ...request,
        signals: [{ kind: 'made_up', label: 'x', url: 'u', seenAt: 's' }],
      }).success,
    ).toBe(false);
  });
});
