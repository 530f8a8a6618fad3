import { describe, expect, it } from 'vitest';
import {
  attachmentFileName,
  waitHint,
  directionsUrl,
  fullAddress,
  hasRealCategory,
  mapServiceName,
  dataCreditFor,
  SCORE_HEX,
  SCORE_TEXT_HEX,
  scoreColor,
  scorePercent,
  stableId,
  telHref,
  websiteHref,
} from './format';

describe('score bands', () => {
  it('is green above 0.7, amber above 0.4, red otherwise', () => {
    expect(scoreColor(0.71)).toBe('green');
    expect(scoreColor(0.7)).toBe('orange');
    expect(scoreColor(0.41)).toBe('orange');
    expect(scoreColor(0.4)).toBe('red');
    expect(scoreColor(0)).toBe('red');
    expect(scorePercent(0.826)).toBe('83%');
  });
});

/** WCAG 2 relative luminance and contrast ratio. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
};

describe('score band colours', () => {
  it('puts text on every band at WCAG AA (4.5:1)', () => {
    for (const band of ['green', 'orange', 'red'] as const) {
      expect(contrast(SCORE_HEX[band], SCORE_TEXT_HEX[band]), band).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('tells amber from red by lightness too, for colour-blind eyes (at least 3:1 between them)', () => {
    expect(contrast(SCORE_HEX.orange, SCORE_HEX.red)).toBeGreaterThanOrEqual(3);
    expect(contrast(SCORE_HEX.orange, SCORE_HEX.green)).toBeGreaterThanOrEqual(2);
  });
});

describe('addresses and links', () => {
  it('joins street, city, state and zip without repeating what the street line already holds', () => {
    expect(fullAddress({ address: '450 Sutter St', city: 'San Francisco', state: 'CA', zip: '94108' })).toBe(
      '450 Sutter St, San Francisco, CA 94108',
    );
    expect(
      fullAddress({
        address: '500 Sutter Street, San Francisco, CA 94102',
        city: 'San Francisco',
        state: 'CA',
        zip: '94102',
      }),
    ).toBe('500 Sutter Street, San Francisco, CA 94102');
    expect(fullAddress({ address: '' })).toBe('');
  });

  it('builds the directions link from the encoded address, else the coordinates', () => {
    expect(directionsUrl({ address: '1 A & B St', city: 'X', lat: 1, lng: 2 })).toBe(
      'https://www.google.com/maps/dir/?api=1&destination=1%20A%20%26%20B%20St%2C%20X',
    );
    expect(directionsUrl({ address: '', lat: 1.5, lng: -2 })).toBe(
      'https://www.google.com/maps/dir/?api=1&destination=1.5%2C-2',
    );
  });

  it('opens only http(s) websites, adding https:// to a bare host', () => {
    expect(websiteHref('example.com/a')).toBe('https://example.com/a');
    expect(websiteHref('http://x.test')).toBe('http://x.test/');
    expect(websiteHref('javascript:alert(1)')).toBeNull();
    expect(websiteHref('data:text/html,hi')).toBeNull();
    expect(websiteHref('  ')).toBeNull();
    expect(websiteHref(undefined)).toBeNull();
  });

  it('dials only the characters a phone number has', () => {
    expect(telHref('+1 415-555-0100')).toBe('tel:+14155550100');
    expect(telHref('+1 (415) 555-0100 ext. 2')).toBe('tel:+14155550100;ext=2');
    expect(telHref('415.555.0100 x12')).toBe('tel:4155550100;ext=12');
  });
});

describe('working-the-list rules', () => {
  it('needs a category other than Business for a strategy', () => {
    expect(hasRealCategory('Dental')).toBe(true);
    expect(hasRealCategory('Business')).toBe(false);
    expect(hasRealCategory(' business ')).toBe(false);
    expect(hasRealCategory('')).toBe(false);
    expect(hasRealCategory(undefined)).toBe(false);
  });

  it('uses the id, else the business hash, as the stable id', () => {
    expect(stableId({ id: 'osm:node/1' })).toBe('osm:node/1');
    expect(stableId({ id: '', aiAnalysis: { businessHash: 'abc' } as never })).toBe('abc');
    expect(stableId({ id: '' })).toBe('');
  });
});

describe('map service name ("Loading {maps service}...")', () => {
  it('is the attribution link text, else its words, else the tile host', () => {
    const osm = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';
    expect(mapServiceName(osm, 'https://tile.openstreetmap.org/{z}/{x}/{y}.png')).toBe('OpenStreetMap');
    expect(mapServiceName('Tiles © Acme Maps', 'https://a.example/{z}/{x}/{y}.png')).toBe('Acme Maps');
    expect(mapServiceName('Tiles &copy; <a href="https://t.example">Test Tiles</a>', '')).toBe('Test Tiles');
    expect(mapServiceName('', 'https://tiles.example.org/{z}/{x}/{y}.png')).toBe('tiles.example.org');
    expect(mapServiceName('', '')).toBe('map');
  });
});

describe('attachment file name', () => {
  it('reads the UTF-8 form first, then the plain one', () => {
    expect(
      attachmentFileName(
        `attachment; filename="call_log_Ren_e_2026-01-02.csv"; filename*=UTF-8''call_log_Ren%C3%A9e_2026-01-02.csv`,
      ),
    ).toBe('call_log_Renée_2026-01-02.csv');
    expect(attachmentFileName('attachment; filename="a b.csv"')).toBe('a b.csv');
    expect(attachmentFileName('attachment; filename=plain.csv')).toBe('plain.csv');
    expect(attachmentFileName('attachment')).toBeNull();
    expect(attachmentFileName(null)).toBeNull();
  });
});

describe('dataCreditFor', () => {
  const osmTiles = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';
  it('adds to the tiles’ OpenStreetMap credit only what it lacks', () => {
    const both = '© OpenStreetMap contributors, Overture Maps Foundation';
    expect(dataCreditFor(both, osmTiles)).toBe('Overture Maps Foundation');
    expect(dataCreditFor('© OpenStreetMap contributors', osmTiles)).toBe('');
    expect(dataCreditFor(both, '© Example Tiles')).toBe(both);
    expect(dataCreditFor('', osmTiles)).toBe('');
  });
});

describe('waitHint', () => {
  it('says how long a lockout lasts, in whole minutes, at least one', () => {
    expect(waitHint(15 * 60_000)).toBe('Try again in 15 minutes.');
    expect(waitHint(14 * 60_000 + 1)).toBe('Try again in 15 minutes.');
    expect(waitHint(30_000)).toBe('Try again in a minute.');
  });
});
