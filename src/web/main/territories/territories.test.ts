import { describe, expect, it } from 'vitest';
import { positionsOf } from './territories';
import { squareMiles } from '../../admin/territories/TerritoriesSection';

describe('positionsOf', () => {
  it("turns a Polygon's [lng, lat] rings, holes included, into Leaflet's [lat, lng]", () => {
    const outer = [
      [-122.41, 37.786],
      [-122.405, 37.786],
      [-122.405, 37.79],
      [-122.41, 37.786],
    ] as [number, number][];
    const hole = [
      [-122.408, 37.787],
      [-122.407, 37.787],
      [-122.407, 37.788],
      [-122.408, 37.787],
    ] as [number, number][];
    expect(positionsOf({ type: 'Polygon', coordinates: [outer, hole] })).toEqual([
      [
        [
          [37.786, -122.41],
          [37.786, -122.405],
          [37.79, -122.405],
          [37.786, -122.41],
        ],
        [
          [37.787, -122.408],
          [37.787, -122.407],
          [37.788, -122.407],
          [37.787, -122.408],
        ],
      ],
    ]);
  });

  it('keeps each piece of a MultiPolygon apart', () => {
    const ring = (x: number) =>
      [
        [x, 1],
        [x + 1, 1],
        [x + 1, 2],
        [x, 1],
      ] as [number, number][];
    const pieces = positionsOf({ type: 'MultiPolygon', coordinates: [[ring(0)], [ring(5)]] });
    expect(pieces).toHaveLength(2);
    expect(pieces[1]![0]![0]).toEqual([1, 5]);
  });
});

describe('squareMiles', () => {
  it('reads one decimal under 100, whole miles above, and never rounds a small area to nothing', () => {
    expect(squareMiles(0.04)).toBe('under 0.1 sq mi');
    expect(squareMiles(0.34)).toBe('0.3 sq mi');
    expect(squareMiles(12.25)).toBe('12.3 sq mi');
    expect(squareMiles(1234.4)).toBe('1,234 sq mi');
  });
});
