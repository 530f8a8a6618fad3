// Activity per day: the period's calls, visits, saves, strategy requests and follow-ups set, day by day.
import type { DayActivity } from '../../../../core/api/dashboard';
import type { CsvColumn } from '../../../../core/csv';
import { ErrorAlert, Loading, messageOf } from '../../common';
import { teamApi, useTeamQuery, type Scope } from '../api';
import { ACTIVITY_SERIES, DayColumns } from '../charts';
import { csvFileName, downloadCsv } from '../csv';
import { activityOf, plural, shortDate } from '../figures';
import { DataTable, Section, type Column } from '../Section';

const dayColumns: Column<DayActivity>[] = [
  { header: 'Day', cell: (d) => shortDate(d.date) },
  { header: 'Calls', cell: (d) => d.calls, numeric: true },
  { header: 'Visits', cell: (d) => d.visits, numeric: true },
  { header: 'Saves', cell: (d) => d.saves, numeric: true },
  { header: 'Strategies', cell: (d) => d.strategies, numeric: true },
  { header: 'Follow-ups', cell: (d) => d.followUps, numeric: true },
];
const dayCsv: CsvColumn<DayActivity>[] = [
  ['Date', (d) => d.date],
  ['Calls', (d) => d.calls],
  ['Visits', (d) => d.visits],
  ['Saves', (d) => d.saves],
  ['Strategies', (d) => d.strategies],
  ['Follow-ups', (d) => d.followUps],
];

export function DailySection({ choice, userId }: Scope) {
  const daily = useTeamQuery('daily', choice, userId, () => teamApi.daily(choice, userId));
  if (daily.isPending) return <Loading label="Loading activity per day..." />;
  if (daily.isError) return <ErrorAlert message={messageOf(daily.error)} />;
  const { days, period } = daily.data;
  const busiest = days.reduce((a, b) => (activityOf(b) > activityOf(a) ? b : a), days[0]!);
  const total = days.reduce((n, d) => n + activityOf(d), 0);
  const summary =
    total === 0
      ? 'No activity on any day of the period.'
      : `${plural(total, 'entry', 'entries')} over ${plural(days.length, 'day')}; the busiest was ${shortDate(busiest.date)} with ${activityOf(busiest)}.`;
  return (
    <Section
      id="daily"
      title="Activity per day"
      summary={summary}
      chart={
        <DayColumns data={days.map((d) => ({ ...d, label: shortDate(d.date) }))} series={ACTIVITY_SERIES} />
      }
      table={<DataTable label="Activity per day" columns={dayColumns} rows={days} rowKey={(d) => d.date} />}
      onCsv={() => downloadCsv(csvFileName('per_day', period.from, period.to), dayCsv, days)}
    />
  );
}
