import { describe, expect, it } from 'vitest';
import {
  EARTH_RADIUS_MILES,
  METERS_PER_MILE,
  MILES_PER_DEGREE,
  approxMiles,
  boundingBox,
  haversineMiles,
  isValidLatLng,
  isWithinRadius,
  metersToMiles,
  milesToLatDegrees,
  milesToLngDegrees,
  milesToMeters,
} from './geo';

describe('geo constants', () => {
  it('pins the earth radius, metres per mile and miles per degree', () => {
    expect(EARTH_RADIUS_MILES).toBe(3959);
    expect(METERS_PER_MILE).toBe(1609.34);
    expect(MILES_PER_DEGREE).toBe(69);
  });
});

describe('haversineMiles', () => {
  it('is zero for the same point', () => {
    expect(haversineMiles({ lat: 37.7879, lng: -122.4066 }, { lat: 37.7879, lng: -122.4066 })).toBe(0);
  });

  it('gives one degree of latitude as 3959 * pi / 180 miles', () => {
    expect(haversineMiles({ lat: 0, lng: 0 }, { lat: 1, lng: 0 })).toBeCloseTo((3959 * Math.PI) / 180, 9);
  });

  it('matches a known city pair (San Francisco to Los Angeles, about 347 miles)', () => {
    const d = haversineMiles({ lat: 37.7749, lng: -122.4194 }, { lat: 34.0522, lng: -118.2437 });
    expect(d).toBeGreaterThan(345);
    expect(d).toBeLessThan(349);
  });

  it('is symmetric and handles antipodes', () => {
    const a = { lat: 33.5186, lng: -86.8104 };
    const b = { lat: 39.2849, lng: -76.5853 };
    expect(haversineMiles(a, b)).toBeCloseTo(haversineMiles(b, a), 12);
    expect(haversineMiles({ lat: 0, lng: 0 }, { lat: 0, lng: 180 })).toBeCloseTo(Math.PI * 3959, 6);
  });
});

describe('unit conversions', () => {
  it('converts miles and metres both ways', () => {
    expect(milesToMeters(1)).toBe(1609.34);
    expect(milesToMeters(2.5)).toBeCloseTo(4023.35, 9);
    expect(metersToMiles(1609.34)).toBe(1);
    expect(metersToMiles(milesToMeters(0.7))).toBeCloseTo(0.7, 12);
  });

  it('uses 69 miles per degree', () => {
    expect(milesToLatDegrees(69)).toBe(1);
    expect(milesToLngDegrees(69, 0)).toBeCloseTo(1, 12);
    expect(milesToLngDegrees(69, 60)).toBeCloseTo(2, 9);
    expect(milesToLngDegrees(1, 90)).toBe(360);
  });

  it('approximates short distances close to haversine', () => {
    const a = { lat: 37.7879, lng: -122.4066 };
    const b = { lat: 37.7979, lng: -122.3966 };
    expect(Math.abs(approxMiles(a, b) - haversineMiles(a, b))).toBeLessThan(0.01);
  });
});

describe('boundingBox', () => {
  it('contains every point of the circle and is tight in latitude', () => {
    const center = { lat: 37.7879, lng: -122.4066 };
    const box = boundingBox(center, 1);
    expect(box.maxLat - center.lat).toBeCloseTo(1 / 69, 12);
    expect(center.lat - box.minLat).toBeCloseTo(1 / 69, 12);
    for (let bearing = 0; bearing < 360; bearing += 5) {
      // A point 0.999 mile away on every bearing, computed on the sphere.
      const rad = (bearing * Math.PI) / 180;
      const ang = 0.999 / 3959;
      const lat1 = (center.lat * Math.PI) / 180;
      const lng1 = (center.lng * Math.PI) / 180;
      const lat2 = Math.asin(Math.sin(lat1) * Math.cos(ang) + Math.cos(lat1) * Math.sin(ang) * Math.cos(rad));
      const lng2 =
        lng1 +
        Math.atan2(
          Math.sin(rad) * Math.sin(ang) * Math.cos(lat1),
          Math.cos(ang) - Math.sin(lat1) * Math.sin(lat2),
        );
      const p = { lat: (lat2 * 180) / Math.PI, lng: (lng2 * 180) / Math.PI };
      expect(haversineMiles(center, p)).toBeCloseTo(0.999, 6);
      expect(p.lat).toBeGreaterThanOrEqual(box.minLat);
      expect(p.lat).toBeLessThanOrEqual(box.maxLat);
      expect(p.lng).toBeGreaterThanOrEqual(box.minLng);
      expect(p.lng).toBeLessThanOrEqual(box.maxLng);
    }
  });

  it('clamps latitude at the poles', () => {
    const box = boundingBox({ lat: 89.99, lng: 0 }, 5);
    expect(box.maxLat).toBe(90);
  });
});

describe('isWithinRadius', () => {
  const center = { lat: 0, lng: 0 };
  const oneDegreeMiles = (3959 * Math.PI) / 180;
  it('includes points on or inside the circle and excludes points outside', () => {
    expect(isWithinRadius(center, { lat: 1, lng: 0 }, oneDegreeMiles + 1e-9)).toBe(true);
    expect(isWithinRadius(center, { lat: 1, lng: 0 }, oneDegreeMiles - 1e-6)).toBe(false);
    expect(isWithinRadius(center, center, 0)).toBe(true);
  });
});

describe('isValidLatLng', () => {
  it('accepts real coordinates and rejects missing or out-of-range ones', () => {
    expect(isValidLatLng(37.7, -122.4)).toBe(true);
    expect(isValidLatLng(91, 0)).toBe(false);
    expect(isValidLatLng(0, 181)).toBe(false);
    expect(isValidLatLng(Number.NaN, 0)).toBe(false);
    expect(isValidLatLng(undefined, 0)).toBe(false);
    expect(isValidLatLng('37', '-122')).toBe(false);
  });
});
