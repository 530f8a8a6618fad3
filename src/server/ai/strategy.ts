// Appointment strategy generation (docs/PRODUCT.md, "Appointment strategy"):
//  - no AI endpoint configured: the built-in playbook (deterministic, complete);
//  - otherwise ask the model for JSON against the strategy schema, with the business facts and the requested
//    minimum counts of each list; validate with zod after repair;
//  - an answer that is not valid JSON or fails the schema: ask once more, sending the bad answer back with what
//    was wrong; still unusable: the generic fallback strategy (core/strategy/fallback.ts);
//  - the endpoint itself failing at any point (timeouts, 4xx, 5xx after the client's retries, on the first
//    request or on the repair request) or the job's deadline passing: the playbook. The generic fallback is
//    only for an endpoint that answered, twice, with nothing usable.
// Every result goes through the repair of core/strategy/repair.ts (known media-mix channels only, lists
// capped), the playbook and fallback included.
import { fallbackStrategy } from '../../core/strategy/fallback';
import type { StrategyInput } from '../../core/strategy/input';
import { signalFacts } from '../../core/strategy/website-signals';
import { playbookStrategy } from '../../core/strategy/playbook';
import { parseStrategyAnswer, repairStrategy } from '../../core/strategy/repair';
import {
  DEFAULT_BEST_TIME_TO_CALL,
  MAX_OBJECTION_HANDLERS,
  MAX_TALKING_POINTS,
  MEDIA_CHANNELS,
  REQUESTED_MINIMUMS,
  strategyJsonSchema,
  type Strategy,
} from '../../core/strategy/schema';
import { CHANNEL_PROPENSITY, classifyVertical } from '../../core/strategy/verticals';
import type { AiClient, ChatMessage } from './client';

export type StrategySource = 'ai' | 'playbook' | 'fallback';

export interface StrategyResult {
  strategy: Strategy;
  source: StrategySource;
  /** The model that wrote it (source 'ai'), or that was asked (source 'fallback'). */
  model?: string;
  /** Why the model's strategy was not used, when it was not. */
  error?: string;
}

export interface GenerateOptions {
  /** Aborting it (e.g. the worker stopping) rejects with its reason instead of answering. */
  signal?: AbortSignal;
  /**
   * The most the AI work may take in all, in ms (both requests, their retries and backoff). When it passes, or
   * is 0 or less to begin with, the playbook answers. Keeps a slow endpoint from outlasting the browser's wait.
   */
  deadlineMs?: number;
  /** Told about each failure on the way to the result (for the server log). */
  onError?: (stage: 'request' | 'answer' | 'repair', error: string) => void;
}

const STRATEGY_SCHEMA = { name: 'appointment_strategy', schema: strategyJsonSchema() };

export const SYSTEM_PROMPT = [
  'You are a senior local advertising sales strategist. You coach account executives who sell linear (cable) TV,',
  'streaming TV (CTV), online video, display and search engine marketing (SEM) to local businesses. Given one',
  'business, write the appointment strategy the rep uses to call it, win a meeting and propose a campaign.',
  'Be specific to this business and its vertical; use only the facts given and do not invent awards, years in',
  'business, prices or statistics. Write plainly, for a rep reading on a phone.',
  '',
  'Reply with one JSON object and nothing else, with exactly these keys:',
  'openingLine (string), bestTimeToCall (string), keyTalkingPoints (string[]),',
  'objectionHandlers ({"objection": string, "response": string}[]), valueProposition (string),',
  'callToAction (string, ask for a 15-minute meeting), competitiveAngles (string[]), verticalInsights (string[]),',
  'discoveryQuestions (string[]), hookLines (string[]), mediaMix ({"channel": string, "percent": number,',
  '"why": string}[]), plan30Day (string[]), introEmail (string), followUpEmail (string), voicemailScript (string).',
].join('\n');

function line(label: string, value: string | undefined): string | undefined {
  return value && value.trim() !== '' ? `${label}: ${value.trim()}` : undefined;
}

/** The user message: the business facts and what is asked for. */
export function buildStrategyPrompt(input: StrategyInput): string {
  const match = classifyVertical(input);
  const p = CHANNEL_PROPENSITY[match.vertical];
  const rating =
    typeof input.rating === 'number' && input.rating > 0
      ? `${input.rating.toFixed(1)} stars from ${Math.round(input.reviews ?? 0)} reviews`
      : 'not known';
  const place = [input.address, input.city, input.state].filter((s) => s && s.trim() !== '').join(', ');
  const breakdown = input.breakdown
    ? Object.entries(input.breakdown)
        .filter(([, v]) => typeof v === 'number' && Number.isFinite(v))
        .map(([k, v]) => `${k} ${v.toFixed(2)}`)
        .join(', ')
    : '';
  const facts = [
    line('Business', input.name),
    line('Category', input.category),
    line('Place types', input.types?.join(', ')),
    `Rating: ${rating}`,
    `Website: ${input.website?.trim() || 'none listed'}`,
    `Phone: ${input.phone?.trim() || 'none listed'}`,
    line('Address', place),
    typeof input.distanceMiles === 'number' && Number.isFinite(input.distanceMiles)
      ? `Distance from the rep: ${input.distanceMiles.toFixed(1)} miles`
      : undefined,
    typeof input.score === 'number' ? `Prospect score: ${Math.round(input.score)}/100` : undefined,
    line('Score breakdown (0-1)', breakdown),
    line('Why it scored so', input.reasoning),
    signalFacts(input.signals),
    `Vertical: ${match.vertical.replace(/_/g, ' ')}${match.trade ? ` (${match.trade})` : ''}; channel propensity CTV ${p.ctv}, online video ${p.olv}, display ${p.display}, SEM ${p.sem}`,
  ].filter((s): s is string => s !== undefined);

  const m = REQUESTED_MINIMUMS;
  const asks = [
    `At least ${m.keyTalkingPoints} key talking points (at most ${MAX_TALKING_POINTS}).`,
    `At least ${m.objectionHandlers} objection handlers (at most ${MAX_OBJECTION_HANDLERS}), each an objection this business is likely to raise and the rep's answer.`,
    `At least ${m.competitiveAngles} competitive angles, ${m.verticalInsights} vertical insights, ${m.discoveryQuestions} discovery questions and ${m.hookLines} hook lines.`,
    `At least ${m.mediaMix} media-mix rows; channel is one of ${MEDIA_CHANNELS.map((c) => `"${c}"`).join(', ')}; whole percents summing to 100, weighted by the channel propensity above.`,
    `At least ${m.plan30Day} items in the 30-day plan, in order.`,
    `bestTimeToCall: "${DEFAULT_BEST_TIME_TO_CALL}" unless this kind of business is better reached at another time.`,
    'introEmail and followUpEmail start with a "Subject:" line; voicemailScript is under 30 seconds spoken.',
    ...(input.signals?.length
      ? [
          'Build on what its website shows: advertising it already buys is the opening (for example "you already run search ads; streaming TV reaches the households who then search for you"); what the site lacks is a discovery question.',
        ]
      : []),
    'Keep each list item to one or two sentences and the e-mails under 120 words, so the whole answer stays short.',
  ];
  return ['Business facts:', ...facts.map((f) => `- ${f}`), '', 'Write:', ...asks.map((a) => `- ${a}`)].join(
    '\n',
  );
}

function repairRequest(error: string): string {
  return [
    `Your answer could not be used: ${error}.`,
    'Reply again with the corrected strategy as one JSON object only: no prose, no code fence, every key listed in',
    'the instructions, lists as JSON arrays, objectionHandlers as {"objection", "response"} objects.',
  ].join(' ');
}

function describe(e: unknown): string {
  if (e instanceof Error) return e.message || e.name;
  return String(e);
}

function finalize(strategy: Strategy): Strategy {
  const repaired = repairStrategy(strategy);
  if (!repaired.ok) throw new Error(`strategy failed validation: ${repaired.error}`);
  return repaired.strategy;
}

/**
 * The appointment strategy of one business. Never throws for a model or network failure; an aborted `signal`
 * rejects with the abort reason.
 */
export async function generateStrategy(
  input: StrategyInput,
  client?: AiClient | null,
  options: GenerateOptions = {},
): Promise<StrategyResult> {
  if (!client) return { strategy: finalize(playbookStrategy(input)), source: 'playbook' };

  const playbook = (stage: 'request' | 'repair', error: string): StrategyResult => {
    options.onError?.(stage, error);
    return { strategy: finalize(playbookStrategy(input)), source: 'playbook', model: client.model, error };
  };
  const { deadlineMs } = options;
  if (deadlineMs !== undefined && deadlineMs <= 0) {
    return playbook('request', 'AI deadline passed before the request');
  }
  const deadline = new AbortController();
  const timer =
    deadlineMs === undefined
      ? undefined
      : setTimeout(() => deadline.abort(new Error(`AI deadline of ${deadlineMs} ms passed`)), deadlineMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal;
  /** Why a request failed: the deadline when it was the deadline, else the error itself. */
  const failure = (e: unknown): string => {
    options.signal?.throwIfAborted();
    return deadline.signal.aborted ? describe(deadline.signal.reason) : describe(e);
  };

  const messages: ChatMessage[] = [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: buildStrategyPrompt(input) },
  ];
  const ask = (msgs: ChatMessage[]) => client.chat(msgs, { schema: STRATEGY_SCHEMA, signal });

  try {
    let first;
    try {
      first = await ask(messages);
    } catch (e) {
      return playbook('request', `AI request failed: ${failure(e)}`);
    }
    const parsed = parseStrategyAnswer(first.content);
    if (parsed.ok) return { strategy: parsed.strategy, source: 'ai', model: first.model };
    options.onError?.('answer', parsed.error);

    let second;
    try {
      second = await ask([
        ...messages,
        { role: 'assistant', content: first.content },
        { role: 'user', content: repairRequest(parsed.error) },
      ]);
    } catch (e) {
      return playbook('repair', `AI repair request failed: ${failure(e)}`);
    }
    const repaired = parseStrategyAnswer(second.content);
    if (repaired.ok) return { strategy: repaired.strategy, source: 'ai', model: second.model };
    options.onError?.('repair', repaired.error);
    return {
      strategy: finalize(fallbackStrategy({ name: input.name, category: input.category })),
      source: 'fallback',
      model: first.model,
      error: repaired.error,
    };
  } finally {
    clearTimeout(timer);
  }
}
