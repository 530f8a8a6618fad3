// The appointment strategy and its constants (docs/PRODUCT.md, "Appointment strategy").
//
// Two schemas: `StrategySchema` validates what we store and show (the six core sections required, the rest
// optional); `strategyJsonSchema()` is what we send to the model, with every section required so a
// structured-output endpoint fills them all.
import { z } from 'zod';

/** The media-mix channels a strategy keeps, in display order ('SEM' is renamed, see repair.ts). */
export const MEDIA_CHANNELS = [
  'Linear TV',
  'Streaming TV',
  'CTV',
  'Online Video',
  'Display',
  'Search Engine Marketing',
] as const;
export type MediaChannel = (typeof MEDIA_CHANNELS)[number];

/** The minimum counts requested from the model (and produced by the playbook generator). */
export const REQUESTED_MINIMUMS = {
  keyTalkingPoints: 8,
  objectionHandlers: 8,
  competitiveAngles: 6,
  verticalInsights: 6,
  discoveryQuestions: 8,
  hookLines: 6,
  mediaMix: 4,
  plan30Day: 8,
} as const;

/** Talking points and objection handlers are capped at 12. */
export const MAX_TALKING_POINTS = 12;
export const MAX_OBJECTION_HANDLERS = 12;

/** The best time to call when none is given. */
export const DEFAULT_BEST_TIME_TO_CALL = 'Tuesday-Thursday 9-11 AM or 2-4 PM';

const text = z.string().trim().min(1);

/** One objection a prospect is likely to raise and what the rep answers. */
export const ObjectionHandlerSchema = z.object({ objection: text, response: text });
export type ObjectionHandler = z.infer<typeof ObjectionHandlerSchema>;

/** One media-mix row: a channel, its share of the budget in whole percent, and why. */
export const MediaMixRowSchema = z.object({
  channel: z.enum(MEDIA_CHANNELS),
  percent: z.number().int().min(0).max(100),
  why: z.string().trim(),
});
export type MediaMixRow = z.infer<typeof MediaMixRowSchema>;

/** The appointment strategy as stored and shown. */
export const StrategySchema = z.object({
  openingLine: text,
  bestTimeToCall: text,
  keyTalkingPoints: z.array(text).min(1).max(MAX_TALKING_POINTS),
  objectionHandlers: z.array(ObjectionHandlerSchema).min(1).max(MAX_OBJECTION_HANDLERS),
  valueProposition: text,
  callToAction: text,
  competitiveAngles: z.array(text).optional(),
  verticalInsights: z.array(text).optional(),
  discoveryQuestions: z.array(text).optional(),
  hookLines: z.array(text).optional(),
  mediaMix: z.array(MediaMixRowSchema).optional(),
  plan30Day: z.array(text).optional(),
  introEmail: z.string().trim().optional(),
  followUpEmail: z.string().trim().optional(),
  voicemailScript: z.string().trim().optional(),
});
export type Strategy = z.infer<typeof StrategySchema>;

/** Every section, in the modal's order. */
export const STRATEGY_SECTIONS = [
  'openingLine',
  'bestTimeToCall',
  'keyTalkingPoints',
  'objectionHandlers',
  'valueProposition',
  'callToAction',
  'competitiveAngles',
  'verticalInsights',
  'discoveryQuestions',
  'hookLines',
  'mediaMix',
  'plan30Day',
  'introEmail',
  'followUpEmail',
  'voicemailScript',
] as const satisfies readonly (keyof Strategy)[];

/**
 * The shape asked of the model: every section required, no length bounds (the counts go in the prompt; strict
 * structured-output endpoints reject some bound keywords), channels limited to MEDIA_CHANNELS.
 */
const ModelStrategySchema = z.object({
  openingLine: z.string(),
  bestTimeToCall: z.string(),
  keyTalkingPoints: z.array(z.string()),
  objectionHandlers: z.array(z.object({ objection: z.string(), response: z.string() })),
  valueProposition: z.string(),
  callToAction: z.string(),
  competitiveAngles: z.array(z.string()),
  verticalInsights: z.array(z.string()),
  discoveryQuestions: z.array(z.string()),
  hookLines: z.array(z.string()),
  mediaMix: z.array(
    z.object({
      channel: z.enum(MEDIA_CHANNELS),
      percent: z.number(),
      why: z.string(),
    }),
  ),
  plan30Day: z.array(z.string()),
  introEmail: z.string(),
  followUpEmail: z.string(),
  voicemailScript: z.string(),
});

/** The JSON schema (draft 2020-12, without the `$schema` marker) sent as the response format. */
export function strategyJsonSchema(): Record<string, unknown> {
  const schema: Record<string, unknown> = { ...z.toJSONSchema(ModelStrategySchema) };
  delete schema['$schema'];
  return schema;
}

/**
 * Where the rep's name goes in a kept strategy. A strategy is written once and may be shared by every rep, so
 * it is generated with this slot and each reader's own name is put in when it is read (`personalise`).
 */
export const REP_NAME_SLOT = '[your name]';

/** The strategy as `repName` reads it: every REP_NAME_SLOT replaced by the name (left as is without one). */
export function personalise(strategy: Strategy, repName: string | undefined): Strategy {
  const name = repName?.trim();
  if (!name) return strategy;
  const fill = (value: unknown): unknown => {
    if (typeof value === 'string') return value.split(REP_NAME_SLOT).join(name);
    if (Array.isArray(value)) return value.map(fill);
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]));
    }
    return value;
  };
  return fill(strategy) as Strategy;
}
