import { describe, expect, it } from 'vitest';
import {
  distanceScore,
  fitScore,
  isFreeMail,
  keywordScore,
  listingEvidence,
  percentile,
  presenceScore,
  propensityFor,
  qualitySpread,
  ratingPart,
  reviewPart,
  scaleScore,
  sizeEvidence,
} from './components';
import { normalizeName } from '../dedup';

describe('fitScore', () => {
  it('weights the propensities 0.4/0.25/0.15/0.2', () => {
    expect(fitScore({ ctv: 1, olv: 0, display: 0, sem: 0 })).toBeCloseTo(0.4, 12);
    expect(fitScore({ ctv: 0, olv: 1, display: 0, sem: 0 })).toBeCloseTo(0.25, 12);
    expect(fitScore({ ctv: 0, olv: 0, display: 1, sem: 0 })).toBeCloseTo(0.15, 12);
    expect(fitScore({ ctv: 0, olv: 0, display: 0, sem: 1 })).toBeCloseTo(0.2, 12);
    expect(fitScore(propensityFor('auto_dealer'))).toBeCloseTo(0.9125, 12);
    expect(fitScore(propensityFor('qsr'))).toBeCloseTo(0.1375, 12);
  });

  it('adds 0.03 for a dealer group, capped at 1', () => {
    expect(fitScore(propensityFor('auto_dealer'), true)).toBeCloseTo(0.9425, 12);
    expect(fitScore({ ctv: 1, olv: 1, display: 1, sem: 1 }, true)).toBe(1);
  });
});

describe('presence', () => {
  it('rating part = (min(r, 4.8) - 3.5) / 1.3 clamped', () => {
    expect(ratingPart(3.5)).toBe(0);
    expect(ratingPart(3)).toBe(0);
    expect(ratingPart(4.15)).toBeCloseTo(0.5, 12);
    expect(ratingPart(4.8)).toBeCloseTo(1, 12);
    expect(ratingPart(5)).toBeCloseTo(1, 12);
    expect(ratingPart(undefined)).toBe(0);
    expect(ratingPart(null)).toBe(0);
  });

  it('review part = ln(1+n)/ln(1+benchmark) clamped', () => {
    expect(reviewPart(0, 500)).toBe(0);
    expect(reviewPart(500, 500)).toBe(1);
    expect(reviewPart(5000, 500)).toBe(1);
    expect(reviewPart(100, 500)).toBeCloseTo(Math.log(101) / Math.log(501), 12);
    expect(reviewPart(undefined, 500)).toBe(0);
  });

  it('website .25 + phone .05 + .25 rating + .25 reviews, capped .8', () => {
    const none = { website: false, phone: false, rating: null, reviews: 0, vertical: 'dental' as const };
    expect(presenceScore(none)).toBe(0);
    expect(presenceScore({ ...none, website: true })).toBeCloseTo(0.25, 12);
    expect(presenceScore({ ...none, phone: true })).toBeCloseTo(0.05, 12);
    expect(presenceScore({ ...none, rating: 4.8 })).toBeCloseTo(0.25, 12);
    expect(presenceScore({ ...none, reviews: 500 })).toBeCloseTo(0.25, 12);
    expect(
      presenceScore({ website: true, phone: true, rating: 5, reviews: 900, vertical: 'dental' }),
    ).toBeCloseTo(0.8, 12);
  });

  it('multiplies by 0.7 for bar, QSR and hotel and adds 0.03 for a dealer group within the 0.8 cap', () => {
    const full = { website: true, phone: true, rating: 5, reviews: 5000 };
    expect(presenceScore({ ...full, vertical: 'bar' })).toBeCloseTo(0.56, 12);
    expect(presenceScore({ ...full, vertical: 'qsr' })).toBeCloseTo(0.56, 12);
    expect(presenceScore({ ...full, vertical: 'hotel' })).toBeCloseTo(0.56, 12);
    expect(presenceScore({ ...full, vertical: 'restaurant' })).toBeCloseTo(0.8, 12);
    expect(presenceScore({ ...full, vertical: 'auto_dealer', dealerGroup: true })).toBe(0.8);
    expect(
      presenceScore({
        website: true,
        phone: false,
        rating: null,
        reviews: 0,
        vertical: 'auto_dealer',
        dealerGroup: true,
      }),
    ).toBeCloseTo(0.28, 12);
  });
});

describe('scaleScore', () => {
  it('is reviews over the benchmark, capped at 1', () => {
    expect(scaleScore(400, 'auto_dealer')).toBeCloseTo(0.5, 12);
    expect(scaleScore(1200, 'qsr')).toBe(1);
    expect(scaleScore(50, 'insurance')).toBeCloseTo(0.25, 12);
    expect(scaleScore(0, 'other')).toBe(0);
    expect(scaleScore(undefined, 'other')).toBe(0);
  });
});

describe('keywordScore', () => {
  const kw = (name: string) => keywordScore(normalizeName(name));
  it('gives each group its bonus', () => {
    expect(kw('Smith Injury Law').score).toBeCloseTo(0.25, 12);
    expect(kw('Downtown Toyota').score).toBeCloseTo(0.2, 12);
    expect(kw('Bright Smiles Dental').score).toBeCloseTo(0.15, 12);
    expect(kw('Ace Plumbing').score).toBeCloseTo(0.15, 12);
    expect(kw('Mattress Barn').score).toBeCloseTo(0.1, 12);
    expect(kw('Blue Bottle').score).toBe(0);
  });

  it('sums groups, matches whole words only, caps at 1', () => {
    const r = kw('Toyota Injury Law & Dental Plumbing Furniture');
    expect(r.matches).toEqual(['legal', 'autoBrand', 'dentalMedical', 'homeServices', 'furniture']);
    expect(r.score).toBeCloseTo(0.85, 12);
    expect(kw('Lawson Bakery').score).toBe(0);
    expect(kw('Fordham Deli').score).toBe(0);
  });

  it('knows the luxury and European makes a dealer is named after, not words that only look like one', () => {
    for (const name of [
      'Aston Martin',
      'Rolls-Royce Motor Cars',
      'Mc Laren',
      'McLaren Monaco',
      'Ferrari',
      'Peugeot Nice',
      'Bentley',
    ])
      expect(kw(name).matches, name).toEqual(['autoBrand']);
    for (const name of ['Lotus Spa', 'Mini Mart', 'Smart Dental', 'Seat Covers Plus'])
      expect(kw(name).matches, name).not.toContain('autoBrand');
  });
});

describe('distanceScore', () => {
  it('is .55 when unknown and .2 at or beyond 3 miles', () => {
    expect(distanceScore(undefined)).toBe(0.55);
    expect(distanceScore(null)).toBe(0.55);
    expect(distanceScore(Number.NaN)).toBe(0.55);
    expect(distanceScore(-1)).toBe(0.55);
    expect(distanceScore(3)).toBe(0.2);
    expect(distanceScore(10)).toBe(0.2);
  });

  it('falls off smoothly, centred at 2.1 miles', () => {
    expect(distanceScore(0)).toBe(1);
    expect(distanceScore(1.2)).toBe(1);
    expect(distanceScore(2.1)).toBeCloseTo(0.6, 12);
    expect(distanceScore(1.65)).toBeCloseTo(0.2 + 0.8 * ((1 + Math.cos(Math.PI / 4)) / 2), 12);
    expect(distanceScore(2.999999)).toBeCloseTo(0.2, 6);
    // symmetric about the centre and monotone
    expect(distanceScore(1.8) - 0.6).toBeCloseTo(0.6 - distanceScore(2.4), 12);
    let prev = 1;
    for (let d = 0; d <= 3.01; d += 0.05) {
      const s = distanceScore(d);
      expect(s).toBeLessThanOrEqual(prev + 1e-12);
      prev = s;
    }
  });
});

describe('qualitySpread', () => {
  it('is 0.5 for an empty list', () => expect(qualitySpread([])).toBe(0.5));
  it('is (p75 - p25) / 100', () => {
    expect(qualitySpread([10, 20, 30, 40, 50])).toBeCloseTo(0.2, 12);
    expect(qualitySpread([42])).toBe(0);
    expect(qualitySpread([0, 100])).toBeCloseTo(0.5, 12);
  });
  it('clamps to 0..1', () => {
    expect(qualitySpread([-500, -500, 500, 500])).toBe(1);
  });
  it('interpolates percentiles linearly', () => {
    expect(percentile([1, 2, 3, 4], 0.25)).toBeCloseTo(1.75, 12);
    expect(percentile([1, 2, 3, 4], 0.75)).toBeCloseTo(3.25, 12);
    expect(percentile([], 0.5)).toBeNaN();
  });
});

describe('listing evidence of OSM records (model v3)', () => {
  const full = { email: 'info@hirotalaw.com', 'addr:housenumber': '500', 'addr:street': 'Sutter Street' };

  it('counts an e-mail at a free-mail provider as nothing and a street without a number at half its part', () => {
    const own = listingEvidence(full);
    const freeMail = listingEvidence({ ...full, email: 'danroselaw@gmail.com' });
    const noNumber = listingEvidence({ email: full.email, 'addr:street': 'Sutter Street' });
    expect(own.found).toEqual(['e-mail at its own domain', 'a street address']);
    expect(freeMail.found).toEqual(['a street address']);
    expect(noNumber.found).toEqual(['e-mail at its own domain', 'a street without a number']);
    expect(own.value - freeMail.value).toBeCloseTo(0.1, 12);
    expect(own.value - noNumber.value).toBeCloseTo(0.03, 12);
    expect(listingEvidence({}).value).toBe(0.5);
  });

  it('takes an address list as free-mail only when every address is', () => {
    expect(isFreeMail('a@Gmail.com')).toBe(true);
    expect(isFreeMail('a@gmail.com; office@firm.com')).toBe(false);
    expect(isFreeMail('not an address')).toBe(false);
  });
});

describe('size evidence', () => {
  it('reads no size into opening hours: an office open every day may be one person with a phone', () => {
    expect(sizeEvidence({ opening_hours: 'Mo-Su 08:00-20:00' }, 'x')).toEqual({ value: 0, found: [] });
    expect(sizeEvidence({ opening_hours: '24/7' }, 'x', { vertical: 'legal' })).toEqual({
      value: 0,
      found: [],
    });
  });

  it('counts beds and an emergency department for a clinic or a vet only', () => {
    const tags = { beds: '100', emergency: 'yes' };
    expect(sizeEvidence(tags, 'x', { vertical: 'medical' }).value).toBeCloseTo(0.35, 12);
    expect(sizeEvidence(tags, 'x', { vertical: 'hotel' })).toEqual({ value: 0, found: [] });
  });

  it("counts a make's franchised dealership as a big local business", () => {
    expect(sizeEvidence({}, 'Putnam Subaru', { vertical: 'auto_dealer', make: 'subaru' })).toEqual({
      value: 0.35,
      found: ["a make's franchised dealership"],
    });
    expect(sizeEvidence({}, 'Used Cars', { vertical: 'auto_dealer', make: null }).value).toBe(0);
  });
});
