import { describe, expect, it } from 'vitest';
import {
  buildBrandIndex,
  compactKey,
  findBrand,
  isCarMake,
  MIN_COMPACT_LENGTH,
  presenceIn,
  type NsiData,
} from './brand-index';
import { getBrandIndex } from './nsi';

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
  it('reads NSI location sets', () => {
    expect(presenceIn({ include: ['001'] }, 'us')).toBe('national');
    expect(presenceIn({ include: ['us', 'ca'] }, 'us')).toBe('national');
    expect(presenceIn({ include: ['us-ca.geojson'] }, 'us')).toBe('regional');
    expect(presenceIn({ include: ['gb'] }, 'us')).toBe('absent');
    expect(presenceIn({ include: ['001'], exclude: ['us'] }, 'us')).toBe('absent');
    expect(presenceIn(undefined, 'us')).toBe('absent');
  });
});

describe('buildBrandIndex / findBrand', () => {
  const index = buildBrandIndex(data, 'us');

  it('indexes business brands present in the country, national or regional', () => {
    expect(findBrand(index, { name: 'Burger Planet' })?.brand).toMatchObject({
      name: 'Burger Planet',
      national: true,
    });
    expect(findBrand(index, { name: 'Taco Shack' })?.brand.national).toBe(false);
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
    expect(findBrand(index, { name: 'CarMax' })?.brand.national).toBe(true);
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

  it('builds for another country', () => {
    const gb = buildBrandIndex(data, 'gb');
    expect(findBrand(gb, { name: 'Fish Hut' })?.brand.national).toBe(true);
    expect(findBrand(gb, { name: 'Big Bank' })).toBeNull();
    expect(gb.country).toBe('gb');
  });
});

describe('the real name-suggestion-index', () => {
  it('knows the big US chains and not local names', () => {
    const index = getBrandIndex('us');
    expect(getBrandIndex('US')).toBe(index);
    for (const name of [
      "McDonald's",
      'Starbucks',
      'Chase Bank',
      'Wells Fargo',
      'Walgreens Pharmacy',
      'Jiffy Lube',
      'CarMax',
    ]) {
      expect(findBrand(index, { name })?.brand.national, name).toBe(true);
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

  it('knows a chain whatever its spacing, punctuation or store number (issue 13)', () => {
    const index = getBrandIndex('us');
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
      expect(hit?.brand.national, name).toBe(true);
    }
  });

  it('does not take a local or generic name for a chain', () => {
    const index = getBrandIndex('us');
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
