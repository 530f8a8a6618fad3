import { afterEach, describe, expect, it, vi } from 'vitest';
import { BUYING_SEASONS, inSeasonFirst, monthOf, seasonFor, seasonLine, type Month } from './season';
import { analyzeOne, type AnalysisInput } from './scoring/analyze';
import { VERTICALS, type Vertical } from './verticals';

const MONTHS: readonly Month[] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

describe('the buying-season table', () => {
  it('names only known verticals, with months 1-12 and a campaign to say', () => {
    for (const [vertical, seasons] of Object.entries(BUYING_SEASONS)) {
      expect(VERTICALS).toContain(vertical);
      for (const s of seasons ?? []) {
        expect(s.campaign.trim()).not.toBe('');
        expect(s.plans.length).toBeGreaterThan(0);
        expect(s.runs.length).toBeGreaterThan(0);
        for (const m of [...s.plans, ...s.runs]) expect(MONTHS).toContain(m);
      }
    }
  });

  it('plans no two campaigns of a vertical in the same month', () => {
    for (const seasons of Object.values(BUYING_SEASONS)) {
      const planned = (seasons ?? []).flatMap((s) => s.plans);
      expect(new Set(planned).size).toBe(planned.length);
    }
  });

  it('plans each campaign before it runs, at most three months ahead', () => {
    for (const seasons of Object.values(BUYING_SEASONS)) {
      for (const s of seasons ?? []) {
        const lastPlan = s.plans.at(-1)!;
        const firstRun = s.runs[0]!;
        const ahead = (firstRun - lastPlan + 12) % 12;
        expect(ahead, s.campaign).toBeGreaterThanOrEqual(1);
        expect(ahead, s.campaign).toBeLessThanOrEqual(3);
      }
    }
  });
});

describe('seasonFor', () => {
  it('finds the campaign a vertical plans this month', () => {
    expect(seasonFor('hvac', 3)?.campaign).toBe('summer campaign');
    expect(seasonFor('hvac', 9)?.campaign).toBe('winter campaign');
    expect(seasonFor('furniture', 4)?.campaign).toBe('Memorial Day sale');
    expect(seasonFor('auto_dealer', 7)?.campaign).toBe('model-year-end sale');
    expect(seasonFor('finance', 11)?.campaign).toBe('tax-season campaign');
  });

  it('wraps from December to January', () => {
    expect(seasonFor('furniture', 12)?.campaign).toBe("Presidents' Day sale");
    expect(seasonFor('furniture', 1)?.campaign).toBe("Presidents' Day sale");
    expect(seasonFor('furniture', 2)).toBeNull();
    expect(seasonFor('finance', 12)?.campaign).toBe('tax-season campaign');
    expect(seasonFor('finance', 1)).toBeNull();
  });

  it('has nothing out of season, for a vertical that buys all year, or without a vertical', () => {
    expect(seasonFor('hvac', 6)).toBeNull();
    expect(seasonFor('legal', 3)).toBeNull();
    expect(seasonFor('injury_law', 1)).toBeNull();
    expect(seasonFor(null, 3)).toBeNull();
    expect(seasonFor(undefined, 3)).toBeNull();
  });
});

describe('seasonLine and monthOf', () => {
  it('says the campaign as the rep would', () => {
    expect(seasonLine(seasonFor('hvac', 4)!)).toBe('Plans its summer campaign now');
    expect(seasonLine(seasonFor('furniture', 1)!)).toBe("Plans its Presidents' Day sale now");
  });

  it('reads the month of the rep’s local date', () => {
    expect(monthOf('2026-12-31')).toBe(12);
    expect(monthOf('2027-01-01')).toBe(1);
    expect(() => monthOf('2026-13-01')).toThrow(RangeError);
  });
});

describe('inSeasonFirst', () => {
  it('puts businesses in season first and keeps the given order within each part', () => {
    const items: { id: string; v: Vertical | null }[] = [
      { id: 'a', v: 'legal' },
      { id: 'b', v: 'hvac' },
      { id: 'c', v: null },
      { id: 'd', v: 'furniture' },
      { id: 'e', v: 'hvac' },
    ];
    expect(inSeasonFirst(items, (i) => i.v, 4).map((i) => i.id)).toEqual(['b', 'd', 'e', 'a', 'c']);
    // Out of everyone's season nothing moves.
    expect(inSeasonFirst(items, (i) => i.v, 2).map((i) => i.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});

describe('a season never changes the score', () => {
  afterEach(() => vi.useRealTimers());
  const hvac: AnalysisInput = {
    name: 'Bay Heating & Air',
    types: ['hvac_contractor'],
    website: 'https://example.com',
    phone: '555-0100',
    rating: 4.6,
    reviewCount: 80,
    distance: 2,
    address: '1 Main St',
    category: 'HVAC',
  };

  it('scores an HVAC business the same in its buying season and out of it', () => {
    const inSeason = new Date('2027-03-15T12:00:00.000Z');
    const outOfSeason = new Date('2027-06-15T12:00:00.000Z');
    expect(seasonFor('hvac', 3)).not.toBeNull();
    expect(seasonFor('hvac', 6)).toBeNull();
    vi.useFakeTimers({ now: inSeason });
    const a = analyzeOne(hvac, { now: inSeason });
    vi.setSystemTime(outOfSeason);
    const b = analyzeOne(hvac, { now: outOfSeason });
    expect(a.breakdown.vertical).toBe('hvac');
    expect(b.score).toBe(a.score);
    expect(b.breakdown.raw).toBe(a.breakdown.raw);
    expect(b.confidence).toBe(a.confidence);
  });
});
