// Strategy repair: turn whatever a model answered into a valid Strategy, or say why it cannot.
//
// 1. extractJson: the JSON object inside the answer, tolerating code fences, prose before or after it, a BOM and
//    trailing commas.
// 2. normalizeStrategy: the usual shape drift of chat models (snake_case keys, a wrapping {"strategy": ...}
//    object, bullets in one string, objection handlers written as "X -> Y", percents as "30%"), then the rules of
//    a strategy: media-mix channels kept only if Linear TV, Streaming TV, CTV, Online Video, Display, Search
//    Engine Marketing or SEM (renamed Search Engine Marketing); talking points and objection handlers capped at 12.
//    A missing best time to call becomes DEFAULT_BEST_TIME_TO_CALL.
// 3. StrategySchema validates the result.
//
// Media-mix percents are whole numbers summing to 100 after the filter (largest-remainder rounding of the kept
// rows' shares): a rep reads the column as a budget split, and dropping a channel must not leave it at 80%.
import {
  DEFAULT_BEST_TIME_TO_CALL,
  MAX_OBJECTION_HANDLERS,
  MAX_TALKING_POINTS,
  MEDIA_CHANNELS,
  StrategySchema,
  type MediaChannel,
  type MediaMixRow,
  type ObjectionHandler,
  type Strategy,
} from './schema';

export type JsonExtraction = { ok: true; value: unknown } | { ok: false; error: string };

/** The first JSON object (or array) in a model answer. */
export function extractJson(answer: string): JsonExtraction {
  let text = answer.replace(/^\uFEFF/, '').trim();
  if (text === '') return { ok: false, error: 'empty answer' };
  const fenced = /```(?:json|JSON)?\s*\n?([\s\S]*?)```/.exec(text);
  if (fenced?.[1] && /[{[]/.test(fenced[1])) text = fenced[1].trim();

  const direct = tryParse(text);
  if (direct.ok) return direct;

  const start = text.search(/[{[]/);
  if (start < 0) return { ok: false, error: 'no JSON object in the answer' };
  const end = matchingClose(text, start);
  const candidate = end < 0 ? text.slice(start) : text.slice(start, end + 1);
  const parsed = tryParse(candidate);
  if (parsed.ok) return parsed;
  const withoutTrailingCommas = tryParse(stripTrailingCommas(candidate));
  if (withoutTrailingCommas.ok) return withoutTrailingCommas;
  if (end < 0) {
    const salvaged = closeTruncated(candidate);
    if (salvaged !== undefined) return { ok: true, value: salvaged };
  }
  return { ok: false, error: parsed.error };
}

/**
 * An answer cut off by the token limit: keep everything up to the last complete value and close the open
 * brackets. The early sections (the required ones) usually survive. Undefined when nothing parses.
 */
function closeTruncated(text: string): unknown {
  const cuts: { at: number; closers: string }[] = [];
  const stack: string[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{') stack.push('}');
    else if (c === '[') stack.push(']');
    else if (c === '}' || c === ']') {
      stack.pop();
      cuts.push({ at: i + 1, closers: [...stack].reverse().join('') });
    } else if (c === ',') cuts.push({ at: i, closers: [...stack].reverse().join('') });
  }
  for (let k = cuts.length - 1; k >= 0 && k >= cuts.length - 200; k--) {
    const cut = cuts[k];
    if (!cut) continue;
    const attempt = tryParse(text.slice(0, cut.at) + cut.closers);
    if (attempt.ok && isRecord(attempt.value)) return attempt.value;
  }
  return undefined;
}

function tryParse(text: string): JsonExtraction {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

/** Index of the bracket closing the one at `start`, skipping strings; -1 if it never closes. */
function matchingClose(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** Remove commas directly before a closing bracket, outside strings. */
function stripTrailingCommas(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? '';
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    if (c === ',') {
      const rest = text.slice(i + 1);
      if (/^\s*[}\]]/.test(rest)) continue;
    }
    out += c;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Normalisation

/** Key spellings models use, compared lower-cased without separators, to the Strategy key. */
const KEY_ALIASES: Readonly<Record<string, keyof Strategy>> = {
  openingline: 'openingLine',
  opener: 'openingLine',
  opening: 'openingLine',
  besttimetocall: 'bestTimeToCall',
  besttime: 'bestTimeToCall',
  calltime: 'bestTimeToCall',
  keytalkingpoints: 'keyTalkingPoints',
  talkingpoints: 'keyTalkingPoints',
  objectionhandlers: 'objectionHandlers',
  objectionhandling: 'objectionHandlers',
  objections: 'objectionHandlers',
  valueproposition: 'valueProposition',
  valueprop: 'valueProposition',
  calltoaction: 'callToAction',
  cta: 'callToAction',
  competitiveangles: 'competitiveAngles',
  competitiveangle: 'competitiveAngles',
  verticalinsights: 'verticalInsights',
  industryinsights: 'verticalInsights',
  discoveryquestions: 'discoveryQuestions',
  hooklines: 'hookLines',
  hooks: 'hookLines',
  mediamix: 'mediaMix',
  plan30day: 'plan30Day',
  plan30days: 'plan30Day',
  '30dayplan': 'plan30Day',
  thirtydayplan: 'plan30Day',
  introemail: 'introEmail',
  introductionemail: 'introEmail',
  followupemail: 'followUpEmail',
  voicemailscript: 'voicemailScript',
  voicemail: 'voicemailScript',
};

const STRING_KEYS = [
  'openingLine',
  'bestTimeToCall',
  'valueProposition',
  'callToAction',
  'introEmail',
  'followUpEmail',
  'voicemailScript',
] as const;
const LIST_KEYS = [
  'keyTalkingPoints',
  'competitiveAngles',
  'verticalInsights',
  'discoveryQuestions',
  'hookLines',
  'plan30Day',
] as const;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const squash = (key: string) => key.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Map a raw object's keys onto Strategy keys (unknown keys are dropped). */
function canonicalKeys(raw: Record<string, unknown>): Partial<Record<keyof Strategy, unknown>> {
  const out: Partial<Record<keyof Strategy, unknown>> = {};
  for (const [key, value] of Object.entries(raw)) {
    const canonical = KEY_ALIASES[squash(key)];
    if (canonical && out[canonical] === undefined) out[canonical] = value;
  }
  return out;
}

/** The object holding the strategy: the answer itself, or one wrapped as {"strategy": {...}} or [{...}]. */
function unwrap(value: unknown): Record<string, unknown> | undefined {
  if (Array.isArray(value)) return value.length === 1 ? unwrap(value[0]) : undefined;
  if (!isRecord(value)) return undefined;
  if (Object.keys(value).some((k) => KEY_ALIASES[squash(k)] === 'openingLine')) return value;
  const inner = Object.values(value).filter(isRecord);
  for (const candidate of inner) {
    const found = unwrap(candidate);
    if (found) return found;
  }
  return value;
}

function asText(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    const parts = value.map(asText).filter((s): s is string => !!s);
    return parts.length > 0 ? parts.join('\n') : undefined;
  }
  if (isRecord(value)) {
    // An e-mail as {subject, body}; anything else as its text values in order.
    const subject = asText(value['subject']);
    const body = asText(value['body'] ?? value['text'] ?? value['content']);
    if (subject && body) return `Subject: ${subject}\n\n${body}`;
    if (body) return body;
    const parts = Object.values(value)
      .map(asText)
      .filter((s): s is string => !!s);
    return parts.length > 0 ? parts.join('\n') : undefined;
  }
  return undefined;
}

const BULLET = /^\s*(?:[-*•·]|\d{1,2}[.)]|\(\d{1,2}\))\s+/;

function asList(value: unknown): string[] {
  let items: unknown[];
  if (Array.isArray(value)) items = value;
  else if (typeof value === 'string') items = value.split(/\r?\n/);
  else if (isRecord(value))
    items = Object.entries(value).map(([k, v]) => (typeof v === 'string' ? `${k}: ${v}` : v));
  else return [];
  const out: string[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    let text: string | undefined;
    if (isRecord(item)) {
      const title = asText(item['title'] ?? item['step'] ?? item['week'] ?? item['day'] ?? item['phase']);
      const detail = asText(
        item['text'] ??
          item['point'] ??
          item['description'] ??
          item['detail'] ??
          item['action'] ??
          item['item'],
      );
      text = title && detail ? `${title}: ${detail}` : (detail ?? title ?? asText(item));
    } else {
      text = asText(item);
    }
    if (text === undefined) continue;
    text = text.replace(BULLET, '').trim();
    if (text === '' || seen.has(text)) continue;
    seen.add(text);
    out.push(text);
  }
  return out;
}

const OBJECTION_KEYS = ['objection', 'concern', 'question', 'q', 'issue'];
const RESPONSE_KEYS = ['response', 'answer', 'rebuttal', 'reply', 'handler', 'a', 'handle', 'how_to_handle'];

function pick(record: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const [k, v] of Object.entries(record)) {
    if (keys.includes(k.toLowerCase())) {
      const text = asText(v);
      if (text) return text;
    }
  }
  return undefined;
}

/** "Objection: X Response: Y", "X -> Y", "X — Y", "X: Y" (a question followed by its answer). */
function splitHandler(text: string): ObjectionHandler | undefined {
  const clean = text.replace(BULLET, '').trim();
  const labelled =
    /^(?:objection\s*:\s*)?([\s\S]+?)\s*(?:\n|\s)(?:response|answer|rebuttal)\s*:\s*([\s\S]+)$/i.exec(clean);
  const arrow = /^([\s\S]+?)\s*(?:->|→|=>|\s—\s|\s–\s|\s-\s)\s*([\s\S]+)$/.exec(clean);
  const question = /^([^?]+\?["”]?)\s*:?\s*([\s\S]+)$/.exec(clean);
  const m = labelled ?? arrow ?? question;
  if (!m?.[1] || !m[2]) return undefined;
  const objection = m[1].replace(/^objection\s*:\s*/i, '').trim();
  const response = m[2].trim();
  return objection && response ? { objection, response } : undefined;
}

function asHandlers(value: unknown): ObjectionHandler[] {
  let items: unknown[];
  if (Array.isArray(value)) items = value;
  else if (typeof value === 'string')
    items = value.split(/\r?\n(?=\s*(?:[-*•·]|\d{1,2}[.)]|objection\s*:))/i);
  else if (isRecord(value)) {
    const single = pick(value, OBJECTION_KEYS);
    items = single
      ? [value]
      : Object.entries(value).map(([objection, response]) => ({ objection, response }));
  } else return [];
  const out: ObjectionHandler[] = [];
  for (const item of items) {
    let handler: ObjectionHandler | undefined;
    if (isRecord(item)) {
      const objection = pick(item, OBJECTION_KEYS);
      const response = pick(item, RESPONSE_KEYS);
      handler = objection && response ? { objection, response } : undefined;
    } else if (typeof item === 'string') {
      handler = splitHandler(item);
    }
    if (handler) out.push(handler);
  }
  return out;
}

/** The kept channel name (SEM becomes Search Engine Marketing), or null for a dropped channel. */
export function canonicalChannel(name: string): MediaChannel | null {
  const key = name.trim().replace(/\s+/g, ' ').toLowerCase();
  if (key === 'sem') return 'Search Engine Marketing';
  return MEDIA_CHANNELS.find((c) => c.toLowerCase() === key) ?? null;
}

function asPercent(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (typeof value === 'string') {
    const m = /-?\d+(?:\.\d+)?/.exec(value);
    if (!m) return undefined;
    const n = Number(m[0]);
    return n >= 0 ? n : undefined;
  }
  return undefined;
}

/**
 * Whole percents summing exactly to 100 by the largest-remainder method (ties go to the earlier row), in the
 * order given. All-zero weights split evenly.
 */
export function apportion(weights: readonly number[], total = 100): number[] {
  if (weights.length === 0) return [];
  const sum = weights.reduce((a, b) => a + b, 0);
  const shares = sum > 0 ? weights.map((w) => (w / sum) * total) : weights.map(() => total / weights.length);
  const floors = shares.map((s) => Math.floor(s));
  let left = total - floors.reduce((a, b) => a + b, 0);
  const order = shares
    .map((s, i) => ({ i, rem: s - Math.floor(s) }))
    .sort((a, b) => b.rem - a.rem || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    floors[i] = (floors[i] ?? 0) + 1;
    left--;
  }
  return floors;
}

/** Media-mix repair: unknown channels dropped, SEM renamed, duplicates merged, percents summing to 100. */
export function normalizeMediaMix(value: unknown): MediaMixRow[] {
  const items: unknown[] = Array.isArray(value)
    ? value
    : isRecord(value)
      ? Object.entries(value).map(([channel, v]) =>
          isRecord(v) ? { channel, ...v } : { channel, percent: v },
        )
      : [];
  const rows: { channel: MediaChannel; percent: number; why: string }[] = [];
  for (const item of items) {
    if (!isRecord(item)) continue;
    const name = asText(item['channel'] ?? item['name'] ?? item['medium'] ?? item['media']);
    const channel = name ? canonicalChannel(name) : null;
    const percent = asPercent(item['percent'] ?? item['percentage'] ?? item['share'] ?? item['allocation']);
    if (!channel || percent === undefined) continue;
    const why = asText(item['why'] ?? item['rationale'] ?? item['reason'] ?? item['reasoning']) ?? '';
    const existing = rows.find((r) => r.channel === channel);
    if (existing) {
      existing.percent += percent;
      if (why && !existing.why.includes(why)) existing.why = existing.why ? `${existing.why} ${why}` : why;
    } else {
      rows.push({ channel, percent, why });
    }
  }
  const percents = apportion(rows.map((r) => r.percent));
  return rows.map((r, i) => ({ channel: r.channel, percent: percents[i] ?? 0, why: r.why }));
}

/** Shape drift fixed and the rules applied; the result still needs validating with StrategySchema. */
export function normalizeStrategy(value: unknown): Record<string, unknown> {
  const root = unwrap(value);
  if (!root) return {};
  const raw = canonicalKeys(root);
  const out: Record<string, unknown> = {};
  for (const key of STRING_KEYS) {
    const text = asText(raw[key]);
    if (text) out[key] = text;
  }
  if (!out['bestTimeToCall']) out['bestTimeToCall'] = DEFAULT_BEST_TIME_TO_CALL;
  for (const key of LIST_KEYS) {
    if (raw[key] === undefined) continue;
    const list = asList(raw[key]);
    if (list.length > 0) out[key] = list;
  }
  if (Array.isArray(out['keyTalkingPoints'])) {
    out['keyTalkingPoints'] = out['keyTalkingPoints'].slice(0, MAX_TALKING_POINTS);
  }
  if (raw.objectionHandlers !== undefined) {
    out['objectionHandlers'] = asHandlers(raw.objectionHandlers).slice(0, MAX_OBJECTION_HANDLERS);
  }
  if (raw.mediaMix !== undefined) {
    const mix = normalizeMediaMix(raw.mediaMix);
    if (mix.length > 0) out['mediaMix'] = mix;
  }
  return out;
}

export type StrategyRepair = { ok: true; strategy: Strategy } | { ok: false; error: string };

/** Normalise and validate a parsed answer. */
export function repairStrategy(value: unknown): StrategyRepair {
  const parsed = StrategySchema.safeParse(normalizeStrategy(value));
  if (parsed.success) return { ok: true, strategy: parsed.data };
  const error = parsed.error.issues
    .slice(0, 8)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');
  return { ok: false, error };
}

/** Extract, normalise and validate a model's text answer. */
export function parseStrategyAnswer(answer: string): StrategyRepair {
  const json = extractJson(answer);
  if (!json.ok) return { ok: false, error: `invalid JSON: ${json.error}` };
  return repairStrategy(json.value);
}
