// Model-written analysis reasoning: the words that explain a business's score, rewritten by the configured AI
// endpoint from the business facts and the scoring model's breakdown. Only the words: the score, confidence
// and recommendations stay the scoring model's. The text is cached with the business's analysis and shown
// again in scans from other centres, so it must name no score and no distance; an answer that does is refused
// (the scoring model's text stays).
import { z } from 'zod';
import { extractJson } from '../../core/strategy/repair';
import { KEYWORD_LABELS, band, type KeywordGroup } from '../../core/scoring/index';
import { VERTICAL_LABELS, VERTICALS, type Vertical } from '../../core/verticals';
import type { AiClient, ChatMessage } from './client';

/** What the model is told about one business: facts and the breakdown, as words where they are numbers. */
export const reasoningSubjectSchema = z.object({
  name: z.string().max(300),
  category: z.string().max(100),
  types: z.array(z.string().max(60)).max(50),
  rating: z.number().min(0).max(5).optional(),
  reviews: z.number().int().min(0),
  hasWebsite: z.boolean(),
  hasPhone: z.boolean(),
  city: z.string().max(300).optional(),
  state: z.string().max(300).optional(),
  score: z.number().min(0).max(100),
  vertical: z.string().max(40),
  /** A rule that decided the score outright (national chain, gas station, ...), or null. */
  rule: z.string().max(40).nullable(),
  fit: z.number().min(0).max(1),
  presence: z.number().min(0).max(1),
  propensity: z.object({
    ctv: z.number().min(0).max(1),
    olv: z.number().min(0).max(1),
    display: z.number().min(0).max(1),
    sem: z.number().min(0).max(1),
  }),
  keywordMatches: z.array(z.string().max(40)).max(10),
  brand: z.string().max(200).nullable(),
  dealerGroup: z.boolean(),
  recommendations: z.array(z.string().max(200)).max(10),
  /** What the check of its own website found: each signal's label and the page it was seen on. */
  signals: z
    .array(z.object({ label: z.string().max(100), url: z.string().max(2000) }))
    .max(30)
    .default([]),
});
export type ReasoningSubject = z.input<typeof reasoningSubjectSchema>;

export const REASONING_SYSTEM_PROMPT = [
  'You explain to local advertising sales reps why a business is, or is not, a good prospect for local',
  'advertising (linear TV, streaming TV (CTV), online video, display and search engine marketing).',
  'Write one short paragraph of two to four sentences, under 80 words, plain and specific to this business:',
  'its kind of business and how well those channels suit it, its online presence (website, phone, rating and',
  'reviews), what its own website shows (ad tags and pixels mean it already buys advertising; call tracking,',
  'online booking and the like) and any signals in its name. Use only the facts given; invent nothing.',
  'Never state a numeric score, a percentage or a distance: the same text is shown to reps scanning from other',
  'places, and the score is shown beside it.',
  'Reply with one JSON object and nothing else: {"reasoning": "<the paragraph>"}.',
].join('\n');

const SCHEMA = {
  name: 'prospect_reasoning',
  schema: {
    type: 'object',
    properties: { reasoning: { type: 'string' } },
    required: ['reasoning'],
    additionalProperties: false,
  },
};

const level = (x: number) => (x >= 0.75 ? 'strong' : x >= 0.5 ? 'moderate' : 'weak');
const BAND_WORDS = {
  excellent: 'an excellent prospect',
  good: 'a good prospect',
  decent: 'a decent prospect',
  poor: 'a poor prospect',
} as const;

const RULE_WORDS: Record<string, string> = {
  nationalChain: 'a national chain (its advertising is bought nationally)',
  lowPropensity: 'a kind of place that does not buy local advertising',
  autoRepair: 'an independent auto repair shop (these rarely buy local TV or video)',
  chain: 'part of a chain (marketing decided at regional or head office)',
  gasStation: 'a gas station (these rarely buy local advertising)',
  government: 'a government office',
  nonProfit: 'a non-profit (small or no paid-media budget)',
  fallback: 'scored from its category alone',
};

const verticalLabel = (v: string) =>
  (VERTICALS as readonly string[]).includes(v) ? VERTICAL_LABELS[v as Vertical] : v.replace(/_/g, ' ');

/** The user message: the facts, the scoring model's judgement in words, no numbers beyond rating and reviews. */
export function buildReasoningPrompt(s: ReasoningSubject): string {
  const p = s.propensity;
  const presence: string[] = [
    s.hasWebsite ? 'has a website' : 'no website on record',
    s.hasPhone ? 'has a phone number' : 'no phone on record',
    typeof s.rating === 'number' && s.rating > 0
      ? `rated ${s.rating.toFixed(1)} stars from ${s.reviews} reviews`
      : s.reviews > 0
        ? `${s.reviews} reviews`
        : 'no reviews on record',
  ];
  const signals = s.keywordMatches.map((k) => KEYWORD_LABELS[k as KeywordGroup] ?? k);
  const facts = [
    `Business: ${s.name}`,
    `Category: ${s.category || 'unknown'}${s.types.length ? ` (place types: ${s.types.join(', ')})` : ''}`,
    s.city || s.state ? `Town: ${[s.city, s.state].filter(Boolean).join(', ')}` : undefined,
    `Scored as: ${verticalLabel(s.vertical)} business, ${BAND_WORDS[band(s.score)]}`,
    s.rule ? `Decided by a rule: ${RULE_WORDS[s.rule] ?? s.rule}` : undefined,
    `Channel fit of its kind of business: ${level(s.fit)} (CTV ${level(p.ctv)}, online video ${level(p.olv)}, display ${level(p.display)}, search ${level(p.sem)})`,
    `Online presence: ${level(s.presence / 0.8)}; ${presence.join(', ')}`,
    signals.length ? `Name signals: ${signals.join(', ')}` : undefined,
    s.brand ? `Brand: ${s.brand}` : undefined,
    s.dealerGroup ? 'Part of a named local franchised-dealer group' : undefined,
    s.recommendations.length ? `Recommended ad solutions: ${s.recommendations.join(', ')}` : undefined,
    s.signals?.length
      ? `Seen on its website: ${s.signals.map((x) => `${x.label} (on ${x.url})`).join('; ')}`
      : undefined,
  ].filter((f): f is string => f !== undefined);
  return ['Business facts:', ...facts.map((f) => `- ${f}`), '', 'Write the reasoning paragraph.'].join('\n');
}

/** A numeric score, percentage or distance: the text would be wrong in a scan from another centre. */
const FORBIDDEN = [
  /\d\s*\/\s*100\b/,
  /\d\s*(%|percent\b)/i,
  /\bscor\w*\s+(of\s+)?\d/i,
  /\d\s*(mi|miles?|km|kilomet(er|re)s?|meters?|metres?|blocks?|feet|ft)\b/i,
];

export const reasoningAnswerSchema = z.object({
  reasoning: z
    .string()
    .trim()
    .min(20, 'too short')
    .max(800, 'too long')
    .refine((t) => !FORBIDDEN.some((re) => re.test(t)), 'states a score, percentage or distance'),
});

export type ReasoningAnswer = { ok: true; reasoning: string } | { ok: false; error: string };

/** The model's answer as a reasoning paragraph, or why it cannot be used. */
export function parseReasoningAnswer(content: string): ReasoningAnswer {
  const json = extractJson(content);
  if (!json.ok) return { ok: false, error: json.error };
  const parsed = reasoningAnswerSchema.safeParse(json.value);
  if (!parsed.success) {
    return {
      ok: false,
      error: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
    };
  }
  return { ok: true, reasoning: parsed.data.reasoning.replace(/\s+/g, ' ') };
}

/**
 * Asks the model for one business's reasoning. Resolves with the text and the model that wrote it, or with
 * why the answer was refused; rejects when the endpoint fails (after the client's retries) or `signal` aborts.
 */
export async function writeReasoning(
  client: AiClient,
  subject: ReasoningSubject,
  options: { signal?: AbortSignal } = {},
): Promise<(ReasoningAnswer & { ok: true; model: string }) | (ReasoningAnswer & { ok: false })> {
  const messages: ChatMessage[] = [
    { role: 'system', content: REASONING_SYSTEM_PROMPT },
    { role: 'user', content: buildReasoningPrompt(subject) },
  ];
  const answer = await client.chat(messages, {
    schema: SCHEMA,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const parsed = parseReasoningAnswer(answer.content);
  return parsed.ok ? { ...parsed, model: answer.model } : parsed;
}
