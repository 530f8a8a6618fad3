import { describe, expect, it } from 'vitest';
import { countLocations, LocationCounter, locationKey } from './market';

describe('countLocations', () => {
  it('counts the distinct places of each business, a node and its building once', () => {
    const counts = countLocations([
      { name: 'Magnolia Bakery', lat: 33.5201, lng: -86.8102 },
      { name: 'Magnolia Bakery', lat: 33.52012, lng: -86.81018 }, // the same shop as its building
      { name: 'Magnolia Bakery', lat: 34.7304, lng: -86.5861 },
      { name: 'Magnolia Bakery', lat: -33.8688, lng: 151.2093 }, // the other hemispheres are other cells
      { name: 'Pecan Hardware', lat: 33.5, lng: -86.8 },
      { name: 'Salon', lat: 33.5, lng: -86.8 }, // a name that says only what it is
      { name: 'Salon', lat: 34.5, lng: -86.8 },
    ]);
    expect(counts.get(locationKey('Magnolia Bakery') ?? '')).toBe(3);
    expect(counts.size).toBe(1); // one place of Pecan Hardware is not counted; 'Salon' has no key
  });

  it('keeps cells apart across the equator and the meridians', () => {
    const c = new LocationCounter();
    // Mirror images of one cell: a string-free encoding must not confuse them.
    for (const [lat, lng] of [
      [0.001, 0.001],
      [-0.001, 0.001],
      [0.001, -0.001],
      [-0.001, -0.001],
      [89.9, 179.9],
      [-89.9, -179.9],
    ] as const)
      c.add('Gulf Coast Outfitters', lat, lng);
    expect([...c.counts().values()]).toEqual([6]);
  });
});
