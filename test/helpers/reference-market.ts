// The reference market scores are calibrated against (src/core/scoring/reference-market.ts), rebuilt from the
// OpenStreetMap extracts of the shared data: used by `npm run bench -- reference` to write it and by its test to
// check the committed one is current.
import { join } from 'node:path';
import { referenceInput } from '../../src/core/market.js';
import { buildReference, intrinsicScore, type ScoreReference } from '../../src/core/scoring/index.js';
import { getBrandIndex } from '../../src/core/scoring/nsi.js';
import { loadExtract } from './extract-scan.js';
import { osmDataDir } from './osm-data.js';

/** The markets the reference is made of: a dense big city, an old sparse city, a small city and a small country. */
export const REFERENCE_EXTRACTS = [
  'sf-downtown.osm.pbf',
  'baltimore.osm.pbf',
  'harrisburg.osm.pbf',
  'monaco-2021.osm.pbf',
] as const;

/** Every model-scored business of the scanned kinds in the reference extracts, reduced to 201 quantiles. */
export async function referenceMarket(): Promise<ScoreReference> {
  const brandIndex = getBrandIndex();
  const values: number[] = [];
  for (const file of REFERENCE_EXTRACTS) {
    for (const business of await loadExtract(join(osmDataDir(), file), { brandIndex })) {
      const input = referenceInput(business);
      const x = input ? intrinsicScore(input, { brandIndex }) : null;
      if (x !== null) values.push(x);
    }
  }
  const ref = buildReference('reference', values, '2026-11-28T00:00:00.000Z');
  if (!ref) throw new Error('the reference extracts hold too few businesses to calibrate against');
  return ref;
}
