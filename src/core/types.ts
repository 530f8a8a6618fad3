// Shared shapes of the discovery engine: what place providers return (Business) and the working record the
// scan hands to the screen (Prospect). Plus the cache key (business hash).
import { sha1 } from '@noble/hashes/legacy.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { PlaceProfile } from './scoring/profile';
import type { WebsiteEvidence } from './websites/signals';

import type { BusinessSource, FieldSources } from './api/prospect';
import type { ProspectPhoto } from './api/photos';

export type { BusinessSource };

/** A candidate business as a place provider returns it. */
export interface Business {
  /** Stable provider id: 'osm:node/123', a Google place id, 'demo:...'. */
  id: string;
  /** The maps service's place id, when the business has one (drives the cache key). */
  placeId?: string;
  name: string;
  lat: number;
  lng: number;
  /** Place types of the nine category groups (and any further provider types, e.g. 'restaurant'). */
  types: string[];
  /** Friendly category label ('Dental', 'Auto Repair', ... or 'Business' when unknown). */
  category: string;
  address: string;
  city?: string;
  state?: string;
  zip?: string;
  phone?: string;
  website?: string;
  rating?: number;
  /** Review count; 0 when unknown. */
  reviews: number;
  /** Open right now; null when not known. */
  openNow: boolean | null;
  /** Brand name (OSM `brand`). */
  brand?: string;
  /** Brand Wikidata id (OSM `brand:wikidata`), e.g. 'Q38076' for McDonald's. */
  brandWikidata?: string;
  /** Places of the same business (same name) in the imported market; known for the local provider only. */
  locations?: number;
  /**
   * The same business (its name or its website's domain) has places in several cities of the imported data: an
   * outlet of a chain; known for the local provider only.
   */
  manyCities?: boolean;
  source: BusinessSource;
  /** Which source each field came from, for a business of the imported data (OpenStreetMap, Overture Maps). */
  fieldSources?: FieldSources;
  /** Raw OpenStreetMap tags, when the business came from OSM data. */
  tags?: Record<string, string>;
  priceLevel?: number;
  /** Google's photos of the business: up to 3 names and their authors. */
  photos?: ProspectPhoto[];
  /** What the latest fresh check of its website found, attached by the scan from the evidence cache. */
  websiteEvidence?: WebsiteEvidence;
  /**
   * What scoring and de-duplication derive from its own fields, made ahead (a place of the imported table;
   * scoring/profile.ts). Whoever changes its name, address, types, category, tags or brand drops it.
   */
  profile?: PlaceProfile | null;
}

// The prospect record, its analysis and score breakdown are the API's (src/core/api/prospect.ts): one schema
// gives the types the scoring code uses, the server's validation and the browser's types.
export type { ComponentValues, Prospect, ProspectAnalysis, ScoreBreakdown } from './api/prospect';

/** What the cache key needs from a business. */
export interface CacheKeyInput {
  placeId?: string | null;
  name: string;
  address?: string | null;
  category?: string | null;
}

/**
 * The cache key (business hash): 'place_' plus the place id when one exists; otherwise the SHA-1
 * of the lower-cased name, address and category (joined with '|'), cut to 20 alphanumeric characters.
 */
export function businessHash(input: CacheKeyInput): string {
  const placeId = input.placeId?.trim();
  if (placeId) return `place_${placeId}`;
  const lower = (s: string | null | undefined): string => (s ?? '').trim().toLowerCase();
  const text = `${lower(input.name)}|${lower(input.address)}|${lower(input.category)}`;
  return bytesToHex(sha1(utf8ToBytes(text))).slice(0, 20);
}

/**
 * The cache key of a provider's business: its place id, else its stable provider id ('osm:node/123', 'demo:...'),
 * as the place id of {@link businessHash}. Businesses of the OSM import have no place id, and hashing name,
 * address and category would give every "Wells Fargo" without an address one key.
 */
export function businessCacheKey(
  b: Pick<Business, 'id' | 'placeId' | 'name' | 'address' | 'category'>,
): string {
  return businessHash({
    placeId: b.placeId?.trim() || b.id,
    name: b.name,
    address: b.address,
    category: b.category,
  });
}
