// Plane and sphere geometry for the discovery engine.
// Pure functions, no I/O.

/** Mean earth radius used by the product, in miles. */
export const EARTH_RADIUS_MILES = 3959;
/** Metres in one mile. */
export const METERS_PER_MILE = 1609.34;
/** Miles per degree of latitude (and of longitude at the equator). */
export const MILES_PER_DEGREE = 69;

export interface LatLng {
  lat: number;
  lng: number;
}

export interface BoundingBox {
  minLat: number;
  maxLat: number;
  minLng: number;
  maxLng: number;
}

const toRadians = (deg: number): number => (deg * Math.PI) / 180;

/** Great-circle distance between two points in miles (haversine, earth radius 3959 mi). */
export function haversineMiles(a: LatLng, b: LatLng): number {
  const dLat = toRadians(b.lat - a.lat);
  const dLng = toRadians(b.lng - a.lng);
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(toRadians(a.lat)) * Math.cos(toRadians(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}

export const milesToMeters = (miles: number): number => miles * METERS_PER_MILE;
export const metersToMiles = (meters: number): number => meters / METERS_PER_MILE;

/** Degrees of latitude spanned by a distance in miles (69 miles per degree). */
export const milesToLatDegrees = (miles: number): number => miles / MILES_PER_DEGREE;

/**
 * Degrees of longitude spanned by a distance in miles at a given latitude
 * (69 miles per degree at the equator, shrinking with cos(latitude)).
 * Near the poles the span is capped at 360 degrees.
 */
export function milesToLngDegrees(miles: number, atLat: number): number {
  const cos = Math.cos(toRadians(atLat));
  if (cos < 1e-9) return 360;
  return Math.min(360, miles / (MILES_PER_DEGREE * cos));
}

/** Rough planar distance in miles from coordinate differences (69 miles per degree, longitude scaled by cos(lat)). */
export function approxMiles(a: LatLng, b: LatLng): number {
  const dLat = (b.lat - a.lat) * MILES_PER_DEGREE;
  const dLng = (b.lng - a.lng) * MILES_PER_DEGREE * Math.cos(toRadians((a.lat + b.lat) / 2));
  return Math.sqrt(dLat * dLat + dLng * dLng);
}

/**
 * The smallest latitude/longitude box that contains every point within `radiusMiles` of `center`.
 * Latitudes are clamped to [-90, 90]; longitudes are not wrapped (a box may cross ±180).
 */
export function boundingBox(center: LatLng, radiusMiles: number): BoundingBox {
  const dLat = milesToLatDegrees(radiusMiles);
  // Use the latitude of the box edge nearest the pole: that is where a degree of longitude is shortest.
  const edgeLat = Math.min(90, Math.abs(center.lat) + dLat);
  const dLng = milesToLngDegrees(radiusMiles, edgeLat);
  return {
    minLat: Math.max(-90, center.lat - dLat),
    maxLat: Math.min(90, center.lat + dLat),
    minLng: center.lng - dLng,
    maxLng: center.lng + dLng,
  };
}

/** True when `point` lies within `radiusMiles` (inclusive) of `center` by great-circle distance. */
export function isWithinRadius(center: LatLng, point: LatLng, radiusMiles: number): boolean {
  return haversineMiles(center, point) <= radiusMiles;
}

/** True when a latitude and longitude are finite numbers in their valid ranges. */
export function isValidLatLng(lat: unknown, lng: unknown): boolean {
  return (
    typeof lat === 'number' &&
    typeof lng === 'number' &&
    Number.isFinite(lat) &&
    Number.isFinite(lng) &&
    Math.abs(lat) <= 90 &&
    Math.abs(lng) <= 180
  );
}
