// Does the score predict? Win rate by score band (GET /api/team/win-rates).
import type { WinRateRow } from '../../../../core/api/dashboard';
import { ErrorAlert, Loading, messageOf } from '../../common';
import { teamApi, useTeamQuery, type Scope } from '../api';
import { csvFileName, downloadCsv } from '../csv';
import { highest, pct, plural } from '../figures';
import { DataTable, Section } from '../Section';
import { WinRateBars, winRateColumns, winRateCsv } from './winRates';

function summaryOf(bands: readonly WinRateRow[]): string {
  const worked = bands.filter((b) => b.businesses > 0);
  const best = highest(worked, (r) => r.winRate);
  if (best === null) {
    return 'No business was called or visited for the first time in the period, so no band can be compared.';
  }
  const businesses = worked.reduce((n, b) => n + b.businesses, 0);
  return (
    `${plural(businesses, 'business', 'businesses')} called or visited for the first time; ` +
    (best.won === 0
      ? 'none of them has been won yet.'
      : `those scored ${best.key} were won most often (${pct(best.winRate)}, ${best.won} of ${best.businesses}).`)
  );
}

export function WinRateSection({ choice, userId }: Scope) {
  const rates = useTeamQuery('win-rates', choice, userId, () => teamApi.winRates(choice, userId));
  if (rates.isPending) return <Loading label="Loading win rates..." />;
  if (rates.isError) return <ErrorAlert message={messageOf(rates.error)} />;
  const { bands, period } = rates.data;
  return (
    <Section
      id="win-rates"
      title="Does the score predict? Win rate by score band"
      summary={summaryOf(bands)}
      note="Businesses called or visited for the first time in the period, by the score they had then; meetings and wins they reached by the end of the period."
      chart={<WinRateBars rows={bands} />}
      table={
        <DataTable
          label="Win rate by score band"
          columns={winRateColumns('Score band')}
          rows={bands}
          rowKey={(r) => r.key}
          minWidth={340}
          testId="team-win-rates-table"
        />
      }
      onCsv={() =>
        downloadCsv(csvFileName('win_rates', period.from, period.to), winRateCsv('Score band'), bands)
      }
    />
  );
}
