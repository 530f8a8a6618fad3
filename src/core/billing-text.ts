// The words of billing the screens show, apart from the file reading so the browser bundle stays small.

export const MONTH_FULL_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August',
  'September', 'October', 'November', 'December']; // prettier-ignore

/** 'March' of '2026-03'. */
export const monthName = (m: string): string => MONTH_FULL_NAMES[Number(m.slice(5, 7)) - 1] ?? m;

/** '$12,500' of 12500 (cents shown only when there are some). */
export function formatDollars(dollars: number): string {
  return dollars.toLocaleString('en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: Number.isInteger(dollars) ? 0 : 2,
    maximumFractionDigits: 2,
  });
}

/**
 * The card's line: "Lapsed advertiser: last ran March, $12,500 last year" (`lastYearTotal` in dollars, only
 * when the reader may see amounts); none for a current advertiser (its mark says so).
 */
export function billingLine(b: {
  status: 'current' | 'lapsed' | 'declining';
  lastMonth: string;
  lastYearTotal?: number | undefined;
}): string | null {
  if (b.status === 'current') return null;
  const label = b.status === 'lapsed' ? 'Lapsed advertiser' : 'Declining advertiser';
  const amount = b.lastYearTotal === undefined ? '' : `, ${formatDollars(b.lastYearTotal)} last year`;
  return `${label}: last ran ${monthName(b.lastMonth)}${amount}`;
}
