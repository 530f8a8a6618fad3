// The one place in src/core that reads a file (and the only module here that needs Node): the name-suggestion-index data shipped in node_modules, loaded
// once on first use and turned into a BrandIndex. Server code calls getBrandIndex() and passes the result to the
// pure scorer; tests build small indexes with buildBrandIndex() instead. Never import this from browser code.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { buildBrandIndex, type BrandIndex, type NsiData } from './brand-index';

const cache = new Map<string, BrandIndex>();

/** Path of the NSI data file. The package's "exports" map hides dist/json, so resolve from its main entry. */
export function nsiDataPath(): string {
  const require = createRequire(import.meta.url);
  const main = require.resolve('name-suggestion-index'); // .../dist/js/nsi.cjs
  return join(dirname(main), '..', 'json', 'nsi.min.json');
}

/** The brand index for a country (default 'us'), built from name-suggestion-index on first call (~0.3 s). */
export function getBrandIndex(country = 'us'): BrandIndex {
  const cc = country.toLowerCase();
  let index = cache.get(cc);
  if (!index) {
    const data = JSON.parse(readFileSync(nsiDataPath(), 'utf8')) as NsiData;
    index = buildBrandIndex(data, cc);
    cache.set(cc, index);
  }
  return index;
}
