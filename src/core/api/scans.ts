// Discovery: scans, quick search, the latest results, geocoding and place details.
import { z } from 'zod';
import { isoTime, sourceReportSchema } from './common';
import { prospectSchema } from './prospect';

const lat = z.number().min(-90).max(90);
const lng = z.number().min(-180).max(180);

/** POST /api/scans. */
export const scanBody = z.object({
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
export type ScanInput = z.infer<typeof scanBody>;

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

export const geocodeSchema = z.object({ lat: z.number(), lng: z.number(), label: z.string() });
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
