// Which imported place each advertiser of a billing file is, by the conflation rules of the data import
// (conflation.ts): names compared by their words (legal suffixes, case and abbreviations aside), agreed by a
// phone, a website domain or a street address; a phone that differs keeps two records apart unless the names
// are the same. A billing line has no position, so where the data import asks "close by" the advertiser's
// match asks "the only place so named", and an address match must be in the same town.
import { nameSimilarity, nameWords } from './conflation';
import { normalizeAddress, normalizeName } from './dedup';
import { siteKey } from './market';
import type { BillingLine } from './billing';

/** Names this similar are one business when nothing disagrees and no other place is as alike. */
export const BILLING_SIMILAR_NAMES = 0.75;
/** Names this similar are one business when a phone, website domain or street address agrees. */
export const BILLING_RELATED_NAMES = 0.5;

export type BillingEvidence = 'name' | 'phone' | 'address' | 'website';

/** One advertiser of the file: its lines grouped by name, the first phone, address and website given. */
export interface BillingAdvertiser {
  name: string;
  lines: number[];
  address: string;
  city: string;
  zip: string;
  phone: string;
  website: string;
}

export interface BillingPlace {
  id: string;
  name: string;
  address: string;
  city?: string | null | undefined;
  zip?: string | null | undefined;
  phone?: string | null | undefined;
  website?: string | null | undefined;
}

export interface BillingMatch {
  advertiser: BillingAdvertiser;
  businessId: string;
  businessName: string;
  /** What agreed, strongest first. */
  matchedBy: BillingEvidence[];
}

export interface BillingUnmatched {
  advertiser: BillingAdvertiser;
  reason: string;
}

export const NO_PLACE_MATCHES =
  'No imported business has this name, phone, address or website; check the spelling or add a phone or address.';
export const SEVERAL_PLACES_MATCH =
  'Several imported businesses match this name; add a phone or street address to tell them apart.';

/** Grouping key of an advertiser's lines: its name's words. */
const advertiserKey = (name: string) => nameWords(name).join(' ');

/** The advertisers of a file, in the order they first appear. */
export function groupAdvertisers(lines: readonly BillingLine[]): BillingAdvertiser[] {
  const byKey = new Map<string, BillingAdvertiser>();
  for (const l of lines) {
    const key = advertiserKey(l.name) || l.name.toLowerCase();
    const found = byKey.get(key);
    if (!found) {
      byKey.set(key, {
        name: l.name,
        lines: [l.line],
        address: l.address,
        city: l.city,
        zip: l.zip,
        phone: l.phone,
        website: l.website,
      });
      continue;
    }
    found.lines.push(l.line);
    found.address ||= l.address;
    found.city ||= l.city;
    found.zip ||= l.zip;
    found.phone ||= l.phone;
    found.website ||= l.website;
  }
  return [...byKey.values()];
}

/** The national number (last ten digits); null without ten: seven digits name a number in every area code. */
export function billingPhoneKey(phone: string | null | undefined): string | null {
  const digits = (phone ?? '').split(';')[0]!.replace(/\D/g, '');
  return digits.length >= 10 ? digits.slice(-10) : null;
}

/** The street line with its house number, normalised ('490 Post Street, San Francisco' -> '490 post'). */
export function billingStreetKey(address: string | null | undefined): string | null {
  const key = normalizeAddress((address ?? '').split(',')[0] ?? '');
  return /^\d/.test(key) && /[a-z]/.test(key) ? key : null;
}

/** A zip or city, from the fields or written into the address after the street. */
function townOf(r: { address?: string | null; city?: string | null; zip?: string | null }) {
  const rest = (r.address ?? '').split(',').slice(1).join(',');
  const zipInAddress = [...rest.matchAll(/\b(\d{5})(?:-\d{4})?\b/g)].pop()?.[1] ?? '';
  const cityInAddress = (rest.split(',')[0] ?? '').trim();
  return {
    zip: (r.zip ?? '').trim().slice(0, 5) || zipInAddress,
    city: normalizeName(r.city ?? '') || normalizeName(cityInAddress),
  };
}

function sameTown(a: ReturnType<typeof townOf>, b: ReturnType<typeof townOf>): boolean {
  if (a.zip && b.zip) return a.zip === b.zip;
  if (a.city && b.city) return a.city === b.city;
  return true;
}

interface Keys {
  phone: string | null;
  site: string | null;
  street: string | null;
  words: string[];
  town: ReturnType<typeof townOf>;
}

const keysOf = (r: BillingAdvertiser | BillingPlace): Keys => ({
  phone: billingPhoneKey(r.phone),
  site: siteKey(r.website),
  street: billingStreetKey(r.address),
  words: nameWords(r.name),
  town: townOf(r),
});

interface Candidate {
  place: BillingPlace;
  score: number;
  matchedBy: BillingEvidence[];
}

/**
 * Whether a place is the advertiser, and how sure (higher is surer), or null: the data import's rules with
 * "the only one so named" in place of "close by".
 */
function judge(a: Keys, aName: string, p: Keys, pName: string): Omit<Candidate, 'place'> | null {
  const names = nameSimilarity(aName, pName);
  if (names === 0) return null;
  const phone = a.phone && p.phone ? (a.phone === p.phone ? 'same' : 'different') : 'unknown';
  const site = a.site && p.site ? (a.site === p.site ? 'same' : 'different') : 'unknown';
  const street =
    a.street && p.street && sameTown(a.town, p.town)
      ? a.street === p.street
        ? 'same'
        : 'different'
      : 'unknown';
  const evidence: BillingEvidence[] = [];
  if (names >= BILLING_SIMILAR_NAMES) evidence.push('name');
  if (phone === 'same') evidence.push('phone');
  if (street === 'same') evidence.push('address');
  if (site === 'same') evidence.push('website');
  const score =
    names + (phone === 'same' ? 0.5 : 0) + (street === 'same' ? 0.4 : 0) + (site === 'same' ? 0.3 : 0);
  const agreed = phone === 'same' || site === 'same' || street === 'same';
  const verdict = { score, matchedBy: evidence };
  if (names === 1) return phone === 'different' ? null : verdict;
  if (phone === 'different' || site === 'different') return null;
  if (agreed && names >= BILLING_RELATED_NAMES) return verdict;
  if (names >= BILLING_SIMILAR_NAMES && street !== 'different') return verdict;
  return null;
}

/**
 * Matches advertisers to places: feed every place once with `consider`, then `result()`. Per advertiser the
 * surest candidate wins; two equally sure different places leave it unmatched (ambiguous). A place is only
 * judged against advertisers sharing its phone, website domain, street line or a word of its name.
 */
export function createBillingMatcher(advertisers: readonly BillingAdvertiser[]) {
  const keys = advertisers.map(keysOf);
  const byPhone = new Map<string, number[]>();
  const bySite = new Map<string, number[]>();
  const byStreet = new Map<string, number[]>();
  const byWord = new Map<string, number[]>();
  const add = (map: Map<string, number[]>, key: string | null, i: number) => {
    if (!key) return;
    const list = map.get(key);
    if (list) {
      if (list[list.length - 1] !== i) list.push(i);
    } else map.set(key, [i]);
  };
  keys.forEach((k, i) => {
    add(byPhone, k.phone, i);
    add(bySite, k.site, i);
    add(byStreet, k.street, i);
    for (const w of k.words) add(byWord, w, i);
  });
  const best: { top: Candidate | null; tie: boolean }[] = advertisers.map(() => ({ top: null, tie: false }));

  return {
    consider(place: BillingPlace): void {
      if (!place.id || !place.name) return;
      const p = keysOf(place);
      const seen = new Set<number>();
      const look = (list: number[] | undefined) => {
        for (const i of list ?? []) seen.add(i);
      };
      if (p.phone) look(byPhone.get(p.phone));
      if (p.site) look(bySite.get(p.site));
      if (p.street) look(byStreet.get(p.street));
      for (const w of p.words) look(byWord.get(w));
      for (const i of seen) {
        const verdict = judge(keys[i]!, advertisers[i]!.name, p, place.name);
        if (!verdict) continue;
        const { score, matchedBy } = verdict;
        const slot = best[i]!;
        if (!slot.top || score > slot.top.score + 1e-9) {
          slot.top = { place, score, matchedBy };
          slot.tie = false;
        } else if (Math.abs(score - slot.top.score) <= 1e-9 && slot.top.place.id !== place.id) {
          slot.tie = true;
        }
      }
    },

    result(): { matched: BillingMatch[]; unmatched: BillingUnmatched[] } {
      const matched: BillingMatch[] = [];
      const unmatched: BillingUnmatched[] = [];
      advertisers.forEach((advertiser, i) => {
        const { top, tie } = best[i]!;
        if (!top) unmatched.push({ advertiser, reason: NO_PLACE_MATCHES });
        else if (tie) unmatched.push({ advertiser, reason: SEVERAL_PLACES_MATCH });
        else
          matched.push({
            advertiser,
            businessId: top.place.id,
            businessName: top.place.name,
            matchedBy: top.matchedBy,
          });
      });
      return { matched, unmatched };
    },
  };
}
