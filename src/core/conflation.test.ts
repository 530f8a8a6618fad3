import { describe, expect, it } from 'vitest';
import { matchScore, nameSimilarity, type MatchRecord } from './conflation';
import { phoneKey } from './dedup';

const at = (name: string, metersNorth = 0, more: Partial<MatchRecord> = {}): MatchRecord => ({
  name,
  lat: 37.785 + metersNorth / 111_000,
  lng: -122.401,
  phone: null,
  website: null,
  ...more,
});

describe('nameSimilarity', () => {
  it('reads names as their words, legal suffixes and punctuation aside', () => {
    expect(nameSimilarity('Hooshmand Law Group', 'Hooshmand Law Group, Inc.')).toBe(1);
    expect(nameSimilarity('MoveCentral', 'Move Central')).toBe(1);
    expect(nameSimilarity('The Dental Suite', 'Dental Suite')).toBe(1);
    expect(nameSimilarity('Hooshmand Law Group', 'Hooshmand Law Group APC')).toBeCloseTo(6 / 7);
    expect(nameSimilarity("Joe's Pizza", "Joe's Barber Shop")).toBeCloseTo(0.4);
    expect(nameSimilarity('Sutter Urgent Care', 'One Medical')).toBe(0);
  });
});

describe('phoneKey', () => {
  it('keeps the national number of the first phone', () => {
    expect(phoneKey('+1 (415) 555-0100;+1 415 555 0199')).toBe('4155550100');
    expect(phoneKey('415-555-0100')).toBe('4155550100');
    expect(phoneKey('911')).toBeNull();
    expect(phoneKey(null)).toBeNull();
  });
});

describe('matchScore', () => {
  it('matches one business written two ways, a few doors apart', () => {
    expect(matchScore(at('Hooshmand Law Group'), at('Hooshmand Law Group APC', 40))).not.toBeNull();
    expect(matchScore(at('Gumps'), at("Gump's", 120))).not.toBeNull();
  });

  it('keeps apart records too far apart, whatever they share', () => {
    const phone = '+14155550100';
    expect(matchScore(at('Gumps', 0, { phone }), at('Gumps', 200, { phone }))).toBeNull();
  });

  it('keeps apart near-twins: a shared word, a different phone or website', () => {
    expect(
      matchScore(
        at('Union Square Dental', 0, { phone: '+14155550101' }),
        at('Union Square Dental Lab', 5, { phone: '+14155550199' }),
      ),
    ).toBeNull();
    expect(matchScore(at("Joe's Pizza"), at("Joe's Barber Shop", 5))).toBeNull();
    expect(
      matchScore(
        at('Starbucks', 0, { phone: '+14155550101' }),
        at('Starbucks', 60, { phone: '+14155550102' }),
      ),
    ).toBeNull();
  });

  it('takes a phone or website in common as evidence for less alike names', () => {
    const a = at('Kaiser Gornick', 0, { website: 'https://www.kaisergornick.com/' });
    const b = at('Kaiser Gornick LLP Injury Attorneys', 100, {
      website: 'https://kaisergornick.com/contact',
    });
    expect(nameSimilarity(a.name, b.name)).toBeLessThan(0.75);
    expect(matchScore(a, b)).not.toBeNull();
    expect(matchScore(a, { ...b, website: null })).toBeNull();
  });

  it('scores the closer and more alike of two candidates higher', () => {
    const osm = at('Uno Dental', 0, { phone: '+14155550123' });
    const near = matchScore(osm, at('Uno Dental', 10, { phone: '+14155550123' }))!;
    const far = matchScore(osm, at('Uno Dental', 140))!;
    expect(near).toBeGreaterThan(far);
  });
});
