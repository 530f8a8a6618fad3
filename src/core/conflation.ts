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

function nameWords(name: string): string[] {
  return normalizeName(name)
    .split(' ')
    .filter((w) => w.length > 0 && !FILLER_WORDS.has(w));
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
