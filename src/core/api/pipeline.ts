// The team pipeline: one stage and owner per business, with its history (docs/PRODUCT.md, "Follow-ups, routes
// and the pipeline").
import { z } from 'zod';
import { isoTime, requiredText, text } from './common';
import { endpoint } from './endpoint';
import { PIPELINE_STAGES } from '../pipeline';

export const pipelineStageSchema = z.enum(PIPELINE_STAGES);

/** A business's line in the pipeline; a business without one is New and unclaimed. */
export const pipelineEntrySchema = z.object({
  businessId: z.string(),
  /** The business's name when the stage was last set (for lists that do not carry the card). */
  label: z.string(),
  ownerId: z.string().nullable(),
  ownerName: z.string().nullable(),
  stage: pipelineStageSchema,
  /** When the stage (or the owner) last changed: "since Nov 3". */
  since: isoTime,
  /** Last activity on the claim (a stage change or the owner's call log); stale claims are released. */
  updatedAt: isoTime,
});
export type PipelineEntry = z.infer<typeof pipelineEntrySchema>;

/** Business ids are comma-separated; without any, every business someone owns. */
export const pipelineQuery = z.object({
  businessIds: text(20_000)
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    )
    .refine((ids) => ids.length <= 500, { message: 'at most 500 business ids' })
    .refine((ids) => ids.every((id) => id.length <= 300), { message: 'a business id is too long' }),
});
export const pipelineListSchema = z.object({ entries: z.array(pipelineEntrySchema) });
export type PipelineList = z.infer<typeof pipelineListSchema>;

export const pipelineParams = z.object({ businessId: requiredText(300) });
export const pipelineStageBody = z.object({
  stage: pipelineStageSchema,
  /** Not stored: the entry takes the business's name from the server's own record of it (a scan or an import).
   * Still accepted so that stages an older screen queued offline still send. */
  name: text(300).optional(),
  /** Moving to Won: also mark the business a current advertiser (the screen asks; default yes). */
  markAdvertiser: z.boolean().optional(),
});
export const pipelineReassignBody = z.object({ userId: requiredText(100) });
export const pipelineAnswerSchema = z.object({ entry: pipelineEntrySchema });
export type PipelineAnswer = z.infer<typeof pipelineAnswerSchema>;

export const pipelineHistoryEntrySchema = z.object({
  id: z.string(),
  businessId: z.string(),
  fromStage: pipelineStageSchema.nullable(),
  toStage: pipelineStageSchema,
  fromOwnerId: z.string().nullable(),
  fromOwnerName: z.string().nullable(),
  toOwnerId: z.string().nullable(),
  toOwnerName: z.string().nullable(),
  /** Who made the change; null for the automatic release. */
  byId: z.string().nullable(),
  byName: z.string(),
  at: isoTime,
  reason: z.string(),
});
export type PipelineHistoryEntry = z.infer<typeof pipelineHistoryEntrySchema>;
export const pipelineHistorySchema = z.object({ history: z.array(pipelineHistoryEntrySchema) });
export type PipelineHistory = z.infer<typeof pipelineHistorySchema>;

export const pipelineEndpoints = {
  'GET /api/pipeline': endpoint({
    access: 'user',
    tags: ['pipeline'],
    summary:
      'Pipeline entries (owner, stage, since) of the given businesses (businessIds, comma-separated), or of every business someone is working',
    query: pipelineQuery,
    answers: { 200: pipelineListSchema },
  }),
  'PUT /api/pipeline/:businessId': endpoint({
    access: 'user',
    tags: ['pipeline'],
    summary:
      "Set a business's stage: claims an unclaimed business, moves your own, New releases it; 409 when another rep works it; replayable with an Idempotency-Key",
    params: pipelineParams,
    body: pipelineStageBody,
    answers: { 200: pipelineAnswerSchema },
    errors: [409, 422],
  }),
  'GET /api/pipeline/:businessId/history': endpoint({
    access: 'user',
    tags: ['pipeline'],
    summary: "A business's pipeline history (stage and owner changes), newest first",
    params: pipelineParams,
    answers: { 200: pipelineHistorySchema },
  }),
  'POST /api/admin/pipeline/:businessId/reassign': endpoint({
    access: 'admin',
    tags: ['pipeline'],
    summary: 'Hand a business to another rep, keeping its stage (admins)',
    params: pipelineParams,
    body: pipelineReassignBody,
    answers: { 200: pipelineAnswerSchema },
    errors: [409],
  }),
  'POST /api/admin/pipeline/:businessId/release': endpoint({
    access: 'admin',
    tags: ['pipeline'],
    summary: 'Release a business: nobody works it, stage New (admins)',
    params: pipelineParams,
    answers: { 200: pipelineAnswerSchema },
    errors: [404, 409],
  }),
};
