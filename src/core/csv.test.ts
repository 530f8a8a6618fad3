import { describe, expect, it } from 'vitest';
import {
  BOM,
  csvRow,
  fileDate,
  fileNamePart,
  localDateTime,
  neutraliseCell,
  phoneCell,
  parseCsv,
  quoteField,
  recordsToCsv,
  toCsv,
} from './csv.js';
import { isTimeZone } from './time-zone.js';

describe('neutraliseCell (formula injection)', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+15551234567', "'+15551234567"],
    ['-2', "'-2"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tx', "'\tx"],
    ['\rx', "'\rx"],
    ['Joe = Plumber', 'Joe = Plumber'],
    ['', ''],
  ])('%j -> %j', (input, expected) => {
    expect(neutraliseCell(input)).toBe(expected);
  });

  it('writes numbers, booleans and empties as data', () => {
    expect(neutraliseCell(-3.5)).toBe('-3.5');
    expect(neutraliseCell(0.87)).toBe('0.87');
    expect(neutraliseCell(Number.NaN)).toBe('');
    expect(neutraliseCell(null)).toBe('');
    expect(neutraliseCell(undefined)).toBe('');
    expect(neutraliseCell(true)).toBe('true');
  });
});

describe('RFC 4180 quoting', () => {
  it('quotes only fields that need it and doubles inner quotes', () => {
    expect(quoteField('plain')).toBe('plain');
    expect(quoteField('a,b')).toBe('"a,b"');
    expect(quoteField('say "hi"')).toBe('"say ""hi"""');
    expect(quoteField('two\nlines')).toBe('"two\nlines"');
    expect(quoteField('cr\rhere')).toBe('"cr\rhere"');
  });

  it('neutralises and then quotes the HYPERLINK business name', () => {
    expect(csvRow(['=HYPERLINK("http://x","y")', 'Dental'])).toBe(`"'=HYPERLINK(""http://x"",""y"")",Dental`);
  });
});

describe('toCsv', () => {
  const names = [
    '=HYPERLINK("http://x","y")',
    'Smith, Jones & Co',
    'The "Best" Plumbers',
    'Line one\nLine two',
    'Café Zoë',
  ];
  const file = toCsv(
    ['Name', 'Score'],
    names.map((n, i) => [n, i]),
  );

  it('starts with the BOM, ends every line with CRLF', () => {
    expect(file.startsWith(BOM)).toBe(true);
    expect(file.startsWith(`${BOM}Name,Score\r\n`)).toBe(true);
    expect(file.endsWith('\r\n')).toBe(true);
    // Every line end outside quoted fields is CRLF: strip quoted fields, then no bare LF remains.
    const outsideQuotes = file.replace(/"(?:[^"]|"")*"/g, '');
    expect(outsideQuotes.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
  });

  it('writes exactly the expected bytes', () => {
    expect(file).toBe(
      BOM +
        'Name,Score\r\n' +
        `"'=HYPERLINK(""http://x"",""y"")",0\r\n` +
        '"Smith, Jones & Co",1\r\n' +
        '"The ""Best"" Plumbers",2\r\n' +
        '"Line one\nLine two",3\r\n' +
        'Café Zoë,4\r\n',
    );
  });

  it('round-trips through parseCsv (neutralised cells keep their quote prefix)', () => {
    const parsed = parseCsv(file);
    expect(parsed.problems).toEqual([]);
    expect(parsed.records).toEqual([
      ['Name', 'Score'],
      [`'=HYPERLINK("http://x","y")`, '0'],
      ['Smith, Jones & Co', '1'],
      ['The "Best" Plumbers', '2'],
      ['Line one\nLine two', '3'],
      ['Café Zoë', '4'],
    ]);
  });

  it('recordsToCsv picks columns from records', () => {
    const out = recordsToCsv(
      [
        ['Name', (r: { n: string; s: number }) => r.n],
        ['Score', (r) => r.s],
      ],
      [{ n: 'A', s: 1 }],
    );
    expect(out).toBe(`${BOM}Name,Score\r\nA,1\r\n`);
  });

  it('writes a header-only file for no records', () => {
    expect(toCsv(['A'], [])).toBe(`${BOM}A\r\n`);
  });
});

describe('parseCsv', () => {
  it('reads BOM, CRLF, LF and CR line ends, a missing final newline, and skips blank lines', () => {
    const parsed = parseCsv(`${BOM}a,b\r\n1,2\n\n3,4\r5,6`);
    expect(parsed.records).toEqual([
      ['a', 'b'],
      ['1', '2'],
      ['3', '4'],
      ['5', '6'],
    ]);
    expect(parsed.lines).toEqual([1, 2, 4, 5]);
  });

  it('reads quoted fields with commas, doubled quotes and line breaks, reporting the starting line', () => {
    const parsed = parseCsv('name,address\r\n"Acme, Inc","1 ""Main""\r\nSuite 2"\r\nNext,x\r\n');
    expect(parsed.records).toEqual([
      ['name', 'address'],
      ['Acme, Inc', '1 "Main"\r\nSuite 2'],
      ['Next', 'x'],
    ]);
    expect(parsed.lines).toEqual([1, 2, 4]);
  });

  it('keeps empty fields, including a trailing one', () => {
    expect(parseCsv('a,,c,\n').records).toEqual([['a', '', 'c', '']]);
    expect(parseCsv('"",x').records).toEqual([['', 'x']]);
  });

  it('reports an unterminated quote without throwing', () => {
    const parsed = parseCsv('a,b\n"open,2\n');
    expect(parsed.problems).toEqual([{ line: 2, message: 'Unterminated quoted field' }]);
    expect(parsed.records[0]).toEqual(['a', 'b']);
    expect(parsed.records).toHaveLength(2);
  });

  it('returns nothing for empty input', () => {
    expect(parseCsv('')).toEqual({ records: [], lines: [], problems: [] });
    expect(parseCsv(BOM)).toEqual({ records: [], lines: [], problems: [] });
  });
});

describe('file names', () => {
  it('formats the date part and cleans the user part', () => {
    expect(fileDate(new Date('2026-11-22T23:59:00Z'))).toBe('2026-11-22');
    expect(fileNamePart('Ann Smith')).toBe('Ann_Smith');
    expect(fileNamePart('José "x"/../y')).toBe('Jose_x_y');
    expect(fileNamePart('***')).toBe('user');
  });
});

describe("dates in the rep's time zone", () => {
  it('writes an instant on the clock of the given zone, as a spreadsheet reads a date and time', () => {
    const at = '2026-03-02T03:30:00.000Z';
    expect(localDateTime(at)).toBe('2026-03-02 03:30');
    expect(localDateTime(at, 'America/Chicago')).toBe('2026-03-01 21:30');
    expect(localDateTime(new Date(at), 'Asia/Kolkata')).toBe('2026-03-02 09:00');
    // Summer time: Chicago is UTC-5 in July.
    expect(localDateTime('2026-07-01T12:00:00Z', 'America/Chicago')).toBe('2026-07-01 07:00');
    expect(localDateTime('2026-07-01T00:00:00Z', 'America/Chicago')).toBe('2026-06-30 19:00');
    expect(localDateTime('not a date', 'America/Chicago')).toBe('not a date');
  });

  it('takes the file-name date in that zone too', () => {
    const lateEvening = new Date('2026-11-23T03:00:00Z');
    expect(fileDate(lateEvening)).toBe('2026-11-23');
    expect(fileDate(lateEvening, 'America/Los_Angeles')).toBe('2026-11-22');
  });

  it('knows IANA zones and refuses anything else', () => {
    expect(isTimeZone('America/Chicago')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(isTimeZone('x'.repeat(65))).toBe(false);
  });
});

describe('phone numbers in a spreadsheet', () => {
  it.each([
    ['+1 415-555-0101', '(415) 555-0101'],
    ['+1 (205) 555-0100', '(205) 555-0100'],
    ['+14155550101', '(415) 555-0101'],
    ['1-415-555-0101', '(415) 555-0101'],
    ['205-555-0101', '(205) 555-0101'],
    ['(205) 555-0100', '(205) 555-0100'],
    ['4155550101', '(415) 555-0101'],
    ['+44 20 7946 0958', '(+44) 20 7946 0958'],
    ['+61 2-1234-5678', '(+61) 2-1234-5678'],
    ['  +1 415 555 0101  ', '(415) 555-0101'],
  ])('%j is written %j', (input, expected) => {
    const cell = phoneCell(input);
    expect(cell).toBe(expected);
    // Written as it is: nothing a spreadsheet would read as a formula, so no guard in front of it.
    expect(neutraliseCell(cell)).toBe(expected);
  });

  it('leaves what it cannot read as a phone number to the formula guard', () => {
    expect(phoneCell('+442079460958')).toBe('+442079460958');
    expect(neutraliseCell(phoneCell('+442079460958'))).toBe("'+442079460958");
    expect(neutraliseCell(phoneCell('=HYPERLINK("http://x","call")'))).toBe(`'=HYPERLINK("http://x","call")`);
    expect(neutraliseCell(phoneCell('+1 800 FLOWERS'))).toBe("'+1 800 FLOWERS");
    expect(neutraliseCell(phoneCell('-555-0101'))).toBe("'-555-0101");
    expect(phoneCell('555-0101 ext. 4')).toBe('555-0101 ext. 4');
    expect(phoneCell(undefined)).toBeUndefined();
    expect(phoneCell(null)).toBeUndefined();
  });
});
