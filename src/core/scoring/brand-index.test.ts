import { describe, expect, it } from 'vitest';
import {
  buildBrandIndex,
  compactKey,
  DEFAULT_AREA,
  findBrand,
  isCarMake,
  MIN_COMPACT_LENGTH,
  presenceIn,
  type NsiData,
  type PlaceArea,
} from './brand-index';
import { getBrandIndex, placeArea } from './nsi';

const area = (...codes: string[]): PlaceArea => ({
  codes: new Set([...codes, '001']),
  country: codes[0] ?? null,
});
const US = DEFAULT_AREA;
const GB = area('gb', '154', '150');

const data: NsiData = {
  nsi: {
    'brands/amenity/fast_food': {
      items: [
        {
          displayName: 'Burger Planet',
          locationSet: { include: ['001'], exclude: ['fr'] },
          tags: { brand: 'Burger Planet', 'brand:wikidata': 'Q1', name: 'Burger Planet' },
        },
        {
          displayName: 'Taco Shack',
          locationSet: { include: ['us-ca.geojson'] },
          matchNames: ['taco shack express'],
          tags: { brand: 'Taco Shack', 'brand:wikidata': 'Q2' },
        },
        {
          displayName: 'Fish Hut',
          locationSet: { include: ['gb'] },
          tags: { brand: 'Fish Hut', 'brand:wikidata': 'Q3' },
        },
      ],
    },
    'brands/shop/convenience': {
      properties: { exclude: { generic: ['^(mini|super)?\\s?mart$'] } },
      items: [
        {
          displayName: 'QuickStop',
          locationSet: { include: ['us'] },
          matchNames: ['mini mart'],
          tags: { brand: 'QuickStop', 'brand:wikidata': 'Q7' },
        },
      ],
    },
    'brands/leisure/fitness_centre': {
      items: [
        {
          displayName: 'Lemonwave Fitness',
          locationSet: { include: ['us'] },
          matchNames: ['lemonwave'],
          tags: { brand: 'Lemonwave Fitness', 'brand:wikidata': 'Q8' },
        },
        {
          displayName: 'Lemon Wave Fitness',
          locationSet: { include: ['us-tx.geojson'] },
          tags: { brand: 'Lemon Wave Fitness', 'brand:wikidata': 'Q9' },
        },
      ],
    },
    'brands/shop/car_repair': {
      items: [
        {
          displayName: 'Toyota',
          locationSet: { include: ['001'] },
          tags: { brand: 'Toyota', 'brand:wikidata': 'Q53268' },
        },
        {
          displayName: 'Speedster',
          locationSet: { include: ['001'] },
          tags: { brand: 'Speedster', 'brand:wikidata': 'Q10' },
        },
      ],
    },
    'brands/shop/clothes': {
      items: [
        {
          displayName: 'Avenue',
          locationSet: { include: ['us'] },
          tags: { brand: 'Avenue', 'brand:wikidata': 'Q11' },
        },
        {
          displayName: 'A B',
          locationSet: { include: ['us'] },
          tags: { brand: 'A B', 'brand:wikidata': 'Q12' },
        },
      ],
    },
    'brands/amenity/bank': {
      items: [
        {
          displayName: 'Big Bank',
          locationSet: { include: ['us', 'ca'] },
          tags: { brand: 'Big Bank', 'brand:wikidata': 'Q4' },
        },
      ],
    },
    'brands/shop/car': {
      items: [
        {
          displayName: 'Toyota',
          locationSet: { include: ['001'] },
          tags: { brand: 'Toyota', 'brand:wikidata': 'Q53268' },
        },
        {
          displayName: 'Buick',
          locationSet: { include: ['us', 'ca'] },
          tags: { brand: 'Buick', 'brand:wikidata': 'Q5' },
        },
        {
          displayName: 'CarMax',
          locationSet: { include: ['us'] },
          tags: { brand: 'CarMax', 'brand:wikidata': 'Q6' },
        },
        {
          displayName: 'Speedster',
          locationSet: { include: ['001'] },
          tags: { brand: 'Speedster', 'brand:wikidata': 'Q10' },
        },
      ],
    },
    'brands/amenity/fuel': {
      items: [{ displayName: 'Toyota', locationSet: { include: ['jp'] }, tags: { brand: 'Toyota' } }],
    },
    'transit/route/bus': {
      items: [{ displayName: 'Metro', locationSet: { include: ['us'] }, tags: { network: 'Metro' } }],
    },
    'brands/advertising/totem': {
      items: [{ displayName: 'Totem Co', locationSet: { include: ['us'] }, tags: { brand: 'Totem Co' } }],
    },
  },
};

describe('presenceIn', () => {
  it('reads NSI location sets against where a place stands', () => {
    expect(presenceIn({ include: ['001'] }, US)).toBe('national');
    expect(presenceIn({ include: ['us', 'ca'] }, US)).toBe('national');
    expect(presenceIn({ include: ['us-ca.geojson'] }, US)).toBe('regional');
    expect(presenceIn({ include: ['gb'] }, US)).toBe('absent');
    expect(presenceIn({ include: ['001'], exclude: ['us'] }, US)).toBe('absent');
    expect(presenceIn(undefined, US)).toBe('absent');
    // A region of the world (M49 code) the place's country belongs to.
    expect(presenceIn({ include: ['150'] }, GB)).toBe('national');
    // A circle [lng, lat, km] around the place.
    const boston = { ...US, lat: 42.36, lng: -71.06 };
    expect(presenceIn({ include: [[-71.0, 42.3, 50]] }, boston)).toBe('regional');
    expect(presenceIn({ include: [[-122.4, 37.8, 50]] }, boston)).toBe('absent');
  });

  it('sees the countries next to a place: a French chain trades in Monaco', () => {
    const monaco = placeArea(43.7385, 7.4236);
    expect(monaco.country).toBe('mc');
    expect(presenceIn({ include: ['fr'] }, monaco)).toBe('national');
    expect(presenceIn({ include: ['fr'] }, placeArea(37.7879, -122.4066))).toBe('absent');
  });
});

describe('buildBrandIndex / findBrand', () => {
  const index = buildBrandIndex(data);

  it('indexes business brands present in the country, national or regional', () => {
    expect(findBrand(index, { name: 'Burger Planet' })).toMatchObject({
      brand: { name: 'Burger Planet' },
      national: true,
    });
    expect(findBrand(index, { name: 'Taco Shack' })?.national).toBe(false);
    expect(findBrand(index, { name: 'Taco Shack Express' })?.brand.name).toBe('Taco Shack');
    expect(findBrand(index, { name: 'Fish Hut' })).toBeNull();
    expect(findBrand(index, { name: 'Metro' })).toBeNull();
    expect(findBrand(index, { name: 'Totem Co' })).toBeNull();
  });

  it('matches branch names and brand tags', () => {
    expect(findBrand(index, { name: 'Burger Planet - Market St' })?.via).toBe('name');
    expect(findBrand(index, { name: 'BURGER PLANET (Downtown)' })?.brand.name).toBe('Burger Planet');
    expect(findBrand(index, { name: 'Big Bank Financial Center' })?.brand.name).toBe('Big Bank');
    expect(findBrand(index, { name: 'Big Bank: Main Branch' })?.brand.name).toBe('Big Bank');
    expect(findBrand(index, { name: 'Big Bankruptcy Lawyers' })).toBeNull();
    expect(findBrand(index, { name: 'Burger Planet Marketing Group' })).toBeNull();
    expect(findBrand(index, { name: 'Store 12', brand: 'Burger Planet' })?.via).toBe('brand-tag');
    expect(findBrand(index, { name: 'Anything', brandWikidata: 'Q2' })).toMatchObject({
      via: 'wikidata',
      brand: { name: 'Taco Shack' },
    });
  });

  it('only strips branch words that fit the brand, and never matches NSI generic names', () => {
    expect(findBrand(index, { name: 'Burger Planet Restaurant' })?.brand.name).toBe('Burger Planet');
    expect(findBrand(index, { name: 'Burger Planet Express' })?.brand.name).toBe('Burger Planet');
    expect(findBrand(index, { name: 'Burger Planet Salon' })).toBeNull();
    expect(findBrand(index, { name: 'Big Bank Pharmacy' })).toBeNull();
    expect(findBrand(index, { name: 'QuickStop' })?.brand.name).toBe('QuickStop');
    expect(findBrand(index, { name: 'Mini Mart' })).toBeNull();
    expect(findBrand(index, { name: 'Big Bank and' })).toBeNull();
  });

  it('treats car makes as franchises, not chains, but keeps dealer chains', () => {
    expect(findBrand(index, { name: 'Toyota' })).toBeNull();
    expect(findBrand(index, { name: 'Buick' })).toBeNull();
    expect(findBrand(index, { name: 'Dealer', brandWikidata: 'Q53268' })).toBeNull();
    expect(isCarMake(index, 'Q53268')).toBe(true);
    expect(isCarMake(index, 'Q6')).toBe(false);
    expect(findBrand(index, { name: 'CarMax' })?.national).toBe(true);
  });

  it('matches names whatever their spacing and punctuation, for names of six letters or more', () => {
    expect(compactKey('lemon wave fitness')).toBe('lemonwavefitness');
    expect(MIN_COMPACT_LENGTH).toBe(6);
    // "Lemon Wave Fitness" is its own (regional) brand in NSI: the national one wins the compact key.
    expect(findBrand(index, { name: 'Lemon-Wave Fitness' })?.brand.name).toBe('Lemon Wave Fitness');
    expect(findBrand(index, { name: 'LemonWave  Fitness' })?.brand.name).toBe('Lemonwave Fitness');
    expect(findBrand(index, { name: 'Lemon Wavefitness' })?.brand.name).toBe('Lemonwave Fitness');
    expect(findBrand(index, { name: 'Burger-Planet' })?.brand.name).toBe('Burger Planet');
    expect(findBrand(index, { name: 'Burgerplanet Restaurant' })?.brand.name).toBe('Burger Planet');
    expect(findBrand(index, { name: 'Lemon Wave Dental' })).toBeNull();
    // "A B" is a brand, but "AB" is two letters: too short to ignore spacing.
    expect(findBrand(index, { name: 'A B' })?.brand.name).toBe('A B');
    expect(findBrand(index, { name: 'AB' })).toBeNull();
  });

  it('matches a name followed by a store number: after a store word, or of three digits or more', () => {
    expect(findBrand(index, { name: 'Burger Planet 01234' })?.brand.name).toBe('Burger Planet');
    expect(findBrand(index, { name: 'Big Bank Branch 7' })?.brand.name).toBe('Big Bank');
    expect(findBrand(index, { name: 'Big Bank #7' })?.brand.name).toBe('Big Bank');
    expect(findBrand(index, { name: 'Avenue 31' })).toBeNull();
    expect(findBrand(index, { name: 'Avenue Store 31' })?.brand.name).toBe('Avenue');
    expect(findBrand(index, { name: 'Store 12' })).toBeNull();
    // "Store" follows shop brands only: a fast-food brand's "Store 12" is someone else's shop.
    expect(findBrand(index, { name: 'Burger Planet Store 12' })).toBeNull();
    expect(findBrand(index, { name: 'Burger Planet Location 12' })?.brand.name).toBe('Burger Planet');
  });

  it('never makes a car make a chain, under whichever NSI category it also appears', () => {
    expect(findBrand(index, { name: 'Speedster' })).toBeNull();
    expect(findBrand(index, { name: 'Speed Ster' })).toBeNull();
    expect(isCarMake(index, 'Q10')).toBe(true);
  });

  it('judges a name against the brands present where the place stands', () => {
    expect(findBrand(index, { name: 'Fish Hut', area: GB })?.national).toBe(true);
    expect(findBrand(index, { name: 'Fish Hut' })).toBeNull();
    expect(findBrand(index, { name: 'Big Bank', area: GB })).toBeNull();
    // Burger Planet is everywhere but France.
    expect(findBrand(index, { name: 'Burger Planet', area: area('fr', '150') })).toBeNull();
    // A brand tag names the brand wherever NSI knows it from: a chain, if not a national one here.
    expect(findBrand(index, { name: 'Shop', brand: 'Fish Hut' })).toMatchObject({
      via: 'brand-tag',
      national: false,
    });
  });

  it('reads a brand name followed by words that say what it sells, when the name is distinctive', () => {
    expect(findBrand(index, { name: 'Lemonwave Fitness Gym' })?.brand.name).toBe('Lemonwave Fitness');
    expect(findBrand(index, { name: 'Burger Planet Drive Thru' })).toBeNull();
    expect(findBrand(index, { name: 'QuickStop Convenience' })?.brand.name).toBe('QuickStop');
  });

  it('knows a chain by its website domain, platforms aside', () => {
    expect(findBrand(index, { name: 'Downtown Eats', domainLabel: 'burgerplanet' })?.via).toBe('website');
    expect(findBrand(index, { name: 'Downtown Eats', domainLabel: 'downtowneats' })).toBeNull();
    expect(findBrand(index, { name: 'Downtown Eats', domainLabel: 'abc' })).toBeNull();
  });
});

describe('the real name-suggestion-index', () => {
  it('knows the big US chains and not local names', () => {
    const index = getBrandIndex();
    expect(getBrandIndex()).toBe(index);
    for (const name of [
      "McDonald's",
      'Starbucks',
      'Chase Bank',
      'Wells Fargo',
      'Walgreens Pharmacy',
      'Jiffy Lube',
      'CarMax',
    ]) {
      expect(findBrand(index, { name })?.national, name).toBe(true);
    }
    for (const name of [
      'Golden Gate Dental',
      'Smith & Jones Injury Law',
      'Toyota of San Francisco',
      'Ford',
      'Bright Smiles',
    ]) {
      expect(findBrand(index, { name }), name).toBeNull();
    }
    expect(findBrand(index, { name: 'x', brandWikidata: 'Q38076' })?.brand.name).toBe("McDonald's");
  });

  it('knows a chain whatever its spacing, punctuation or store number', () => {
    const index = getBrandIndex();
    const cases: [string, string][] = [
      ['Orange Theory Fitness', 'Orangetheory Fitness'],
      ['Orangetheory', 'Orangetheory Fitness'],
      ['ORANGETHEORY FITNESS', 'Orangetheory Fitness'],
      ['Walgreens #1234', 'Walgreens'],
      ['Walgreens Store 1234', 'Walgreens'],
      ['Walgreens 05432', 'Walgreens'],
      ['CVS Pharmacy #0123', 'CVS Pharmacy'],
      ['CVS Pharmacy Store 0123', 'CVS Pharmacy'],
      ['Wal-Mart', 'Walmart'],
      ['Mc Donalds', "McDonald's"],
      ['Star Bucks', 'Starbucks'],
      ['Double Tree', 'DoubleTree'],
      ["Steak'n Shake", "Steak 'n Shake"],
      ['My Eye Dr', 'MyEyeDr.'],
    ];
    for (const [name, brand] of cases) {
      const hit = findBrand(index, { name });
      expect(hit?.brand.name, name).toBe(brand);
      expect(hit?.national, name).toBe(true);
    }
  });

  it('does not take a local or generic name for a chain', () => {
    const index = getBrandIndex();
    for (const name of [
      "Wendy's Salon",
      'Orange Dental',
      'Orange',
      'Theory Fitness',
      'Gym 24',
      'Bank',
      'Pharmacy #2',
      'Deli',
      'Fitness',
      'Mart 7',
      'Salon 21',
      'Store 12',
      'Cafe',
      'Avenue 31',
      'Studio 54',
      'Pier 39',
      'Unit 2',
      'Suite 100',
      'Dental Care 1',
      'Bay Bank',
      'Mc Laren',
      'Rolls Royce',
      'Dollar Store 123',
      'Best Store 123',
    ]) {
      expect(findBrand(index, { name }), name).toBeNull();
    }
  });
});
