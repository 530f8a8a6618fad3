// Quiet reps: who logged no call or visit, saved nothing and asked for no strategy in the last few days
// (GET /api/team/inactive). Counted back from now, whatever the tab's period.
import { NativeSelect } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { TeamInactive } from '../../../../core/api/dashboard';
import type { CsvColumn } from '../../../../core/csv';
import { formatDateTime } from '../../../format';
import { ErrorAlert, Loading, messageOf } from '../../common';
import { teamApi } from '../api';
import { csvFileName, downloadCsv } from '../csv';
import { plural } from '../figures';
import { RepLink } from '../RepLink';
import { DataTable, Section, type Column } from '../Section';

const QUIET_DAYS = ['3', '7', '14', '30'];

type QuietRep = TeamInactive['reps'][number];

const quietColumns = (open: (id: string) => void): Column<QuietRep>[] => [
  { header: 'Rep', cell: (r) => <RepLink rep={r} open={open} /> },
  { header: 'Email', cell: (r) => r.email },
  { header: 'Last activity', cell: (r) => (r.lastActivityAt ? formatDateTime(r.lastActivityAt) : 'Never') },
];
const quietCsv: CsvColumn<QuietRep>[] = [
  ['Rep', (r) => r.name],
  ['Email', (r) => r.email],
  ['Last activity', (r) => r.lastActivityAt ?? 'Never'],
];

function summaryOf(reps: readonly QuietRep[], days: string): string {
  if (reps.length === 0) return `Every rep was active in the last ${days} days.`;
  const never = reps.filter((r) => r.lastActivityAt === null).length;
  return (
    `${plural(reps.length, 'rep')} with no call, visit, save or strategy request in the last ${days} days` +
    (never ? ` (${never} never active)` : '') +
    '.'
  );
}

export function QuietReps({ open }: { open: (userId: string) => void }) {
  const [days, setDays] = useState('7');
  const quiet = useQuery({
    queryKey: ['team', 'inactive', days],
    queryFn: () => teamApi.inactive(Number(days)),
  });
  const choose = (
    <NativeSelect
      aria-label="Days without activity"
      data={QUIET_DAYS.map((d) => ({ value: d, label: `${d} days` }))}
      value={days}
      onChange={(e) => setDays(e.currentTarget.value)}
      size="xs"
    />
  );
  if (quiet.isPending) return <Loading label="Loading quiet reps..." />;
  if (quiet.isError) return <ErrorAlert message={messageOf(quiet.error)} />;
  const { reps, since } = quiet.data;
  return (
    <Section
      id="quiet"
      title="Quiet reps"
      summary={summaryOf(reps, days)}
      actions={choose}
      table={
        reps.length === 0 ? null : (
          <DataTable
            label="Quiet reps"
            testId="team-quiet-table"
            columns={quietColumns(open)}
            rows={reps}
            rowKey={(r) => r.userId}
            minWidth={420}
          />
        )
      }
      onCsv={() =>
        downloadCsv(
          csvFileName(`quiet_${days}_days`, since.slice(0, 10), new Date().toISOString().slice(0, 10)),
          quietCsv,
          reps,
        )
      }
    />
  );
}
