// Territories: per territory its reps, its businesses, how many of its best 50 were called or visited in the
// period, and its meetings and wins (GET /api/team/territories). A rep's name opens their page.
import { Fragment } from 'react';
import type { Period } from '../../../../core/api/dashboard';
import type { TerritoryWork } from '../../../../core/api/territories';
import type { CsvColumn } from '../../../../core/csv';
import { ErrorAlert, Loading, messageOf } from '../../common';
import { teamApi, useTeamQuery, type PeriodChoice } from '../api';
import { csvFileName, downloadCsv } from '../csv';
import { plural } from '../figures';
import { RepLink } from '../RepLink';
import { DataTable, Section, type Column } from '../Section';

type Row = TerritoryWork['territories'][number];

const count = (n: number) => n.toLocaleString('en-US');

const columns = (open: (id: string) => void): Column<Row>[] => [
  { header: 'Territory', cell: (t) => t.name },
  {
    header: 'Reps',
    cell: (t) =>
      t.reps.length === 0
        ? 'None'
        : t.reps.map((r, i) => (
            <Fragment key={r.id}>
              {i > 0 && ', '}
              <RepLink rep={{ userId: r.id, name: r.name }} open={open} />
            </Fragment>
          )),
  },
  { header: 'Businesses', cell: (t) => count(t.businesses), numeric: true },
  { header: 'Best 50 contacted', cell: (t) => `${t.bestContacted} of ${t.bestCount}`, numeric: true },
  { header: 'Meetings', cell: (t) => t.meetings, numeric: true },
  { header: 'Wins', cell: (t) => t.wins, numeric: true },
];
const csvColumns: CsvColumn<Row>[] = [
  ['Territory', (t) => t.name],
  ['Reps', (t) => t.reps.map((r) => r.name).join('; ')],
  ['Businesses', (t) => t.businesses],
  ['Best contacted', (t) => t.bestContacted],
  ['Best counted', (t) => t.bestCount],
  ['Meetings', (t) => t.meetings],
  ['Wins', (t) => t.wins],
];

function summaryOf(rows: readonly Row[]): string {
  if (rows.length === 0)
    return 'No territories yet: an admin makes them in the Admin Panel, under Territories.';
  const sum = (pick: (t: Row) => number) => rows.reduce((n, t) => n + pick(t), 0);
  const best = sum((t) => t.bestCount);
  return (
    `${plural(rows.length, 'territory', 'territories')}: ${sum((t) => t.bestContacted)} of their ${best} best ` +
    `businesses called or visited, ${plural(
      sum((t) => t.meetings),
      'meeting',
    )} and ${plural(
      sum((t) => t.wins),
      'win',
    )}.`
  );
}

export function TerritoriesSection({
  choice,
  userId,
  period,
  open,
}: {
  choice: PeriodChoice;
  userId: string | null;
  period: Period;
  open: (userId: string) => void;
}) {
  const work = useTeamQuery('territories', choice, userId, () => teamApi.territories(choice, userId));
  if (work.isPending) return <Loading label="Loading territories..." />;
  if (work.isError) return <ErrorAlert message={messageOf(work.error)} />;
  const rows = work.data.territories;
  return (
    <Section
      id="territories"
      title="Territories"
      summary={summaryOf(rows)}
      note="The best 50 are a territory's highest-ranked businesses; a smaller territory counts all it has."
      table={
        rows.length === 0 ? null : (
          <DataTable
            label="Territories"
            columns={columns(open)}
            rows={rows}
            rowKey={(t) => t.id}
            minWidth={620}
            testId="team-territories-table"
          />
        )
      }
      onCsv={
        rows.length === 0
          ? undefined
          : () => downloadCsv(csvFileName('territories', period.from, period.to), csvColumns, rows)
      }
    />
  );
}
