import { describe, expect, it } from 'vitest';
import { ALL_PLACE_TYPES, isPlaceType } from './categories';
import { OSM_LABELS, OSM_VERTICALS } from './osm-tags';
import { TYPE_VERTICALS, verticalForTypes } from './verticals';
import { OVERTURE_CATEGORIES, overtureTarget, placeCategories, targetFromName } from './overture-categories';

/** The primary categories of the shared SoMa sample with 20 or more places (release 2025-09-24.0). */
const SOMA_TOP = [
  'software_development', 'corporate_office', 'professional_services', 'event_planning',
  'community_services_non_profits', 'lawyer', 'legal_services', 'advertising_agency', 'art_gallery', 'hair_salon',
  'hotel', 'coffee_shop', 'information_technology_company', 'parking', 'real_estate_agent', 'marketing_agency',
  'landmark_and_historical_building', 'financial_service',
]; // prettier-ignore

/** Raw OpenStreetMap values stored as types when no group place type applies (osmBusinessTypes). */
const OSM_RAW = new Set([
  ...Object.keys(OSM_LABELS),
  ...Object.values(OSM_VERTICALS).flatMap((byValue) => Object.keys(byValue)),
  // shop=* values the OSM tables leave to the fallback label
  'bakery', 'supermarket', 'convenience', 'alcohol', 'cannabis', 'weapons', 'jewelry', 'mobile_phone', 'electronics',
  'books', 'florist', 'pet', 'department_store', 'mall', 'dry_cleaning', 'tattoo', 'funeral_directors', 'toys',
  'sports', 'cosmetics', 'tobacco', 'craft', 'musical_instrument', 'butcher', 'nutrition_supplements',
  'medical_supply', 'photo',
]); // prettier-ignore

describe('Overture category table', () => {
  it('maps every category with 20 or more places in the SoMa sample', () => {
    for (const c of SOMA_TOP) expect(OVERTURE_CATEGORIES.has(c), c).toBe(true);
  });

  it('gives group place types, or raw types the verticals, the OSM labels or an OSM extract know', () => {
    for (const [category, target] of OVERTURE_CATEGORIES) {
      for (const type of target.types) {
        const known = isPlaceType(type) || type in TYPE_VERTICALS || OSM_RAW.has(type);
        expect(known, `${category} -> ${type}`).toBe(true);
      }
      expect(target.label.trim(), category).not.toBe('');
    }
  });

  it('reaches every group place type from some category', () => {
    const reached = new Set([...OVERTURE_CATEGORIES.values()].flatMap((t) => t.types));
    for (const type of ALL_PLACE_TYPES) expect(reached.has(type), type).toBe(true);
  });

  it('places the heavy local advertisers in their place types and verticals', () => {
    const cases: [string, string, string][] = [
      ['personal_injury_law', 'lawyer', 'legal'],
      ['divorce_and_family_law', 'lawyer', 'legal'],
      ['immigration_law', 'lawyer', 'legal'],
      ['bankruptcy_law', 'lawyer', 'legal'],
      ['used_car_dealer', 'car_dealer', 'auto_dealer'],
      ['motorcycle_dealer', 'car_dealer', 'auto_dealer'],
      ['recreational_vehicle_dealer', 'car_dealer', 'auto_dealer'],
      ['hvac_services', 'general_contractor', 'hvac'],
      ['plumbing', 'plumber', 'plumbing'],
      ['roofing', 'roofing_contractor', 'roofing'],
      ['movers', 'moving_company', 'home_services'],
      ['orthodontist', 'dentist', 'orthodontics'],
      ['chiropractor', 'doctor', 'medical'],
      ['urgent_care_clinic', 'doctor', 'medical'],
      ['physical_therapy', 'physiotherapist', 'medical'],
      ['mattress_store', 'furniture_store', 'furniture'],
      ['yoga_studio', 'gym', 'fitness'],
      ['nail_salon', 'beauty_salon', 'beauty'],
      ['medical_spa', 'spa', 'medical'],
      ['credit_union', 'credit_union', 'finance'],
      ['life_insurance', 'insurance_agency', 'insurance'],
      ['mortgage_broker', 'accounting', 'finance'],
      ['college_university', 'college', 'education'],
      ['cinema', 'movie_theater', 'entertainment'],
      ['movie_theater', 'movie_theater', 'entertainment'],
      ['arcade', 'amusement_park', 'entertainment'],
    ];
    for (const [category, type, vertical] of cases) {
      const target = overtureTarget(category);
      expect(target?.types, category).toContain(type);
      expect(verticalForTypes(target?.types ?? []), category).toBe(vertical);
    }
  });

  it('keeps pest control and locksmiths as the raw types the verticals table knows', () => {
    expect(overtureTarget('pest_control_service')?.types).toEqual(['pest_control']);
    expect(overtureTarget('key_and_locksmith')?.types).toEqual(['locksmith']);
  });

  it('places the families it does not list one by one', () => {
    expect(overtureTarget('aviation_law')?.types).toEqual(['lawyer']);
    expect(overtureTarget('peruvian_restaurant')?.types).toEqual(['restaurant']);
    expect(overtureTarget('Railway_Museum')?.types).toEqual(['museum']);
    expect(overtureTarget('no_such_category')).toBeUndefined();
  });

  it('labels a non-profit with the OSM tag that places it', () => {
    expect(overtureTarget('community_services_non_profits')).toMatchObject({
      label: 'Non-Profit',
      osm: 'office=ngo',
    });
  });
});

describe('placeCategories', () => {
  it('uses the primary category first', () => {
    expect(placeCategories({ primary: 'dentist', alternates: ['spa'] }, 'X')).toMatchObject({
      types: ['dentist'],
      by: 'primary',
    });
  });

  it('walks the taxonomy hierarchy from the most specific, never to the theme', () => {
    const c = {
      primary: 'gas_station_sushi',
      alternates: [],
      hierarchy: ['food_and_drink', 'restaurant', 'casual_eatery', 'gas_station_sushi'],
    };
    expect(placeCategories(c, 'X')).toMatchObject({ types: ['restaurant'], by: 'hierarchy' });
    expect(
      placeCategories({ primary: 'odd_kind', alternates: [], hierarchy: ['shopping', 'odd_kind'] }, 'X'),
    ).toMatchObject({ types: ['odd_kind'], by: 'raw' });
  });

  it('falls back to the basic category, then the alternates, then the raw primary', () => {
    expect(placeCategories({ primary: 'zzz', alternates: [], basic: 'attorney_or_law_firm' }, 'X')?.by).toBe(
      'basic',
    );
    expect(placeCategories({ primary: 'zzz', alternates: ['barber'] }, 'X')).toMatchObject({
      types: ['hair_care', 'barber_shop'],
      by: 'alternate',
    });
    expect(placeCategories({ primary: 'toy_drone_club', alternates: [] }, 'X')).toMatchObject({
      types: ['toy_drone_club'],
      label: 'Toy Drone Club',
      by: 'raw',
    });
  });

  it('places a place without a category by its alternates or its name, or not at all', () => {
    expect(placeCategories({ primary: null, alternates: ['plumbing'] }, 'X')?.types).toEqual(['plumber']);
    expect(placeCategories({ primary: null, alternates: [] }, 'Bay Rooter & Plumbing')).toMatchObject({
      types: ['plumber'],
      by: 'name',
    });
    expect(placeCategories({ primary: null, alternates: ['no_such'] }, 'Blue Door')).toBeUndefined();
    expect(targetFromName('Smith & Jones Attorneys')?.types).toEqual(['lawyer']);
  });
});
