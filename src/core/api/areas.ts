// The Admin Panel's Business Data section: the areas with imported data and region refreshes.
import { z } from 'zod';
import { isoTime } from './common';
import { endpoint } from './endpoint';

export const areaBoxSchema = z.object({
  minLat: z.number(),
  minLng: z.number(),
  maxLat: z.number(),
  maxLng: z.number(),
});
export type AreaBox = z.infer<typeof areaBoxSchema>;

export const dataAreaSchema = z.object({
  key: z.string(),
  name: z.string(),
  /** The region name to refresh it with; null for an area imported from a file. */
  region: z.string().nullable(),
  /** Where it came from: the mirror's URL, or the file's name. */
  source: z.string(),
  bbox: areaBoxSchema.nullable(),
  businesses: z.number().int(),
  /** The date of the data: the extract's own timestamp when its header has one, else the import's. */
  dataDate: isoTime,
  dataDateFrom: z.enum(['extract', 'import']),
  importedAt: isoTime,
});
export type DataArea = z.infer<typeof dataAreaSchema>;

/** What a running refresh reports. */
export const refreshProgressSchema = z.discriminatedUnion('stage', [
  z.object({ stage: z.literal('downloading'), bytes: z.number(), total: z.number() }),
  z.object({
    stage: z.literal('importing'),
    pass: z.union([z.literal(1), z.literal(2)]),
    percent: z.number(),
    businesses: z.number(),
  }),
  /** An Overture places file: its row groups read (percent), the places kept so far. */
  z.object({ stage: z.literal('reading'), percent: z.number(), places: z.number() }),
  /** ...then merged with the OpenStreetMap businesses and committed. */
  z.object({ stage: z.literal('merging') }),
]);
export type RefreshProgress = z.infer<typeof refreshProgressSchema>;

/** What a finished refresh answers. */
export const refreshResultSchema = z.object({
  region: z.string(),
  /** Businesses the import wrote (new or updated). */
  businesses: z.number().int(),
  /** Businesses stored after it, every area together. */
  total: z.number().int(),
  bytes: z.number(),
  /** What else a reader of the result wants to know (an Overture import: merged, left out, unknown categories). */
  note: z.string().optional(),
});
export type RefreshResult = z.infer<typeof refreshResultSchema>;

export const regionRefreshSchema = z.object({
  jobId: z.string(),
  region: z.string(),
  status: z.enum(['pending', 'running', 'complete', 'error']),
  progress: refreshProgressSchema.nullable(),
  result: refreshResultSchema.nullable(),
  /** Why it failed, in plain words. */
  error: z.string().nullable(),
  startedAt: isoTime,
});
export type RegionRefresh = z.infer<typeof regionRefreshSchema>;

export const areasAnswerSchema = z.object({
  areas: z.array(dataAreaSchema),
  /** Businesses stored, every area together. */
  businesses: z.number().int(),
  /** Refreshes pending or running. */
  refreshes: z.array(regionRefreshSchema),
});
export type AreasAnswer = z.infer<typeof areasAnswerSchema>;

export const regionRefreshBody = z.object({ region: z.string().max(200) });

/** An Overture places file on the server to import, by its absolute path. */
export const overturePathBody = z.object({ path: z.string().max(1000) });

/** How soon to ask again about a refresh, in ms. */
const retryAfterMs = z.number().int();

export const refreshStartedSchema = z.object({
  jobId: z.string(),
  region: z.string(),
  status: z.literal('pending'),
  retryAfterMs,
});
export type RefreshStarted = z.infer<typeof refreshStartedSchema>;

export const refreshStatusSchema = regionRefreshSchema.extend({ retryAfterMs });
export type RefreshStatus = z.infer<typeof refreshStatusSchema>;

/** POST /api/admin/areas/overture-upload: the uploaded file's name. */
export const overtureUploadQuery = z.object({ name: z.string().max(300).optional() });

const areaJobParams = z.object({ jobId: z.string().min(1).max(100) });

export const areaEndpoints = {
  'GET /api/admin/areas': endpoint({
    access: 'admin',
    tags: ['admin'],
    summary: 'The areas with imported business data, the businesses stored, and the refreshes under way',
    answers: { 200: areasAnswerSchema },
  }),
  'POST /api/admin/areas/refresh': endpoint({
    access: 'admin',
    tags: ['admin'],
    summary: 'Download and import a region of the mirror (a job): 202 with its id, 409 while one runs',
    body: regionRefreshBody,
    answers: { 202: refreshStartedSchema },
    errors: [409],
  }),
  'POST /api/admin/areas/overture-file': endpoint({
    access: 'admin',
    tags: ['admin'],
    summary: 'Import an Overture places file on the server, by its absolute path (a job): 202 with its id',
    body: overturePathBody,
    answers: { 202: refreshStartedSchema },
    errors: [400, 409],
  }),
  /** The file itself is the body, streamed to disk (its content types are parsed by the server's route). */
  'POST /api/admin/areas/overture-upload': endpoint({
    access: 'admin',
    tags: ['admin'],
    summary:
      'Upload an Overture places file (the .parquet file as the body, application/octet-stream; ?name= its ' +
      'file name) and import it (a job): 202 with its id',
    query: overtureUploadQuery,
    answers: { 202: refreshStartedSchema },
    errors: [400, 409, 415],
  }),
  'GET /api/admin/areas/jobs/:jobId': endpoint({
    access: 'admin',
    tags: ['admin'],
    summary: "A region refresh: its progress while it runs, then the counts or the failure's reason",
    params: areaJobParams,
    answers: { 200: refreshStatusSchema },
    errors: [404],
  }),
};
