import { describe, expect, it } from 'vitest';
import { CHANNEL_PROPENSITY, PLAYBOOK_VERTICALS, classifyVertical } from './verticals';

describe('classifyVertical', () => {
  it.each([
    [{ name: 'Union Square Dental Group', category: 'Dental', types: ['dentist'] }, 'health', 'dental'],
    [
      { name: 'Bright Braces Orthodontics', category: 'Dental', types: ['dentist'] },
      'health',
      'orthodontics',
    ],
    [
      { name: 'Mercedes-Benz of San Francisco', category: 'Auto Dealer', types: ['car_dealer'] },
      'auto_dealer',
      null,
    ],
    [{ name: 'Delfino Green & Green', category: 'Legal Services', types: ['lawyer'] }, 'legal', null],
    [{ name: 'Rapid Rooter', category: 'Plumbing', types: ['plumber'] }, 'home_services', 'plumbing'],
    [{ name: 'Top Roofing', category: 'Roofing', types: ['roofing_contractor'] }, 'home_services', 'roofing'],
    [{ name: 'Bay Heating & Air', category: 'Business', types: [] }, 'home_services', 'hvac'],
    [
      { name: 'Standard Sheet Metal & Marine Plumbing', category: 'Metal Construction' },
      'home_services',
      'plumbing',
    ],
    [{ name: 'Honda Auto Care', category: 'Auto Repair', types: ['car_repair'] }, 'other', null],
    [{ name: 'Hotel Nikko', category: 'Hotel', types: ['lodging', 'restaurant', 'bar'] }, 'hotel', null],
    [{ name: 'The Grill', category: 'Restaurant', types: ['restaurant'] }, 'restaurant', null],
    [{ name: '21st Amendment Brewery', category: 'Business' }, 'bar', null],
    [{ name: 'Quick Burger', category: 'Fast Food', types: ['fast_food_restaurant'] }, 'qsr', null],
    [{ name: 'Compass Realty', category: 'Business' }, 'real_estate', null],
    [
      { name: 'State Farm - Jane Doe', category: 'Insurance', types: ['insurance_agency'] },
      'insurance',
      null,
    ],
    [{ name: 'Iron Gym', category: 'Fitness', types: ['gym'] }, 'fitness', null],
    [
      { name: 'Living Room Furniture Co', category: 'Furniture', types: ['furniture_store'] },
      'furniture',
      null,
    ],
    [{ name: 'SoMa Animal Hospital', category: 'Veterinary', types: ['veterinary_care'] }, 'other', null],
    [{ name: 'Blue Bottle', category: 'Business' }, 'other', null],
  ])('%o -> %s', (input, vertical, trade) => {
    expect(classifyVertical(input)).toMatchObject({ vertical, trade });
  });

  it("prefers the scoring model's vertical when one is given", () => {
    expect(classifyVertical({ name: 'X', category: 'Business', vertical: 'orthodontics' })).toEqual({
      vertical: 'health',
      trade: 'orthodontics',
      scoring: 'orthodontics',
    });
    expect(
      classifyVertical({ name: 'Toyota Service', category: 'Auto Dealer', vertical: 'auto_repair' }),
    ).toEqual({
      vertical: 'other',
      trade: null,
      scoring: 'auto_repair',
    });
    // An unknown vertical name falls back to the business's own data.
    expect(classifyVertical({ name: 'X', category: 'Legal Services', vertical: 'made_up' }).vertical).toBe(
      'legal',
    );
  });

  it('has the scoring propensity row of every playbook vertical', () => {
    expect(Object.keys(CHANNEL_PROPENSITY).sort()).toEqual([...PLAYBOOK_VERTICALS].sort());
    expect(CHANNEL_PROPENSITY.auto_dealer).toEqual({ ctv: 0.95, olv: 0.9, display: 0.85, sem: 0.9 });
    expect(CHANNEL_PROPENSITY.legal).toEqual({ ctv: 0.9, olv: 0.85, display: 0.9, sem: 0.95 });
    expect(CHANNEL_PROPENSITY.qsr).toEqual({ ctv: 0.1, olv: 0.15, display: 0.2, sem: 0.15 });
    expect(CHANNEL_PROPENSITY.other).toEqual({ ctv: 0.35, olv: 0.3, display: 0.35, sem: 0.4 });
  });
});
