// Administration: All Prospects, caches, Algorithm Settings, the audit log.
import { z } from 'zod';
import { csvFile, isoTime, timeZoneParam } from './common';
import { endpoint } from './endpoint';
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

/** All Prospects' page size when none is asked for, and the largest page the server gives. */
export const TEAM_PAGE_DEFAULT = 100;
export const TEAM_PAGE_MAX = 500;

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

export const auditEndpoints = {
  'GET /api/audit': endpoint({
    access: 'superadmin',
    tags: ['audit'],
    summary: 'The audit log of admin actions, newest first, one page at a time',
    query: z.object({
      page: z.coerce.number().int().min(1).max(1_000_000).default(1),
      pageSize: z.coerce.number().int().min(1).max(200).default(50),
    }),
    answers: { 200: auditPageSchema },
  }),
  'GET /api/audit/export.csv': endpoint({
    access: 'superadmin',
    tags: ['audit'],
    summary: 'The audit log as audit_log_{date}.csv, newest first',
    answers: { 200: csvFile },
  }),
};

export const settingsEndpoints = {
  'GET /api/admin/settings': endpoint({
    access: 'admin',
    tags: ['admin'],
    summary: 'Algorithm Settings (team-wide switches the scan honours)',
    answers: { 200: settingsAnswer },
  }),
  'PATCH /api/admin/settings': endpoint({
    access: 'superadmin',
    tags: ['admin'],
    summary: 'Change Algorithm Settings',
    body: algorithmSettingsSchema.partial().strict(),
    answers: { 200: settingsAnswer },
  }),
};

export const exportEndpoints = {
  'GET /api/admin/all-prospects': endpoint({
    access: 'admin',
    tags: ['exports'],
    summary:
      'All Prospects tab: a page of every scanned prospect across the team, one per business, without ' +
      'blocked ones, by score; total counts them all',
    query: z.object({
      offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
      limit: z.coerce.number().int().min(1).max(TEAM_PAGE_MAX).default(TEAM_PAGE_DEFAULT),
    }),
    answers: { 200: teamProspectsPageSchema },
  }),
  'GET /api/exports/all-prospects.csv': endpoint({
    access: 'admin',
    tags: ['exports'],
    summary: 'Export All: all_prospects_summary_{date}.csv ({date} in the given IANA time zone, tz)',
    query: z.object({ tz: timeZoneParam }),
    answers: { 200: csvFile },
    errors: [404],
  }),
  'GET /api/exports/prospects.csv': endpoint({
    access: 'admin',
    tags: ['exports'],
    summary: 'Export Prospects: prospects_{date}.csv (scope=current: own latest scan, SuperAdmins)',
    query: z.object({ scope: z.enum(['team', 'current']).default('team'), tz: timeZoneParam }),
    answers: { 200: csvFile },
    errors: [404],
  }),
};
