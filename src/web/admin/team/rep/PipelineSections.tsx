// One rep's pipeline: the businesses they own now, by stage, and the period's stage changes that involved them
// (GET /api/team/reps/:id/pipeline).
import { Text } from '@mantine/core';
import type { OwnedBusiness, StageChange } from '../../../../core/api/dashboard';
import type { CsvColumn } from '../../../../core/csv';
import { formatDateTime } from '../../../format';
import { ErrorAlert, Loading, messageOf } from '../../common';
import { teamApi, useTeamQuery, type RepScope } from '../api';
import { RowBars, SERIES } from '../charts';
import { csvFileName, downloadCsv } from '../csv';
import { plural } from '../figures';
import { DataTable, Section, type Column } from '../Section';

const ownedColumns: Column<OwnedBusiness>[] = [
  { header: 'Business', cell: (o) => o.label },
  { header: 'Stage', cell: (o) => o.stage },
  { header: 'Since', cell: (o) => formatDateTime(o.since) },
];
const ownedCsv: CsvColumn<OwnedBusiness>[] = [
  ['Business', (o) => o.label],
  ['Business ID', (o) => o.businessId],
  ['Stage', (o) => o.stage],
  ['Since', (o) => o.since],
  ['Last activity', (o) => o.updatedAt],
];
// Three columns, so a phone's 375 px holds the table without scrolling sideways: who made the change goes under
// when it was made.
const changeColumns: Column<StageChange>[] = [
  {
    header: 'When, by',
    cell: (c) => (
      <>
        {formatDateTime(c.at)}
        <Text size="xs" c="dimmed">
          {c.by}
        </Text>
      </>
    ),
  },
  { header: 'Business', cell: (c) => c.label || c.businessId },
  { header: 'Stage', cell: (c) => `${c.fromStage ?? 'New'} → ${c.toStage}` },
];
const changeCsv: CsvColumn<StageChange>[] = [
  ['When', (c) => c.at],
  ['Business', (c) => c.label],
  ['Business ID', (c) => c.businessId],
  ['From stage', (c) => c.fromStage ?? ''],
  ['To stage', (c) => c.toStage],
  ['From owner', (c) => c.fromOwner ?? ''],
  ['To owner', (c) => c.toOwner ?? ''],
  ['By', (c) => c.by],
  ['Reason', (c) => c.reason],
];

export function PipelineSections({ userId, choice, name }: RepScope) {
  const pipeline = useTeamQuery('rep-pipeline', choice, userId, () => teamApi.repPipeline(userId, choice));
  if (pipeline.isPending) return <Loading label="Loading the rep's pipeline..." />;
  if (pipeline.isError) return <ErrorAlert message={messageOf(pipeline.error)} />;
  const { owned, ownedByStage, changes, period, truncated } = pipeline.data;
  const ownedTotal = ownedByStage.reduce((n, s) => n + s.count, 0);
  return (
    <>
      <Section
        id="rep-pipeline"
        title="Pipeline"
        summary={
          ownedTotal === 0
            ? `${name} owns no business in the pipeline now.`
            : `${name} owns ${plural(ownedTotal, 'business', 'businesses')} now: ` +
              ownedByStage.map((s) => `${s.stage} ${s.count}`).join(', ') +
              '.'
        }
        note={truncated ? 'Only the latest 500 are listed.' : undefined}
        chart={
          ownedByStage.length ? (
            <RowBars
              data={ownedByStage}
              labelKey="stage"
              series={[{ key: 'count', label: 'Businesses', color: SERIES.calls.color }]}
            />
          ) : undefined
        }
        table={
          owned.length === 0 ? null : (
            <DataTable
              label={`${name}'s businesses`}
              columns={ownedColumns}
              rows={owned}
              rowKey={(o) => o.businessId}
              minWidth={300}
              testId="team-rep-owned"
            />
          )
        }
        onCsv={() => downloadCsv(csvFileName(`pipeline_${name}`, period.from, period.to), ownedCsv, owned)}
      />
      <Section
        id="rep-stage-changes"
        title="Stage changes"
        summary={
          changes.length === 0
            ? 'No pipeline change involved this rep in the period.'
            : `${plural(changes.length, 'change')} in the period, newest first.`
        }
        table={
          changes.length === 0 ? null : (
            <DataTable
              label={`${name}'s stage changes`}
              columns={changeColumns}
              rows={changes}
              rowKey={(c) => `${c.at}:${c.businessId}:${c.toStage}`}
              minWidth={300}
              testId="team-rep-changes"
            />
          )
        }
        onCsv={() =>
          downloadCsv(csvFileName(`stage_changes_${name}`, period.from, period.to), changeCsv, changes)
        }
      />
    </>
  );
}
