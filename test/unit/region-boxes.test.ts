// The region boxes of src/core/region-boxes.ts derived again from the polygons they were made from (the header
// of that file says which): each must be the polygon's box rounded outward to 0.01 degree.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { feature } from '@rapideditor/country-coder';
import {
  boxesMeet,
  parseBox,
  REGION_BOXES,
  REGION_COUNTRY_CODES,
  regionBox,
  US_STATE_CODES,
  type LngLatBox,
} from '../../src/core/region-boxes.js';

const require = createRequire(import.meta.url);
// The package's exports map has no entry for its JSON files: read the file beside its main module (dist/js).
const nsi = JSON.parse(
  readFileSync(
    join(require.resolve('name-suggestion-index'), '..', '..', 'json', 'featureCollection.min.json'),
    'utf8',
  ),
) as { features: { id: string; geometry: { coordinates: unknown } }[] };

function boxOf(coordinates: unknown): LngLatBox {
  const b = { west: Infinity, south: Infinity, east: -Infinity, north: -Infinity };
  const walk = (c: unknown): void => {
    if (!Array.isArray(c)) return;
    if (typeof c[0] === 'number' && typeof c[1] === 'number') {
      b.west = Math.min(b.west, c[0]);
      b.east = Math.max(b.east, c[0]);
      b.south = Math.min(b.south, c[1]);
      b.north = Math.max(b.north, c[1]);
    } else c.forEach(walk);
  };
  walk(coordinates);
  const down = (x: number) => Math.floor(x * 100 + 1e-9) / 100;
  const up = (x: number) => Math.ceil(x * 100 - 1e-9) / 100;
  return { west: down(b.west), south: down(b.south), east: up(b.east), north: up(b.north) };
}

describe('region boxes', () => {
  it('are the boxes of their source polygons, rounded outward', () => {
    for (const [region, box] of Object.entries(REGION_BOXES)) {
      const state = /^north-america\/us\/(.+)$/.exec(region)?.[1];
      const code = state ? US_STATE_CODES[state] : undefined;
      const geometry = code
        ? nsi.features.find((f) => f.id === `us-${code}.geojson`)?.geometry
        : feature(REGION_COUNTRY_CODES[region] ?? '')?.geometry;
      expect(geometry, region).toBeDefined();
      expect(box, region).toEqual(
        boxOf(geometry && 'coordinates' in geometry ? geometry.coordinates : undefined),
      );
    }
  });

  it('are found by the region path the OSM download uses', () => {
    expect(regionBox('north-america/us/alabama-latest.osm.pbf')).toEqual(
      REGION_BOXES['north-america/us/alabama'],
    );
    expect(regionBox('europe/monaco')).toBeDefined();
    expect(regionBox('europe/atlantis')).toBeUndefined();
  });

  it('parses W,S,E,N and refuses what is not a box', () => {
    expect(parseBox('-122.5, 37.7,-122.3,37.8')).toEqual({
      west: -122.5,
      south: 37.7,
      east: -122.3,
      north: 37.8,
    });
    expect(typeof parseBox('1,2,3')).toBe('string');
    expect(typeof parseBox('5,1,4,2')).toBe('string');
    expect(typeof parseBox('-190,1,4,2')).toBe('string');
    expect(
      boxesMeet({ west: 0, south: 0, east: 1, north: 1 }, { west: 1, south: 1, east: 2, north: 2 }),
    ).toBe(true);
    expect(
      boxesMeet({ west: 0, south: 0, east: 1, north: 1 }, { west: 1.1, south: 0, east: 2, north: 1 }),
    ).toBe(false);
  });
});
