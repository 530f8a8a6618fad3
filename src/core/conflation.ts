// Whether two records from different sources (OpenStreetMap and Overture Maps) describe one business. Sources place
// a business tens of metres apart and spell its name their own way ("Hooshmand Law Group" and "Hooshmand Law Group,
// APC"), while two different businesses often share a building and a word of their names ("Union Square Dental" and
// "Union Square Dental Lab"). So a match needs the names to agree, more the less else agrees, and a phone or a
// website that differs between two records that both have one keeps them apart unless the names are the same.
import { normalizeName, phoneKey } from './dedup.js';

import { haversineMiles } from './geo.js';
import { siteKey } from './market.js';

/** What the match reads of a record. */
export interface MatchRecord {
  name: string;
  lat: number;
  lng: number;
  phone: string | null;
  website: string | null;
}

/** Farther apart than this, two records are never one business (Overture's positions are often off by a street). */
export const MATCH_METERS = 150;
/** Names this similar are one business when nothing else disagrees and the records are close. */
const SIMILAR_NAMES = 0.75;
/** Close: within this, similar names suffice. */
const CLOSE_METERS = 80;
/** Names this similar are one business when a phone or website domain agrees. */
const RELATED_NAMES = 0.5;

const METERS_PER_MILE = 1609.344;

/** Words that say nothing of which business it is. */
const FILLER_WORDS: ReadonlySet<string> = new Set(['the', 'and', 'of', 'at', 'a', 'an']);

/**
 * Abbreviations a business's name is written with in billing systems, customer lists and map data, read as the
 * words they stand for ("Union Sq Dental Grp" is "Union Square Dental Group"). Only abbreviations that mean one
 * thing in a business name: not "st" (street or saint), "la" (an article), "med" or "dent" (words of their own).
 */
export const NAME_ABBREVIATIONS: Readonly<Record<string, string>> = {
  sq: 'square', grp: 'group', grps: 'groups', ctr: 'center', cntr: 'center', centre: 'center', assoc: 'associates',
  assocs: 'associates', bros: 'brothers', intl: 'international', natl: 'national', svc: 'service',
  svcs: 'services', mgmt: 'management', mfg: 'manufacturing', dept: 'department', hosp: 'hospital',
  auto: 'automotive', sf: 'san francisco', mt: 'mount', ft: 'fort', univ: 'university', mkt: 'market',
  apts: 'apartments',
}; // prettier-ignore

/**
 * Legal-form and filing words anywhere after the first word ("Gumps Inc", "Acme Company LLC", "Smith & Sons
 * PC"): they say how a business is registered, not which one it is.
 */
const LEGAL_WORDS: ReadonlySet<string> = new Set([
  'inc', 'incorporated', 'llc', 'corp', 'corporation', 'co', 'company', 'ltd', 'limited', 'pc', 'pllc', 'lp',
  'llp', 'plc', 'dba',
]); // prettier-ignore

/**
 * The words two names are compared by: normalised (lower case, punctuation and trailing legal suffixes gone),
 * abbreviations written out, filler and legal words dropped (the first word is always kept, so "Company 3"
 * stays a name).
 */
export function nameWords(name: string): string[] {
  const out: string[] = [];
  for (const w of normalizeName(name).split(' ')) {
    if (w.length === 0 || FILLER_WORDS.has(w)) continue;
    if (out.length > 0 && LEGAL_WORDS.has(w)) continue;
    const full = NAME_ABBREVIATIONS[w];
    if (full) out.push(...full.split(' '));
    else out.push(w);
  }
  return out;
}

/**
 * How alike two names are, 0..1: the share of words they have in common (Dice's coefficient), 1 when they are the
 * same letters written apart or together ("MoveCentral", "Move Central").
 */
export function nameSimilarity(a: string, b: string): number {
  const wa = nameWords(a);
  const wb = nameWords(b);
  if (wa.length === 0 || wb.length === 0) return 0;
  if (wa.join('') === wb.join('')) return 1;
  const setB = new Set(wb);
  let shared = 0;
  for (const w of new Set(wa)) if (setB.has(w)) shared++;
  return (2 * shared) / (new Set(wa).size + setB.size);
}

type Agreement = 'same' | 'different' | 'unknown';

function agreement(a: string | null, b: string | null): Agreement {
  if (a === null || b === null) return 'unknown';
  return a === b ? 'same' : 'different';
}

/**
 * How sure it is that `a` and `b` are one business, or null when they are not: higher for closer records with more
 * in common, so the best of several candidates can be chosen.
 */
export function matchScore(a: MatchRecord, b: MatchRecord): number | null {
  const meters = haversineMiles(a, b) * METERS_PER_MILE;
  if (meters > MATCH_METERS) return null;
  const names = nameSimilarity(a.name, b.name);
  if (names === 0) return null;
  const phone = agreement(phoneKey(a.phone), phoneKey(b.phone));
  const site = agreement(siteKey(a.website), siteKey(b.website));
  const nearness = 1 - meters / MATCH_METERS;
  const score = names + (phone === 'same' ? 0.5 : 0) + (site === 'same' ? 0.3 : 0) + 0.2 * nearness;
  if (names === 1) return phone === 'different' ? null : score;
  if (phone === 'different' || site === 'different') return null;
  if ((phone === 'same' || site === 'same') && names >= RELATED_NAMES) return score;
  if (names >= SIMILAR_NAMES && meters <= CLOSE_METERS) return score;
  return null;
}
