import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { businessCacheKey, businessHash } from './types';

describe('businessHash (the cache key)', () => {
  it("is 'place_' plus the place id when one exists", () => {
    expect(businessHash({ placeId: 'ChIJ123', name: 'Acme', address: 'x', category: 'y' })).toBe(
      'place_ChIJ123',
    );
    expect(businessHash({ placeId: 'osm:node/42', name: 'Acme' })).toBe('place_osm:node/42');
  });

  it('otherwise hashes the lower-cased name, address and category, cut to 20 alphanumeric characters', () => {
    const h = businessHash({ name: 'Acme Dental', address: '1 Main St', category: 'Dental' });
    expect(h).toMatch(/^[a-z0-9]{20}$/);
    expect(h).toBe(createHash('sha1').update('acme dental|1 main st|dental').digest('hex').slice(0, 20));
  });

  it('keeps the keys already stored in the caches, byte for byte (UTF-8 included)', () => {
    // Keys as the caches hold them: a changed key would orphan every cache row.
    expect(businessHash({ name: 'Acme Dental', address: '1 Main St', category: 'Dental' })).toBe(
      'd35e7ea88977291ce1e3',
    );
    expect(
      businessHash({ name: 'Café Ünïcode 東京', address: '12 Rue de la Paix', category: 'Bakery' }),
    ).toBe('147138875b1c4ceb198a');
  });

  it('ignores case and surrounding spaces, and treats an empty place id as none', () => {
    const a = businessHash({ name: 'ACME Dental ', address: '1 MAIN ST', category: 'dental' });
    const b = businessHash({ placeId: '  ', name: 'acme dental', address: '1 main st', category: 'Dental' });
    expect(a).toBe(b);
  });

  it('changes when any of the three fields changes', () => {
    const base = { name: 'Acme', address: '1 Main St', category: 'Dental' };
    const h = businessHash(base);
    expect(businessHash({ ...base, name: 'Acme 2' })).not.toBe(h);
    expect(businessHash({ ...base, address: '2 Main St' })).not.toBe(h);
    expect(businessHash({ ...base, category: 'Medical' })).not.toBe(h);
  });
});

describe('businessCacheKey (the scan cache key of a provider business)', () => {
  const base = { name: 'Wells Fargo', address: '', category: 'Financial' };
  it('uses the place id, else the provider id, so same-name branches without addresses differ', () => {
    expect(businessCacheKey({ ...base, id: 'ChIJabc', placeId: 'ChIJabc' })).toBe('place_ChIJabc');
    expect(businessCacheKey({ ...base, id: 'osm:node/1' })).toBe('place_osm:node/1');
    expect(businessCacheKey({ ...base, id: 'osm:node/2' })).not.toBe(
      businessCacheKey({ ...base, id: 'osm:node/1' }),
    );
    expect(businessCacheKey({ ...base, id: 'demo:x', placeId: '  ' })).toBe('place_demo:x');
  });
  it('falls back to the hash of name, address and category only when there is no id at all', () => {
    expect(businessCacheKey({ ...base, id: '' })).toBe(businessHash(base));
  });
});
