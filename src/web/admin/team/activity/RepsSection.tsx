// Activity per rep: each rep's calls, visits, saves, strategy requests and follow-ups set in the period.
import { useMemo } from 'react';
import type { RepActivity, TeamActivity } from '../../../../core/api/dashboard';
import type { CsvColumn } from '../../../../core/csv';
import { ACTIVITY_SERIES, RowBars } from '../charts';
import { csvFileName, downloadCsv } from '../csv';
import { activityOf, plural, type ActivityCounts } from '../figures';
import { RepLink } from '../RepLink';
import { DataTable, Section, type Column } from '../Section';

/** Reps drawn in the chart (the busiest); the table lists every one. */
const CHART_REPS = 15;

const repColumns = (open: (id: string) => void): Column<RepActivity>[] => [
  { header: 'Rep', cell: (r) => <RepLink rep={r} open={open} testId="team-rep-link" /> },
  { header: 'Calls', cell: (r) => r.calls, numeric: true },
  { header: 'Visits', cell: (r) => r.visits, numeric: true },
  { header: 'Saves', cell: (r) => r.saves, numeric: true },
  { header: 'Strategies', cell: (r) => r.strategies, numeric: true },
  { header: 'Follow-ups', cell: (r) => r.followUps, numeric: true },
];
const repCsv: CsvColumn<RepActivity>[] = [
  ['Rep', (r) => r.name],
  ['Email', (r) => r.email],
  ['Role', (r) => r.role],
  ['Calls', (r) => r.calls],
  ['Visits', (r) => r.visits],
  ['Saves', (r) => r.saves],
  ['Strategies', (r) => r.strategies],
  ['Follow-ups', (r) => r.followUps],
];

/** The chart's bars: the busiest reps with any activity, most active first. */
function chartRows(reps: readonly RepActivity[]) {
  return (
    [...reps]
      .sort((a, b) => activityOf(b) - activityOf(a) || a.name.localeCompare(b.name))
      .slice(0, CHART_REPS)
      .filter((r) => activityOf(r) > 0)
      // Only the figures: Recharts passes a datum's fields on to its SVG elements (a 'role' would become ARIA).
      .map(({ name, calls, visits, saves, strategies, followUps }) => ({
        name,
        calls,
        visits,
        saves,
        strategies,
        followUps,
      }))
  );
}

/** The sentence over the chart: the period's totals and the most active rep (top, the chart's first bar). */
function summaryOf(reps: readonly RepActivity[], top: (ActivityCounts & { name: string }) | undefined) {
  if (!top) return 'No calls, visits, saves, strategy requests or follow-ups in the period.';
  const sum = (pick: (r: RepActivity) => number) => reps.reduce((n, r) => n + pick(r), 0);
  return (
    `${plural(
      sum((r) => r.calls),
      'call',
    )}, ${plural(
      sum((r) => r.visits),
      'visit',
    )}, ` +
    `${plural(
      sum((r) => r.saves),
      'save',
    )}, ${plural(
      sum((r) => r.strategies),
      'strategy request',
    )} and ` +
    `${plural(
      sum((r) => r.followUps),
      'follow-up',
    )} set; the most active was ${top.name} (${activityOf(top)}).`
  );
}

/** Every rep's activity, or only the chosen rep's (userId); a rep's name opens their page. */
export function RepsSection({
  activity,
  userId,
  open,
}: {
  activity: TeamActivity;
  userId: string | null;
  open: (userId: string) => void;
}) {
  const { period } = activity;
  const reps = useMemo(
    () => activity.reps.filter((r) => !userId || r.userId === userId),
    [activity.reps, userId],
  );
  const bars = useMemo(() => chartRows(reps), [reps]);
  return (
    <Section
      id="reps"
      title="Activity per rep"
      summary={summaryOf(reps, bars[0])}
      note={
        reps.length > CHART_REPS
          ? `The chart shows the ${CHART_REPS} most active; the table lists everyone.`
          : undefined
      }
      chart={
        bars.length ? <RowBars data={bars} labelKey="name" series={ACTIVITY_SERIES} stacked /> : undefined
      }
      table={
        <DataTable
          label="Activity per rep"
          columns={repColumns(open)}
          rows={reps}
          rowKey={(r) => r.userId}
          testId="team-reps-table"
        />
      }
      onCsv={() => downloadCsv(csvFileName('per_rep', period.from, period.to), repCsv, reps)}
    />
  );
}
