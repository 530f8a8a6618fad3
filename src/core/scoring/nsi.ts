// The one place in src/core that reads files (and the only module here that needs Node): the name-suggestion-index
// data shipped in node_modules, loaded once on first use and turned into a BrandIndex, and the country borders of
// country-coder, which say where a place stands. Server code calls getBrandIndex() and placeArea() and passes the
// results to the pure scorer; tests build small indexes with buildBrandIndex() instead. Never import this from
// browser code.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { featuresContaining, iso1A2Code } from '@rapideditor/country-coder';
import { buildBrandIndex, type BrandIndex, type NsiData, type PlaceArea } from './brand-index';

let index: BrandIndex | undefined;

/** Path of the NSI data file. The package's "exports" map hides dist/json, so resolve from its main entry. */
export function nsiDataPath(): string {
  const require = createRequire(import.meta.url);
  const main = require.resolve('name-suggestion-index'); // .../dist/js/nsi.cjs
  return join(dirname(main), '..', 'json', 'nsi.min.json');
}

/** The brand index of every NSI brand and operator, built on first call (about half a second). */
export function getBrandIndex(): BrandIndex {
  index ??= buildBrandIndex(JSON.parse(readFileSync(nsiDataPath(), 'utf8')) as NsiData);
  return index;
}

/**
 * How far around a place its neighbouring countries count (degrees, about 5 km): a shop in Monaco sees the French
 * chains that trade on both sides of the border, a shop in Kansas sees no Canadian one.
 */
const NEIGHBOURHOOD_DEGREES = 0.05;
/** Places are located per cell of this size; the cells of a region's import are few. */
const CELL_DEGREES = 0.02;
const MAX_CELLS = 50_000;
const areas = new Map<string, PlaceArea>();

/** Where a place stands for the brand check: its country, the countries within about 5 km, and their regions. */
export function placeArea(lat: number, lng: number): PlaceArea {
  const cellLat = Math.floor(lat / CELL_DEGREES);
  const cellLng = Math.floor(lng / CELL_DEGREES);
  const key = `${cellLat}:${cellLng}`;
  let area = areas.get(key);
  if (!area) {
    const cLat = (cellLat + 0.5) * CELL_DEGREES;
    const cLng = (cellLng + 0.5) * CELL_DEGREES;
    const d = NEIGHBOURHOOD_DEGREES + CELL_DEGREES / 2;
    const codes = new Set<string>();
    for (const f of featuresContaining([cLng - d, cLat - d, cLng + d, cLat + d])) {
      const p = f.properties;
      for (const c of [p.iso1A2, p.m49, p.id]) if (c) codes.add(c.toLowerCase());
    }
    const country = iso1A2Code([cLng, cLat])?.toLowerCase() ?? null;
    if (areas.size >= MAX_CELLS) areas.clear();
    area = { codes, country };
    areas.set(key, area);
  }
  return { ...area, lat, lng };
}
