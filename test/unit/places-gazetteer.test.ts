import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LOCATION,
  gazetteerGeocode,
  gazetteerReverse,
} from '../../src/server/geocoding/gazetteer.js';

describe('offline gazetteer', () => {
  it('resolves a city with its state, as code or name', () => {
    const al = gazetteerGeocode('Birmingham, AL');
    expect(al?.label).toBe('Birmingham, AL');
    expect(al?.lat).toBeCloseTo(33.52, 1);
    expect(al?.lng).toBeCloseTo(-86.8, 1);
    expect(gazetteerGeocode('Birmingham, Alabama')?.label).toBe('Birmingham, AL');
    expect(gazetteerGeocode('birmingham al')?.label).toBe('Birmingham, AL');
    expect(gazetteerGeocode('St. Louis, MO')?.label).toBe('St. Louis, MO');
  });

  it('resolves a bare city name to the most populous match, preferring a sizeable US city', () => {
    const sf = gazetteerGeocode('San Francisco');
    expect(sf?.label).toBe('San Francisco, CA');
    expect(sf?.lat).toBeCloseTo(37.77, 1);
    expect(gazetteerGeocode('San Francisco, CA')?.label).toBe('San Francisco, CA');
    expect(gazetteerGeocode('Birmingham')?.label).toBe('Birmingham, AL');
    expect(gazetteerGeocode('Paris')?.label).toBe('Paris, FR');
    expect(gazetteerGeocode('Monaco')?.label).toBe('Monaco, MC');
  });

  it('resolves US ZIP codes, alone or at the end of an address', () => {
    expect(gazetteerGeocode('94105')).toEqual({
      lat: 37.7864,
      lng: -122.3892,
      label: 'San Francisco, CA 94105',
    });
    expect(gazetteerGeocode('35203-1234')?.label).toBe('Birmingham, AL 35203');
    expect(gazetteerGeocode('123 Market St, Harrisburg, PA 17101')?.label).toBe('Harrisburg, PA 17101');
  });

  it('falls back to the ZIP list for cities GeoNames names differently, and gives null for nonsense', () => {
    expect(gazetteerGeocode('New York, NY')?.label).toBe('New York, NY');
    expect(gazetteerGeocode('Qwxzv Flats, ZZ')).toBeNull();
    expect(gazetteerGeocode('CA')).toBeNull();
    expect(gazetteerGeocode('   ')).toBeNull();
  });

  it('labels a point with the city it lies in, not a neighbourhood or the village next door', () => {
    expect(gazetteerReverse(37.7879, -122.4066)).toBe('San Francisco, CA');
    expect(gazetteerReverse(39.28486, -76.58525)).toBe('Baltimore, MD');
    expect(gazetteerReverse(33.5186, -86.8104)).toBe('Birmingham, AL');
    expect(gazetteerReverse(37.8044, -122.2712)).toBe('Oakland, CA');
    expect(gazetteerReverse(43.73499, 7.42276)).toBe('Monaco, MC');
    expect(gazetteerReverse(Number.NaN, 0)).toBeNull();
  });

  it('exports Birmingham, AL as the default location', () => {
    expect(DEFAULT_LOCATION.label).toBe('Birmingham, AL');
    expect(gazetteerReverse(DEFAULT_LOCATION.lat, DEFAULT_LOCATION.lng)).toBe('Birmingham, AL');
  });
});
