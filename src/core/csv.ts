// CSV shaping for every file the product writes (docs/PRODUCT.md, "Exports"): RFC 4180 quoting, CRLF line
// ends, UTF-8 with a byte-order mark so spreadsheets pick the right encoding, and formula-injection
// neutralising. Also a tolerant RFC 4180 parser for imported customer lists. Pure: no I/O.

import { localDateOf, localMinute } from './time-zone';

/** UTF-8 byte-order mark, written first so spreadsheet programs read the file as UTF-8. */
export const BOM = '\uFEFF';
export const CRLF = '\r\n';

export type CsvValue = string | number | boolean | null | undefined;

/** First characters a spreadsheet may read as the start of a formula (or that hide one). */
const FORMULA_START = new Set(['=', '+', '-', '@', '\t', '\r']);

/**
 * One cell as text: null/undefined become empty; a text cell that begins with =, +, -, @, tab or carriage return
 * is prefixed with a single quote so no spreadsheet evaluates it. Numbers are written as they are (a negative
 * number is data, not a formula), non-finite numbers become empty.
 */
export function neutraliseCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return FORMULA_START.has(value.charAt(0)) ? `'${value}` : value;
}

/** RFC 4180: a field holding a comma, a double quote, CR or LF is enclosed in quotes, inner quotes doubled. */
export function quoteField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record: neutralised, quoted, comma-separated, without a line end. */
export function csvRow(values: readonly CsvValue[]): string {
  return values.map((v) => quoteField(neutraliseCell(v))).join(',');
}

/** A whole file: BOM, header row, one row per record, every line ended by CRLF. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  let out = BOM + csvRow(header) + CRLF;
  for (const row of rows) out += csvRow(row) + CRLF;
  return out;
}

/** Columns picked from records: [header, value of a record] pairs. */
export type CsvColumn<T> = readonly [header: string, value: (record: T) => CsvValue];

export function recordsToCsv<T>(columns: readonly CsvColumn<T>[], records: readonly T[]): string {
  return toCsv(
    columns.map(([h]) => h),
    records.map((r) => columns.map(([, value]) => value(r))),
  );
}

/** 'YYYY-MM-DD' of a date in a time zone (default UTC), the {date} part of export file names. */
export function fileDate(date: Date = new Date(), timeZone = 'UTC'): string {
  return localDateOf(date.getTime(), timeZone);
}

/**
 * An instant as 'YYYY-MM-DD HH:MM' on the clock of a time zone (default UTC): the rep's own local time in
 * their exports, in a form Excel, Google Sheets, LibreOffice and Numbers all read as a date and time. Text
 * that is not a date is returned as it is.
 */
export function localDateTime(value: string | Date, timeZone = 'UTC'): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return localMinute(date.getTime(), timeZone);
}

/**
 * A phone number as a spreadsheet shows it naturally, still never read as a formula.
 *
 * A leading '+' makes Excel and Google Sheets evaluate the cell ('+1 415-555-0101' becomes an error or a
 * sum), so the generic guard of {@link neutraliseCell} prefixes it with an apostrophe, which those programs
 * then show as part of the number. Instead, a number made only of phone characters is rewritten so that it
 * starts with a digit or a parenthesis, which no spreadsheet reads as a formula or as a plain number:
 * - North American numbers (+1 / 1 / ten digits: every business this product ranks) in the national form reps
 *   dial, '(415) 555-0101';
 * - other international numbers written with a space after the country code keep every digit, the code in
 *   parentheses: '+44 20 7946 0958' becomes '(+44) 20 7946 0958'.
 * Anything else (letters, an extension, a bare '+4420…' with no way to tell the country code) is left as it
 * is, and the generic guard still applies to it when it is written.
 */
export function phoneCell(phone: string | null | undefined): string | undefined {
  if (phone === null || phone === undefined) return undefined;
  const text = phone.trim();
  if (!/^\+?[\d\s().-]+$/.test(text)) return text;
  const digits = text.replace(/\D/g, '');
  const nanp = /^1?([2-9]\d{2})([2-9]\d{2})(\d{4})$/.exec(digits);
  if (nanp && (!text.startsWith('+') || text.startsWith('+1'))) return `(${nanp[1]}) ${nanp[2]}-${nanp[3]}`;
  const international = /^\+(\d{1,3})[\s.-]+(\d[\d\s().-]*)$/.exec(text);
  if (international) return `(+${international[1]}) ${international[2]}`;
  return text;
}

/** A safe file-name part: letters, digits, dash and underscore only (runs of others become '_'), at most 60. */
export function fileNamePart(text: string): string {
  const cleaned = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 60);
  return cleaned || 'user';
}

export interface ParsedCsv {
  /** Every record as its fields; a record's line is `lines[i]` (1-based, the line the record starts on). */
  records: string[][];
  lines: number[];
  /** Problems that did not stop parsing (an unterminated quote at the end of input). */
  problems: { line: number; message: string }[];
}

/**
 * RFC 4180 parser that also accepts what spreadsheets really write: a leading BOM, CRLF, LF or lone CR line
 * ends, quoted fields with doubled quotes and embedded line breaks, and a missing final line end. Blank lines
 * are skipped. Never throws; an unterminated quoted field is reported in `problems` and kept as read.
 */
export function parseCsv(input: string): ParsedCsv {
  const text = input.startsWith(BOM) ? input.slice(1) : input;
  const records: string[][] = [];
  const lines: number[] = [];
  const problems: ParsedCsv['problems'] = [];
  let field = '';
  let record: string[] = [];
  let line = 1;
  let recordLine = 1;
  let inQuotes = false;
  let quotedStartLine = 1;
  let fieldStarted = false;

  const endRecord = () => {
    record.push(field);
    const blank = record.length === 1 && record[0] === '' && !fieldStarted;
    if (!blank) {
      records.push(record);
      lines.push(recordLine);
    }
    record = [];
    field = '';
    fieldStarted = false;
  };

  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inQuotes) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          inQuotes = false;
        }
      } else {
        if (c === '\n' || (c === '\r' && text[i + 1] !== '\n')) line++;
        field += c;
      }
      continue;
    }
    if (c === '"' && field === '') {
      inQuotes = true;
      fieldStarted = true;
      quotedStartLine = line;
    } else if (c === ',') {
      record.push(field);
      field = '';
      fieldStarted = true;
    } else if (c === '\r' || c === '\n') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
      recordLine = line;
    } else {
      field += c;
      fieldStarted = true;
    }
  }
  if (inQuotes) problems.push({ line: quotedStartLine, message: 'Unterminated quoted field' });
  if (field !== '' || record.length > 0 || fieldStarted) endRecord();
  return { records, lines, problems };
}
