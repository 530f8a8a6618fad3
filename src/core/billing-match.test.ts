import { describe, expect, it } from 'vitest';
import { createBillingMatcher, groupAdvertisers, type BillingPlace } from './billing-match';
import { parseBillingCsv, type BillingLine } from './billing';
import { nameSimilarity } from './conflation';

const PLACES: BillingPlace[] = [
  { id: 'p1', name: 'Mini of San Francisco', address: '1023 Mission Street' },
  { id: 'p2', name: 'Union Square Dental Group', address: '490 Post Street, San Francisco, CA 94102', phone: '+1 415-399-1966', website: 'https://unionsquaredentalgroup.com' },
  { id: 'p3', name: 'Gumps', address: '250 Post Street, San Francisco, CA', phone: '+1 866 6122226' },
  { id: 'p4', name: 'Mini Mart', address: '720 Geary Street, San Francisco, CA' },
  { id: 'p5', name: 'Hotel Emblem', address: '562 Sutter Street, San Francisco, CA 94102', phone: '+1 415-433-4434' },
  { id: 'p6', name: 'Obscenity Bar & Lounge', address: '562 Sutter Street, San Francisco, CA', phone: '+1 415 4334434' },
  { id: 'p7', name: 'Starbucks', address: '1 Market Street' },
  { id: 'p8', name: 'Starbucks', address: '2 Market Street' },
  { id: 'p9', name: 'Pinecrest Diner', address: '401 Geary Street', website: 'http://www.pinecrestdiner.com/' },
]; // prettier-ignore

function match(csv: string) {
  const parsed = parseBillingCsv(csv) as { lines: BillingLine[] };
  const m = createBillingMatcher(groupAdvertisers(parsed.lines));
  for (const p of PLACES) m.consider(p);
  return m.result();
}

describe('names as billing systems write them', () => {
  it('reads abbreviations, legal words and case alike', () => {
    expect(nameSimilarity('MINI OF SF', 'Mini of San Francisco')).toBe(1);
    expect(nameSimilarity('Union Sq Dental Grp', 'Union Square Dental Group')).toBe(1);
    expect(nameSimilarity('Gumps Inc', 'Gumps')).toBe(1);
    expect(nameSimilarity("GUMP'S, INC.", 'Gumps')).toBe(1);
    expect(nameSimilarity('Acme Company LLC', 'Acme')).toBe(1);
    expect(nameSimilarity('Company 3', 'Company 3')).toBe(1);
    expect(nameSimilarity('MINI OF SF', 'Mini Mart')).toBeLessThan(0.5);
  });
});

describe('createBillingMatcher', () => {
  it('matches messy names and phone formats, and says what matched', () => {
    const { matched, unmatched } = match(
      'Advertiser,Phone,Month,Amount\nMINI OF SF,,2026-03,1000\nUnion Sq Dental Grp,(415) 399-1966,2026-03,500\n' +
        'Gumps Inc,866.612.2226,2026-03,700\nmini of sf,,2026-04,100\nHotel Emblem,415.433.4434,2026-03,1\n' +
        'Pinecrest,,2026-03,1\nNo Such Place,,2026-03,5\n',
    );
    const by = Object.fromEntries(matched.map((m) => [m.advertiser.name, [m.businessId, m.matchedBy]]));
    expect(by).toEqual({
      'MINI OF SF': ['p1', ['name']],
      'Union Sq Dental Grp': ['p2', ['name', 'phone']],
      'Gumps Inc': ['p3', ['name', 'phone']],
      'Hotel Emblem': ['p5', ['name', 'phone']],
    });
    expect(matched.find((m) => m.advertiser.name === 'MINI OF SF')?.advertiser.lines).toEqual([2, 5]);
    expect(unmatched.map((u) => [u.advertiser.name, u.advertiser.lines])).toEqual([
      ['Pinecrest', [7]],
      ['No Such Place', [8]],
    ]);
  });

  it('takes a website domain or street address with a related name; one name of several places is ambiguous', () => {
    const { matched, unmatched } = match(
      'Client,Website,Address,Month,Net\nPinecrest,pinecrestdiner.com,,2026-03,1\nStarbucks,,,2026-03,1\n' +
        'Starbucks Coffee,,2 Market St,2026-03,1\n',
    );
    expect(matched.map((m) => [m.advertiser.name, m.businessId, m.matchedBy])).toEqual([
      ['Pinecrest', 'p9', ['website']],
      ['Starbucks Coffee', 'p8', ['address']],
    ]);
    expect(unmatched.map((u) => u.reason)).toEqual([
      'Several imported businesses match this name; add a phone or street address to tell them apart.',
    ]);
  });

  it('a phone that differs keeps similar names apart', () => {
    const { matched } = match('Advertiser,Phone,Month,Amount\nUnion Square Dental,415-000-0000,2026-03,1\n');
    expect(matched).toEqual([]);
  });
});
