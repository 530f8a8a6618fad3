// One rep's log for the period: every call, visit, save and strategy request, newest first.
import type { RepLogEntry, RepPage } from '../../../../core/api/dashboard';
import type { CsvColumn } from '../../../../core/csv';
import { formatDateTime } from '../../../format';
import { csvFileName, downloadCsv } from '../csv';
import { plural } from '../figures';
import { DataTable, Section, type Column } from '../Section';

const logColumns: Column<RepLogEntry>[] = [
  { header: 'When', cell: (e) => formatDateTime(e.at) },
  { header: 'What', cell: (e) => e.outcome },
  { header: 'Business', cell: (e) => e.name },
  { header: 'Category', cell: (e) => e.category },
  { header: 'Note', cell: (e) => e.note },
];
const logCsv: CsvColumn<RepLogEntry>[] = [
  ['When', (e) => e.at],
  ['What', (e) => e.outcome],
  ['Business', (e) => e.name],
  ['Category', (e) => e.category],
  ['Address', (e) => e.address],
  ['Phone', (e) => e.phone],
  ['Note', (e) => e.note],
];

export function LogSection({ page }: { page: RepPage }) {
  const { rep, entries, period, truncated } = page;
  return (
    <Section
      id="log"
      title="Log"
      summary={
        entries.length === 0
          ? 'Nothing logged, saved or asked for in the period.'
          : `${plural(entries.length, 'entry', 'entries')}, newest first${truncated ? ' (the newest 1,000)' : ''}.`
      }
      table={
        <DataTable
          label={`${rep.name}'s log`}
          columns={logColumns}
          rows={entries}
          rowKey={(e) => `${e.kind}:${e.at}:${e.prospectId}`}
          minWidth={640}
          testId="team-rep-log"
        />
      }
      onCsv={() => downloadCsv(csvFileName(`log_${rep.name}`, period.from, period.to), logCsv, entries)}
    />
  );
}
