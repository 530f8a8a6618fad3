// The principles a rep would state, one test each, on the real name-suggestion-index: chains and institutions
// are not street-level prospects, consumer businesses of heavy-advertising categories lead, restricted categories
// are flagged and kept below everything a rep can sell to, size comes from evidence of size, and a record with no
// way to reach the business is never green.
import { describe, expect, it } from 'vitest';
import { analyzeOne, type AnalysisInput } from './analyze';
import { RULE_SCORES } from './constants';
import { getBrandIndex, placeArea } from './nsi';

const brandIndex = getBrandIndex();
const SF = { lat: 37.7879, lng: -122.4066 };
const score = (input: AnalysisInput) =>
  analyzeOne({ source: 'local', distance: 0.5, area: placeArea(SF.lat, SF.lng), ...input }, { brandIndex });
const contact = { phone: '+1 415 555 0100', website: 'https://example-local-business.com/' };

describe('a chain outlet is not a local prospect', () => {
  it('knows a chain by a name that extends its brand with what it sells', () => {
    const r = score({ name: 'Arhaus Furniture', types: ['furniture_store'], ...contact });
    expect(r.breakdown.rule).toBe('nationalChain');
    expect(r.breakdown.brand).toBe('Arhaus');
  });

  it('knows a clinic chain or a hospital system by its operator', () => {
    const r = score({
      name: 'Concentra Urgent Care',
      types: ['doctor'],
      tags: { amenity: 'clinic', operator: 'Concentra', 'operator:wikidata': 'Q5158304' },
    });
    expect(r.breakdown.rule).toBe('nationalChain');
    expect(r.reasoning).toContain('a national clinic chain');
  });

  it("knows an outlet by its website: a location page of a larger business's site", () => {
    const outlet = score({ name: 'Soma Sleep', types: ['furniture_store'], phone: contact.phone, website: 'https://www.sleepco.com/locations/san-francisco' });
    expect(outlet.breakdown.rule).toBe('chain');
    expect(outlet.reasoning).toContain("one location's page on a larger business's site");
    expect(score({ name: 'Soma Sleep', types: ['furniture_store'], ...contact }).breakdown.rule).toBeNull();
  }); // prettier-ignore

  it('knows a brand of the country next door: a French chain in Monaco, nobody in San Francisco', () => {
    const habitat = { name: 'Habitat', types: ['furniture_store'], ...contact };
    const monaco = analyzeOne(
      { ...habitat, source: 'local', area: placeArea(43.7385, 7.4236) },
      { brandIndex },
    );
    expect(monaco.breakdown.rule).toBe('nationalChain');
    expect(score(habitat).breakdown.rule).toBeNull();
  });

  it('takes a business with places in several cities of the data for a chain', () => {
    expect(score({ name: 'Bayside Mattress', types: ['furniture_store'], ...contact, manyCities: true }).breakdown.rule)
      .toBe('chain');
  }); // prettier-ignore

  it("keeps a make's franchised dealer a local prospect, however its record is typed", () => {
    const putnam = score({ name: 'Putnam Subaru', types: ['car_repair'], tags: { shop: 'car_repair' } });
    expect(putnam.breakdown.vertical).toBe('auto_dealer');
    expect(putnam.breakdown.rule).toBeNull();
    expect(putnam.breakdown.evidence).toContain("a make's franchised dealership");
    const mini = score({ name: 'Mini of San Francisco', types: ['car_dealer'], tags: { shop: 'car', brand: 'Mini', 'brand:wikidata': 'Q116232' } });
    expect(mini.breakdown.rule).toBeNull();
    expect(score({ name: 'Subaru Repair Specialists', types: ['car_repair'] }).breakdown.vertical).toBe('auto_repair');
  }); // prettier-ignore
});

describe('institutions are not street-level prospects; private schools and independent clinics are', () => {
  it('sets hospitals apart, but not an animal hospital', () => {
    expect(score({ name: 'Chinese Hospital', types: ['hospital'], ...contact }).breakdown.rule).toBe('hospital');
    const vet = score({ name: 'Boston Street Animal Hospital', types: ['veterinary_care'], tags: { amenity: 'veterinary' }, ...contact });
    expect(vet.breakdown.rule).toBeNull();
  }); // prettier-ignore

  it('reads a .gov site as a public body and a .org site as a non-profit, a private school excepted', () => {
    expect(score({ name: 'City Clinic', types: ['doctor'], phone: contact.phone, website: 'https://www.sfcityclinic.org/' }).breakdown.rule)
      .toBe('nonProfit');
    expect(score({ name: 'Permit Center', types: ['accounting'], phone: contact.phone, website: 'https://sf.gov/permits' }).breakdown.rule)
      .toBe('government');
    expect(score({ name: 'Bay Montessori', types: ['school'], phone: contact.phone, website: 'https://baymontessori.org/' }).breakdown.rule)
      .toBeNull();
  }); // prettier-ignore
});

describe('consumers before companies', () => {
  it('puts an injury firm above a law office, and a law office above a firm selling to companies', () => {
    const injury = score({ name: 'Harbor Injury Law', types: ['lawyer'], ...contact });
    const family = score({ name: 'Harbor Family Law', types: ['lawyer'], ...contact });
    const corporate = score({ name: 'Harbor Corporate Law Group', types: ['lawyer'], ...contact });
    expect(injury.breakdown.vertical).toBe('injury_law');
    expect(injury.score).toBeGreaterThan(family.score);
    expect(family.score).toBeGreaterThan(corporate.score);
  });

  it('reads an LLP that takes injury cases as an injury firm', () => {
    const r = score({ name: 'Kaiser Gornick, LLP', types: ['lawyer'], tags: { 'overture:category': 'personal_injury_law' }, ...contact });
    expect(r.breakdown.vertical).toBe('injury_law');
  }); // prettier-ignore

  it("sets a financial company's office (venture capital, fintech) apart from a local bank", () => {
    const vc = score({ name: 'CRV', types: ['accounting'], tags: { office: 'financial' }, ...contact });
    const bank = score({ name: 'Tri Counties Bank', types: ['bank'], tags: { amenity: 'bank' }, ...contact });
    expect(vc.breakdown.vertical).toBe('business_services');
    expect(bank.score - vc.score).toBeGreaterThanOrEqual(20);
  });
});

describe('restricted categories', () => {
  it('flags cannabis, firearms and adult businesses and keeps them below any business a rep can sell to', () => {
    const dispensary = score({ name: 'The Bloom Room', types: ['doctor'], tags: { shop: 'cannabis', amenity: 'clinic' }, ...contact });
    const guns = score({ name: 'Bay Guns & Ammo', types: ['store'], ...contact });
    const club = score({ name: 'Gold Club', types: ['night_club'], tags: { 'overture:category': 'adult_entertainment' }, ...contact });
    for (const [r, kind] of [[dispensary, 'cannabis'], [guns, 'firearms'], [club, 'adult']] as const) {
      expect(r.breakdown.rule).toBe('restricted');
      expect(r.breakdown.restricted).toBe(kind);
      expect(r.score).toBeLessThan(RULE_SCORES.autoRepair);
      expect(r.reasoning).toContain('may not accept its ads');
    }
  }); // prettier-ignore
});

describe('size from evidence of size; presence from evidence of presence', () => {
  it('reads no size into long opening hours and no presence into a free-mail address', () => {
    const office = {
      name: 'Law Office of Jane Roe',
      types: ['lawyer'],
      ...contact,
      tags: { office: 'lawyer' },
    };
    const open = score({ ...office, tags: { ...office.tags, opening_hours: 'Mo-Su 00:00-24:00' } });
    const gmail = score({ ...office, tags: { ...office.tags, email: 'janeroe.law@gmail.com' } });
    const base = score(office);
    expect(open.breakdown.scale).toBe(base.breakdown.scale);
    expect(gmail.breakdown.presence).toBe(base.breakdown.presence);
  });
});

describe('a record with no way to reach the business', () => {
  it('is never green, says to find a number first, and keeps the order of its merits', () => {
    const strong = score({ name: 'Mini of San Francisco', types: ['car_dealer'], tags: { shop: 'car', brand: 'Mini', building: 'yes' } });
    const weaker = score({ name: 'Bay Auto Sales', types: ['car_dealer'], tags: { shop: 'car' } });
    expect(strong.score).toBeLessThanOrEqual(70);
    expect(strong.score).toBeGreaterThan(weaker.score);
    expect(strong.reasoning).toContain('Find a number first: no phone or website on record.');
  }); // prettier-ignore
});

describe('the reasoning', () => {
  it("leads with what makes this business worth calling, in its own name, and no sentence every one of its kind shares", () => {
    const a = score({ name: 'Union Square Dental Group', types: ['dentist'], ...contact, tags: { amenity: 'dentist', 'addr:housenumber': '1' } });
    const b = score({ name: 'Uno Dental', types: ['dentist'], ...contact, tags: { amenity: 'dentist' } });
    expect(a.reasoning).toMatch(/^Good prospect \(\d+\/100\)\. Union Square Dental Group is worth calling: a dental practice/);
    const sentences = (s: string) => new Set(s.split(/(?<=\.) /));
    const shared = [...sentences(a.reasoning)].filter((s) => sentences(b.reasoning).has(s));
    // What they share is what the data source cannot say, not a sentence about dental practices.
    for (const s of shared) expect(s).not.toMatch(/dental|practices/i);
    expect(a.reasoning).toContain('Size:');
    expect(a.reasoning).toContain('Presence:');
  }); // prettier-ignore
});
