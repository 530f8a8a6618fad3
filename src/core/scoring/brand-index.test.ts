import { describe, expect, it } from 'vitest';
import { buildBrandIndex, findBrand, isCarMake, presenceIn, type NsiData } from './brand-index';
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
});
