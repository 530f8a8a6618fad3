import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CLOSE_DEGREES,
  STORAGE_CLOSE_DEGREES,
  TOP_UP_CLOSE_DEGREES,
  dedupe,
  dedupeDetailed,
  dropIncomplete,
  hasHouseNumber,
  isStorageName,
  normalizeAddress,
  normalizeName,
  topUp,
} from './dedup';

interface C {
  id: string;
  name: string;
  lat: number;
  lng: number;
  address?: string;
  placeId?: string;
}
let n = 0;
const c = (name: string, lat: number, lng: number, address = '', extra: Partial<C> = {}): C => ({
  id: `t:${++n}`,
  name,
  lat,
  lng,
  address,
  ...extra,
});

describe('constants (SPEC.md §5)', () => {
  it('pins the closeness thresholds', () => {
    expect(CLOSE_DEGREES).toBe(0.001);
    expect(STORAGE_CLOSE_DEGREES).toBe(0.005);
    expect(TOP_UP_CLOSE_DEGREES).toBe(0.001);
  });
});

describe('normalizeName', () => {
  it('lower-cases, strips punctuation and removes the suffixes inc, llc, corp, co, ltd', () => {
    expect(normalizeName("Joe's Plumbing Co., Inc.")).toBe('joes plumbing');
    expect(normalizeName('ACME, LLC')).toBe('acme');
    expect(normalizeName('Widgets Corp')).toBe('widgets');
    expect(normalizeName('Tea Ltd.')).toBe('tea');
    expect(normalizeName('  Smith   &  Jones ')).toBe('smith and jones');
    expect(normalizeName('Café Réal')).toBe('cafe real');
  });

  it('removes suffixes only at the end and never empties a name', () => {
    expect(normalizeName('Co-op Market')).toBe('co op market');
    expect(normalizeName('Inc')).toBe('inc');
  });
});

describe('normalizeAddress', () => {
  it('removes street-type words and punctuation', () => {
    expect(normalizeAddress('123 Main Street')).toBe('123 main');
    expect(normalizeAddress('123 MAIN ST.')).toBe('123 main');
    expect(normalizeAddress('500 Oak Avenue, Suite 200')).toBe('500 oak 200');
    expect(normalizeAddress('500 Oak Ave Ste 300')).toBe('500 oak 300');
    expect(normalizeAddress(undefined)).toBe('');
    expect(normalizeAddress('')).toBe('');
  });
});

describe('hasHouseNumber', () => {
  it('is true for a street line that starts with a house number, or ends with one after the street name', () => {
    for (const a of [
      '123 Main St',
      '123 Main Street, San Francisco, CA 94105',
      '123A Main St',
      '123-125 Grant Avenue, San Francisco',
      '12/14 Rue Grimaldi',
      'Rue Grimaldi 12, 98000 Monaco',
      '1 Market St Suite 100',
    ])
      expect(hasHouseNumber(a), a).toBe(true);
  });

  it('is false for a state, a city, a street without a number, a ZIP, or an ordinal street name', () => {
    for (const a of [
      '',
      undefined,
      'CA',
      'San Francisco',
      'San Francisco, CA 94102',
      'Grant Avenue, San Francisco, CA',
      'CA 94105',
      '94105',
      '1st Street, San Francisco',
      'Pier 39, San Francisco',
      ', 123 Main St',
    ])
      expect(hasHouseNumber(a), String(a)).toBe(false);
  });
});

describe('isStorageName', () => {
  it('recognises storage-type names', () => {
    expect(isStorageName(normalizeName('Public Storage'))).toBe(true);
    expect(isStorageName(normalizeName('U-Haul Moving & Storage'))).toBe(true);
    expect(isStorageName(normalizeName('Storey Dental'))).toBe(false);
  });
});

describe('dedupe: the three pair rules', () => {
  it('names and coordinates: same normalised name within 0.001° in both axes', () => {
    const a = c('Acme Dental, Inc.', 37.0, -122.0);
    const b = c('ACME DENTAL', 37.0009, -122.0009);
    const far = c('Acme Dental', 37.0011, -122.0);
    const r = dedupeDetailed([a, b, far]);
    expect(r.kept).toEqual([a, far]);
    expect(r.dropped).toEqual([{ item: b, duplicateOf: a, rule: 'name-and-coordinates' }]);
  });

  it('closeness is inclusive at exactly 0.001°', () => {
    expect(dedupe([c('X', 37.0, -122.0), c('x', 37.001, -122.001)])).toHaveLength(1);
  });

  it('uses 0.005° for storage-type names', () => {
    const a = c('Public Storage', 37.0, -122.0);
    const b = c('Public Storage', 37.004, -122.0045);
    const c2 = c('Public Storage', 37.0, -122.0055);
    expect(dedupe([a, b, c2])).toEqual([a, c2]);
    // ... but not for ordinary names
    expect(dedupe([c('Acme', 37.0, -122.0), c('Acme', 37.004, -122.0)])).toHaveLength(2);
  });

  it('names and addresses: same name and same normalised address far apart', () => {
    const a = c('Acme', 37.0, -122.0, '1 Main Street');
    const b = c('Acme Co', 37.5, -122.5, '1 MAIN ST');
    const r = dedupeDetailed([a, b]);
    expect(r.kept).toEqual([a]);
    expect(r.dropped[0]?.rule).toBe('name-and-address');
  });

  it('coordinates and addresses: different names at the same place and address', () => {
    const a = c('Bright Smiles', 37.0, -122.0, '9 Elm Rd');
    const b = c('Bright Smiles Family Dentistry', 37.0002, -122.0002, '9 Elm Road');
    const r = dedupeDetailed([a, b]);
    expect(r.kept).toEqual([a]);
    expect(r.dropped[0]?.rule).toBe('coordinates-and-address');
  });

  it('any two with the same non-empty normalised address are duplicates', () => {
    const a = c('Alpha', 37.0, -122.0, '77 Pine Blvd');
    const b = c('Beta', 37.2, -122.2, '77 Pine Boulevard');
    const r = dedupeDetailed([a, b]);
    expect(r.kept).toEqual([a]);
    expect(r.dropped[0]?.rule).toBe('same-address');
  });

  it('never matches on empty addresses or empty names', () => {
    const items = [
      c('Alpha', 37.0, -122.0, ''),
      c('Beta', 37.0, -122.0, ''),
      c('!!!', 37.1, -122.1),
      c('???', 37.1, -122.1),
    ];
    expect(dedupe(items)).toHaveLength(4);
  });

  it('applies the address rules only to a street line with a house number (real San Francisco pairs)', () => {
    // Addresses the OSM import builds from partial addr:* tags: a state, a city, a street without a number.
    const pairs: [C, C][] = [
      [
        c('American Conservatory Theater - Administrative Offices', 37.7868, -122.4101, 'CA'),
        c('William E Colby Memorial Library', 37.7952, -122.4, 'CA'),
      ],
      [
        c('Linda Boutique', 37.7925, -122.4058, 'Grant Avenue, San Francisco, CA'),
        c('Peking Bazaar', 37.7913, -122.4058, 'Grant Avenue, San Francisco, CA'),
      ],
      [
        c('Wells Fargo', 37.79, -122.401, 'San Francisco'),
        c('Sharetea', 37.7875, -122.4035, 'San Francisco'),
      ],
      [
        c('Federal Building San Francisco', 37.7795, -122.4147, 'San Francisco, CA 94102'),
        c('Saint Boniface Catholic Church', 37.7825, -122.4125, 'San Francisco, CA 94102'),
      ],
      // Same spot, same street, no number: still two shops.
      [
        c('LA Woon Jewelry', 37.7968, -122.4062, 'Pacific Avenue'),
        c('New Regent Café', 37.7968, -122.4063, 'Pacific Avenue'),
      ],
    ];
    for (const pair of pairs) expect(dedupe(pair)).toEqual(pair);
    // With a house number the rules hold as before, near or far.
    expect(
      dedupeDetailed([
        c('Nobel Shoes', 37.79, -122.406, '330 Sutter Street, San Francisco, CA 94108'),
        c('Blooming Alley', 37.7901, -122.4061, '330 Sutter St, San Francisco, CA 94108'),
      ]).dropped[0]?.rule,
    ).toBe('coordinates-and-address');
    expect(
      dedupeDetailed([
        c('Focus Clinic', 37.79, -122.4, '100 Pine Street, San Francisco, CA 94111'),
        c('Bell Resources', 37.7915, -122.4, '100 Pine, San Francisco, CA 94111'),
      ]).dropped[0]?.rule,
    ).toBe('same-address');
    // ... and the same name at the same place still merges by coordinates.
    expect(
      dedupe([c('Wells Fargo', 37.79, -122.401, 'CA'), c('Wells Fargo', 37.7905, -122.4015, 'CA')]),
    ).toHaveLength(1);
  });

  it('keeps different suites of one building apart', () => {
    expect(
      dedupe([c('A', 37, -122, '1 Market St Suite 100'), c('B', 37, -122, '1 Market St Suite 200')]),
    ).toHaveLength(2);
  });

  it('de-duplicates by place id and by provider id', () => {
    const a = c('One', 37, -122, '', { placeId: 'P1' });
    const b = c('Totally different', 38, -120, '', { placeId: 'P1' });
    const d = { ...c('Other', 39, -121), id: a.id };
    const r = dedupeDetailed([a, b, d]);
    expect(r.kept).toEqual([a]);
    expect(r.dropped.map((x) => x.rule)).toEqual(['same-id', 'same-id']);
  });

  it('final pass drops identical name, address and coordinates to six decimals', () => {
    // Names that normalise to nothing skip the name rule, so only the final pass catches these.
    const a = c('...', 37.1234561, -122.1234561);
    const b = c('...', 37.1234564, -122.1234564);
    const r = dedupeDetailed([a, b]);
    expect(r.kept).toEqual([a]);
    expect(r.dropped[0]?.rule).toBe('identical-six-decimals');
  });

  it('keeps the first entry and the input order', () => {
    const items = [c('B', 1, 1), c('A', 2, 2), c('b', 1.0001, 1.0001), c('C', 3, 3), c('a', 2, 2)];
    expect(dedupe(items).map((x) => x.name)).toEqual(['B', 'A', 'C']);
  });

  it('matches across cell borders of the grid', () => {
    // 0.0005 and 0.0015 sit in neighbouring 0.001° cells.
    expect(dedupe([c('Edge', 0.0005, 0.0005), c('Edge', 0.0014, 0.0014)])).toHaveLength(1);
    expect(dedupe([c('Edge', -0.0004, -0.0004), c('Edge', 0.0004, 0.0004)])).toHaveLength(1);
  });

  it('agrees with a brute-force all-pairs reference on random data', () => {
    let seed = 42;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const names = ['Acme', 'acme inc', 'Beta LLC', 'beta', 'Gamma Storage', 'Delta', 'Epsilon Co'];
    const addrs = ['', '', '', '1 Main St', '1 Main Street', '2 Oak Ave', 'Oak Ave, Springfield', 'CA'];
    const items: C[] = [];
    for (let i = 0; i < 400; i++) {
      items.push(
        c(
          names[Math.floor(rnd() * names.length)] ?? 'Acme',
          37 + rnd() * 0.02,
          -122 + rnd() * 0.02,
          addrs[Math.floor(rnd() * addrs.length)] ?? '',
        ),
      );
    }
    const reference: C[] = [];
    for (const it of items) {
      const nm = normalizeName(it.name);
      const ad = normalizeAddress(it.address);
      const lim = isStorageName(nm) ? 0.005 : 0.001;
      const dup = reference.some((k) => {
        const close = Math.abs(k.lat - it.lat) <= lim + 1e-9 && Math.abs(k.lng - it.lng) <= lim + 1e-9;
        const sameName = nm !== '' && normalizeName(k.name) === nm;
        const sameAddr =
          ad !== '' &&
          hasHouseNumber(it.address) &&
          hasHouseNumber(k.address) &&
          normalizeAddress(k.address) === ad;
        return (sameName && close) || sameAddr;
      });
      if (!dup) reference.push(it);
    }
    expect(reference.length).toBeGreaterThan(20);
    expect(reference.length).toBeLessThan(300);
    expect(dedupe(items)).toEqual(reference);
  });
});

describe('dropIncomplete', () => {
  it('drops results without a name or a location', () => {
    const ok = { name: 'A', lat: 1, lng: 2 };
    expect(
      dropIncomplete([
        ok,
        { name: '  ', lat: 1, lng: 2 },
        { name: 'B', lat: Number.NaN, lng: 2 },
        { name: 'C', lat: null, lng: 1 },
        { name: 'D', lat: 95, lng: 0 },
      ]),
    ).toEqual([ok]);
  });
});

describe('topUp (open-map results, SPEC.md §5)', () => {
  const existing = [c('Acme Dental', 37.0, -122.0), c('Beta Law', 37.01, -122.01)];

  it('drops results whose name matches an existing one case-insensitively', () => {
    const out = topUp(existing, [c('ACME DENTAL', 38, -121), c('Gamma', 38, -121)]);
    expect(out.map((x) => x.name)).toEqual(['Acme Dental', 'Beta Law', 'Gamma']);
  });

  it('drops results within 0.001° of an existing one in both latitude and longitude', () => {
    const out = topUp(existing, [
      c('Near', 37.0009, -122.0009),
      c('Near lat only', 37.0009, -122.0021),
      c('Edge', 37.011, -122.011),
    ]);
    expect(out.map((x) => x.name)).toEqual(['Acme Dental', 'Beta Law', 'Near lat only']);
  });

  it('also checks against results it has already added, and respects the total', () => {
    const out = topUp(
      [],
      [c('X', 1, 1), c('x', 2, 2), c('Y', 1.0005, 1.0005), c('Z', 3, 3), c('W', 4, 4)],
      2,
    );
    expect(out.map((x) => x.name)).toEqual(['X', 'Z']);
  });
});

describe('dedupe properties', () => {
  const candidate = fc.record({
    id: fc.string({ maxLength: 3 }),
    name: fc.constantFrom('Acme', 'ACME, Inc.', 'Beta', 'Public Storage', 'public storage', '!!', ''),
    lat: fc.double({ min: 37, max: 37.01, noNaN: true }),
    lng: fc.double({ min: -122.01, max: -122, noNaN: true }),
    address: fc.constantFrom('', '', '1 Main St', '1 Main Street', '2 Oak Ave', 'Main Street', 'CA'),
  });

  it('keeps a subsequence of the input, is idempotent, and leaves no two kept entries matching a rule', () => {
    fc.assert(
      fc.property(fc.array(candidate, { maxLength: 60 }), (items) => {
        const kept = dedupe(items);
        let i = 0;
        for (const k of kept) {
          while (i < items.length && items[i] !== k) i++;
          expect(i).toBeLessThan(items.length);
        }
        expect(dedupe(kept)).toEqual(kept);
        for (let a = 0; a < kept.length; a++) {
          for (let b = a + 1; b < kept.length; b++) {
            const x = kept[a];
            const y = kept[b];
            if (!x || !y) continue;
            expect(dedupe([x, y])).toHaveLength(2);
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('normalizeName on ASCII (fast path) equals the regular-expression definition', () => {
  const reference = (text: string): string => {
    const w = text
      .toLowerCase()
      .replace(/&/g, ' and ')
      .replace(/'/g, '')
      .replace(/[^a-z0-9]+/g, ' ')
      .trim()
      .split(' ')
      .filter((x) => x.length > 0);
    let end = w.length;
    while (end > 1 && ['inc', 'llc', 'corp', 'co', 'ltd'].includes(w[end - 1] ?? '')) end--;
    return w.slice(0, end).join(' ');
  };

  it('for random ASCII names', () => {
    const chars = "aZ9 &'.,-_/#()!?xYcoincltd".split('');
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...chars), maxLength: 30 }), (t) => {
        expect(normalizeName(t)).toBe(reference(t));
      }),
      { numRuns: 2000 },
    );
  });
});
