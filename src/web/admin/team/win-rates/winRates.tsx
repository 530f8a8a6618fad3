// What the two win-rate sections share: the table's columns, the CSV's, and the bars.
import type { WinRateRow } from '../../../../core/api/dashboard';
import type { CsvColumn } from '../../../../core/csv';
import { RowBars, SERIES } from '../charts';
import { pct } from '../figures';
import type { Column } from '../Section';

/** The table's columns; `first` names the group (score band or category). */
export const winRateColumns = (first: string): Column<WinRateRow>[] => [
  { header: first, cell: (r) => r.key },
  { header: 'Businesses', cell: (r) => r.businesses, numeric: true },
  { header: 'Meetings', cell: (r) => r.meetings, numeric: true },
  { header: 'Won', cell: (r) => r.won, numeric: true },
  { header: 'Win rate', cell: (r) => pct(r.winRate), numeric: true },
];
export const winRateCsv = (first: string): CsvColumn<WinRateRow>[] => [
  [first, (r) => r.key],
  ['Businesses', (r) => r.businesses],
  ['Meetings', (r) => r.meetings],
  ['Won', (r) => r.won],
  ['Meeting rate', (r) => r.meetingRate],
  ['Win rate', (r) => r.winRate],
];

/** Meeting and win rates of win-rate rows (score bands or categories) as bars. */
export function WinRateBars({ rows }: { rows: readonly WinRateRow[] }) {
  return (
    <RowBars
      data={rows.map((r) => ({ key: r.key, meetingRate: r.meetingRate ?? 0, winRate: r.winRate ?? 0 }))}
      labelKey="key"
      series={[
        { key: 'meetingRate', label: 'Meeting set', color: SERIES.calls.color },
        { key: 'winRate', label: 'Won', color: SERIES.visits.color },
      ]}
      percent
    />
  );
}
