// The period's outcomes (what was logged or saved, by kind), then the same work as visits and saves per call by
// score band and by category: three sections from one answer (GET /api/team/outcomes).
import type { TeamOutcomes } from '../../../../core/api/dashboard';
import { ErrorAlert, Loading, messageOf } from '../../common';
import { teamApi, useTeamQuery, type Scope } from '../api';
import { RowBars, SERIES } from '../charts';
import { csvFileName, downloadCsv } from '../csv';
import { DataTable, Section } from '../Section';
import { CategoriesSection, ScoreBandsSection } from './ConversionSections';

function OutcomesSection({ outcomes, period }: Pick<TeamOutcomes, 'outcomes' | 'period'>) {
  const total = outcomes.reduce((n, r) => n + r.count, 0);
  return (
    <Section
      id="outcomes"
      title="Outcomes"
      summary={
        total === 0
          ? 'Nothing was logged or saved in the period.'
          : outcomes.map((r) => `${r.outcome}: ${r.count.toLocaleString()}`).join(', ') + '.'
      }
      chart={
        <RowBars
          data={outcomes}
          labelKey="outcome"
          series={[{ key: 'count', label: 'Entries', color: SERIES.calls.color }]}
        />
      }
      table={
        <DataTable
          label="Outcomes"
          columns={[
            { header: 'Outcome', cell: (r) => r.outcome },
            { header: 'Entries', cell: (r) => r.count, numeric: true },
          ]}
          rows={outcomes}
          rowKey={(r) => r.outcome}
          minWidth={280}
        />
      }
      onCsv={() =>
        downloadCsv(
          csvFileName('outcomes', period.from, period.to),
          [
            ['Outcome', (r) => r.outcome],
            ['Entries', (r) => r.count],
          ],
          outcomes,
        )
      }
    />
  );
}

export function OutcomeSections({ choice, userId }: Scope) {
  const outcomes = useTeamQuery('outcomes', choice, userId, () => teamApi.outcomes(choice, userId));
  if (outcomes.isPending) return <Loading label="Loading outcomes..." />;
  if (outcomes.isError) return <ErrorAlert message={messageOf(outcomes.error)} />;
  const { period, scoreBands, categories } = outcomes.data;
  return (
    <>
      <OutcomesSection outcomes={outcomes.data.outcomes} period={period} />
      <ScoreBandsSection bands={scoreBands} period={period} />
      <CategoriesSection categories={categories} period={period} />
    </>
  );
}
