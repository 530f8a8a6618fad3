import { describe, expect, it } from 'vitest';
import { CATEGORY_GROUPS } from './categories';
import {
  OSM_PLACE_TYPES,
  OSM_VERTICALS,
  isOsmBusiness,
  osmBusinessTypes,
  osmCategoryLabel,
  osmPlaceTypes,
  osmVertical,
} from './osm-tags';
import { readOsmBusinesses } from './testing/read-pbf';
import { describeWithOsm, osmExtract } from '../../test/helpers/osm-data';
import { VERTICALS, verticalForTypes } from './verticals';

describe('OSM tag tables', () => {
  it('map only to place types of the category groups and to known verticals', () => {
    const allTypes = new Set<string>(Object.values(CATEGORY_GROUPS).flatMap((g) => [...g.types]));
    for (const byValue of Object.values(OSM_PLACE_TYPES)) {
      for (const types of Object.values(byValue))
        for (const t of types) expect(allTypes.has(t), t).toBe(true);
    }
    const verticals = new Set<string>(VERTICALS);
    for (const byValue of Object.values(OSM_VERTICALS)) {
      for (const v of Object.values(byValue)) expect(verticals.has(v), v).toBe(true);
    }
  });

  it('map the usual tags', () => {
    expect(osmPlaceTypes({ amenity: 'dentist', healthcare: 'dentist' })).toEqual(['dentist']);
    expect(osmPlaceTypes({ office: 'lawyer' })).toEqual(['lawyer']);
    expect(osmPlaceTypes({ amenity: 'bank' })).toEqual(['bank']);
    expect(osmPlaceTypes({ shop: 'car_repair' })).toEqual(['car_repair']);
    expect(osmPlaceTypes({ shop: 'car' })).toEqual(['car_dealer']);
    expect(osmPlaceTypes({ craft: 'plumber' })).toEqual(['plumber']);
    expect(osmPlaceTypes({ craft: 'roofer' })).toEqual(['roofing_contractor']);
    expect(osmPlaceTypes({ leisure: 'fitness_centre' })).toEqual(['gym']);
    expect(osmPlaceTypes({ shop: 'furniture' })).toEqual(['furniture_store']);
    expect(osmPlaceTypes({ amenity: 'restaurant' })).toEqual([]);
    expect(osmPlaceTypes({ shop: 'yes' })).toEqual([]);
  });

  it('gives verticals beyond the nine groups', () => {
    expect(osmVertical({ amenity: 'restaurant', name: 'Chez Nous' })).toBe('restaurant');
    expect(osmVertical({ amenity: 'fast_food' })).toBe('qsr');
    expect(osmVertical({ amenity: 'pub' })).toBe('bar');
    expect(osmVertical({ craft: 'brewery' })).toBe('bar');
    expect(osmVertical({ tourism: 'hotel' })).toBe('hotel');
    expect(osmVertical({ office: 'estate_agent' })).toBe('real_estate');
    expect(osmVertical({ office: 'insurance' })).toBe('insurance');
    expect(osmVertical({ craft: 'hvac' })).toBe('hvac');
    expect(osmVertical({ amenity: 'fuel' })).toBe('gas_station');
    expect(osmVertical({ office: 'government' })).toBe('government');
    expect(osmVertical({ office: 'ngo' })).toBe('nonprofit');
    expect(osmVertical({ amenity: 'atm' })).toBe('low_propensity');
    expect(osmVertical({ shop: 'clothes' })).toBe('other');
    // a dealer with a workshop is a dealer; an orthodontist is refined from dentist
    expect(osmVertical({ shop: 'car', service: 'repair', craft: 'car_repair' })).toBe('auto_dealer');
    expect(osmVertical({ healthcare: 'dentist', 'healthcare:speciality': 'orthodontics' })).toBe(
      'orthodontics',
    );
    expect(osmVertical({ amenity: 'dentist', name: 'Bay Orthodontics' })).toBe('orthodontics');
    expect(osmVertical({ shop: 'trade', name: 'Comfort Heating & Air Conditioning' })).toBe('hvac');
  });

  it('agrees with the maps-style type table on the types it stores', () => {
    const samples: Array<Record<string, string>> = [
      { amenity: 'fast_food' },
      { tourism: 'hotel' },
      { office: 'estate_agent' },
      { amenity: 'fuel' },
    ];
    for (const tags of samples) {
      expect(verticalForTypes(osmBusinessTypes(tags))).toBe(osmVertical(tags));
    }
  });

  it('labels categories', () => {
    expect(osmCategoryLabel({ amenity: 'dentist' })).toBe('Dental');
    expect(osmCategoryLabel({ shop: 'car_repair' })).toBe('Auto Repair');
    expect(osmCategoryLabel({ office: 'lawyer' })).toBe('Legal Services');
    expect(osmCategoryLabel({ amenity: 'bank' })).toBe('Financial');
    expect(osmCategoryLabel({ amenity: 'fast_food' })).toBe('Fast Food');
    expect(osmCategoryLabel({ shop: 'pet_grooming' })).toBe('Pet Grooming');
    expect(osmCategoryLabel({ shop: 'yes' })).toBe('Business');
    expect(osmBusinessTypes({ amenity: 'restaurant' })).toEqual(['restaurant']);
  });

  it('recognises businesses', () => {
    expect(isOsmBusiness({ name: 'A', shop: 'bakery' })).toBe(true);
    expect(isOsmBusiness({ name: 'A', tourism: 'hotel' })).toBe(true);
    expect(isOsmBusiness({ name: 'A', tourism: 'viewpoint' })).toBe(false);
    expect(isOsmBusiness({ shop: 'bakery' })).toBe(false);
    expect(isOsmBusiness({ name: 'A', highway: 'residential' })).toBe(false);
  });
});

// ---- real extracts -------------------------------------------------------------------------------------------

const readBusinesses = async (file: string) => (await readOsmBusinesses(file)).map((e) => e.tags);
const countTypes = (all: Array<Record<string, string>>) => {
  const counts = new Map<string, number>();
  for (const tags of all) for (const t of osmPlaceTypes(tags)) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
};
const countVerticals = (all: Array<Record<string, string>>) => {
  const counts = new Map<string, number>();
  for (const tags of all) {
    const v = osmVertical(tags);
    counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  return counts;
};

describeWithOsm('sf-downtown.osm.pbf', 'on the real San Francisco extract', () => {
  it(
    'finds the README counts of dentists, lawyers, banks, car repair and car dealers',
    { timeout: 10_000 },
    async () => {
      const all = await readBusinesses(osmExtract('sf-downtown.osm.pbf'));
      // README: 3,697 POIs with the five keys; hotels and gyms tagged only with tourism/leisure come on top.
      expect(
        all.filter((t) => ['shop', 'amenity', 'office', 'craft', 'healthcare'].some((k) => k in t)).length,
      ).toBe(3697);
      const types = countTypes(all);
      expect(types.get('dentist')).toBe(20);
      expect(types.get('lawyer')).toBeGreaterThanOrEqual(15);
      expect(types.get('lawyer')).toBeLessThanOrEqual(17);
      expect(types.get('bank')).toBeGreaterThanOrEqual(86);
      expect(types.get('bank')).toBeLessThanOrEqual(90);
      expect(types.get('car_repair')).toBeGreaterThanOrEqual(44);
      expect(types.get('car_repair')).toBeLessThanOrEqual(48);
      expect(types.get('car_dealer')).toBe(6);
      expect(types.get('hair_care')).toBeGreaterThanOrEqual(73);
      const verticals = countVerticals(all);
      expect(verticals.get('restaurant')).toBeGreaterThanOrEqual(600);
      expect(verticals.get('hotel')).toBeGreaterThanOrEqual(180);
      expect(verticals.get('real_estate')).toBeGreaterThanOrEqual(13);
      expect(verticals.get('qsr')).toBeGreaterThanOrEqual(400);
      // Most businesses of a downtown are outside the nine groups; every one still gets a label.
      for (const tags of all) expect(osmCategoryLabel(tags).length).toBeGreaterThan(0);
    },
  );
});

const SMALLER = ['baltimore.osm.pbf', 'harrisburg.osm.pbf', 'monaco-2021.osm.pbf'];
describeWithOsm(SMALLER, 'on the smaller extracts', () => {
  it(
    'finds businesses of the nine groups in Baltimore, Harrisburg and Monaco',
    { timeout: 10_000 },
    async () => {
      // The README's POI counts, less the GNIS records of places that no longer exist ("… (historical)"): 4 in
      // Baltimore, 1 in Harrisburg. They are not businesses (isOsmBusiness).
      for (const [file, pois] of [
        ['baltimore.osm.pbf', 626],
        ['harrisburg.osm.pbf', 207],
        ['monaco-2021.osm.pbf', 447],
      ] as const) {
        const all = await readBusinesses(osmExtract(file));
        expect(
          all.filter((t) => ['shop', 'amenity', 'office', 'craft', 'healthcare'].some((k) => k in t)).length,
          file,
        ).toBe(pois);
        const typed = all.filter((t) => osmPlaceTypes(t).length > 0).length;
        expect(typed, file).toBeGreaterThan(pois * 0.1);
      }
    },
  );
});
