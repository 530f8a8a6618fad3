import { describe, expect, it } from 'vitest';
import {
  businessChanged,
  CACHE_EXPIRY_MS,
  contentHash,
  isFresh,
  lastPerKey,
  MODEL_VERSION,
  needsResave,
  RESAVE_MIN_AGE_MS,
  type CachedBusiness,
} from '../../src/server/scans/cache.js';

const base: CachedBusiness = {
  name: 'Union Square Dental',
  address: '450 Sutter St',
  normalizedCategory: 'Dental',
  website: 'https://example.com',
  phone: '(415) 555-0100',
  rating: 4.5,
  reviewCount: 120,
  businessStatus: 'Open',
  types: ['dentist'],
};
const now = Date.parse('2026-11-22T12:00:00Z');
const ago = (ms: number) => new Date(now - ms).toISOString();

describe('analysis cache rules', () => {
  it('pins the constants', () => {
    expect(MODEL_VERSION).toBe('v4');
    expect(CACHE_EXPIRY_MS).toBe(7 * 86_400_000);
    expect(RESAVE_MIN_AGE_MS).toBe(120_000);
  });

  it('is valid only while younger than 7 days and of the current model version (or none)', () => {
    expect(isFresh({ updated_at: ago(CACHE_EXPIRY_MS - 1000), model_version: MODEL_VERSION }, now)).toBe(
      true,
    );
    expect(isFresh({ updated_at: ago(CACHE_EXPIRY_MS + 1000), model_version: MODEL_VERSION }, now)).toBe(
      false,
    );
    expect(isFresh({ updated_at: ago(1000), model_version: 'v0' }, now)).toBe(false);
    expect(isFresh({ updated_at: ago(1000), model_version: 'v2' }, now)).toBe(false);
    expect(isFresh({ updated_at: ago(1000), model_version: '' }, now)).toBe(true);
  });

  it('treats 10+ reviews, 0.1+ rating, or another website or phone as changed data', () => {
    expect(businessChanged(base, { ...base, reviewCount: 129 })).toBe(false);
    expect(businessChanged(base, { ...base, reviewCount: 130 })).toBe(true);
    expect(businessChanged(base, { ...base, rating: 4.55 })).toBe(false);
    expect(businessChanged(base, { ...base, rating: 4.6 })).toBe(true);
    expect(businessChanged(base, { ...base, website: ' HTTPS://EXAMPLE.COM ' })).toBe(false);
    expect(businessChanged(base, { ...base, website: 'https://other.example' })).toBe(true);
    expect(businessChanged(base, { ...base, phone: '' })).toBe(true);
  });

  it('re-saves a business only when new or changed, and never within 120 s of the stored copy', () => {
    const stored = (age: number, data = base) => ({
      data,
      updated_at: ago(age),
      content_hash: contentHash(data),
    });
    expect(needsResave(undefined, base, now)).toBe(true);
    expect(needsResave(stored(RESAVE_MIN_AGE_MS + 1), base, now)).toBe(false);
    expect(
      needsResave(stored(RESAVE_MIN_AGE_MS + 1), { ...base, name: 'Union Square Dental Group' }, now),
    ).toBe(true);
    expect(
      needsResave(stored(RESAVE_MIN_AGE_MS - 1), { ...base, name: 'Union Square Dental Group' }, now),
    ).toBe(false);
    expect(needsResave(stored(RESAVE_MIN_AGE_MS + 1), { ...base, reviewCount: 131 }, now)).toBe(true);
    expect(needsResave(stored(RESAVE_MIN_AGE_MS + 1), { ...base, rating: 4.6 }, now)).toBe(true);
    expect(needsResave(stored(RESAVE_MIN_AGE_MS + 1), { ...base, name: ' UNION SQUARE DENTAL ' }, now)).toBe(
      false,
    );
  });
});

describe('batch cache writes', () => {
  it('keep one entry per key, the last one, in key order (one lock order for every scan)', () => {
    const entries = [
      { key: 'place_c', n: 1 },
      { key: 'place_a', n: 2 },
      { key: 'place_c', n: 3 },
      { key: 'place_b', n: 4 },
    ];
    expect(lastPerKey(entries)).toEqual([
      { key: 'place_a', n: 2 },
      { key: 'place_b', n: 4 },
      { key: 'place_c', n: 3 },
    ]);
  });
});
