import { describe, expect, it } from 'vitest';
import { blockKeys, filterBlocked, filterBlockedBusinesses, stableId } from './blocklist';
import { businessHash } from './types';

describe('stableId', () => {
  it('is the id, else the business hash, else null', () => {
    expect(stableId({ id: 'ChIJ1', name: 'A', aiAnalysis: { businessHash: 'h' } })).toBe('ChIJ1');
    expect(stableId({ id: '', name: 'A', aiAnalysis: { businessHash: 'h' } })).toBe('h');
    expect(stableId({ name: 'A' })).toBeNull();
    expect(stableId({ id: '  ', name: 'A', aiAnalysis: { businessHash: ' ' } })).toBeNull();
  });
});

describe('filterBlocked', () => {
  const a = { id: 'osm:node/1', name: 'Alpha', address: '1 Main St', category: 'Dental' };
  const b = {
    id: 'osm:node/2',
    name: 'Beta',
    address: '2 Main St',
    category: 'Dental',
    aiAnalysis: { businessHash: 'hb' },
  };
  const c = { name: 'Gamma', address: '3 Main St', category: 'Legal Services' };
  const d = { name: 'Delta', placeId: 'P4' };

  it('drops entries whose id, analysis hash or cache key is blocked', () => {
    expect(filterBlocked([a, b, c, d], ['osm:node/1'])).toEqual([b, c, d]);
    expect(filterBlocked([a, b, c, d], new Set(['hb']))).toEqual([a, c, d]);
    expect(filterBlocked([a, b, c, d], [businessHash(c)])).toEqual([a, b, d]);
    expect(filterBlocked([a, b, c, d], ['place_P4'])).toEqual([a, b, c]);
  });

  it('keeps everything for an empty list and does not mutate the input', () => {
    const items = [a, b];
    const out = filterBlocked(items, []);
    expect(out).toEqual(items);
    expect(out).not.toBe(items);
    expect(filterBlocked(items, ['nope'])).toEqual(items);
  });
});

describe('filterBlockedBusinesses (before analysis)', () => {
  const osm = { id: 'osm:node/7', name: 'Wells Fargo', address: '', category: 'Financial' };
  const google = { id: 'ChIJ9', placeId: 'ChIJ9', name: 'Acme', address: '1 Main St', category: 'Dental' };
  const other = { id: 'demo:x', name: 'Other', address: '', category: 'Business' };

  it('drops a business blocked by its prospect id, its cache key or its name/address/category hash', () => {
    expect(filterBlockedBusinesses([osm, google, other], ['osm:node/7'])).toEqual([google, other]);
    expect(filterBlockedBusinesses([osm, google, other], ['ChIJ9'])).toEqual([osm, other]);
    expect(filterBlockedBusinesses([osm, google, other], ['place_osm:node/7'])).toEqual([google, other]);
    expect(filterBlockedBusinesses([osm, google, other], ['place_ChIJ9'])).toEqual([osm, other]);
    expect(filterBlockedBusinesses([osm, google, other], new Set([businessHash(other)]))).toEqual([
      osm,
      google,
    ]);
  });

  it('keeps everything for an empty or unrelated list', () => {
    const items = [osm, google];
    expect(filterBlockedBusinesses(items, [])).toEqual(items);
    expect(filterBlockedBusinesses(items, ['osm:node/70', 'place_ChIJ'])).toEqual(items);
  });
});

describe('blockKeys', () => {
  it('names exactly the ids filterBlocked drops an entry for', () => {
    const b = {
      id: ' osm:node/2 ',
      name: 'Beta',
      address: '2 Main St',
      category: 'Dental',
      aiAnalysis: { businessHash: 'hb' },
    };
    const keys = blockKeys(b);
    expect(keys).toEqual({ id: 'osm:node/2', analysisHash: 'hb', businessHash: businessHash(b) });
    for (const key of Object.values(keys)) expect(filterBlocked([b], [key])).toEqual([]);
    expect(blockKeys({ name: 'Gamma' })).toEqual({
      id: '',
      analysisHash: '',
      businessHash: businessHash({ name: 'Gamma' }),
    });
  });
});
