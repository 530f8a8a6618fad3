import type { Prospect } from '../core/types';

/** Score colour bands: above 0.7 green, above 0.4 amber, otherwise red. */
export function scoreColor(score: number): 'green' | 'orange' | 'red' {
  if (score > 0.7) return 'green';
  if (score > 0.4) return 'orange';
  return 'red';
}

/**
 * The band colours (the markers use the same, in styles.css). They differ in lightness, not only in hue, so the
 * bands stay apart for colour-blind eyes and in greyscale: a light amber with dark text between a dark green and
 * a dark red with white text, each pair at WCAG AA (format.test.ts checks the ratios).
 */
export const SCORE_HEX = { green: '#237a35', orange: '#f59f00', red: '#a51d1d' } as const;
/** The text drawn on each band colour. */
export const SCORE_TEXT_HEX = { green: '#ffffff', orange: '#1a1b1e', red: '#ffffff' } as const;
export const scoreHex = (score: number) => SCORE_HEX[scoreColor(score)];
export const scoreTextHex = (score: number) => SCORE_TEXT_HEX[scoreColor(score)];

export const scorePercent = (score: number) => `${Math.round(score * 100)}%`;

/** Street, city, state and zip, as far as they are known and not already part of the street line. */
export function fullAddress(p: Pick<Prospect, 'address' | 'city' | 'state' | 'zip'>): string {
  const parts = [p.address?.trim() ?? ''];
  const lower = parts[0]!.toLowerCase();
  const stateZip = [p.state, p.zip].filter(Boolean).join(' ');
  if (p.city && !lower.includes(p.city.toLowerCase())) parts.push(p.city);
  if (stateZip && !lower.includes(stateZip.toLowerCase())) parts.push(stateZip);
  return parts.filter((s) => s !== '').join(', ');
}

/** The directions link is built from the encoded address (coordinates when there is none). */
export function directionsUrl(
  p: Pick<Prospect, 'address' | 'city' | 'state' | 'zip' | 'lat' | 'lng'>,
): string {
  const address = fullAddress(p);
  const destination = address || `${p.lat},${p.lng}`;
  return `https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent(destination)}`;
}

/** A website as a link: a bare host gets https://; anything that is not http(s) is refused. */
export function websiteHref(website: string | undefined): string | null {
  const raw = website?.trim();
  if (!raw) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(raw) ? raw : `https://${raw}`;
  try {
    const url = new URL(withScheme);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}

/** A tel: link (RFC 3966): the number's digits (and a leading +), an extension as ';ext='. */
export function telHref(phone: string): string {
  const ext = /(?:ext\.?|extension|x)\s*(\d+)\s*$/i.exec(phone);
  const main = ext ? phone.slice(0, ext.index) : phone;
  const digits = main.replace(/[^\d+]/g, '').replace(/(?!^)\+/g, '');
  return `tel:${digits}${ext ? `;ext=${ext[1]}` : ''}`;
}

export const formatDateTime = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
};

/** The stable id used by the blocklist and current advertisers: the id, else the business hash. */
export const stableId = (p: Pick<Prospect, 'id' | 'aiAnalysis'>) => p.id || p.aiAnalysis?.businessHash || '';

/** A strategy needs a category that is neither empty nor 'Business' (one rule with the server's). */
export { hasRealCategory } from '../core/categories';

/**
 * The map service's name for 'Loading {maps service}...', from the operator's tile settings: the text
 * of the attribution's first link ('OpenStreetMap' for the default tiles), else the attribution's own words,
 * else the tile server's host name, else 'map'.
 */
export function mapServiceName(attribution: string, tileUrl: string): string {
  const text = (html: string) =>
    html
      .replace(/<[^>]*>/g, ' ')
      .replace(/&copy;|&#169;|©|\(c\)|&nbsp;/gi, ' ')
      .replace(/\s+/g, ' ')
      .trim();
  const link = /<a\b[^>]*>([\s\S]*?)<\/a>/i.exec(attribution)?.[1];
  const fromLink = link ? text(link) : '';
  if (fromLink) return fromLink;
  const words = text(attribution)
    .replace(/\b(map data|tiles|contributors)\b/gi, ' ')
    .replace(/^[\s,;|:-]+|[\s,;|:-]+$/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (words && words.length <= 40) return words;
  try {
    return new URL(tileUrl.replace(/\{[^}]*\}/g, '0')).hostname || 'map';
  } catch {
    return 'map';
  }
}

/** The file name of a Content-Disposition attachment (the RFC 5987 UTF-8 form first), or null. */
export function attachmentFileName(disposition: string | null): string | null {
  if (!disposition) return null;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended.trim());
    } catch {
      // fall through to the plain form
    }
  }
  const plain = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;\s]+)/i.exec(disposition);
  return plain?.[1] ?? plain?.[2] ?? null;
}

/**
 * What a map adds to its attribution line for the imported business data (`credit`, "© OpenStreetMap
 * contributors, Overture Maps Foundation"), beside the tiles' own (`tiles`): when the tiles already credit
 * OpenStreetMap, only the rest ("Overture Maps Foundation", read on after the tiles' credit), so a phone's map is
 * not half attribution; '' when nothing is left to add.
 */
export function dataCreditFor(credit: string, tiles: string): string {
  const osm = '© OpenStreetMap contributors';
  if (!credit.startsWith(osm) || !/OpenStreetMap/i.test(tiles)) return credit;
  return credit.slice(osm.length).replace(/^[,\s]+/, '');
}

/** How long a refused request must wait, in words: "Try again in 15 minutes." (at least a minute is said). */
export function waitHint(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  return `Try again in ${minutes === 1 ? 'a minute' : `${minutes} minutes`}.`;
}
