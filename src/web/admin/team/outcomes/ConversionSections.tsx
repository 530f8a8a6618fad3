// Which prospects turn calls into visits and saves: the period's work by score band and by category.
import type { ConversionRow, Period } from '../../../../core/api/dashboard';
import type { CsvColumn } from '../../../../core/csv';
import { RowBars, SERIES } from '../charts';
import { csvFileName, downloadCsv } from '../csv';
import { highest, pct, plural } from '../figures';
import { DataTable, Section, type Column } from '../Section';

/** The table's columns; `first` names the group (score band or category). */
const conversionColumns = (first: string): Column<ConversionRow>[] => [
  { header: first, cell: (r) => r.key },
  { header: 'Calls', cell: (r) => r.called, numeric: true },
  { header: 'Visits', cell: (r) => r.visited, numeric: true },
  { header: 'Saves', cell: (r) => r.saved, numeric: true },
  { header: 'Visits + saves per call', cell: (r) => pct(r.perCall), numeric: true },
];
const conversionCsv = (first: string): CsvColumn<ConversionRow>[] => [
  [first, (r) => r.key],
  ['Calls', (r) => r.called],
  ['Visits', (r) => r.visited],
  ['Saves', (r) => r.saved],
  ['Visits and saves per call', (r) => r.perCall],
];

export function ScoreBandsSection({ bands, period }: { bands: ConversionRow[]; period: Period }) {
  const best = highest(
    bands.filter((b) => b.perCall !== null),
    (b) => b.perCall,
  );
  return (
    <Section
      id="bands"
      title="Visits and saves per call by score band"
      summary={
        best
          ? `Prospects scored ${best.key} turned into the most visits and saves per call (${pct(best.perCall)}).`
          : 'No calls in the period, so no band can be compared.'
      }
      chart={
        <RowBars
          data={bands.map((b) => ({ ...b, perCall: b.perCall ?? 0 }))}
          labelKey="key"
          series={[{ key: 'perCall', label: 'Visits + saves per call', color: SERIES.visits.color }]}
          percent
        />
      }
      table={
        <DataTable
          label="Score bands"
          columns={conversionColumns('Score band')}
          rows={bands}
          rowKey={(r) => r.key}
        />
      }
      onCsv={() =>
        downloadCsv(csvFileName('score_bands', period.from, period.to), conversionCsv('Score band'), bands)
      }
    />
  );
}

export function CategoriesSection({ categories, period }: { categories: ConversionRow[]; period: Period }) {
  const most = categories[0];
  return (
    <Section
      id="categories"
      title="Categories that turn into visits and saves"
      summary={
        most === undefined
          ? 'No category was worked in the period.'
          : `${most.key} was worked the most (${plural(most.called, 'call')}, ${plural(most.visited, 'visit')}, ${plural(most.saved, 'save')}).`
      }
      chart={
        <RowBars
          data={categories}
          labelKey="key"
          series={[
            { key: 'called', label: 'Calls', color: SERIES.calls.color },
            { key: 'visited', label: 'Visits', color: SERIES.visits.color },
            { key: 'saved', label: 'Saves', color: SERIES.saves.color },
          ]}
          stacked
        />
      }
      table={
        <DataTable
          label="Categories"
          columns={conversionColumns('Category')}
          rows={categories}
          rowKey={(r) => r.key}
        />
      }
      onCsv={() =>
        downloadCsv(csvFileName('categories', period.from, period.to), conversionCsv('Category'), categories)
      }
    />
  );
}
