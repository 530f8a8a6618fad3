import { describe, expect, it } from 'vitest';
import { checkVisit, VISIT_MAX_ACCURACY_M, VISIT_RADIUS_MILES } from './visits';

const shop = { lat: 33.5207, lng: -86.8025 };
// 0.1 mile of latitude is 0.1 / 69.09 degrees (earth radius 3959 mi): just inside and just outside.
const north = (miles: number) => ({ lat: shop.lat + miles / ((3959 * Math.PI) / 180), lng: shop.lng });

describe('checkVisit (within 0.1 mile, accuracy ≤ 161 m)', () => {
  it('pins the limits', () => {
    expect(VISIT_RADIUS_MILES).toBe(0.1);
    expect(VISIT_MAX_ACCURACY_M).toBe(161);
  });

  it('verifies a phone at the door and one 0.09 mile away', () => {
    expect(checkVisit(shop, { ...shop, accuracyM: 10 })).toEqual({ verified: true, distanceMiles: 0 });
    const near = checkVisit(shop, { ...north(0.09), accuracyM: 20 });
    expect(near.verified).toBe(true);
    expect(near.distanceMiles).toBeCloseTo(0.09, 6);
  });

  it('refuses 0.11 mile away, however accurate', () => {
    const far = checkVisit(shop, { ...north(0.11), accuracyM: 5 });
    expect(far.verified).toBe(false);
    expect(far.distanceMiles).toBeCloseTo(0.11, 6);
  });

  it('refuses a fix whose accuracy is worse than 161 m, even at the door', () => {
    expect(checkVisit(shop, { ...shop, accuracyM: 161 }).verified).toBe(true);
    expect(checkVisit(shop, { ...shop, accuracyM: 162 }).verified).toBe(false);
  });

  it('is unverified without either position', () => {
    expect(checkVisit(null, { ...shop, accuracyM: 5 })).toEqual({ verified: false, distanceMiles: null });
    expect(checkVisit(shop, undefined)).toEqual({ verified: false, distanceMiles: null });
  });
});
