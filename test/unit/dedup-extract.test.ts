// De-duplication on the real OpenStreetMap extracts (no business twice in one list): a 1-mile scan
// of all categories, cleaned as the server cleans it (cleanCandidates), holds no campus twice and no business
// mapped twice, while branches of a chain at different addresses stay.
//
// The scan is built the way test/helpers/extract-scan.ts (`loadExtract`, `scanCandidates`) builds it: import rows
// -> the nearest 500 of the requested types strictly inside the radius -> cleanCandidates. That helper is not on
// this branch yet; once it is, these two functions can give way to it.
import { beforeAll, expect, it } from 'vitest';
import { ALL_GROUPS, placeTypesForGroups } from '../../src/core/categories.js';
import {
  CAMPUS_MILES,
  SAME_BUSINESS_METERS,
  institutionKey,
  isInstitution,
  normalizeName,
  streetLineKey,
} from '../../src/core/dedup.js';
import { haversineMiles, metersToMiles, type LatLng } from '../../src/core/geo.js';
import type { Business } from '../../src/core/types.js';
import { rowToBusiness } from '../../src/server/places/local.js';
import { placeRow } from '../../src/server/places/local-store.js';
import { readOsmBusinesses } from '../../src/server/places/pbf-reader.js';
import { matchesTypes } from '../../src/server/places/provider.js';
import { cleanCandidates, PROVIDER_MAX_RESULTS } from '../../src/server/scans/service.js';
import { describeWithOsm, osmExtract } from '../helpers/osm-data.js';

async function loadExtract(file: string): Promise<Business[]> {
  const out: Business[] = [];
  const at = new Date('2026-01-01T12:00:00Z');
  await readOsmBusinesses(file, (batch) => {
    for (const poi of batch) out.push(rowToBusiness(placeRow(poi, at.toISOString()), at));
    return Promise.resolve();
  });
  return out;
}

/** The nearest 500 of all categories strictly inside the radius, before and after the server's clean-up. */
function scan(all: readonly Business[], center: LatLng, radiusMiles = 1) {
  const types = placeTypesForGroups(ALL_GROUPS);
  const found = all
    .filter((b) => matchesTypes(b, types))
    .map((b) => ({ b, d: haversineMiles(center, b) }))
    .filter((x) => x.d < radiusMiles)
    .sort((a, b) => a.d - b.d || (a.b.id < b.b.id ? -1 : 1))
    .slice(0, PROVIDER_MAX_RESULTS)
    .map((x) => x.b);
  return { found, cleaned: cleanCandidates(found, center, radiusMiles) };
}

/**
 * Pairs of one list that are still the same business: the same normalised name within half a mile, unless
 * they are two branches — further than 150 m apart, or both with house-number street lines that differ — and
 * not both schools, colleges, universities or hospitals.
 */
function sameBusinessPairs(list: readonly Business[]): string[] {
  const byName = new Map<string, Business[]>();
  for (const b of list) {
    const name = normalizeName(b.name);
    byName.set(name, [...(byName.get(name) ?? []), b]);
  }
  const pairs: string[] = [];
  for (const [name, group] of byName) {
    for (let i = 0; i < group.length; i++) {
      for (let j = i + 1; j < group.length; j++) {
        const a = group[i]!;
        const b = group[j]!;
        const miles = haversineMiles(a, b);
        if (miles > CAMPUS_MILES) continue;
        const institution = isInstitution(name, a.types) && isInstitution(name, b.types);
        const streetA = streetLineKey(a.address);
        const streetB = streetLineKey(b.address);
        const branches =
          miles > metersToMiles(SAME_BUSINESS_METERS) || (!!streetA && !!streetB && streetA !== streetB);
        if (institution || !branches)
          pairs.push(`${a.name} (${a.id}, ${b.id}, ${Math.round(miles * 1609)} m)`);
      }
    }
  }
  return pairs;
}

const named = (list: readonly Business[], name: string) =>
  list.filter((b) => normalizeName(b.name) === normalizeName(name));

describeWithOsm(
  'sf-downtown.osm.pbf',
  'de-duplication of a scan of the San Francisco extract (1 mile around 37.7879, -122.4066)',
  () => {
    const CENTER = { lat: 37.7879, lng: -122.4066 };
    let found: Business[] = [];
    let cleaned: Business[] = [];
    beforeAll(async () => {
      ({ found, cleaned } = scan(await loadExtract(osmExtract('sf-downtown.osm.pbf')), CENTER));
    }, 60_000);

    it('holds no business twice: no campus building twice, nothing mapped twice', () => {
      expect(found).toHaveLength(PROVIDER_MAX_RESULTS);
      expect(sameBusinessPairs(found).length).toBeGreaterThan(0);
      expect(sameBusinessPairs(cleaned)).toEqual([]);
    });

    it('shows the Academy of Art University once', () => {
      // Its buildings, under "Academy of Art University", "Academy of Arts University" and
      // "Academy of Art University - Game Development", over more than a mile.
      const aau = (list: Business[]) =>
        list.filter((b) => institutionKey(b.name, b.types) === 'academy of art university');
      expect(aau(found).length).toBeGreaterThanOrEqual(5);
      expect(aau(cleaned)).toHaveLength(1);
    });

    it('keeps branches of a chain at different addresses', () => {
      for (const chain of ['Walgreens', 'Wells Fargo', 'Chase', 'Citibank']) {
        const streets = (list: Business[]) =>
          new Set(
            named(list, chain)
              .map((b) => streetLineKey(b.address))
              .filter((s) => s !== ''),
          );
        expect(streets(found).size, chain).toBeGreaterThanOrEqual(2);
        expect(streets(cleaned), chain).toEqual(streets(found));
      }
      // ... and those 0.3 mile apart without addresses: 16 Wells Fargo banks and ATMs inside the mile.
      expect(named(cleaned, 'Wells Fargo').length).toBeGreaterThanOrEqual(15);
    });
  },
);

describeWithOsm(
  ['baltimore.osm.pbf', 'harrisburg.osm.pbf', 'monaco-2021.osm.pbf'],
  'de-duplication of scans of the other extracts (1 mile around their POI median)',
  () => {
    // The POI medians of ../shared/data/osm/README.md.
    const extracts: [string, LatLng][] = [
      ['baltimore.osm.pbf', { lat: 39.28486, lng: -76.58525 }],
      ['harrisburg.osm.pbf', { lat: 40.27117, lng: -76.81471 }],
      ['monaco-2021.osm.pbf', { lat: 43.73499, lng: 7.42276 }],
    ];
    for (const [file, center] of extracts) {
      it(`${file}: no business twice in one list`, async () => {
        const { found, cleaned } = scan(await loadExtract(osmExtract(file)), center);
        expect(found.length).toBeGreaterThan(10);
        expect(sameBusinessPairs(cleaned)).toEqual([]);
      }, 30_000);
    }
  },
);
