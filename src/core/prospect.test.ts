import { describe, expect, it } from 'vitest';
import { toAnalysisInput, toProspect } from './prospect';
import { analyzeOne } from './scoring/analyze';
import type { Business } from './types';

const biz: Business = {
  id: 'osm:node/42',
  name: 'Bright Smiles Dental',
  lat: 37.79,
  lng: -122.4,
  types: ['dentist'],
  category: 'Dental',
  address: '1 Main St, San Francisco, CA 94105',
  city: 'San Francisco',
  state: 'CA',
  zip: '94105',
  phone: '555-0105',
  website: 'https://example.com',
  rating: 4.5,
  reviews: 100,
  openNow: null,
  source: 'local',
  tags: { amenity: 'dentist' },
  photos: ['A', 'B', 'C', 'D'].map((r) => ({ ref: `places/P1/photos/${r}`, authors: [] })),
};

describe('toAnalysisInput', () => {
  it('carries the analysis input fields', () => {
    const i = toAnalysisInput(biz, 1);
    expect(i).toMatchObject({
      name: biz.name,
      category: 'Dental',
      rating: 4.5,
      reviewCount: 100,
      distance: 1,
      types: ['dentist'],
    });
    expect(i.businessStatus).toBeNull();
    expect(toAnalysisInput({ ...biz, openNow: false }).businessStatus).toBe('Closed');
    expect(toAnalysisInput({ ...biz, openNow: true }).distance).toBeNull();
  });
});

describe('toProspect', () => {
  it('uses place id, else provider id, else prospect_N', () => {
    expect(toProspect({ ...biz, placeId: 'ChIJ9' }, { distance: 1 }).id).toBe('ChIJ9');
    expect(toProspect(biz, { distance: 1 }).id).toBe('osm:node/42');
    expect(toProspect({ ...biz, id: '' }, { distance: 1, index: 7 }).id).toBe('prospect_7');
  });

  it('defaults openNow to true, keeps up to 3 photos, and divides the score by 100', () => {
    const analysis = analyzeOne(toAnalysisInput(biz, 1), { now: new Date(0) });
    const p = toProspect(biz, { distance: 1, analysis });
    expect(p.openNow).toBe(true);
    expect(toProspect({ ...biz, openNow: false }, { distance: 1 }).openNow).toBe(false);
    expect(p.photos?.map((photo) => photo.ref)).toEqual(['A', 'B', 'C'].map((r) => `places/P1/photos/${r}`));
    expect(p.score).toBe(analysis.score / 100);
    expect(p.aiAnalysis).toBe(analysis);
    expect(toProspect(biz, { distance: 1 }).score).toBe(0);
    expect(p).toMatchObject({
      city: 'San Francisco',
      state: 'CA',
      zip: '94105',
      reviews: 100,
      source: 'local',
      distance: 1,
    });
  });
});
