// Administration: All Prospects, caches, Algorithm Settings, the audit log.
import { z } from 'zod';
import { isoTime } from './common';
import { fieldSourcesSchema } from './prospect';

const optionalText = z.string().optional().catch(undefined);
const optionalNumber = z.number().finite().optional().catch(undefined);

/**
 * A prospect of the team's stored copies as the admin views read it (All Prospects, the exports): the fields they
 * show, anything malformed in an old row dropped rather than failing the page.
 */
export const storedProspectSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  category: z.string().catch(''),
  address: z.string().catch(''),
  city: optionalText,
  state: optionalText,
  zip: optionalText,
  phone: optionalText,
  website: optionalText,
  lat: optionalNumber,
  lng: optionalNumber,
  rating: optionalNumber,
  reviews: optionalNumber,
  score: z.number().finite().catch(0),
  aiAnalysis: z
    .object({
      score: optionalNumber,
      reasoning: optionalText,
      confidence: optionalNumber,
      recommendations: z.array(z.string()).optional().catch(undefined),
      breakdown: z.record(z.string(), z.unknown()).optional().catch(undefined),
    })
    .optional()
    .catch(undefined),
  /** Where its fields came from (a business of the imported data); absent in copies stored before. */
  sources: fieldSourcesSchema.optional().catch(undefined),
});
export type StoredProspect = z.infer<typeof storedProspectSchema>;

export const teamProspectSchema = storedProspectSchema.extend({
  /** The rep whose scan stored this copy; id null once that account was deleted. */
  scannedBy: z.object({ id: z.string().nullable(), name: z.string().nullable() }),
  scannedAt: isoTime,
});
export type TeamProspect = z.infer<typeof teamProspectSchema>;

/** A page of All Prospects; `total` counts every one. */
export const teamProspectsPageSchema = z.object({
  prospects: z.array(teamProspectSchema),
  total: z.number().int(),
});
export type TeamProspectsPage = z.infer<typeof teamProspectsPageSchema>;

export const cacheStatsSchema = z.object({
  total: z.number().int(),
  valid: z.number().int(),
  expired: z.number().int(),
  businesses: z.number().int(),
  modelVersion: z.string(),
  expiryDays: z.number(),
});
export type CacheStats = z.infer<typeof cacheStatsSchema>;

/** Team-wide switches of the Admin Panel's Algorithm Settings, honoured by every scan. */
export const algorithmSettingsSchema = z.object({
  /** Show every prospect, skipping the prefilter that scores chains, gas stations etc. near zero. */
  showAllProspects: z.boolean(),
  /** Top up thin results with the open street-map (Overpass) provider when it is configured. */
  useOsmTopUp: z.boolean(),
  /** Let the configured AI endpoint rewrite the analysis reasoning of the top results. */
  useLlmAnalysis: z.boolean(),
});
export type AlgorithmSettings = z.infer<typeof algorithmSettingsSchema>;
export const settingsAnswer = z.object({ settings: algorithmSettingsSchema });

export const auditEntrySchema = z.object({
  id: z.string(),
  actor: z.object({ id: z.string().nullable(), name: z.string(), email: z.string().nullable() }),
  action: z.string(),
  target: z.object({ type: z.string(), id: z.string().nullable(), label: z.string().nullable() }),
  details: z.record(z.string(), z.unknown()),
  createdAt: isoTime,
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditPageSchema = z.object({
  entries: z.array(auditEntrySchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;
