import { describe, expect, it } from 'vitest';
import { cleanCandidates } from '../../src/server/scans/service.js';
import { haversineMiles } from '../../src/core/geo.js';
import type { Business } from '../../src/core/types.js';

const CENTER = { lat: 37.7879, lng: -122.4066 };
const at = (id: string, name: string, lat: number, lng: number): Business => ({
  id,
  name,
  lat,
  lng,
  types: ['dentist'],
  category: 'Dental',
  address: '',
  reviews: 0,
  openNow: null,
  source: 'local',
});

describe('the scan candidates', () => {
  it('keeps only results strictly inside the radius, with a name and a location', () => {
    const inside = at('a', 'Inside', CENTER.lat + 0.01, CENTER.lng);
    const onEdge = at('b', 'On the edge', CENTER.lat + 0.02, CENTER.lng);
    const radius = haversineMiles(CENTER, onEdge);
    const kept = cleanCandidates(
      [inside, onEdge, at('c', '  ', CENTER.lat, CENTER.lng), at('d', 'No place', Number.NaN, CENTER.lng)],
      CENTER,
      radius,
    );
    expect(kept).toEqual([inside]);
    expect(cleanCandidates([onEdge], CENTER, radius + 1e-9)).toEqual([onEdge]);
  });
});
