// Territories: areas of the map an admin draws (or lists by ZIP code) and assigns reps to. A rep sees the
// outlines of their territories and may scan a whole territory; the Team tab shows each territory's work.
import { z } from 'zod';
import { isoTime, nameText, noContent } from './common';
import { periodQuery } from './dashboard';
import { endpoint } from './endpoint';

/** A GeoJSON position: [longitude, latitude]. */
const position = z.tuple([z.number().min(-180).max(180), z.number().min(-90).max(90)]);
/** A closed ring: at least four positions, the last equal to the first (checked by the server). */
const ring = z.array(position).min(4).max(5_000);

/** A territory's area: a GeoJSON Polygon or MultiPolygon (outer ring first, then holes). */
export const territoryAreaSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('Polygon'), coordinates: z.array(ring).min(1).max(50) }),
  z.object({
    type: z.literal('MultiPolygon'),
    coordinates: z.array(z.array(ring).min(1).max(50)).min(1).max(50),
  }),
]);
export type TerritoryArea = z.infer<typeof territoryAreaSchema>;

/** A five-digit US ZIP code. */
const zipCode = z.string().regex(/^\d{5}$/, { message: 'must be a five-digit ZIP code' });

export const territorySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The drawn area, or the one built from the ZIP codes. */
  area: territoryAreaSchema,
  /** The ZIP codes it was made from, when it was made from ZIP codes. */
  zips: z.array(z.string()),
  areaSquareMiles: z.number(),
  reps: z.array(z.object({ id: z.string(), name: z.string() })),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type Territory = z.infer<typeof territorySchema>;

/** POST /api/territories and PUT /api/territories/:id: an area or a list of ZIP codes (not both), and its reps. */
export const territoryBody = z
  .object({
    name: nameText(100),
    area: territoryAreaSchema.optional(),
    zips: z.array(zipCode).min(1).max(200).optional(),
    repIds: z.array(z.string().min(1).max(100)).max(200),
  })
  .refine((body) => (body.area === undefined) !== (body.zips === undefined), {
    message: 'Give either an area or a list of ZIP codes',
    path: ['area'],
  });
export type TerritoryInput = z.infer<typeof territoryBody>;

const territoryParams = z.object({ id: z.string().min(1).max(100) });

/** GET /api/team/territories: per territory, its reps and how its best businesses are being worked. */
export const territoryWorkSchema = z.object({
  territories: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      reps: z.array(z.object({ id: z.string(), name: z.string() })),
      /** Businesses of the imported data inside it. */
      businesses: z.number().int(),
      /** Of its 50 best-ranked businesses, how many were called or visited in the period. */
      bestContacted: z.number().int(),
      /** How many best businesses were counted (50, or fewer in a small territory). */
      bestCount: z.number().int(),
      /** Businesses inside it that reached Meeting set (or later) in the period. */
      meetings: z.number().int(),
      /** Businesses inside it moved to Won in the period. */
      wins: z.number().int(),
    }),
  ),
});
export type TerritoryWork = z.infer<typeof territoryWorkSchema>;

export const territoryEndpoints = {
  'GET /api/territories': endpoint({
    access: 'user',
    tags: ['territories'],
    summary: 'Territories: an admin gets all of them, a rep the ones they are assigned to',
    answers: { 200: z.object({ territories: z.array(territorySchema) }) },
  }),
  'POST /api/territories': endpoint({
    access: 'admin',
    tags: ['territories'],
    summary: 'Create a territory from a drawn area or a list of ZIP codes, and assign its reps (audited)',
    body: territoryBody,
    answers: { 201: z.object({ territory: territorySchema }) },
    errors: [404, 409],
  }),
  'PUT /api/territories/:id': endpoint({
    access: 'admin',
    tags: ['territories'],
    summary: "Change a territory's name, area or reps (audited)",
    params: territoryParams,
    body: territoryBody,
    answers: { 200: z.object({ territory: territorySchema }) },
    errors: [404, 409],
  }),
  'DELETE /api/territories/:id': endpoint({
    access: 'admin',
    tags: ['territories'],
    summary: 'Delete a territory (audited); its reps keep their own lists',
    params: territoryParams,
    answers: { 204: noContent },
    errors: [404],
  }),
  'GET /api/team/territories': endpoint({
    access: 'admin',
    tags: ['team'],
    summary:
      'Per territory: its reps, its businesses, how many of its 50 best were called or visited in the period, meetings and wins',
    query: periodQuery,
    answers: { 200: territoryWorkSchema },
  }),
} as const;
