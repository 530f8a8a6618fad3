import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { StrategyInput } from './input';
import { PLAYBOOKS } from './playbooks';
import { formatCount, playbookMediaMix, playbookStrategy } from './playbook';
import {
  DEFAULT_BEST_TIME_TO_CALL,
  REQUESTED_MINIMUMS,
  STRATEGY_SECTIONS,
  StrategySchema,
  type Strategy,
} from './schema';
import { CHANNEL_PROPENSITY, PLAYBOOK_VERTICALS } from './verticals';

// Four businesses of the San Francisco downtown extract (data/osm/sf-downtown.osm.pbf), as the local provider
// reads them: OpenStreetMap has no ratings, and the plumber is a metal shop whose name says plumbing.
const SF: Record<string, StrategyInput> = {
  dentist: {
    name: 'Union Square Dental Group',
    category: 'Dental',
    types: ['dentist'],
    phone: '+1 415-399-1966',
    website: 'https://unionsquaredentalgroup.com',
    address: '490 Post Street',
    city: 'San Francisco',
    state: 'CA',
    distanceMiles: 0.31,
    score: 74,
    breakdown: { fit: 0.84, presence: 0.3, scale: 0.2, keywords: 0.15, distance: 0.9, qualitySpread: 0.2 },
  },
  autoDealer: {
    name: 'Mercedes-Benz of San Francisco',
    category: 'Auto Dealer',
    types: ['car_dealer'],
    address: '1480 Folsom Street',
    city: 'San Francisco',
    state: 'CA',
    distanceMiles: 1.2,
    score: 81,
    breakdown: { fit: 0.93, presence: 0.25, scale: 0.3, keywords: 0.2, distance: 0.7, qualitySpread: 0.2 },
  },
  plumber: {
    name: 'Standard Sheet Metal & Marine Plumbing',
    category: 'Metal Construction',
    types: [],
    phone: '+1 415 243 0167',
    website: 'https://standardsheetmetalsf.com/',
    address: '366 Brannan Street',
    city: 'San Francisco',
    distanceMiles: 2.4,
  },
  lawFirm: {
    name: 'Delfino Green & Green',
    category: 'Legal Services',
    types: ['lawyer'],
    phone: '+1415-442-4646',
    website: 'https://www.dgglaw.com',
    address: '220 Montgomery Street',
    city: 'San Francisco',
    state: 'CA',
    distanceMiles: 0.6,
    score: 79,
    reasoning: 'Good prospect: personal injury firms are among the strongest streaming TV and search buyers.',
  },
};

const LISTS = [
  'keyTalkingPoints',
  'objectionHandlers',
  'competitiveAngles',
  'verticalInsights',
  'discoveryQuestions',
  'hookLines',
  'mediaMix',
  'plan30Day',
] as const;

function expectComplete(s: Strategy) {
  expect(StrategySchema.parse(s)).toEqual(s);
  for (const key of STRATEGY_SECTIONS) {
    const value = s[key];
    expect(value, key).toBeDefined();
    if (typeof value === 'string') expect(value.trim().length, key).toBeGreaterThan(10);
  }
  for (const key of LISTS) expect(s[key]?.length ?? 0, key).toBeGreaterThanOrEqual(REQUESTED_MINIMUMS[key]);
  expect(s.keyTalkingPoints.length).toBeLessThanOrEqual(12);
  expect(s.objectionHandlers.length).toBeLessThanOrEqual(12);
  expect((s.mediaMix ?? []).reduce((a, r) => a + r.percent, 0)).toBe(100);
  expect(s.bestTimeToCall.startsWith(DEFAULT_BEST_TIME_TO_CALL)).toBe(true);
  const text = JSON.stringify(s);
  expect(text).not.toMatch(/\{(name|area|noun|customers|job)\}|undefined|NaN|null/);
  for (const list of [
    s.keyTalkingPoints,
    s.competitiveAngles,
    s.discoveryQuestions,
    s.hookLines,
    s.plan30Day,
  ]) {
    expect(new Set(list).size).toBe(list?.length);
  }
}

describe('playbookStrategy on four SF businesses', () => {
  const strategies = Object.fromEntries(Object.entries(SF).map(([k, input]) => [k, playbookStrategy(input)]));
  const get = (k: string): Strategy => {
    const s = strategies[k];
    if (!s) throw new Error(k);
    return s;
  };

  it.each(Object.keys(SF))('%s: every section filled, at least to the requested counts', (key) => {
    expectComplete(get(key));
  });

  it.each(Object.keys(SF))('%s: byte-identical on a second run', (key) => {
    const input = SF[key];
    if (!input) throw new Error(key);
    expect(JSON.stringify(playbookStrategy(structuredClone(input)))).toBe(JSON.stringify(get(key)));
  });

  it('differs by vertical', () => {
    const keys = Object.keys(SF);
    for (const a of keys) {
      for (const b of keys) {
        if (a >= b) continue;
        const sa = get(a);
        const sb = get(b);
        expect(sa.valueProposition, `${a}/${b}`).not.toBe(sb.valueProposition);
        expect(sa.verticalInsights, `${a}/${b}`).not.toEqual(sb.verticalInsights);
        expect(sa.objectionHandlers[0], `${a}/${b}`).not.toEqual(sb.objectionHandlers[0]);
        expect(sa.mediaMix, `${a}/${b}`).not.toEqual(sb.mediaMix);
      }
    }
    expect(get('dentist').openingLine).toContain('dental practices');
    expect(get('autoDealer').openingLine).toContain('dealerships');
    expect(get('plumber').openingLine).toContain('plumbing companies');
    expect(get('lawFirm').openingLine).toContain('law firms');
    expect(
      get('autoDealer')
        .objectionHandlers.map((o) => o.objection)
        .join(' '),
    ).toMatch(/manufacturer/);
    expect(
      get('lawFirm')
        .objectionHandlers.map((o) => o.objection)
        .join(' '),
    ).toMatch(/Bar rules/);
  });

  it("uses the business's own data: name, website, phone, distance, address, score breakdown", () => {
    const dentist = get('dentist');
    const all = JSON.stringify(dentist);
    expect(dentist.openingLine).toContain('Union Square Dental Group');
    expect(all).toContain('unionsquaredentalgroup.com');
    expect(all).toContain('+1 415-399-1966');
    expect(all).toContain('0.3 miles');
    expect(all).toContain('490 Post Street');
    expect(dentist.verticalInsights?.[0]).toBe(
      'Why Union Square Dental Group is on the list: prospect score 74/100 (channel fit 84%, online presence 30%, scale 20%, name keywords 15%, distance 90%). Lead with its channel fit; scale is the gap to ask about.',
    );
    const dealer = JSON.stringify(get('autoDealer'));
    expect(dealer).toContain('If Mercedes-Benz of San Francisco has no website yet');
    expect(dealer).toContain('call-only ads');
    // OpenStreetMap has no reviews: nothing is said about having few.
    expect(dealer).not.toMatch(/few online reviews|still building our reputation/);
    expect(get('lawFirm').verticalInsights).toContain(
      'Analysis: Good prospect: personal injury firms are among the strongest streaming TV and search buyers.',
    );
    // Beyond 1.5 miles the rep asks for a meeting instead of offering to stop by.
    expect(get('plumber').callToAction).toMatch(/^Can we set up a 15-minute meeting/);
    expect(get('dentist').callToAction).toMatch(/^I'm about 0.3 miles away today/);
  });

  it('talks about rating and review count when the business has them', () => {
    const rated = playbookStrategy({
      ...SF['dentist'],
      name: 'Union Square Dental Group',
      category: 'Dental',
      rating: 4.8,
      reviews: 1234,
    });
    const text = JSON.stringify(rated);
    expect(rated.keyTalkingPoints[0]).toContain('4.8-star rating across 1,234 reviews');
    expect(rated.hookLines?.[0]).toContain('4.8 stars from 1,234 reviews');
    expect(text).toContain('Our reviews speak for themselves.');
    expect(text).toContain('most-reviewed dental practices');
    const low = playbookStrategy({
      ...SF['dentist'],
      name: 'Union Square Dental Group',
      category: 'Dental',
      rating: 3.2,
      reviews: 12,
    });
    expect(low.keyTalkingPoints[0]).toContain('At 3.2 stars from 12 reviews');
    expect(JSON.stringify(low)).not.toContain('speak for themselves');
  });

  it('puts the rep in the voicemail and e-mails when known', () => {
    const s = playbookStrategy({
      ...SF['lawFirm'],
      name: 'Delfino Green & Green',
      category: 'Legal Services',
      repName: 'Dana Reyes',
      repPhone: '205-555-0142',
    });
    expect(s.voicemailScript).toContain('this is Dana Reyes');
    expect(s.voicemailScript).toContain('205-555-0142');
    expect(s.introEmail?.endsWith('Best regards,\nDana Reyes')).toBe(true);
    expect(s.openingLine.startsWith('Hi, this is Dana Reyes. Is this the owner')).toBe(true);
    expect(get('lawFirm').voicemailScript).toContain('[your name]');
    // Without the rep's number the voicemail leaves the call-back line out rather than read out a blank.
    expect(get('lawFirm').voicemailScript).not.toMatch(/\[your number\]|reach me at/);
  });
});

describe('playbook media mix', () => {
  it.each(PLAYBOOK_VERTICALS)('%s: four channels from the propensity table, summing to 100', (vertical) => {
    const mix = playbookMediaMix(CHANNEL_PROPENSITY[vertical]);
    expect(mix.map((r) => r.channel).sort()).toEqual([
      'CTV',
      'Display',
      'Online Video',
      'Search Engine Marketing',
    ]);
    expect(mix.reduce((a, r) => a + r.percent, 0)).toBe(100);
    for (let i = 1; i < mix.length; i++) expect(mix[i - 1]!.percent).toBeGreaterThanOrEqual(mix[i]!.percent);
  });

  it('weights each channel by its fit weight times propensity squared', () => {
    // auto dealer: 0.4*.95² = .361, 0.25*.9² = .2025, 0.15*.85² = .108375, 0.2*.9² = .162 (sum .833875)
    expect(playbookMediaMix(CHANNEL_PROPENSITY.auto_dealer)).toEqual([
      { channel: 'CTV', percent: 43 },
      { channel: 'Online Video', percent: 24 },
      { channel: 'Search Engine Marketing', percent: 20 },
      { channel: 'Display', percent: 13 },
    ]);
    // Quick-service restaurants lean to display, where the table rates them highest.
    expect(playbookMediaMix(CHANNEL_PROPENSITY.qsr)[0]?.channel).toBe('Display');
  });
});

describe('every vertical playbook', () => {
  const sample: Record<string, StrategyInput> = {
    auto_dealer: { name: 'A', category: 'Auto Dealer' },
    legal: { name: 'B', category: 'Legal Services' },
    home_services: { name: 'C', category: 'Roofing' },
    health: { name: 'D', category: 'Medical' },
    furniture: { name: 'E', category: 'Furniture' },
    insurance: { name: 'F', category: 'Insurance' },
    fitness: { name: 'G', category: 'Fitness' },
    restaurant: { name: 'H', category: 'Restaurant' },
    bar: { name: 'I', category: 'Bar' },
    hotel: { name: 'J', category: 'Hotel' },
    qsr: { name: 'K', category: 'Fast Food' },
    real_estate: { name: 'L', category: 'Real Estate' },
    other: { name: 'M', category: 'Beauty Salon' },
  };

  it.each(PLAYBOOK_VERTICALS)('%s: complete with only a name and a category', (vertical) => {
    const input = sample[vertical];
    if (!input) throw new Error(vertical);
    const s = playbookStrategy(input);
    expectComplete(s);
    expect(s.valueProposition).toBe(
      PLAYBOOKS[vertical].valueProposition
        .replace(/\{name\}'s/g, `${input.name}'s`)
        .replace(/\{name\}/g, input.name)
        .replace(/\{area\}/g, 'your area'),
    );
  });

  it("names an 'other' business by its category", () => {
    expect(playbookStrategy({ name: 'Glow', category: 'Beauty Salon' }).openingLine).toContain(
      'beauty salons',
    );
    expect(playbookStrategy({ name: 'Acme', category: 'Business' }).openingLine).toContain(
      'local businesses',
    );
    expect(playbookStrategy({ name: 'Acme', category: 'Auto Repair' }).hookLines).toContain(
      'Your neighbours are looking for an auto repair business like Acme. Be the one they find.',
    );
    expect(playbookStrategy({ name: 'Corner ATM', category: 'ATM' }).openingLine).toContain('ATM businesses');
    expect(playbookStrategy({ name: 'Bay Lanes', category: 'Bowling Alley' }).openingLine).toContain(
      'bowling alleys',
    );
    expect(playbookStrategy({ name: 'Oak Pharmacy', category: 'Pharmacy' }).openingLine).toContain(
      'pharmacies',
    );
  });
});

describe('playbookStrategy on arbitrary input', () => {
  const input = fc.record(
    {
      name: fc.string({ minLength: 0, maxLength: 40 }),
      category: fc.constantFrom(
        'Dental',
        'Auto Dealer',
        'Plumbing',
        'Legal Services',
        'Hotel',
        'Business',
        '',
      ),
      types: fc.array(fc.constantFrom('dentist', 'car_dealer', 'plumber', 'lawyer', 'bar', 'gym', 'cafe')),
      rating: fc.double({ min: 0, max: 5, noNaN: true }),
      reviews: fc.integer({ min: 0, max: 100000 }),
      website: fc.constantFrom('', 'https://example.com/x', 'example.org'),
      phone: fc.constantFrom('', '(205) 555-0100'),
      city: fc.constantFrom('', 'Birmingham'),
      distanceMiles: fc.double({ min: 0, max: 30, noNaN: true }),
      score: fc.integer({ min: 0, max: 100 }),
      breakdown: fc.dictionary(
        fc.constantFrom('fit', 'presence', 'scale', 'keywords', 'distance'),
        fc.double({ min: 0, max: 1, noNaN: true }),
      ),
    },
    { requiredKeys: ['name', 'category'] },
  );

  it('is always valid, complete and deterministic', () => {
    fc.assert(
      fc.property(input, (i) => {
        const s = playbookStrategy(i);
        expect(StrategySchema.safeParse(s).success).toBe(true);
        for (const key of LISTS) expect(s[key]?.length ?? 0).toBeGreaterThanOrEqual(REQUESTED_MINIMUMS[key]);
        expect((s.mediaMix ?? []).reduce((a, r) => a + r.percent, 0)).toBe(100);
        expect(JSON.stringify(playbookStrategy(i))).toBe(JSON.stringify(s));
      }),
      { numRuns: 200 },
    );
  });

  it('formats counts without depending on the locale', () => {
    expect([0, 7, 999, 1000, 1234567].map(formatCount)).toEqual(['0', '7', '999', '1,000', '1,234,567']);
  });
});

describe('a name that ends in a full stop', () => {
  it('gets no second one where a sentence ends on it ("Magic City Plumbing Co.")', () => {
    const name = 'Magic City Plumbing Co.';
    const s = playbookStrategy({ name, category: 'Plumbing' });
    const all = JSON.stringify(s);
    expect(all).toContain(name);
    expect(all).not.toContain(`${name}.`);
    // The same texts for a name without the stop still end their sentences.
    expect(JSON.stringify(playbookStrategy({ name: 'Magic City Plumbing', category: 'Plumbing' }))).toContain(
      'Magic City Plumbing.',
    );
  });
});
