import { describe, expect, it } from 'vitest';
import { ALL_PLACE_TYPES } from './categories';
import {
  VERTICALS,
  VERTICAL_LABELS,
  VERTICAL_PRIORITY,
  refineVerticalByName,
  verticalForTypes,
} from './verticals';

describe('verticals', () => {
  it('has a label and a priority for every vertical', () => {
    expect(Object.keys(VERTICAL_LABELS).sort()).toEqual([...VERTICALS].sort());
    expect([...VERTICAL_PRIORITY].sort()).toEqual([...VERTICALS].sort());
  });

  it('maps place types, the most specific first', () => {
    expect(verticalForTypes(['car_dealer'])).toBe('auto_dealer');
    expect(verticalForTypes(['car_repair', 'car_dealer'])).toBe('auto_dealer');
    expect(verticalForTypes(['restaurant', 'lodging'])).toBe('hotel');
    expect(verticalForTypes(['bar', 'restaurant'])).toBe('restaurant');
    expect(verticalForTypes(['lawyer'])).toBe('legal');
    expect(verticalForTypes(['roofing_contractor'])).toBe('roofing');
    expect(verticalForTypes(['electrician'])).toBe('home_services');
    expect(verticalForTypes(['museum'])).toBe('entertainment');
    expect(verticalForTypes(['atm'])).toBe('low_propensity');
    expect(verticalForTypes(['point_of_interest', 'establishment'])).toBe('other');
    expect(verticalForTypes([])).toBe('other');
  });

  it('maps every group place type to some vertical', () => {
    for (const t of ALL_PLACE_TYPES) expect(VERTICALS).toContain(verticalForTypes([t]));
  });

  it('refines by name only where the rule allows', () => {
    expect(refineVerticalByName('dental', 'Smile Orthodontics')).toBe('orthodontics');
    expect(refineVerticalByName('other', 'Acme Heating & Cooling')).toBe('hvac');
    expect(refineVerticalByName('plumbing', 'Acme Plumbing, Heating & Air')).toBe('hvac');
    expect(refineVerticalByName('restaurant', 'Anchor Brewing Taproom')).toBe('bar');
    expect(refineVerticalByName('legal', 'Insurance Defense Law Group')).toBe('legal');
    expect(refineVerticalByName('other', 'Foundation Repair Pros')).toBe('other');
    expect(refineVerticalByName('other', 'Bay Area Foundation')).toBe('nonprofit');
    expect(refineVerticalByName('other', 'Church Street Cleaners')).toBe('other');
    expect(refineVerticalByName('other', 'County of Marin Assessor')).toBe('government');
    expect(refineVerticalByName('other', 'Golden Gate Realty')).toBe('real_estate');
  });
});
