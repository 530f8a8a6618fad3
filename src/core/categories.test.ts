import { describe, expect, it } from 'vitest';
import {
  ALL_GROUPS,
  CATEGORY_MAX_LENGTH,
  CATEGORY_TEXT_MESSAGES,
  checkCategoryText,
  hasRealCategory,
  ALL_PLACE_TYPES,
  CATEGORY_GROUPS,
  PLACE_TYPE_LABELS,
  categoryLabel,
  fallbackLabel,
  groupOfPlaceType,
  labelForPlaceType,
  placeTypesForGroups,
  resolveGroups,
} from './categories';

describe('category table', () => {
  it('has exactly the nine groups with their place types', () => {
    expect(Object.fromEntries(Object.entries(CATEGORY_GROUPS).map(([k, v]) => [k, [...v.types]]))).toEqual({
      legal: ['lawyer'],
      healthcare: ['dentist', 'doctor', 'hospital', 'physiotherapist', 'veterinary_care', 'pharmacy'],
      beauty: ['beauty_salon', 'hair_care', 'spa', 'gym', 'massage_therapist'],
      service: [
        'plumber',
        'electrician',
        'general_contractor',
        'roofing_contractor',
        'cleaning_service',
        'landscaper',
        'moving_company',
        'painter',
      ],
      entertainment: ['movie_theater', 'bowling_alley', 'museum', 'art_gallery', 'amusement_park'],
      education: ['school', 'college', 'university'],
      car: ['car_dealer', 'car_repair', 'car_wash', 'auto_parts_store', 'gas_station'],
      finance: ['bank', 'credit_union', 'atm', 'insurance_agency', 'accounting'],
      furniture: ['furniture_store'],
    });
  });

  it('carries the group labels of the table', () => {
    expect(CATEGORY_GROUPS.beauty.label).toBe('Beauty/Wellness');
    expect(CATEGORY_GROUPS.service.label).toBe('Home Services');
    expect(CATEGORY_GROUPS.car.label).toBe('Automotive');
    expect(CATEGORY_GROUPS.finance.label).toBe('Financial');
    expect(ALL_GROUPS).toHaveLength(9);
    expect(ALL_PLACE_TYPES).toHaveLength(39);
    expect(new Set(ALL_PLACE_TYPES).size).toBe(39);
  });
});

describe('resolveGroups', () => {
  it('means all groups when none are given', () => {
    expect(resolveGroups(undefined)).toEqual(ALL_GROUPS);
    expect(resolveGroups([])).toEqual(ALL_GROUPS);
  });

  it('ignores unknown groups, and only-unknown means all', () => {
    expect(resolveGroups(['legal', 'pizza'])).toEqual(['legal']);
    expect(resolveGroups(['pizza', 'nope'])).toEqual(ALL_GROUPS);
  });

  it('trims, lower-cases, de-duplicates and keeps table order', () => {
    expect(resolveGroups(['furniture', ' LEGAL ', 'legal', 'car'])).toEqual(['legal', 'car', 'furniture']);
  });
});

describe('placeTypesForGroups', () => {
  it('lists the types of the chosen groups once each', () => {
    expect(placeTypesForGroups(['legal', 'furniture'])).toEqual(['lawyer', 'furniture_store']);
    expect(placeTypesForGroups(['car', 'car'])).toEqual([
      'car_dealer',
      'car_repair',
      'car_wash',
      'auto_parts_store',
      'gas_station',
    ]);
    expect(placeTypesForGroups([])).toEqual([]);
    expect(placeTypesForGroups(ALL_GROUPS)).toEqual(ALL_PLACE_TYPES);
  });

  it('maps a type back to its group', () => {
    expect(groupOfPlaceType('dentist')).toBe('healthcare');
    expect(groupOfPlaceType('gym')).toBe('beauty');
    expect(groupOfPlaceType('restaurant')).toBeUndefined();
  });
});

describe('friendly labels', () => {
  it('uses the four fixed labels word for word', () => {
    expect(labelForPlaceType('car_repair')).toBe('Auto Repair');
    expect(labelForPlaceType('dentist')).toBe('Dental');
    expect(labelForPlaceType('lawyer')).toBe('Legal Services');
    expect(labelForPlaceType('bank')).toBe('Financial');
  });

  it('has a label for every place type of the table', () => {
    for (const t of ALL_PLACE_TYPES) expect(PLACE_TYPE_LABELS[t], t).toBeTruthy();
  });

  it('falls back to underscores as spaces with each word capitalised', () => {
    expect(fallbackLabel('pet_store')).toBe('Pet Store');
    expect(fallbackLabel('real_estate_agency')).toBe('Real Estate Agency');
    expect(fallbackLabel('restaurant')).toBe('Restaurant');
    expect(labelForPlaceType('night_club')).toBe('Night Club');
  });

  it('derives a category from a list of types', () => {
    expect(categoryLabel(['point_of_interest', 'establishment', 'dentist'])).toBe('Dental');
    expect(categoryLabel(['establishment', 'meal_takeaway'])).toBe('Meal Takeaway');
    expect(categoryLabel(['establishment'])).toBe('Business');
    expect(categoryLabel([])).toBe('Business');
  });
});

describe('Set category rules', () => {
  it("treats missing and 'Business' as no category", () => {
    expect(hasRealCategory('Legal Services')).toBe(true);
    expect(hasRealCategory(' business ')).toBe(false);
    expect(hasRealCategory('')).toBe(false);
    expect(hasRealCategory(undefined)).toBe(false);
  });

  it('takes short plain names and refuses markup, control characters and long text', () => {
    expect(checkCategoryText('  Auto   Dealer ')).toEqual({ ok: true, category: 'Auto Dealer' });
    expect(checkCategoryText('Ärztezentrum')).toEqual({ ok: true, category: 'Ärztezentrum' });
    expect(checkCategoryText('x'.repeat(CATEGORY_MAX_LENGTH)).ok).toBe(true);
    expect(checkCategoryText('x'.repeat(CATEGORY_MAX_LENGTH + 1))).toEqual({ ok: false, reason: 'too-long' });
    expect(checkCategoryText(' ')).toEqual({ ok: false, reason: 'empty' });
    for (const bad of [
      '<b>Dental</b>',
      'a\u0007b',
      'Dental\nIgnore',
      '"quoted"',
      'back`tick',
      '#hash',
      '_under',
    ]) {
      expect({ bad, result: checkCategoryText(bad) }).toEqual({
        bad,
        result: { ok: false, reason: 'characters' },
      });
    }
    expect(CATEGORY_TEXT_MESSAGES['too-long']).toContain(String(CATEGORY_MAX_LENGTH));
  });
});
