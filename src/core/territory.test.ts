import { describe, expect, it } from 'vitest';
import type { TerritoryArea } from './api/territories';
import {
  TERRITORY_CROSSES_ITSELF,
  TERRITORY_HOLE_OUTSIDE,
  TERRITORY_NO_AREA,
  TERRITORY_RING_OPEN,
  TERRITORY_TOO_FEW_POINTS,
  areaFromZips,
  checkTerritoryArea,
  isInTerritory,
  territoryBox,
  territoryCircle,
  territoryContains,
  territorySquareMiles,
} from './territory';

// Union Square, San Francisco: about 0.44 x 0.28 miles.
const unionSquare: TerritoryArea = {
  type: 'Polygon',
  coordinates: [
    [
      [-122.41, 37.786],
      [-122.405, 37.786],
      [-122.405, 37.79],
      [-122.41, 37.79],
      [-122.41, 37.786],
    ],
  ],
};

const square = (lng: number, lat: number, size: number): [number, number][] => [
  [lng, lat],
  [lng + size, lat],
  [lng + size, lat + size],
  [lng, lat + size],
  [lng, lat],
];

describe('checkTerritoryArea', () => {
  it('accepts a simple polygon and measures it in square miles', () => {
    const check = checkTerritoryArea(unionSquare, 2000);
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    // 0.005° lng x cos(37.788°) x 69.17 mi x 0.004° lat x 69.05 mi ≈ 0.0756 sq mi
    expect(check.squareMiles).toBeGreaterThan(0.07);
    expect(check.squareMiles).toBeLessThan(0.08);
    expect(check.box).toEqual({ minLat: 37.786, maxLat: 37.79, minLng: -122.41, maxLng: -122.405 });
  });

  it('refuses an outline that crosses itself (a bow tie)', () => {
    const bowTie: TerritoryArea = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [1, 1],
          [1, 0],
          [0, 1],
          [0, 0],
        ],
      ],
    };
    expect(checkTerritoryArea(bowTie, 1e9)).toEqual({ ok: false, error: TERRITORY_CROSSES_ITSELF });
  });

  it('refuses an open ring and one with fewer than 3 different points', () => {
    const open: TerritoryArea = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [0.01, 0],
          [0.01, 0.01],
          [0, 0.01],
        ],
      ],
    };
    expect(checkTerritoryArea(open, 1e9)).toEqual({ ok: false, error: TERRITORY_RING_OPEN });
    const two: TerritoryArea = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [0.01, 0],
          [0.01, 0],
          [0, 0],
        ],
      ],
    };
    expect(checkTerritoryArea(two, 1e9)).toEqual({ ok: false, error: TERRITORY_TOO_FEW_POINTS });
    const line: TerritoryArea = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [0.01, 0],
          [0.02, 0],
          [0, 0],
        ],
      ],
    };
    expect(checkTerritoryArea(line, 1e9)).toEqual({ ok: false, error: TERRITORY_NO_AREA });
  });

  it('allows a hole inside the outline, refuses one outside, and takes the hole out of the area', () => {
    const outer = square(0, 0, 0.1);
    const withHole: TerritoryArea = { type: 'Polygon', coordinates: [outer, square(0.02, 0.02, 0.05)] };
    const check = checkTerritoryArea(withHole, 1e9);
    expect(check.ok).toBe(true);
    expect(territorySquareMiles(withHole)).toBeLessThan(
      territorySquareMiles({ type: 'Polygon', coordinates: [outer] }),
    );
    expect(isInTerritory(withHole, { lng: 0.01, lat: 0.01 })).toBe(true);
    expect(isInTerritory(withHole, { lng: 0.04, lat: 0.04 })).toBe(false);
    const outside: TerritoryArea = { type: 'Polygon', coordinates: [outer, square(0.5, 0.5, 0.01)] };
    expect(checkTerritoryArea(outside, 1e9)).toEqual({ ok: false, error: TERRITORY_HOLE_OUTSIDE });
  });

  it('refuses an area over the most, naming both figures', () => {
    const big: TerritoryArea = { type: 'Polygon', coordinates: [square(-100, 40, 1)] };
    const check = checkTerritoryArea(big, 2000);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.error).toMatch(/^The territory covers 3,\d{3} square miles; the most is 2,000\.$/);
  });

  it('accepts a MultiPolygon and refuses two of its parts crossing', () => {
    const two: TerritoryArea = {
      type: 'MultiPolygon',
      coordinates: [[square(0, 0, 0.01)], [square(0.02, 0, 0.01)]],
    };
    expect(checkTerritoryArea(two, 1e9).ok).toBe(true);
    const crossing: TerritoryArea = {
      type: 'MultiPolygon',
      coordinates: [[square(0, 0, 0.01)], [square(0.005, 0.005, 0.01)]],
    };
    expect(checkTerritoryArea(crossing, 1e9)).toEqual({ ok: false, error: TERRITORY_CROSSES_ITSELF });
  });

  it('drops a point repeated by a double click', () => {
    const ring = square(0, 0, 0.01);
    const doubled: TerritoryArea = { type: 'Polygon', coordinates: [[ring[0]!, ring[1]!, ...ring.slice(1)]] };
    const check = checkTerritoryArea(doubled, 1e9);
    expect(check.ok && check.area.coordinates[0]).toEqual(ring);
  });
});

describe('inside, box and circle', () => {
  it('tells inside from outside', () => {
    const inside = territoryContains(unionSquare);
    expect(inside({ lat: 37.788, lng: -122.4075 })).toBe(true);
    expect(inside({ lat: 37.791, lng: -122.4075 })).toBe(false);
    expect(inside({ lat: 37.788, lng: -122.404 })).toBe(false);
  });

  it('a bounding circle reaches every corner', () => {
    const { center, radiusMiles } = territoryCircle(unionSquare);
    expect(center.lat).toBeCloseTo(37.788, 6);
    expect(center.lng).toBeCloseTo(-122.4075, 6);
    expect(radiusMiles).toBeGreaterThan(0.18);
    expect(radiusMiles).toBeLessThan(0.21);
    expect(territoryBox(unionSquare).maxLng).toBe(-122.405);
  });
});

describe('areaFromZips', () => {
  it('a ZIP with addresses spanning an area gets their convex hull', () => {
    const addresses = [
      { lat: 37.78, lng: -122.41 },
      { lat: 37.79, lng: -122.41 },
      { lat: 37.79, lng: -122.4 },
      { lat: 37.78, lng: -122.4 },
      { lat: 37.785, lng: -122.405 },
    ];
    const built = areaFromZips([{ zip: '94108', addresses, centroid: null }]);
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    expect(isInTerritory(built.area, { lat: 37.785, lng: -122.405 })).toBe(true);
    expect(isInTerritory(built.area, { lat: 37.795, lng: -122.405 })).toBe(false);
  });

  it('a ZIP known only by its centre gets a circle of about a mile; two merge into one area', () => {
    const built = areaFromZips([
      { zip: '35203', addresses: [], centroid: { lat: 33.52, lng: -86.81 } },
      { zip: '35204', addresses: [], centroid: { lat: 33.53, lng: -86.81 } },
    ]);
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    const miles = territorySquareMiles(built.area);
    // Two overlapping circles of π sq mi each, their overlap counted once.
    expect(miles).toBeGreaterThan(Math.PI);
    expect(miles).toBeLessThan(2 * Math.PI);
    expect(built.area.type).toBe('Polygon');
    expect(checkTerritoryArea(built.area, 2000).ok).toBe(true);
  });

  it('names the ZIP codes known to neither', () => {
    expect(
      areaFromZips([
        { zip: '35203', addresses: [], centroid: { lat: 33.52, lng: -86.81 } },
        { zip: '00000', addresses: [], centroid: null },
      ]),
    ).toEqual({ ok: false, unknown: ['00000'] });
  });
});
