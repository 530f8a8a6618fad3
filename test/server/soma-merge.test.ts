// The data a new install has, merged: San Francisco's OpenStreetMap extract and Overture's SoMa places imported into
// one database, then a half-mile scan in SoMa as a rep runs it. The best prospects inside the Overture box have a
// number to call, and no business is on the page twice. Needs the shared data folder (skips without it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Prospect } from '../../src/core/types.js';
import { nameSimilarity } from '../../src/core/conflation.js';
import { phoneKey } from '../../src/core/dedup.js';
import { haversineMiles } from '../../src/core/geo.js';
import { importExtract, scanFirstPage, sharedDataDir } from '../helpers/judgements.js';
import { hasOsmExtract } from '../helpers/osm-data.js';
import { hasOvertureFile } from '../helpers/overture-data.js';
import { missingDependency } from '../helpers/dependencies.js';
import { openPlacesDb } from '../helpers/places-db.js';

/** The box of sf-soma.parquet (its README). */
const SOMA = { west: -122.40451, south: 37.7825, east: -122.39649, north: 37.7895 };
const inSoma = (p: Prospect) =>
  p.lng >= SOMA.west && p.lng <= SOMA.east && p.lat >= SOMA.south && p.lat <= SOMA.north;

/** Two cards of one business: close by, with the same phone or nearly the same name. */
function sameBusiness(a: Prospect, b: Prospect): boolean {
  if (haversineMiles(a, b) * 1609.344 > 150) return false;
  const phone = phoneKey(a.phone);
  if (phone && phone === phoneKey(b.phone)) return true;
  return nameSimilarity(a.name, b.name) >= 0.75;
}

const ready = hasOsmExtract('sf-downtown.osm.pbf') && hasOvertureFile('sf-soma.parquet');

describe('SoMa with OpenStreetMap and Overture merged', () => {
  if (!ready) {
    missingDependency(
      `${sharedDataDir()}/osm/sf-downtown.osm.pbf and overture/sf-soma.parquet`,
      'not in the shared data folder',
    );
    return;
  }
  let page: Prospect[] = [];
  let close: () => Promise<void> = () => Promise.resolve();
  beforeAll(async () => {
    const opened = await openPlacesDb();
    close = () => opened.close();
    await importExtract(opened.db, 'osm/sf-downtown.osm.pbf');
    await importExtract(opened.db, 'overture/sf-soma.parquet');
    page = await scanFirstPage(opened.db, {
      scan: { lat: 37.786, lng: -122.4005, radiusMiles: 0.5, count: 50 },
    });
  }, 180_000);
  afterAll(() => close());

  it('gives a number to call for at least 85 % of the best 20 inside the Overture box', () => {
    const top = page.filter(inSoma).slice(0, 20);
    expect(top).toHaveLength(20);
    const withPhone = top.filter((p) => p.phone).length;
    expect(withPhone / top.length).toBeGreaterThanOrEqual(0.85);
  });

  it('shows no business twice in the 50', () => {
    expect(page).toHaveLength(50);
    const twice: string[] = [];
    for (let i = 0; i < page.length; i++) {
      for (let j = i + 1; j < page.length; j++) {
        if (sameBusiness(page[i]!, page[j]!)) twice.push(`${page[i]!.name} / ${page[j]!.name}`);
      }
    }
    expect(twice).toEqual([]);
  });

  it('says where a merged card’s fields came from', () => {
    const merged = page.filter(
      (p) => p.sources?.name === 'OpenStreetMap' && p.sources.phone?.startsWith('Overture'),
    );
    expect(merged.length).toBeGreaterThan(0);
  });
});
