import { z } from 'zod';
import { websiteSignalSchema } from '../../core/websites/signals.js';

// The working record of SPEC.md §3 (src/core/types.ts Prospect) as clients send it back: bounded sizes so a
// stored copy stays small, unknown fields dropped.
/** Text that PostgreSQL can store: bounded, and without NUL characters (which text columns refuse). */
export const text = (max: number) =>
  z
    .string()
    .max(max)
    .refine((v) => !v.includes('\u0000'), { message: 'must not contain NUL characters' });
/** Trimmed, non-empty text. */
export const requiredText = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((v) => !v.includes('\u0000'), { message: 'must not contain NUL characters' });

const shortText = text(300);

export const prospectAnalysisSchema = z.object({
  score: z.number().min(0).max(100),
  reasoning: z.string().max(5000).optional(),
  confidence: z.number().min(0).max(100).optional(),
  recommendations: z.array(z.string().max(500)).max(50).optional(),
  breakdown: z.record(z.string(), z.unknown()).optional(),
  analyzedAt: z.string().max(40).optional(),
  businessHash: z.string().max(200).optional(),
  modelVersion: z.string().max(40).optional(),
});

export const prospectSchema = z.object({
  id: requiredText(300),
  name: requiredText(300),
  category: text(100),
  address: text(500),
  city: shortText.optional(),
  state: shortText.optional(),
  zip: text(20).optional(),
  phone: text(50).optional(),
  website: text(2000).optional(),
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
  openNow: z.boolean().optional(),
  reviews: z.number().int().min(0).optional(),
  rating: z.number().min(0).max(5).optional(),
  placeId: shortText.optional(),
  priceLevel: z.number().min(0).max(4).optional(),
  photos: z.array(z.string().max(2000)).max(3).optional(),
  source: z.string().max(20).optional(),
  distance: z.number().min(0).optional(),
  score: z.number().min(0).max(1),
  types: z.array(z.string().max(60)).max(50).optional(),
  aiAnalysis: prospectAnalysisSchema.optional(),
  /** The website evidence (issue 17), kept with a saved card so its chips show in the Saved tab. */
  signals: z.array(websiteSignalSchema).max(60).optional(),
});

export type ProspectInput = z.infer<typeof prospectSchema>;
