// Building blocks of the API contract (src/core/api): bounded text, the error answer, the empty answers; and the
// app's own settings (/api/config). Pure zod, no I/O: the server validates requests and serialises answers with
// these schemas, the browser takes its types from them (z.infer), and /api/openapi.json is generated from them.
import { z } from 'zod';
import { endpoint } from './endpoint';
import { PAGE_SIZE, PAGE_SIZE_MAX } from './limits';

const noNul = (v: string) => !v.includes('\u0000');

/** Text that PostgreSQL can store: bounded, and without NUL characters (which text columns refuse). */
export const text = (max: number) =>
  z.string().max(max).refine(noNul, { message: 'must not contain NUL characters' });

/** Trimmed, non-empty text. */
export const requiredText = (max: number) =>
  z.string().trim().min(1).max(max).refine(noNul, { message: 'must not contain NUL characters' });

/**
 * Control characters (C0 with tab, CR and LF, DEL, C1) and the Unicode line and paragraph separators: what
 * breaks a name out of its line in a calendar file, a CSV cell, an e-mail or a log line.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const LINE_BREAKERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const LINE_BREAKER_RUNS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/** A name as a file import reads it: each run of control characters or line breaks made one space, trimmed. */
export const cleanName = (value: string): string => value.replace(LINE_BREAKER_RUNS, ' ').trim();

/** Whether a text is one line: no control character or line break anywhere. */
export const isOneLine = (value: string): boolean => !LINE_BREAKERS.test(value);

const ONE_LINE = { message: 'must be one line, without line breaks or control characters' };

/** Text of one line (may be empty): a name carried along with something else, such as a business's. */
export const oneLineText = (max: number) => text(max).refine(isOneLine, ONE_LINE);

/**
 * A business's name a screen sends along with something else (a call log, a saved card): it comes from the data,
 * not from the rep's typing, so it is made one line (cleanName) rather than refused: a name stored with a line
 * break before names were cleaned must not stop a rep from logging a call.
 */
export const businessNameText = (max: number) => requiredText(max).overwrite(cleanName);

/** A name typed or sent through the API: trimmed, non-empty, one line (refused with a 400 naming the field). */
export const nameText = (max: number) => requiredText(max).refine(isOneLine, ONE_LINE);

export { PAGE_SIZE, PAGE_SIZE_MAX } from './limits';

/**
 * A page's cursor: the sort key of its last entry (a few strings), as opaque URL-safe text the next request
 * sends back as `cursor`. Not a secret: a caller who forges one only pages its own list from elsewhere.
 */
export function encodeCursor(key: readonly string[]): string {
  return btoa(encodeURIComponent(JSON.stringify(key)))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

/** The sort key a cursor holds, when it holds `size` strings; null for anything else. */
export function decodeCursor(cursor: string, size: number): string[] | null {
  try {
    const key: unknown = JSON.parse(
      decodeURIComponent(atob(cursor.replaceAll('-', '+').replaceAll('_', '/'))),
    );
    if (!Array.isArray(key) || key.length !== size) return null;
    return key.every((part) => typeof part === 'string' && part.length <= 300) ? (key as string[]) : null;
  } catch {
    return null;
  }
}

/** `limit` and `cursor` of a paged list whose sort key has `keySize` parts. */
export const pageQuery = (keySize: number) =>
  z.object({
    limit: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE),
    cursor: z
      .string()
      .max(2000)
      .refine((v) => decodeCursor(v, keySize) !== null, { message: 'is not a cursor of this list' })
      .optional(),
  });

/** ISO-8601 time as the server stores it (text). */
export const isoTime = z.string().max(40);

/** A provider's report in a scan: a provider that fails is reported and the others go on. */
export const sourceReportSchema = z.object({
  provider: z.string(),
  ok: z.boolean(),
  count: z.number().int(),
  error: z.string().optional(),
});
export type SourceReport = z.infer<typeof sourceReportSchema>;

/**
 * Every error answer: `{"error": "<message for the user>"}`, plus, where a route says so, when to come back
 * (`retryAfterMs`, with a 429) or what each provider did (`sources`, a quick search that found nothing).
 */
export const errorSchema = z
  .object({
    error: z.string(),
    retryAfterMs: z.number().optional(),
    sources: z.array(sourceReportSchema).optional(),
  })
  .describe('Error: {"error": message to show}');
export type ErrorAnswer = z.infer<typeof errorSchema>;

/** `{ok: true}`: the action was done. */
export const okSchema = z.object({ ok: z.literal(true) });

/** 204 No Content (no body). */
export const noContent = z.undefined().describe('No content');

/** A CSV attachment (its file name in Content-Disposition). */
export const csvFile = {
  description: 'CSV file (attachment)',
  content: { 'text/csv': { schema: z.string() } },
} as const;

/**
 * `tz` of an export: the browser's IANA time zone (Intl's resolvedOptions().timeZone), so the file's dates are
 * the rep's local time; a zone the server does not know is read as UTC.
 */
export const timeZoneParam = z.string().max(64).optional();

/** A Server-Sent Events stream. */
export const eventStream = {
  description: 'Server-Sent Events stream',
  content: { 'text/event-stream': { schema: z.string() } },
} as const;

/** Settings the web app needs before anyone signs in. */
export const appConfigSchema = z.object({
  passwordMinLength: z.number().int(),
  /**
   * The map's tiles and their credit, and the credit of the imported business data shown on it ('' before any
   * import; with Overture Maps' names once its places are imported).
   */
  map: z.object({ tileUrl: z.string(), tileAttribution: z.string(), dataAttribution: z.string() }),
  radiusMaxMiles: z.number(),
  /** Registration needs an invitation code once any account exists (the first one becomes SuperAdmin). */
  invitationRequired: z.boolean(),
});
export type AppConfig = z.infer<typeof appConfigSchema>;

export const appEndpoints = {
  'GET /api/config': endpoint({
    access: 'public',
    tags: ['app'],
    summary: 'Settings the web app needs',
    answers: { 200: appConfigSchema },
  }),
};
