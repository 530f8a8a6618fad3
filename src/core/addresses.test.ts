import { describe, expect, it } from 'vitest';
import {
  cityKey,
  houseNumberKey,
  houseNumberValue,
  parseAddressQuery,
  parseCoordinates,
  streetKey,
} from './addresses';

describe('street keys', () => {
  it('spells street types and directions one way, whatever the case and punctuation', () => {
    expect(streetKey('Post St')).toBe('post street');
    expect(streetKey('post street')).toBe('post street');
    expect(streetKey('POST ST.')).toBe('post street');
    expect(streetKey('Kearny Street')).toBe(streetKey('kearny st'));
    expect(streetKey('N Main St')).toBe('north main street');
    expect(streetKey('Van Ness Ave')).toBe('van ness avenue');
    expect(streetKey('3rd Ave')).toBe('3rd avenue');
    expect(streetKey('Martin Luther King Jr Blvd')).toBe('martin luther king jr boulevard');
  });

  it('keeps a street named by a letter or a type word', () => {
    expect(streetKey('N Street')).toBe('n street');
    expect(streetKey('Broadway')).toBe('broadway');
    expect(streetKey('St Francis Way')).toBe('st francis way');
  });

  it('keys house numbers and cities', () => {
    expect(houseNumberKey('12 A')).toBe('12a');
    expect(houseNumberValue('12A')).toBe(12);
    expect(houseNumberValue('1-3')).toBe(1);
    expect(houseNumberValue('A')).toBeNull();
    expect(cityKey('St. Louis')).toBe('saint louis');
    expect(cityKey('San Francisco')).toBe(cityKey('SAN FRANCISCO'));
  });
});

describe('a typed address', () => {
  it('reads number, street, city and ZIP, dropping the state and country', () => {
    expect(parseAddressQuery('333 Post St, San Francisco, CA 94108')).toEqual({
      number: '333',
      street: 'Post St',
      place: 'San Francisco, CA 94108',
      city: 'San Francisco',
      zip: '94108',
    });
    expect(parseAddressQuery('1 Kearny Street, San Francisco, USA')).toMatchObject({
      number: '1',
      street: 'Kearny Street',
      city: 'San Francisco',
      zip: null,
    });
    expect(parseAddressQuery('12A Main St')).toMatchObject({ number: '12A', street: 'Main St', city: null });
  });

  it('reads a street without a number, and refuses a text with no street', () => {
    expect(parseAddressQuery('Union Square, San Francisco')).toMatchObject({
      number: null,
      street: 'Union Square',
      city: 'San Francisco',
    });
    expect(parseAddressQuery('94105')).toBeNull();
    expect(parseAddressQuery(' , ')).toBeNull();
  });

  it('accepts typed coordinates and nothing else as coordinates', () => {
    expect(parseCoordinates('37.7879,-122.4066')).toEqual({ lat: 37.7879, lng: -122.4066 });
    expect(parseCoordinates(' 37.7879 -122.4066 ')).toEqual({ lat: 37.7879, lng: -122.4066 });
    expect(parseCoordinates('95.1,10')).toBeNull();
    expect(parseCoordinates('333 Post St')).toBeNull();
    expect(parseCoordinates('94105')).toBeNull();
  });
});
