import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { haversineMiles } from './geo';
import {
  CAMPUS_MILES,
  CLOSE_DEGREES,
  SAME_BUSINESS_METERS,
  STORAGE_CLOSE_DEGREES,
  TOP_UP_CLOSE_DEGREES,
  dedupe,
  dedupeDetailed,
  dropIncomplete,
  hasHouseNumber,
  addressKey,
  addressKeys,
  institutionKey,
  isInstitution,
  isStorageName,
  normalizeAddress,
  normalizeName,
  streetLineKey,
  topUp,
} from './dedup';

interface C {
  id: string;
  name: string;
  lat: number;
  lng: number;
  address?: string;
  placeId?: string;
  types?: string[];
  phone?: string;
  website?: string;
  photos?: { ref: string; authors: [] }[];
  source?: string;
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

describe('constants', () => {
  it('pins the closeness thresholds', () => {
    expect(CLOSE_DEGREES).toBe(0.001);
    expect(STORAGE_CLOSE_DEGREES).toBe(0.005);
    expect(TOP_UP_CLOSE_DEGREES).toBe(0.001);
    expect(SAME_BUSINESS_METERS).toBe(150);
    expect(CAMPUS_MILES).toBe(0.5);
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
    const far = c('Acme Dental', 37.002, -122.0); // 222 m: beyond the 150 m of the same-name-nearby rule
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
    const pick = <X>(xs: readonly X[]): X => xs[Math.floor(rnd() * xs.length)] as X;
    const names = [
      'Acme',
      'acme inc',
      'Beta LLC',
      'beta',
      'Gamma Storage',
      'Delta',
      'Epsilon Co',
      'Zeta College',
      'Zeta Colleges - Library',
      'Eta',
    ];
    const addrs = [
      '',
      '',
      '',
      '1 Main St',
      '1 Main Street',
      '2 Oak Ave',
      'Oak Ave, Springfield',
      'CA',
      '3 Elm St',
    ];
    const typeSets = [[], [], ['store'], ['university'], ['school']];
    const items: C[] = [];
    for (let i = 0; i < 400; i++) {
      const extra: Partial<C> = { types: pick(typeSets) };
      if (rnd() < 0.3) extra.phone = `+1 415 555 ${1000 + i}`;
      if (rnd() < 0.3) extra.website = `https://example.com/${i}`;
      items.push(c(pick(names), 37 + rnd() * 0.03, -122 + rnd() * 0.03, pick(addrs), extra));
    }

    // All pairs, no grid: each entry against every kept one (and every building merged into a kept campus).
    interface R {
      item: C;
      name: string;
      lat: number;
      lng: number;
      addresses: Set<string>;
      street: string;
      campus: string;
      university: boolean;
      points: C[];
    }
    const kept: R[] = [];
    const firstUniversity = new Map<string, R>();
    const addressTaken = (key: string) => kept.some((k) => k.addresses.has(key));
    for (const it of items) {
      const nm = normalizeName(it.name);
      const ad = addressKey(it.address);
      const lim = isStorageName(nm) ? 0.005 : 0.001;
      const street = streetLineKey(it.address);
      const campus = institutionKey(it.name, it.types);
      const university = campus !== '' && !!it.types?.some((t) => t === 'university' || t === 'college');
      let sameBusiness = true;
      let hit = kept.find(
        (k) =>
          nm !== '' &&
          k.name === nm &&
          Math.abs(k.lat - it.lat) <= lim + 1e-9 &&
          Math.abs(k.lng - it.lng) <= lim + 1e-9,
      );
      if (!hit && ad) {
        hit = kept.find((k) => k.addresses.has(ad));
        sameBusiness = !!hit && hit.name === nm;
      }
      if (!hit && nm) {
        sameBusiness = true;
        hit = kept.find(
          (k) =>
            k.name === nm &&
            haversineMiles(k, it) <= 150 / 1609.34 &&
            !(street && k.street && street !== k.street),
        );
      }
      if (!hit && campus) {
        hit =
          kept.find((k) => k.campus === campus && k.points.some((p) => haversineMiles(p, it) <= 0.5)) ??
          (university ? kept.find((k) => k.campus === campus) : firstUniversity.get(campus));
      }
      if (!hit) {
        const r: R = {
          item: it,
          name: nm,
          lat: it.lat,
          lng: it.lng,
          addresses: new Set(ad ? [ad] : []),
          street,
          campus,
          university,
          points: [it],
        };
        kept.push(r);
        if (university && !firstUniversity.has(campus)) firstUniversity.set(campus, r);
        continue;
      }
      if (!sameBusiness) continue;
      const k = hit;
      const into = { ...k.item };
      if (!into.phone && it.phone) into.phone = it.phone;
      if (!into.website && it.website) into.website = it.website;
      if (!addressKey(into.address) && ad && !addressTaken(ad) && haversineMiles(into, it) <= 150 / 1609.34) {
        into.address = it.address;
        k.addresses.add(ad);
        k.street = streetLineKey(it.address);
      }
      k.item = into;
      if (campus && k.campus) {
        k.points.push(it);
        if (university && !k.university) {
          k.university = true;
          if (!firstUniversity.has(k.campus)) firstUniversity.set(k.campus, k);
        }
      }
    }
    expect(kept.length).toBeGreaterThan(20);
    expect(kept.length).toBeLessThan(300);
    expect(dedupe(items)).toEqual(kept.map((k) => k.item));
  });
});

describe('streetLineKey and isInstitution', () => {
  it('keeps only the street line of an address with a house number', () => {
    expect(streetLineKey('101 Mission Street, San Francisco, CA 94105')).toBe('101 mission');
    expect(streetLineKey('101 Mission St')).toBe('101 mission');
    expect(streetLineKey('Stockton Street, San Francisco')).toBe('');
    expect(streetLineKey('')).toBe('');
    expect(streetLineKey(undefined)).toBe('');
  });

  it('computes the address key and the street line in one pass, as addressKey and the street line alone do', () => {
    const chars = '12 aB,.#-/'.split('');
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...chars), maxLength: 24 }), (a) => {
        const { key, street } = addressKeys(a);
        expect(key).toBe(addressKey(a));
        const comma = a.indexOf(',');
        expect(street).toBe(key ? normalizeAddress(comma < 0 ? a : a.slice(0, comma)) : '');
      }),
      { numRuns: 2000 },
    );
  });

  it('knows schools, colleges, universities and hospitals by place type or by name', () => {
    expect(isInstitution(normalizeName('Academy of Art University'))).toBe(true);
    expect(isInstitution(normalizeName('Saint Francis Memorial Hospital'))).toBe(true);
    expect(isInstitution(normalizeName('City College of San Francisco'))).toBe(true);
    expect(isInstitution('ucsf benioff', ['doctor', 'hospital'])).toBe(true);
    expect(isInstitution('lycee', ['school'])).toBe(true);
    for (const name of [
      'Core40',
      'Wells Fargo',
      'Scholastic Books',
      'Hospitality Partners',
      'Collegiate Wear',
    ])
      expect(isInstitution(normalizeName(name), ['store']), name).toBe(false);
  });
});

describe('dedupe: one number to call (same-phone-nearby, 150 m)', () => {
  const north = (m: number) => 37.79 + m / 111_195;

  it('keeps one card for a practice listed by its name and by its dentist, a firm written two ways', () => {
    const practice = c('St Francis Dentistry', north(0), -122.4, '', { phone: '(415) 777-3337' });
    const dentist = c('Fernandez Oliver M DDS', north(40), -122.4, '', { phone: '+14157773337' });
    const r = dedupeDetailed([practice, dentist]);
    expect(r.kept).toEqual([practice]);
    expect(r.dropped[0]?.rule).toBe('same-phone-nearby');
    // "&" or not, one firm: the same-name rule reads the names without "and".
    const firm = dedupeDetailed([
      c('Kaiser Gornick, LLP', north(0), -122.4, '', { phone: '4158577400' }),
      c('Kaiser & Gornick LLP', north(90), -122.4, '', { phone: '4153198833' }),
    ]);
    expect(firm.kept).toHaveLength(1);
    expect(firm.dropped[0]?.rule).toBe('same-name-nearby');
  });

  it('keeps apart one number farther than 150 m, and different numbers side by side', () => {
    expect(
      dedupe([
        c('Sunrun', north(0), -122.4, '', { phone: '8554786786' }),
        c('Sunrun Solar', north(200), -122.4, '', { phone: '8554786786' }),
      ]),
    ).toHaveLength(2);
    expect(
      dedupe([
        c('Union Square Dental', north(0), -122.4, '', { phone: '4155550101' }),
        c('Union Square Dental Lab', north(5), -122.4, '', { phone: '4155550199' }),
      ]),
    ).toHaveLength(2);
  });
});

describe('dedupe: one business mapped twice (same-name-nearby, 150 m)', () => {
  // At 37.79° a metre is about 0.000009° of latitude.
  const north = (m: number) => 37.79 + m / 111_195;

  it('merges the same name within 150 m, a node and a building outline alike', () => {
    const node = c('Core40', north(0), -122.4, '', { id: 'osm:node/1', phone: '+1 415 555 0100' });
    const way = c('CORE40', north(120), -122.4, '', { id: 'osm:way/2', website: 'https://core40.com/' });
    const r = dedupeDetailed([node, way]);
    expect(r.kept).toHaveLength(1);
    expect(r.dropped).toHaveLength(1);
    expect(r.dropped[0]?.rule).toBe('same-name-nearby');
    expect(r.dropped[0]?.item).toBe(way);
    // The first entry is kept and takes the duplicate's website; the phone it had stays.
    expect(r.kept[0]).toEqual({ ...node, website: 'https://core40.com/' });
    expect(r.kept[0]?.id).toBe('osm:node/1');
    expect(r.dropped[0]?.duplicateOf).toBe(r.kept[0]);
    // The inputs are not changed.
    expect(node.website).toBeUndefined();
  });

  it("takes the duplicate's photos when the kept entry has none (an imported place and its Google twin)", () => {
    const photos = [{ ref: 'places/ChIJcore40/photos/AUc7a', authors: [] as [] }];
    const local = c('Core40', north(0), -122.4, '', { id: 'osm:node/1', source: 'local', phone: '1' });
    const google = c('Core40', north(60), -122.4, '', { id: 'ChIJcore40', source: 'google', photos });
    const [kept] = dedupe([local, google]);
    expect(kept).toEqual({ ...local, photos });
    // Its own photos stay.
    const own = [{ ref: 'places/ChIJother/photos/AUc7b', authors: [] as [] }];
    expect(dedupe([{ ...local, photos: own }, google])[0]?.photos).toBe(own);
  });

  it("keeps the first entry's own contacts and returns it unchanged when it lacks nothing", () => {
    const a = c('Blue Door Cafe', north(0), -122.4, '', { phone: '1', website: 'https://a.example/' });
    const b = c('Blue Door Cafe', north(100), -122.4, '', { phone: '2', website: 'https://b.example/' });
    const kept = dedupe([a, b]);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toBe(a);
  });

  it('also merges when one of the two has an address, or both have the same street line', () => {
    expect(
      dedupe([
        c('Citibank', north(0), -122.4, '845 Grant Avenue, San Francisco'),
        c('Citibank', north(140), -122.4, ''),
      ]),
    ).toHaveLength(1);
    // The kept entry without a house number takes the duplicate's address.
    const kept = dedupe([
      c('Chase', north(0), -122.4, 'Polk Street, San Francisco'),
      c('Chase', north(140), -122.4, '1500 Polk Street, San Francisco'),
    ]);
    expect(kept.map((k) => k.address)).toEqual(['1500 Polk Street, San Francisco']);
    const r = dedupeDetailed([
      c('Wells Fargo', north(0), -122.4, '601 Market Street'),
      c('Wells Fargo', north(130), -122.4, '601 Market St, San Francisco, CA 94105'),
    ]);
    expect(r.kept).toHaveLength(1);
    expect(r.dropped[0]?.rule).toBe('same-name-nearby');
  });

  it('keeps branches with different house numbers apart, even 120 m apart', () => {
    const a = c('Chase', north(0), -122.4, '700 Market Street');
    const b = c('Chase', north(120), -122.4, '1 Kearny Street, San Francisco');
    expect(dedupe([a, b])).toEqual([a, b]);
    // Within 0.001° the base name-and-coordinates rule still merges them.
    expect(dedupe([a, { ...b, lat: north(100) }])).toEqual([a]);
  });

  it('keeps the same name further than 150 m apart: another branch', () => {
    const a = c('Starbucks', north(0), -122.4);
    const b = c('Starbucks', north(160), -122.4);
    const d = c('Starbucks', north(480), -122.4); // 0.3 mile
    expect(dedupe([a, b, d])).toEqual([a, b, d]);
  });

  it('takes no address over that another kept entry already has', () => {
    const tower = c('Bright Dental', north(0), -122.4, '100 Pine Street');
    const a = c('Acme Law', north(300), -122.4);
    const b = c('Acme Law', north(390), -122.4, '100 Pine Street', { phone: '1' });
    // b is a's duplicate by name (90 m) and has the tower's address: a takes the phone, not the address.
    const r = dedupeDetailed([tower, a, b]);
    expect(r.kept).toEqual([tower, { ...a, phone: '1' }]);
    expect(dedupe(r.kept)).toEqual(r.kept);
  });

  it('never takes contacts over from a different business merged by its address', () => {
    const a = c('Alpha Law', 37.79, -122.4, '77 Pine Street');
    const b = c('Beta Dental', 37.79, -122.4, '77 Pine St', { phone: '+1 415 555 0199' });
    const r = dedupeDetailed([a, b]);
    expect(r.kept).toEqual([a]);
    expect(r.kept[0]).toBe(a);
    expect(r.dropped[0]?.rule).toBe('coordinates-and-address');
  });
});

describe('dedupe: buildings of one campus (same-institution, 0.5 mile)', () => {
  it('shows one campus once, whatever the buildings’ addresses', () => {
    const types = ['university'];
    const a = c('Academy of Art University', 37.7875, -122.4085, '79 New Montgomery St', { types });
    const b = c('Academy of Art University', 37.7895, -122.406, '180 New Montgomery St', { types });
    const d = c('Academy of Art University', 37.786, -122.413, '', {
      types,
      website: 'https://www.academyart.edu/',
    });
    expect(haversineMiles(a, b)).toBeGreaterThan(0.1);
    expect(haversineMiles(a, d)).toBeLessThan(0.5);
    const r = dedupeDetailed([a, b, d]);
    expect(r.kept).toEqual([{ ...a, website: 'https://www.academyart.edu/' }]);
    expect(r.dropped.map((x) => x.rule)).toEqual(['same-institution', 'same-institution']);
  });

  it('knows a hospital by its type when its name says nothing, and needs both to be institutions', () => {
    const a = c('UCSF Benioff', 37.79, -122.4, '1 Main St', { types: ['hospital'] });
    const b = c('UCSF Benioff', 37.794, -122.4, '9 Oak St', { types: ['doctor', 'hospital'] });
    expect(dedupe([a, b])).toEqual([a]);
    // A doctor's office of the same name 450 m away is not a building of the hospital.
    expect(dedupe([a, { ...b, types: ['doctor'] }])).toHaveLength(2);
  });

  it('shows a university or college once in a list, however far apart its buildings', () => {
    const types = ['university'];
    const a = c('Academy of Art University', 37.7911, -122.4046, '', { types });
    const b = c('Academy of Art University', 37.7824, -122.4194, '625 Polk Street', { types: ['school'] });
    const d = c('Academy of Art University', 37.8075, -122.4195, '', { types });
    expect(haversineMiles(a, b)).toBeGreaterThan(1);
    const r = dedupeDetailed([a, b, d]);
    // The kept entry takes no address from a building a mile away: its marker is not there.
    expect(r.kept).toEqual([a]);
    expect(r.dropped.map((x) => x.rule)).toEqual(['same-institution', 'same-institution']);
    // Two schools of one name a mile apart stay two.
    const s1 = c('Lincoln Elementary School', 37.7, -122.4, '', { types: ['school'] });
    const s2 = c('Lincoln Elementary School', 37.7 + 1 / 69.09, -122.4, '', { types: ['school'] });
    expect(dedupe([s1, s2])).toEqual([s1, s2]);
  });

  it('reads a department after the name and a plural as the same institution', () => {
    expect(institutionKey('Academy of Art University - Game Development', ['school'])).toBe(
      'academy of art university',
    );
    expect(institutionKey('Academy of Arts University', ['university'])).toBe('academy of art university');
    expect(institutionKey("St. Mary's School (Gym)")).toBe('st mary school');
    expect(institutionKey('Wells Fargo', ['bank'])).toBe('');
    const a = c('Academy of Art University', 37.786262, -122.39953, '', { types: ['university'] });
    const b = c(
      'Academy of Art University - Game Development',
      37.786262,
      -122.399518,
      '180 New Montgomery',
      {
        types: ['school'],
      },
    );
    const d = c('Academy of Arts University', 37.7908, -122.4045, '', { types: ['university'] });
    expect(dedupe([a, b, d])).toEqual([{ ...a, address: '180 New Montgomery' }]);
  });

  it('follows a campus building by building beyond half a mile, but keeps two campuses apart', () => {
    const step = 0.4 / 69.09; // 0.4 mile north each time
    const building = (i: number) => c('Mission College', 37.7 + i * step, -122.4);
    const chain = [building(0), building(1), building(2), building(3)];
    expect(dedupe(chain)).toEqual([chain[0]]);
    // A gap of more than half a mile between all buildings: two campuses.
    const other = c('Mission College', 37.7 + 3 * step + 0.6 / 69.09, -122.4);
    expect(dedupe([...chain, other])).toEqual([chain[0], other]);
    // Not for businesses: a street of same-name shops 120 m apart is not one business.
    const shops = [0, 1, 2].map((i) => c('Starbucks', 37.7 + (i * 140) / 111_195, -122.4));
    expect(dedupe(shops)).toHaveLength(2);
  });

  it('keeps campuses more than half a mile apart', () => {
    const a = c('City College of San Francisco', 37.79, -122.4);
    const b = c('City College of San Francisco', 37.79 + 0.55 / 69.09, -122.4);
    expect(dedupe([a, b])).toEqual([a, b]);
  });

  it('measures half a mile east-west at high latitudes too (Tromsø, 69.6° N)', () => {
    const lat = 69.65;
    const milesPerLngDegree = 69.09 * Math.cos((lat * Math.PI) / 180);
    const a = c('UiT The Arctic University', lat, 18.95);
    const b = c('UiT The Arctic University', lat, 18.95 + 0.45 / milesPerLngDegree);
    const far = c('UiT The Arctic University', lat, 18.95 - 0.55 / milesPerLngDegree);
    expect(haversineMiles(a, b)).toBeCloseTo(0.45, 2);
    expect(dedupe([a, b, far])).toEqual([a, far]);
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

describe('topUp (open-map results)', () => {
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
    name: fc.constantFrom(
      'Acme',
      'ACME, Inc.',
      'Beta',
      'Public Storage',
      'public storage',
      'Gamma University',
      '!!',
      '',
    ),
    lat: fc.double({ min: 37, max: 37.01, noNaN: true }),
    lng: fc.double({ min: -122.01, max: -122, noNaN: true }),
    address: fc.constantFrom('', '', '1 Main St', '1 Main Street', '2 Oak Ave', 'Main Street', 'CA'),
    types: fc.constantFrom([], ['store'], ['hospital']),
    phone: fc.constantFrom(undefined, '+1 415 555 0100'),
    website: fc.constantFrom(undefined, 'https://example.com/'),
  });

  it('keeps one entry per set in input order, is idempotent, and leaves no two kept entries matching a rule', () => {
    fc.assert(
      fc.property(fc.array(candidate, { maxLength: 60 }), (drawn) => {
        const items = drawn.map((x, seq) => ({ ...x, seq }));
        const kept = dedupe(items);
        // Each kept entry is an input entry (or a copy of one that took a duplicate's contacts where it had
        // none), in input order.
        const rest = ({ phone: _p, website: _w, address: _a, ...other }: (typeof items)[number]) => other;
        let last = -1;
        for (const k of kept) {
          const source = items[k.seq];
          if (!source) throw new Error('kept an entry that is not in the input');
          expect(k.seq).toBeGreaterThan(last);
          expect(rest(k)).toEqual(rest(source));
          if (source.phone) expect(k.phone).toBe(source.phone);
          if (source.website) expect(k.website).toBe(source.website);
          if (addressKey(source.address)) expect(k.address).toBe(source.address);
          last = k.seq;
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
