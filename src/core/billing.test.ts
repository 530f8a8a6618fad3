import { describe, expect, it } from 'vitest';
import {
  addMonths,
  billingLine,
  billingStatuses,
  lapsedFirst,
  parseAmount,
  parseBillingCsv,
  parseMonth,
  type BillingMonthRow,
} from './billing';

describe('parseMonth', () => {
  it('reads the ways billing exports write a month', () => {
    for (const s of ['2026-03', '2026/03', '2026-3', '03/2026', '3/2026', 'Mar 2026', 'March 2026', 'mar-26',
      "Mar '26", '2026 Mar', 'Sept 2026'.replace('Sept', 'Mar'), '2026-03-01', '03/15/2026', ' MAR 2026 '])
      expect(parseMonth(s), s).toBe('2026-03');
    expect(parseMonth('Sept 2026')).toBe('2026-09');
  }); // prettier-ignore

  it('refuses what is not a month', () => {
    for (const s of ['', '2026', '13/2026', '2026-13', 'Marx 2026', 'soon', '2026-00', '1/1'])
      expect(parseMonth(s), s).toBeNull();
  });
});

describe('parseAmount', () => {
  it('reads money as cents, parentheses and minus as credits', () => {
    expect(parseAmount('$12,500.00')).toBe(1_250_000);
    expect(parseAmount('12500')).toBe(1_250_000);
    expect(parseAmount('(1,200)')).toBe(-120_000);
    expect(parseAmount('($1,200.50)')).toBe(-120_050);
    expect(parseAmount('-1200')).toBe(-120_000);
    expect(parseAmount('$-75.5')).toBe(-7550);
    expect(parseAmount('USD 1,200')).toBe(120_000);
    expect(parseAmount('0')).toBe(0);
  });

  it('refuses what is not an amount', () => {
    for (const s of ['', 'n/a', '12,50', '1.234', '$', '12 500 000 000', '1e5'])
      expect(parseAmount(s), s).toBeNull();
  });
});

describe('parseBillingCsv', () => {
  it('recognises the columns by their common spellings', () => {
    const r = parseBillingCsv(
      'Client,Telephone,Street,URL,Broadcast Month,Gross\n"Gumps, Inc",(415) 555-0100,250 Post St,gumps.com,Mar 2026,"$1,000"\n',
    );
    expect(r).toEqual({
      lines: [
        {
          line: 2,
          name: 'Gumps, Inc',
          phone: '(415) 555-0100',
          address: '250 Post St',
          website: 'gumps.com',
          city: '',
          zip: '',
          month: '2026-03',
          amountCents: 100_000,
        },
      ],
    });
  });

  it('names the missing column, the empty file and the bad line', () => {
    expect(parseBillingCsv('')).toEqual({ error: 'The file is empty.' });
    expect(parseBillingCsv('Advertiser,Month,Amount\n')).toEqual({ error: 'The file has a header but no billing lines.' });
    expect((parseBillingCsv('Name,Amount\nA,1') as { error: string }).error).toMatch(/no month column/);
    expect((parseBillingCsv('Month,Amount\n2026-01,1') as { error: string }).error).toMatch(/no advertiser name column/);
    expect((parseBillingCsv('Advertiser,Period\nA,2026-01') as { error: string }).error).toMatch(/no amount column/);
    expect(parseBillingCsv('Advertiser,Month,Net\nA,2026-01,5\nB,Smarch 2026,5\n')).toEqual({
      error: 'Line 3: "Smarch 2026" is not a month (write it as 2026-03, 03/2026 or Mar 2026).',
    });
    expect(parseBillingCsv('Advertiser,Month,Net\n\nA,2026-01,lots\n')).toEqual({
      error: 'Line 3: "lots" is not an amount (write it as 12500 or $12,500.00).',
    });
    expect(parseBillingCsv('Advertiser,Month,Net\n,2026-01,5\n')).toEqual({ error: 'Line 2: the advertiser name is empty.' });
  }); // prettier-ignore
});

describe('billingStatuses', () => {
  const now = '2026-11';
  const row = (businessId: string, monthsAgo: number, dollars: number): BillingMonthRow => ({
    businessId,
    month: addMonths(now, -monthsAgo),
    amountCents: dollars * 100,
  });

  it('billed in the window is current; in the year before it and not since, lapsed; earlier, nothing', () => {
    const s = billingStatuses(
      [row('cur', 1, 500), row('cur', 9, 500), row('lap', 8, 5000), row('lap', 9, 7500), row('old', 16, 900),
        row('edge', 3, 100), row('now', 0, 100)],
      now,
      3,
    ); // prettier-ignore
    expect(s.get('cur')?.status).toBe('current');
    expect(s.get('now')?.status).toBe('current');
    expect(s.get('lap')).toEqual({
      businessId: 'lap',
      status: 'lapsed',
      lastMonth: '2026-03',
      lastYearCents: 1_250_000,
      recentCents: 0,
      yearBeforeCents: 0,
    });
    expect(s.get('edge')?.status).toBe('lapsed'); // 3 months ago is before a 3-month window ending now
    expect(s.has('old')).toBe(false);
    expect(billingStatuses([row('edge', 3, 100)], now, 4).get('edge')?.status).toBe('current');
  });

  it('declining: the last 3 months at most half of the same months a year before', () => {
    const s = billingStatuses(
      [row('down', 0, 100), row('down', 1, 100), row('down', 12, 300), row('down', 13, 300),
        row('flat', 1, 400), row('flat', 13, 600), row('new', 1, 10)],
      now,
      3,
    ); // prettier-ignore
    expect(s.get('down')?.status).toBe('declining');
    expect(s.get('flat')?.status).toBe('current');
    expect(s.get('new')?.status).toBe('current');
  });

  it('a month whose credits cancel its billing is not billed', () => {
    const s = billingStatuses([row('c', 1, 500), row('c', 1, -500), row('c', 6, 200)], now, 3);
    expect(s.get('c')?.status).toBe('lapsed');
    expect(s.get('c')?.lastMonth).toBe('2026-05');
  });
});

describe('lapsedFirst', () => {
  const e = (id: string, score: number, lapsed = false) => ({ id, score, lapsed });
  it('moves lapsed advertisers first within their 10-point band only', () => {
    const sorted = [
      e('a', 0.95),
      e('b', 0.91),
      e('c', 0.9, true),
      e('d', 0.89),
      e('f', 0.85, true),
      e('g', 0.5),
    ];
    expect(lapsedFirst(sorted, (x) => x.lapsed).map((x) => x.id)).toEqual(['c', 'a', 'b', 'f', 'd', 'g']);
  });
  it('keeps the order when none is lapsed', () => {
    const sorted = [e('a', 1), e('b', 0.7), e('c', 0.69), e('d', 0.1)];
    expect(lapsedFirst(sorted, () => false)).toEqual(sorted);
  });
});

describe('billingLine', () => {
  it('says lapsed or declining, the month by name and the amount when shown', () => {
    expect(billingLine({ status: 'lapsed', lastMonth: '2026-03', lastYearTotal: 12500 })).toBe(
      'Lapsed advertiser: last ran March, $12,500 last year',
    );
    expect(billingLine({ status: 'declining', lastMonth: '2026-10' })).toBe(
      'Declining advertiser: last ran October',
    );
    expect(billingLine({ status: 'current', lastMonth: '2026-10' })).toBeNull();
  });
});
