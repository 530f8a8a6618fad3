import { normalizeAddress, normalizeName } from '../../core/dedup.js';
import { parseCsv } from '../../core/csv.js';
import { cleanName } from '../../core/api/common.js';
import type { MatchRule } from '../../core/api/lists.js';

// Matching an existing customer / advertiser list (CSV with name, address, phone or website columns) to the
// businesses we know, by the de-duplication rules (core/dedup.ts) plus phone and website. Pure: the service
// feeds it the known businesses and marks what it returns.

export const MAX_IMPORT_ROWS = 10_000;
export const NO_HEADER =
  'The first line must name the columns: at least one of name, address, phone or website.';
export const TOO_MANY_ROWS = `The file has more than ${MAX_IMPORT_ROWS} rows; split it into smaller files.`;
export const EMPTY_FILE = 'The file is empty.';

export type { MatchRule };

export interface ImportRow {
  /** Line of the file the record starts on (1 is the header). */
  row: number;
  name: string;
  address: string;
  city: string;
  state: string;
  zip: string;
  phone: string;
  website: string;
}

export interface KnownBusiness {
  id: string;
  name: string;
  address: string;
  city?: string | null | undefined;
  state?: string | null | undefined;
  zip?: string | null | undefined;
  phone?: string | null | undefined;
  website?: string | null | undefined;
}

export interface ImportMatch {
  row: number;
  businessId: string;
  label: string;
  rule: MatchRule;
}

export interface ImportUnmatched {
  row: number;
  reason: string;
}

type Field = Exclude<keyof ImportRow, 'row'>;
const HEADER_ALIASES: Record<Field, string[]> = {
  name: ['name', 'business', 'business name', 'businessname', 'company', 'company name', 'customer', 'advertiser', 'account', 'account name'],
  address: ['address', 'street', 'street address', 'address1', 'address 1', 'address line 1', 'addr'],
  city: ['city', 'town', 'locality'],
  state: ['state', 'st', 'province', 'region'],
  zip: ['zip', 'zip code', 'zipcode', 'postal code', 'postcode', 'postal'],
  phone: ['phone', 'phone number', 'telephone', 'tel', 'phone #', 'main phone'],
  website: ['website', 'web site', 'url', 'web', 'site', 'homepage', 'domain'],
}; // prettier-ignore

const headerKey = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .replace(/[_\s]+/g, ' ');

/**
 * Last 10 digits of a phone number ('+1 (205) 555-0100' -> '2055550100'); '' when fewer than 10 digits. Stricter
 * than de-duplication's phoneKey (seven digits, compared only within 150 m): an advertiser is matched anywhere, and
 * seven digits without an area code name a business in every area code.
 */
export function advertiserPhoneKey(phone: string | null | undefined): string {
  const digits = (phone ?? '').replace(/\D/g, '');
  return digits.length >= 10 ? digits.slice(-10) : '';
}

/** Host without 'www.' ('https://WWW.Joes.com/about' -> 'joes.com'); '' when not a host name. */
export function websiteKey(website: string | null | undefined): string {
  const raw = (website ?? '').trim();
  if (!raw) return '';
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`);
    const host = url.hostname
      .toLowerCase()
      .replace(/^www\./, '')
      .replace(/\.$/, '');
    return host.includes('.') ? host : '';
  } catch {
    return '';
  }
}

/** The street part of an address, normalised as de-duplication does ('123 Main Street, Springfield' ->
 * '123 main'); only a street with a house number identifies a place. */
export function streetKey(address: string | null | undefined): string {
  const first = (address ?? '').split(',')[0] ?? '';
  const key = normalizeAddress(first);
  return /\d/.test(key) ? key : '';
}

/** City or zip of either side, to refuse an address match across towns. */
function locality(b: { address?: string | null; city?: string | null; zip?: string | null }) {
  // A zip written into the address counts only after the street part (a 5-digit house number is not a zip).
  const afterStreet = (b.address ?? '').split(',').slice(1).join(',');
  const zipInAddress = [...afterStreet.matchAll(/\b(\d{5})(?:-\d{4})?\b/g)].pop()?.[1] ?? '';
  const zip = (b.zip ?? '').trim().slice(0, 5) || zipInAddress;
  return { city: normalizeName(b.city ?? ''), zip };
}

function sameLocality(a: ReturnType<typeof locality>, b: ReturnType<typeof locality>): boolean {
  if (a.zip && b.zip) return a.zip === b.zip;
  if (a.city && b.city) return a.city === b.city;
  return true;
}

export interface ParsedImport {
  rows: ImportRow[];
  bad: ImportUnmatched[];
}

/** Reads the file: header names case-insensitive (with common aliases), bad rows reported, never a throw. */
export function parseImport(csv: string): ParsedImport | { error: string } {
  const parsed = parseCsv(csv);
  const [header, ...records] = parsed.records;
  if (!header) return { error: EMPTY_FILE };
  const columns = new Map<Field, number>();
  header.forEach((h, i) => {
    const key = headerKey(h);
    for (const [field, aliases] of Object.entries(HEADER_ALIASES) as [Field, string[]][]) {
      if (!columns.has(field) && aliases.includes(key)) columns.set(field, i);
    }
  });
  if (!['name', 'address', 'phone', 'website'].some((f) => columns.has(f as Field)))
    return { error: NO_HEADER };
  if (records.length > MAX_IMPORT_ROWS) return { error: TOO_MANY_ROWS };

  const problemLines = new Set(parsed.problems.map((p) => p.line));
  const rows: ImportRow[] = [];
  const bad: ImportUnmatched[] = [];
  records.forEach((record, i) => {
    const line = parsed.lines[i + 1] ?? i + 2;
    if (problemLines.has(line)) {
      bad.push({
        row: line,
        reason: 'Unterminated quoted field: the rest of the file was read as one value',
      });
      return;
    }
    if (record.length > header.length && record.slice(header.length).some((v) => v.trim() !== '')) {
      bad.push({
        row: line,
        reason: `Row has ${record.length} values but the header names ${header.length} columns (quote values that contain commas)`,
      });
      return;
    }
    // A quoted value may span lines; each value is read as one line (the name goes into the report).
    const get = (f: Field) => {
      const at = columns.get(f);
      return at === undefined ? '' : cleanName(record[at] ?? '');
    };
    const row: ImportRow = {
      row: line,
      name: get('name'),
      address: get('address'),
      city: get('city'),
      state: get('state'),
      zip: get('zip'),
      phone: get('phone'),
      website: get('website'),
    };
    if (!row.name && !row.address && !row.phone && !row.website) {
      bad.push({ row: line, reason: 'Row has no name, address, phone or website' });
      return;
    }
    rows.push(row);
  });
  return { rows, bad };
}

interface Keys {
  phone: string;
  website: string;
  name: string;
  street: string;
  place: ReturnType<typeof locality>;
}

function keysOf(b: KnownBusiness | ImportRow): Keys {
  return {
    phone: advertiserPhoneKey(b.phone),
    website: websiteKey(b.website),
    name: normalizeName(b.name),
    street: streetKey(b.address),
    place: locality(b),
  };
}

const push = <K, V>(map: Map<K, V[]>, key: K, value: V) => {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
};

/**
 * Matches import rows to known businesses. Per row, the first rule that names exactly one business wins:
 * phone (last 10 digits), name and street address, website host, street address alone (as in de-duplication,
 * the same non-empty normalised address is the same business), name alone. Address rules never cross towns
 * (zip or city must agree when both sides give one). A rule that names several businesses is narrowed by the
 * name when it can be; otherwise the row is reported as ambiguous.
 */
export function createMatcher(rows: ImportRow[]) {
  const rowKeys = rows.map(keysOf);
  const index = {
    phone: new Map<string, number[]>(),
    website: new Map<string, number[]>(),
    street: new Map<string, number[]>(),
    name: new Map<string, number[]>(),
  };
  rowKeys.forEach((k, i) => {
    if (k.phone) push(index.phone, k.phone, i);
    if (k.website) push(index.website, k.website, i);
    if (k.street) push(index.street, k.street, i);
    if (k.name) push(index.name, k.name, i);
  });
  /** Candidates per row and rule: business id -> business (distinct ids). */
  const found = rows.map(() => new Map<MatchRule, Map<string, { b: KnownBusiness; name: string }>>());
  const add = (i: number, rule: MatchRule, b: KnownBusiness, name: string) => {
    const perRule = found[i]!;
    let byId = perRule.get(rule);
    if (!byId) perRule.set(rule, (byId = new Map<string, { b: KnownBusiness; name: string }>()));
    if (!byId.has(b.id)) byId.set(b.id, { b, name });
  };

  return {
    /** Feed every known business once (in preference order: the first copy of an id wins). */
    consider(b: KnownBusiness): void {
      if (!b.id) return;
      const k = keysOf(b);
      if (k.phone) for (const i of index.phone.get(k.phone) ?? []) add(i, 'phone', b, k.name);
      if (k.website) for (const i of index.website.get(k.website) ?? []) add(i, 'website', b, k.name);
      if (k.street) {
        for (const i of index.street.get(k.street) ?? []) {
          const r = rowKeys[i]!;
          if (!sameLocality(r.place, k.place)) continue;
          add(i, r.name && r.name === k.name ? 'name-and-address' : 'address', b, k.name);
        }
      }
      if (k.name) for (const i of index.name.get(k.name) ?? []) add(i, 'name', b, k.name);
    },

    result(): { matched: ImportMatch[]; unmatched: ImportUnmatched[] } {
      const matched: ImportMatch[] = [];
      const unmatched: ImportUnmatched[] = [];
      const order: MatchRule[] = ['phone', 'name-and-address', 'website', 'address', 'name'];
      rows.forEach((row, i) => {
        const perRule = found[i]!;
        const rowName = rowKeys[i]!.name;
        let ambiguous: MatchRule | null = null;
        for (const rule of order) {
          const byId = perRule.get(rule);
          if (!byId || byId.size === 0) continue;
          let candidates = [...byId.values()];
          if (candidates.length > 1 && rowName) {
            const named = candidates.filter((c) => c.name === rowName);
            if (named.length > 0) candidates = named;
          }
          if (candidates.length === 1) {
            const { b } = candidates[0]!;
            matched.push({ row: row.row, businessId: b.id, label: b.name, rule });
            return;
          }
          ambiguous ??= rule;
        }
        unmatched.push({
          row: row.row,
          reason: ambiguous
            ? `The ${ambiguous.replaceAll('-', ' ')} matches several businesses; add the name and street address to tell them apart`
            : 'No known business matches this name, address, phone or website',
        });
      });
      return { matched, unmatched };
    },
  };
}
