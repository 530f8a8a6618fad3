// The pipeline funnel New → Contacted → Meeting set → Proposal → Won (GET /api/team/funnel).
import type { FunnelStageRow } from '../../../../core/api/dashboard';
import type { CsvColumn } from '../../../../core/csv';
import { ErrorAlert, Loading, messageOf } from '../../common';
import { teamApi, useTeamQuery, type Scope } from '../api';
import { RowBars, SERIES } from '../charts';
import { csvFileName, downloadCsv } from '../csv';
import { pct, plural } from '../figures';
import { DataTable, Section, type Column } from '../Section';

const funnelColumns: Column<FunnelStageRow>[] = [
  { header: 'Stage', cell: (r) => r.stage },
  { header: 'Businesses', cell: (r) => r.reached, numeric: true },
  { header: 'On to the next stage', cell: (r) => pct(r.conversion), numeric: true },
];
const funnelCsv: CsvColumn<FunnelStageRow>[] = [
  ['Stage', (r) => r.stage],
  ['Businesses', (r) => r.reached],
  ['Conversion to the next stage', (r) => r.conversion],
];

/** Each stage's share that went on to the next, then how many were won of those that entered. */
function summaryOf(stages: readonly FunnelStageRow[]): string {
  const first = stages[0]!;
  const won = stages[stages.length - 1]!;
  if (first.reached === 0) return 'No business moved in the pipeline in the period.';
  return (
    stages
      .slice(0, -1)
      .map((s, i) => `${s.stage} ${s.reached} → ${stages[i + 1]!.stage} ${pct(s.conversion)}`)
      .join(', ') +
    `; ${plural(won.reached, 'business', 'businesses')} won (${pct(
      Math.round((won.reached / first.reached) * 1000) / 1000,
    )} of ${first.reached}).`
  );
}

export function FunnelSection({ choice, userId }: Scope) {
  const funnel = useTeamQuery('funnel', choice, userId, () => teamApi.funnel(choice, userId));
  if (funnel.isPending) return <Loading label="Loading the funnel..." />;
  if (funnel.isError) return <ErrorAlert message={messageOf(funnel.error)} />;
  const { stages, period } = funnel.data;
  return (
    <Section
      id="funnel"
      title="Pipeline funnel"
      summary={summaryOf(stages)}
      note="Businesses moved in the pipeline in the period, each counted at every stage up to the furthest it reached (Lost counts as New)."
      chart={
        <RowBars
          data={stages.map((s) => ({ stage: s.stage, reached: s.reached }))}
          labelKey="stage"
          series={[{ key: 'reached', label: 'Businesses', color: SERIES.calls.color }]}
        />
      }
      table={
        <DataTable
          label="Pipeline funnel"
          columns={funnelColumns}
          rows={stages}
          rowKey={(r) => r.stage}
          minWidth={300}
          testId="team-funnel-table"
        />
      }
      onCsv={() => downloadCsv(csvFileName('funnel', period.from, period.to), funnelCsv, stages)}
    />
  );
}
