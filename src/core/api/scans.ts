// Discovery: scans, quick search, the latest results, geocoding and place details.
import { z } from 'zod';
import { isoTime, noContent, sourceReportSchema } from './common';
import { cacheStatsSchema } from './admin';
import { endpoint } from './endpoint';
import { COUNT_MAX, MAX_LOADED } from './limits';
import { prospectSchema } from './prospect';

const lat = z.number().min(-90).max(90);
const lng = z.number().min(-180).max(180);

export { COUNT_MAX, COUNT_MIN, MAX_LOADED } from './limits';

/** POST /api/scans around a centre: every business within the radius. */
export const circleScanBody = z.object({
  lat,
  lng,
  radiusMiles: z.number().positive().max(1000),
  count: z.number().int().min(1).max(1000),
  categories: z.array(z.string().max(40)).max(50).optional(),
  locationLabel: z.string().max(300).optional(),
  /** "Spread results out": among similar scores, businesses 0.25 mile apart go first (default off). */
  spreadOut: z.boolean().optional(),
  /** Chosen by the browser: the scan's progress goes to this user's event streams under this id. */
  scanId: z.uuid().optional(),
});
export type ScanInput = z.infer<typeof circleScanBody>;

/** POST /api/scans of a territory: every business inside its outline (the rep must be assigned to it). */
export const territoryScanBody = z.object({
  territoryId: z.string().min(1).max(100),
  count: z.number().int().min(1).max(1000),
  categories: z.array(z.string().max(40)).max(50).optional(),
  locationLabel: z.string().max(300).optional(),
  spreadOut: z.boolean().optional(),
  scanId: z.uuid().optional(),
});
export type TerritoryScanInput = z.infer<typeof territoryScanBody>;

/** POST /api/scans: a circle, or a territory. */
export const scanBody = z.union([circleScanBody, territoryScanBody]);
export type ScanBody = z.infer<typeof scanBody>;

/** POST /api/quick-search. */
export const quickSearchBody = z.object({
  mode: z.enum(['business', 'category']),
  text: z.string().max(200),
  lat,
  lng,
  radiusMiles: z.number().positive().max(1000),
  count: z.number().int().min(1).max(1000).optional(),
  locationLabel: z.string().max(300).optional(),
});
export type QuickSearchInput = z.infer<typeof quickSearchBody>;

/** The first page of a scan or quick search. */
export const scanPageSchema = z.object({
  searchId: z.string(),
  total: z.number().int(),
  offset: z.number().int(),
  prospects: z.array(prospectSchema),
  sources: z.array(sourceReportSchema),
  demo: z.boolean(),
  radiusMiles: z.number(),
  count: z.number().int(),
  /** Nothing found, and the server's imported place data covers no part of this area. */
  noLocalData: z.literal(true).optional(),
  /** The territory scanned, for a territory scan (radiusMiles is then its bounding circle's). */
  territoryId: z.string().optional(),
});
export type ScanResult = z.infer<typeof scanPageSchema>;

/** A page of the latest scan (restored at sign-in; further pages). */
export const latestPageSchema = z.object({
  searchId: z.string().nullable(),
  total: z.number().int(),
  loadable: z.number().int(),
  offset: z.number().int(),
  prospects: z.array(prospectSchema),
  at: isoTime.nullable(),
});
export type LatestPage = z.infer<typeof latestPageSchema>;

export const geocodeSchema = z.object({
  lat: z.number(),
  lng: z.number(),
  label: z.string(),
  /** How exactly it was found, when the server's own data found it (a geocoding service does not say). */
  precision: z.enum(['coordinates', 'address', 'nearby-address', 'street', 'city']).optional(),
});
export type GeocodeResult = z.infer<typeof geocodeSchema>;

/** One place's contacts and address parts, fetched on demand (a card's Call and Website). */
export const placeDetailsSchema = z.object({
  phone: z.string().optional(),
  website: z.string().optional(),
  address: z.string().optional(),
  city: z.string().optional(),
  state: z.string().optional(),
  zip: z.string().optional(),
});
export type PlaceDetails = z.infer<typeof placeDetailsSchema>;

export const prospectAnswer = z.object({ prospect: prospectSchema });

/** GET /api/scans/latest: which part of the latest results. */
export const latestPageQuery = z.object({
  offset: z.coerce.number().int().min(0).max(MAX_LOADED).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_LOADED).default(COUNT_MAX),
});

/** A business of the results, by its id. */
const businessIdParams = z.object({ id: z.string().min(1).max(300) });

export const scanEndpoints = {
  'POST /api/scans': endpoint({
    access: 'user',
    tags: ['scans'],
    summary:
      'Scan the area (a circle, or a territory the rep is assigned to): find, de-duplicate, drop blocked, score and rank; the first page of N',
    body: scanBody,
    answers: { 200: scanPageSchema },
    errors: [403, 404, 429],
  }),
  'POST /api/quick-search': endpoint({
    access: 'user',
    tags: ['scans'],
    summary: 'Quick search: a business by name or a category within the radius',
    body: quickSearchBody,
    answers: { 200: scanPageSchema },
    errors: [404, 429],
  }),
  'GET /api/geocode': endpoint({
    access: 'user',
    tags: ['places'],
    summary:
      'An address, "lat,lng", city, "City, ST" or ZIP to a point (Google, Nominatim, then the imported addresses and the offline gazetteer)',
    query: z.object({ q: z.string().max(300) }),
    answers: { 200: geocodeSchema },
    errors: [404],
  }),
  'GET /api/reverse-geocode': endpoint({
    access: 'user',
    tags: ['places'],
    summary: 'A point to a location label',
    query: z.object({
      lat: z.coerce.number().min(-90).max(90),
      lng: z.coerce.number().min(-180).max(180),
    }),
    answers: { 200: z.object({ label: z.string() }) },
  }),
  'GET /api/places/:id/details': endpoint({
    access: 'user',
    tags: ['places'],
    summary: 'Phone, website and address parts of one business (for Call and Website)',
    params: businessIdParams,
    answers: { 200: placeDetailsSchema },
  }),
  'GET /api/scans/latest': endpoint({
    access: 'user',
    tags: ['scans'],
    summary: 'A page of the latest scan (restored at sign-in; further pages up to 100)',
    query: latestPageQuery,
    answers: { 200: latestPageSchema },
  }),
  'DELETE /api/scans/latest': endpoint({
    access: 'user',
    tags: ['scans'],
    summary: 'New Search: clear the latest results',
    answers: { 204: noContent },
  }),
  'PATCH /api/scans/latest/prospects/:id/category': endpoint({
    access: 'user',
    tags: ['scans'],
    summary:
      "Set a missing or 'Business' category on a prospect of the latest scan (admins: any category, audited)",
    params: businessIdParams,
    body: z.object({ category: z.string().max(200) }),
    answers: { 200: prospectAnswer },
    errors: [404, 409],
  }),
  'GET /api/admin/cache': endpoint({
    access: 'admin',
    tags: ['admin'],
    summary: 'Analysis cache stats: total, valid, expired',
    answers: { 200: cacheStatsSchema },
  }),
  'DELETE /api/admin/cache': endpoint({
    access: 'superadmin',
    tags: ['admin'],
    summary: 'Clear the business and analysis caches',
    answers: { 204: noContent },
  }),
};
