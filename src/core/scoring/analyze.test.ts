import { describe, expect, it } from 'vitest';
import { businessCacheKey, businessHash } from '../types';
import {
  analyzeBatch,
  analyzeOne,
  band,
  classify,
  confidence,
  displayScore,
  fallbackAnalysis,
  fallbackCategoryScore,
  rankProspects,
  recommendations,
  type AnalysisInput,
} from './analyze';
import { buildBrandIndex, type NsiData } from './brand-index';
import { PROPENSITY_ROWS } from './constants';
import { WORKED_EXAMPLES } from './examples';

const NOW = new Date('2026-11-22T08:00:00.000Z');
const nsi: NsiData = {
  nsi: {
    'brands/amenity/fast_food': {
      items: [
        { displayName: 'Burger Planet', locationSet: { include: ['001'] }, tags: { brand: 'Burger Planet', 'brand:wikidata': 'Q1' } },
        { displayName: 'Taco Shack', locationSet: { include: ['us-ca.geojson'] }, tags: { brand: 'Taco Shack', 'brand:wikidata': 'Q2' } },
      ],
    },
    'brands/amenity/fuel': {
      items: [{ displayName: 'Gasco', locationSet: { include: ['us'] }, tags: { brand: 'Gasco', 'brand:wikidata': 'Q3' } }],
    },
    'brands/shop/car': {
      items: [{ displayName: 'Toyota', locationSet: { include: ['001'] }, tags: { brand: 'Toyota', 'brand:wikidata': 'Q53268' } }],
    },
  },
}; // prettier-ignore
const brandIndex = buildBrandIndex(nsi);

const full: AnalysisInput = {
  name: 'Bright Smiles Dental',
  types: ['dentist'],
  website: 'https://example.com',
  phone: '555-0105',
  rating: 4.5,
  reviewCount: 100,
  distance: 1,
  address: '1 Main St',
  category: 'Dental',
};

describe('classify', () => {
  it('uses types, category labels, OSM tags and the name', () => {
    expect(classify({ name: 'X', types: ['car_dealer', 'car_repair'] })).toBe('auto_dealer');
    expect(classify({ name: 'X', types: ['car_repair'] })).toBe('auto_repair');
    expect(classify({ name: 'X', category: 'Legal Services' })).toBe('legal');
    expect(classify({ name: 'X', category: 'Dental' })).toBe('dental');
    expect(classify({ name: 'X', category: 'Auto Dealer' })).toBe('auto_dealer');
    expect(classify({ name: 'X', tags: { tourism: 'hotel' } })).toBe('hotel');
    expect(classify({ name: 'X', tags: { amenity: 'fast_food' }, types: ['restaurant'] })).toBe('restaurant');
    expect(classify({ name: 'Sunrise Orthodontics', types: ['dentist'] })).toBe('orthodontics');
    expect(classify({ name: 'Cool Air HVAC', category: 'Business' })).toBe('hvac');
    expect(classify({ name: 'City of Oakland Permit Center' })).toBe('government');
    expect(classify({ name: 'Grace Community Church' })).toBe('nonprofit');
    expect(classify({ name: 'Church Street Cleaners' })).toBe('other');
    expect(classify({ name: 'Nothing Special' })).toBe('other');
  });
});

describe('rule scores', () => {
  // `full` minus its Dental category, so the types below decide the vertical
  const plain: AnalysisInput = { ...full, category: null, types: [] };
  const one = (i: AnalysisInput) =>
    analyzeOne({ ...i, category: i.category ?? null }, { brandIndex, now: NOW });

  it('national chains score 0 (by NSI name or brand:wikidata tag)', () => {
    const r = one({ ...plain, name: 'Burger Planet', types: ['meal_takeaway'] });
    expect(r.score).toBe(0);
    expect(r.breakdown.rule).toBe('nationalChain');
    expect(r.breakdown.brand).toBe('Burger Planet');
    expect(
      one({ ...plain, name: 'Store #4411', tags: { amenity: 'fast_food', 'brand:wikidata': 'Q1' } }).score,
    ).toBe(0);
  });

  it('low-propensity categories score 0', () => {
    expect(one({ name: 'Garage 5', types: ['parking'] }).breakdown.rule).toBe('lowPropensity');
    expect(one({ name: 'ATM', types: ['atm'] }).score).toBe(0);
  });

  it('auto repair (not a dealer) scores 5; a dealer with a workshop is scored as a dealer', () => {
    expect(one({ ...plain, name: "Joe's Garage", types: ['car_repair'] }).score).toBe(5);
    expect(
      one({ ...plain, name: 'Bay Motors', types: ['car_dealer', 'car_repair'] }).breakdown.rule,
    ).toBeNull();
  });

  it('prefilter: other chains 5, gas stations 10, government 15, non-profits 20', () => {
    expect(one({ ...plain, name: 'Taco Shack', types: ['meal_takeaway'] })).toMatchObject({
      score: 5,
      breakdown: { rule: 'chain' },
    });
    expect(
      one({ ...plain, name: 'Cafe 9', tags: { amenity: 'cafe', 'brand:wikidata': 'Q999999' } }).score,
    ).toBe(5);
    // a bare brand tag NSI does not know is not evidence enough
    expect(
      one({ ...plain, name: 'Cafe 9', tags: { amenity: 'cafe', brand: 'Cafe 9' } }).breakdown.rule,
    ).toBeNull();
    // ... but a brand tag NSI knows is
    expect(
      one({ ...plain, name: 'Store 12', tags: { amenity: 'fast_food', brand: 'Taco Shack' } }).score,
    ).toBe(5);
    expect(one({ ...plain, name: 'Corner Fuel', types: ['gas_station'] }).score).toBe(10);
    expect(one({ ...plain, name: 'Gasco', types: ['gas_station'] }).score).toBe(0); // national chain first
    expect(one({ ...plain, name: 'DMV Office', types: ['local_government_office'] }).score).toBe(15);
    expect(one({ ...plain, name: 'Food Bank', tags: { office: 'ngo' } }).score).toBe(20);
  });

  it('a dealer tagged with a car make is a franchise, not a chain', () => {
    const r = one({
      ...plain,
      name: 'Toyota of the Bay',
      types: ['car_dealer'],
      brand: 'Toyota',
      brandWikidata: 'Q53268',
    });
    expect(r.breakdown.rule).toBeNull();
    expect(r.score).toBeGreaterThan(50);
    const tagOnly = analyzeOne(
      { ...plain, name: 'Ford of Oakland', tags: { shop: 'car', brand: 'Ford' } },
      { now: NOW },
    );
    expect(tagOnly.breakdown.rule).toBeNull();
  });

  it('rule-scored results still recommend nothing and say why', () => {
    const r = one({ ...plain, name: 'Burger Planet', types: ['meal_takeaway'] });
    expect(r.recommendations).toEqual(['Not a local advertising prospect']);
    expect(r.reasoning).toContain('Burger Planet is an outlet of Burger Planet, a national chain');
    expect(r.reasoning).toContain('Not a local advertising prospect');
  });
});

describe('display score', () => {
  it('maps raw 0..1 onto 10..90 with exponent 1.3', () => {
    expect(displayScore(0)).toBe(10);
    expect(displayScore(1)).toBe(90);
    expect(displayScore(0.5)).toBe(Math.round(10 + 80 * 0.5 ** 1.3));
    expect(displayScore(0.5)).toBe(42);
    expect(displayScore(-3)).toBe(10);
    expect(displayScore(7)).toBe(90);
  });
});

describe('the weighted raw score', () => {
  it('is the weighted sum of the components (plus the spread bonus)', () => {
    const [r] = analyzeBatch([full], { now: NOW });
    if (!r) throw new Error('no result');
    const b = r.breakdown;
    expect(b.contributions.fit).toBeCloseTo(0.45 * b.fit, 12);
    expect(b.contributions.presence).toBeCloseTo(0.2 * b.presence, 12);
    expect(b.contributions.scale).toBeCloseTo(0.1 * b.scale, 12);
    expect(b.contributions.keywords).toBeCloseTo(0.09 * b.keywords, 12);
    expect(b.contributions.distance).toBeCloseTo(0.06 * b.distance, 12);
    expect(b.qualitySpread).toBe(0); // one score: p75 = p25
    expect(b.raw).toBeCloseTo(
      Object.values(b.contributions).reduce((a, x) => a + x, 0),
      12,
    );
    expect(r.score).toBe(displayScore(b.raw));
    expect(b.vertical).toBe('dental');
    expect(b.propensity).toEqual(PROPENSITY_ROWS.dental_medical);
  });

  it('adds 10% of the batch quality spread to every model-scored business', () => {
    const batch: AnalysisInput[] = [
      full,
      { name: 'Quiet Cafe', types: ['cafe'] },
      { ...full, name: 'Hendrick Toyota Auto Group', types: ['car_dealer'], reviewCount: 900 },
      { name: 'Local Tap', types: ['bar'], rating: 4.2, reviewCount: 90, distance: 2.5 },
      { name: "Joe's Garage", types: ['car_repair'] },
    ];
    const rs = analyzeBatch(batch, { now: NOW });
    const bases = rs
      .slice(0, 4)
      .map((r) => (r.breakdown.raw - r.breakdown.contributions.qualitySpread) * 100)
      .sort((a, b) => a - b);
    // p25 and p75 of four values with linear interpolation
    const p = (q: number) => {
      const pos = 3 * q;
      const lo = Math.floor(pos);
      return (bases[lo] ?? 0) + ((bases[lo + 1] ?? 0) - (bases[lo] ?? 0)) * (pos - lo);
    };
    const spread = (p(0.75) - p(0.25)) / 100;
    expect(spread).toBeGreaterThan(0.05);
    for (const r of rs.slice(0, 4)) {
      expect(r.breakdown.qualitySpread).toBeCloseTo(spread, 12);
      expect(r.breakdown.contributions.qualitySpread).toBeCloseTo(0.1 * spread, 12);
    }
    expect(rs[4]?.breakdown.qualitySpread).toBe(0);
    expect(rs[4]?.score).toBe(5);
    // alone, the dentist scores lower than in a varied batch
    expect(rs[0]!.score).toBeGreaterThanOrEqual(analyzeOne(full, { now: NOW }).score);
  });

  it('keeps input order, stamps the model version, time and cache key', () => {
    const rs = analyzeBatch([full, { ...full, name: 'Other Dental', placeId: 'P9' }], { now: NOW });
    expect(rs.map((r) => r.modelVersion)).toEqual(['v4', 'v4']);
    expect(rs[0]?.analyzedAt).toBe('2026-11-22T08:00:00.000Z');
    expect(rs[0]?.businessHash).toBe(
      businessHash({ name: full.name, address: full.address, category: full.category }),
    );
    expect(rs[1]?.businessHash).toBe('place_P9');
    // A business with a provider id and no place id: the key a scan's cache uses.
    const [osm] = analyzeBatch([{ ...full, id: 'osm:node/7' }], { now: NOW });
    expect(osm?.businessHash).toBe(
      businessCacheKey({ id: 'osm:node/7', name: full.name, address: '', category: '' }),
    );
    expect(osm?.businessHash).toBe('place_osm:node/7');
    expect(analyzeBatch([], { now: NOW })).toEqual([]);
  });

  it('a named franchised-dealer group adds 0.03 to fit and presence', () => {
    const plain = analyzeOne({ ...full, name: 'Bay Toyota', types: ['car_dealer'] }, { now: NOW }).breakdown;
    const group = analyzeOne(
      { ...full, name: 'Bay Toyota Auto Group', types: ['car_dealer'] },
      { now: NOW },
    ).breakdown;
    expect(plain.dealerGroup).toBe(false);
    expect(group.dealerGroup).toBe(true);
    expect(group.fit - plain.fit).toBeCloseTo(0.03, 12);
    expect(group.presence - plain.presence).toBeCloseTo(0.03, 12);
    // only dealers
    expect(
      analyzeOne({ ...full, name: 'Smile Automotive Group Dental' }, { now: NOW }).breakdown.dealerGroup,
    ).toBe(false);
  });

  it('scores more data, more reviews and a nearer business higher', () => {
    const s = (i: AnalysisInput) => analyzeOne(i, { now: NOW }).score;
    expect(s(full)).toBeGreaterThan(s({ ...full, website: null }));
    expect(s({ ...full, reviewCount: 400 })).toBeGreaterThan(s(full));
    expect(s(full)).toBeGreaterThan(s({ ...full, distance: 2.9 }));
    expect(s({ ...full, types: ['car_dealer'], name: 'Bay Motors' })).toBeGreaterThan(
      s({ ...full, types: ['restaurant'], name: 'Bay Bistro' }),
    );
  });
});

describe('worked examples of docs/SCORING.md', () => {
  const expected: Record<string, number> = {
    auto_dealer: 66,
    injury_law: 59,
    hvac: 61,
    plumbing: 47,
    roofing: 53,
    dental: 52,
    orthodontics: 56,
    medical: 50,
    furniture: 48,
    insurance: 47,
    fitness: 49,
    restaurant: 39,
    real_estate: 44,
    // No website and no phone: a rep must find a number first, so it keeps 90 % of its score above the floor.
    bar: 21,
    hotel: 31,
    qsr: 20,
    other: 31,
  };
  it.each(WORKED_EXAMPLES.map((e) => [e.vertical, e.input] as const))('%s', (vertical, input) => {
    const r = analyzeOne(input, { now: NOW });
    expect(r.breakdown.vertical).toBe(vertical);
    expect(r.score).toBe(expected[vertical]);
  });
});

describe('bands, confidence, recommendations', () => {
  it('bands at 80, 60 and 40', () => {
    expect(band(80)).toBe('excellent');
    expect(band(79)).toBe('good');
    expect(band(60)).toBe('good');
    expect(band(59)).toBe('decent');
    expect(band(40)).toBe('decent');
    expect(band(39)).toBe('poor');
    expect(analyzeOne(full, { now: NOW }).reasoning).toMatch(/^Decent prospect \(52\/100\)\./);
  });

  it('reasoning under 30 recommends "Not a local advertising prospect"', () => {
    const r = analyzeOne({ name: 'Local Tap', types: ['bar'] }, { now: NOW });
    expect(r.score).toBeLessThan(30);
    expect(r.reasoning).toContain('Not a local advertising prospect');
    expect(r.recommendations).toEqual(['Not a local advertising prospect']);
  });

  it('confidence: category 40, rating + reviews 30, website + phone 30', () => {
    expect(confidence(full, 'dental')).toBe(100);
    expect(confidence({ name: 'X' }, 'other')).toBe(0);
    expect(confidence({ name: 'X', category: 'Business' }, 'other')).toBe(0);
    expect(confidence({ name: 'X', category: 'Stationery' }, 'other')).toBe(40);
    expect(confidence({ name: 'X', rating: 4 }, 'other')).toBe(15);
    expect(confidence({ name: 'X', reviewCount: 3 }, 'other')).toBe(15);
    expect(confidence({ name: 'X', website: 'w' }, 'other')).toBe(15);
    expect(confidence({ name: 'X', phone: 'p' }, 'other')).toBe(15);
    expect(confidence({ name: 'X', phone: '  ' }, 'dental')).toBe(40);
  });

  it('recommends channels from the propensities', () => {
    expect(recommendations(70, PROPENSITY_ROWS.auto_dealer)).toEqual([
      'Linear TV',
      'Streaming TV/CTV',
      'Online Video',
      'Display',
      'Search Engine Marketing',
    ]);
    expect(recommendations(70, PROPENSITY_ROWS.insurance)).toEqual([
      'Streaming TV/CTV',
      'Online Video',
      'Display',
      'Search Engine Marketing',
    ]);
    expect(recommendations(70, PROPENSITY_ROWS.real_estate)).toEqual(['Display', 'Search Engine Marketing']);
    expect(recommendations(50, PROPENSITY_ROWS.full_service_restaurant)).toEqual(['Display']);
    expect(recommendations(50, PROPENSITY_ROWS.other)).toEqual(['Search Engine Marketing']);
    expect(recommendations(29, PROPENSITY_ROWS.auto_dealer)).toEqual(['Not a local advertising prospect']);
    expect(recommendations(30, PROPENSITY_ROWS.auto_dealer)).toContain('Linear TV');
  });
});

describe('rankProspects', () => {
  it('sorts by score descending with a stable tie-break (nearer, then name, then input order)', () => {
    const items = [
      { name: 'b', score: 50, distance: 1 },
      { name: 'a', score: 50, distance: 1 },
      { name: 'c', score: 70, distance: 2 },
      { name: 'd', score: 50, distance: 0.5 },
      { name: 'e', score: 50 },
      { name: 'a', score: 50, distance: 1, tag: 2 },
    ];
    expect(rankProspects(items).map((x) => x.name)).toEqual(['c', 'd', 'a', 'a', 'b', 'e']);
    expect(rankProspects(items)[2]).toBe(items[1]);
    expect(rankProspects(items)[3]).toBe(items[5]);
    expect(items[0]?.name).toBe('b'); // input untouched
  });
});

describe('fallback category scoring', () => {
  it('uses the category base, +0.1 website, +0.1 rating above 4, capped at 1', () => {
    expect(fallbackCategoryScore({ name: 'X', types: ['car_dealer'] })).toBe(0.8);
    expect(fallbackCategoryScore({ name: 'X', types: ['car_dealer'], website: 'w', rating: 4.5 })).toBe(1);
    expect(fallbackCategoryScore({ name: 'Cool Air HVAC' })).toBe(0.7);
    expect(fallbackCategoryScore({ name: 'Bay Orthodontics', types: ['dentist'] })).toBe(0.7);
    expect(fallbackCategoryScore({ name: 'X', category: 'Dental' })).toBe(0.6);
    expect(fallbackCategoryScore({ name: 'X', types: ['plumber'] })).toBe(0.6);
    expect(fallbackCategoryScore({ name: 'X', types: ['roofing_contractor'] })).toBe(0.6);
    expect(fallbackCategoryScore({ name: 'X', types: ['lawyer'] })).toBe(0.4);
    expect(fallbackCategoryScore({ name: 'X', types: ['lawyer'], website: 'w' })).toBe(0.5);
    expect(fallbackCategoryScore({ name: 'X', types: ['lawyer'], rating: 4 })).toBe(0.4);
    expect(fallbackCategoryScore({ name: 'X', types: ['lawyer'], rating: 4.01 })).toBe(0.5);
  });

  it('builds a full analysis from it', () => {
    const r = fallbackAnalysis({ name: 'Bay Motors', types: ['car_dealer'], website: 'w' }, { now: NOW });
    expect(r.score).toBe(90);
    expect(r.breakdown.rule).toBe('fallback');
    expect(r.reasoning).toContain('Auto Dealer base 0.8');
    expect(r.modelVersion).toBe('v4');
    expect(r.recommendations[0]).toBe('Linear TV');
  });
});
