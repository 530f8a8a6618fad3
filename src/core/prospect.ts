// From a provider's Business to the scorer's input and to the Prospect working record.
import type { AnalysisInput } from './scoring/analyze';
import type { Business, Prospect, ProspectAnalysis } from './types';
import { MAX_PHOTOS } from './api/photos';

/** The scorer's input for a business at a known distance (miles) from the scan centre. */
export function toAnalysisInput(b: Business, distanceMiles?: number | null): AnalysisInput {
  return {
    id: b.id,
    placeId: b.placeId ?? null,
    name: b.name,
    category: b.category,
    rating: b.rating ?? null,
    reviewCount: b.reviews,
    address: b.address,
    distance: distanceMiles ?? null,
    types: b.types,
    website: b.website ?? null,
    phone: b.phone ?? null,
    businessStatus: b.openNow === null ? null : b.openNow ? 'Open' : 'Closed',
    tags: b.tags ?? null,
    brand: b.brand ?? null,
    brandWikidata: b.brandWikidata ?? null,
    source: b.source,
    locations: b.locations ?? null,
    manyCities: b.manyCities ?? false,
    websiteEvidence: b.websiteEvidence ?? null,
    profile: b.profile ?? null,
  };
}

/** A prospect's id: the place id, else the provider id, else 'prospect_N' (N = `index`). */
export const prospectId = (b: Pick<Business, 'placeId' | 'id'>, index = 0): string =>
  b.placeId?.trim() || b.id?.trim() || `prospect_${index}`;

/**
 * The Prospect: id = place id, else provider id, else 'prospect_N' (N = `index`); openNow defaults
 * to true when unknown; reviews default to 0; score = analysis score / 100 (0 without an analysis).
 */
export function toProspect(
  b: Business,
  opts: { distance: number; analysis?: ProspectAnalysis; index?: number },
): Prospect {
  const p: Prospect = {
    id: prospectId(b, opts.index),
    name: b.name,
    category: b.category,
    address: b.address,
    lat: b.lat,
    lng: b.lng,
    openNow: b.openNow ?? true,
    reviews: Number.isFinite(b.reviews) ? b.reviews : 0,
    source: b.source,
    distance: opts.distance,
    score: opts.analysis ? opts.analysis.score / 100 : 0,
    types: [...b.types],
    signals: b.websiteEvidence?.signals ?? [],
  };
  if (b.city) p.city = b.city;
  if (b.state) p.state = b.state;
  if (b.zip) p.zip = b.zip;
  if (b.phone) p.phone = b.phone;
  if (b.website) p.website = b.website;
  if (typeof b.rating === 'number') p.rating = b.rating;
  if (b.placeId) p.placeId = b.placeId;
  if (typeof b.priceLevel === 'number') p.priceLevel = b.priceLevel;
  if (b.photos?.length) p.photos = b.photos.slice(0, MAX_PHOTOS);
  if (opts.analysis) p.aiAnalysis = opts.analysis;
  if (b.fieldSources && Object.keys(b.fieldSources).length > 0) p.sources = { ...b.fieldSources };
  return p;
}
