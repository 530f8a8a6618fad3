import { describe, expect, it } from 'vitest';
import { fallbackStrategy } from './fallback';
import { DEFAULT_BEST_TIME_TO_CALL, StrategySchema } from './schema';

describe('fallbackStrategy', () => {
  it('has exactly the generic sections: opening, call time, 3 points, 2 handlers, value, 15-minute ask', () => {
    const s = fallbackStrategy({ name: 'Findlay Dental Arts', category: 'Dental' });
    expect(StrategySchema.parse(s)).toEqual(s);
    expect(Object.keys(s).sort()).toEqual(
      [
        'bestTimeToCall',
        'callToAction',
        'keyTalkingPoints',
        'objectionHandlers',
        'openingLine',
        'valueProposition',
      ].sort(),
    );
    expect(s.bestTimeToCall).toBe(DEFAULT_BEST_TIME_TO_CALL);
    expect(s.keyTalkingPoints).toHaveLength(3);
    expect(s.objectionHandlers).toHaveLength(2);
    expect(s.callToAction).toMatch(/15-minute meeting/);
    expect(s.openingLine).toContain('Findlay Dental Arts');
    expect(s.openingLine).toContain('dental businesses');
  });

  it('works with nothing known about the business', () => {
    const s = fallbackStrategy({ name: '  ', category: 'Business' });
    expect(s.openingLine).toContain('local businesses');
    expect(s.callToAction).toContain('your business');
    expect(fallbackStrategy()).toEqual(s);
  });
});
