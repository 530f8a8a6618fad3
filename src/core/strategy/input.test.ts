import { describe, expect, it } from 'vitest';
import type { Prospect, ProspectAnalysis } from '../types';
import { strategyInputFromProspect } from './input';

const prospect: Prospect = {
  id: 'osm:node/10594658906',
  name: 'Union Square Dental Group',
  category: 'Dental',
  address: '490 Post Street',
  city: 'San Francisco',
  state: 'CA',
  phone: '+1 415-399-1966',
  website: 'https://unionsquaredentalgroup.com',
  lat: 37.7882195,
  lng: -122.409808,
  openNow: true,
  reviews: 0,
  source: 'local',
  distance: 0.31,
  score: 0.74,
  types: ['dentist'],
};

const analysis: ProspectAnalysis = {
  score: 74,
  reasoning: 'Good prospect.',
  confidence: 70,
  recommendations: ['CTV'],
  breakdown: {
    vertical: 'dental',
    rule: null,
    fit: 0.84,
    presence: 0.3,
    scale: 0.2,
    keywords: 0.15,
    distance: 0.9,
    qualitySpread: 0.2,
    contributions: {
      fit: 0.378,
      presence: 0.06,
      scale: 0.02,
      keywords: 0.0135,
      distance: 0.054,
      qualitySpread: 0.02,
    },
    raw: 0.5455,
    propensity: { ctv: 0.85, olv: 0.8, display: 0.75, sem: 0.95 },
    dealerGroup: false,
    brand: null,
    keywordMatches: ['dental'],
  },
  analyzedAt: '2026-11-22T08:00:00.000Z',
  businessHash: 'osm:node/10594658906',
  modelVersion: 'v1',
};

describe('strategyInputFromProspect', () => {
  it('carries the facts, and the score, vertical, reasoning and breakdown of the analysis', () => {
    expect(strategyInputFromProspect({ ...prospect, aiAnalysis: analysis })).toEqual({
      name: 'Union Square Dental Group',
      category: 'Dental',
      types: ['dentist'],
      reviews: 0,
      distanceMiles: 0.31,
      score: 74,
      website: 'https://unionsquaredentalgroup.com',
      phone: '+1 415-399-1966',
      address: '490 Post Street',
      city: 'San Francisco',
      state: 'CA',
      reasoning: 'Good prospect.',
      vertical: 'dental',
      breakdown: { fit: 0.84, presence: 0.3, scale: 0.2, keywords: 0.15, distance: 0.9, qualitySpread: 0.2 },
    });
  });

  it('without an analysis, scales the 0-1 prospect score to 0-100', () => {
    const input = strategyInputFromProspect({ ...prospect, rating: 4.6, reviews: 88 });
    expect(input.score).toBe(74);
    expect(input.rating).toBe(4.6);
    expect(input.reviews).toBe(88);
    expect(input.breakdown).toBeUndefined();
    expect(input.vertical).toBeUndefined();
  });
});
