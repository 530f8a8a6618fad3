// Which categories turn into meetings and wins: the same businesses as the score bands, by the category they were
// first logged with (GET /api/team/win-rates).
import type { WinRateRow } from '../../../../core/api/dashboard';
import { CATEGORY_LIMIT } from '../../../../core/api/dashboard';
import { ErrorAlert, Loading, messageOf } from '../../common';
import { teamApi, useTeamQuery, type Scope } from '../api';
import { csvFileName, downloadCsv } from '../csv';
import { highest, pct } from '../figures';
import { DataTable, Section } from '../Section';
import { WinRateBars, winRateColumns, winRateCsv } from './winRates';

function summaryOf(categories: readonly WinRateRow[]): string {
  const best = highest(categories, (r) => r.winRate);
  const mostMeetings = highest(categories, (r) => r.meetingRate);
  if (best === null || mostMeetings === null) {
    return 'No business was called or visited for the first time in the period.';
  }
  return best.won === 0
    ? `No category has a win yet; ${mostMeetings.key} set meetings most often (${pct(mostMeetings.meetingRate)}, ${mostMeetings.meetings} of ${mostMeetings.businesses}).`
    : `${best.key} was won most often (${pct(best.winRate)}, ${best.won} of ${best.businesses}); ${mostMeetings.key} set meetings most often (${pct(mostMeetings.meetingRate)}).`;
}

export function CategoryWinSection({ choice, userId }: Scope) {
  const rates = useTeamQuery('win-rates', choice, userId, () => teamApi.winRates(choice, userId));
  if (rates.isPending) return <Loading label="Loading win rates by category..." />;
  if (rates.isError) return <ErrorAlert message={messageOf(rates.error)} />;
  const { categories, period } = rates.data;
  return (
    <Section
      id="category-wins"
      title="Which categories turn into meetings and wins"
      summary={summaryOf(categories)}
      note={`The same businesses as the score bands, by the category they were first logged with; the ${CATEGORY_LIMIT} with the most businesses.`}
      chart={categories.length === 0 ? undefined : <WinRateBars rows={categories} />}
      table={
        <DataTable
          label="Win rate by category"
          columns={winRateColumns('Category')}
          rows={categories}
          rowKey={(r) => r.key}
          minWidth={340}
          testId="team-category-wins-table"
        />
      }
      onCsv={() =>
        downloadCsv(
          csvFileName('category_win_rates', period.from, period.to),
          winRateCsv('Category'),
          categories,
        )
      }
    />
  );
}
