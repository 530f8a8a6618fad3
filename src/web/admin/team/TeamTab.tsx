// The Team tab (issue 19): what the team did in a period, pictures first and numbers second, for admins. Every
// figure comes from the /api/team routes (the database counts; days on this browser's calendar). A rep's name
// opens their page. Each chart has a sentence saying what it shows, a table view and a CSV download; Print
// gives a printable page (team.css).
import { Button, Group, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, useMemo, useState } from 'react';
import type { CsvColumn } from '../../../core/csv';
import type {
  ConversionRow,
  DayActivity,
  FunnelStageRow,
  MapCell,
  OwnedBusiness,
  RepActivity,
  RepLogEntry,
  RouteVisit,
  StageChange,
  WinRateRow,
} from '../../../core/api/dashboard';
import { CATEGORY_LIMIT } from '../../../core/api/dashboard';
import { localDateOf } from '../../../core/local-days';
import { formatDateTime } from '../../format';
import { ErrorAlert, Loading, messageOf } from '../common';
import { ACTIVITY_SERIES, DayColumns, RowBars, SERIES } from './charts';
import { csvFileName, downloadCsv } from './csv';
import { DataTable, Section, type Column } from './Section';
import { teamApi, useTeamQuery, type PeriodChoice, type RepScope, type Scope } from './api';
import { activityOf, highest, pct, plural, shortDate } from './figures';
import { MapFrame, useMapTiles } from './map/MapFrame';
import { RepLink } from './RepLink';
import './team.css';

const TeamMap = lazy(() => import('./map/TeamMap'));
const RouteMap = lazy(() => import('./rep/RouteMap'));

const PERIODS = [
  { value: 'this-week', label: 'This week' },
  { value: 'last-week', label: 'Last week' },
  { value: 'this-month', label: 'This month' },
  { value: 'custom', label: 'Custom dates' },
] as const;
const QUIET_DAYS = ['3', '7', '14', '30'];
/** Reps drawn in the per-rep chart (the busiest); the table lists every one. */
const CHART_REPS = 15;

function PeriodControls({ choice, onChange }: { choice: PeriodChoice; onChange: (c: PeriodChoice) => void }) {
  return (
    <>
      <NativeSelect
        label="Period"
        data={PERIODS.map((p) => ({ value: p.value, label: p.label }))}
        value={choice.period}
        onChange={(e) => onChange({ ...choice, period: e.currentTarget.value as PeriodChoice['period'] })}
      />
      {choice.period === 'custom' && (
        <>
          <TextInput
            type="date"
            label="From"
            value={choice.from ?? ''}
            onChange={(e) => onChange({ ...choice, from: e.currentTarget.value })}
          />
          <TextInput
            type="date"
            label="To"
            value={choice.to ?? ''}
            onChange={(e) => onChange({ ...choice, to: e.currentTarget.value })}
          />
        </>
      )}
    </>
  );
}

const repColumns = (open: (id: string) => void): Column<RepActivity>[] => [
  {
    header: 'Rep',
    cell: (r) => <RepLink rep={r} open={open} testId="team-rep-link" />,
  },
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
const conversionColumns = (first: string): Column<ConversionRow>[] => [
  { header: first, cell: (r) => r.key },
  { header: 'Calls', cell: (r) => r.called, numeric: true },
  { header: 'Visits', cell: (r) => r.visited, numeric: true },
  { header: 'Saves', cell: (r) => r.saved, numeric: true },
  { header: 'Visits + saves per call', cell: (r) => pct(r.perCall), numeric: true },
];
const conversionCsv = (first: string): CsvColumn<ConversionRow>[] => [
  [first, (r) => r.key],
  ['Calls', (r) => r.called],
  ['Visits', (r) => r.visited],
  ['Saves', (r) => r.saved],
  ['Visits and saves per call', (r) => r.perCall],
];
const cellColumns: Column<MapCell>[] = [
  { header: 'Latitude', cell: (c) => c.lat.toFixed(4), numeric: true },
  { header: 'Longitude', cell: (c) => c.lng.toFixed(4), numeric: true },
  { header: 'Calls', cell: (c) => c.calls, numeric: true },
  { header: 'Visits', cell: (c) => c.visits, numeric: true },
];
const cellCsv: CsvColumn<MapCell>[] = [
  ['Latitude', (c) => c.lat],
  ['Longitude', (c) => c.lng],
  ['Calls', (c) => c.calls],
  ['Visits', (c) => c.visits],
];
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

function DailySection({ choice, userId }: Scope) {
  const daily = useTeamQuery('daily', choice, userId, () => teamApi.daily(choice, userId));
  if (daily.isPending) return <Loading label="Loading activity per day..." />;
  if (daily.isError) return <ErrorAlert message={messageOf(daily.error)} />;
  const days = daily.data.days;
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
      onCsv={() =>
        downloadCsv(csvFileName('per_day', daily.data.period.from, daily.data.period.to), dayCsv, days)
      }
    />
  );
}

function MapSection({ choice, userId }: Scope) {
  const map = useTeamQuery('map', choice, userId, () => teamApi.map(choice, userId));
  const tiles = useMapTiles();
  if (map.isPending) return <Loading label="Loading the map..." />;
  if (map.isError) return <ErrorAlert message={messageOf(map.error)} />;
  const { cells, areas, unplaced, truncated, period } = map.data;
  const calls = cells.reduce((n, c) => n + c.calls, 0);
  const visits = cells.reduce((n, c) => n + c.visits, 0);
  const summary =
    `${plural(calls, 'call')} and ${plural(visits, 'visit')} at ${plural(cells.length, 'place')}, over ` +
    `${plural(areas.length, 'scanned area')}` +
    (unplaced ? `; ${plural(unplaced, 'entry', 'entries')} without a known location` : '') +
    (truncated ? ' (the busiest places are shown)' : '') +
    '.';
  return (
    <Section
      id="map"
      interactive
      title="Where the team called and visited"
      summary={summary}
      note="Squares of about 1 km: green where there was a visit, blue for calls only; dashed circles: areas scanned in the period."
      chart={
        <MapFrame>
          <TeamMap cells={cells} cellDegrees={map.data.cellDegrees} areas={areas} {...tiles} />
        </MapFrame>
      }
      table={
        <DataTable
          label="Calls and visits by place"
          columns={cellColumns}
          rows={cells.slice(0, 200)}
          rowKey={(c) => `${c.lat},${c.lng}`}
          minWidth={360}
        />
      }
      onCsv={() => downloadCsv(csvFileName('places', period.from, period.to), cellCsv, cells)}
    />
  );
}

function QuietReps({ open }: { open: (id: string) => void }) {
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
  const reps = quiet.data.reps;
  const never = reps.filter((r) => r.lastActivityAt === null).length;
  return (
    <Section
      id="quiet"
      title="Quiet reps"
      summary={
        reps.length === 0
          ? `Every rep was active in the last ${days} days.`
          : `${plural(reps.length, 'rep')} with no call, visit, save or strategy request in the last ${days} days` +
            (never ? ` (${never} never active)` : '') +
            '.'
      }
      actions={choose}
      table={
        reps.length === 0 ? null : (
          <DataTable
            label="Quiet reps"
            testId="team-quiet-table"
            columns={[
              {
                header: 'Rep',
                cell: (r) => <RepLink rep={r} open={open} />,
              },
              { header: 'Email', cell: (r) => r.email },
              {
                header: 'Last activity',
                cell: (r) => (r.lastActivityAt ? formatDateTime(r.lastActivityAt) : 'Never'),
              },
            ]}
            rows={reps}
            rowKey={(r) => r.userId}
            minWidth={420}
          />
        )
      }
      onCsv={() =>
        downloadCsv(
          csvFileName(
            `quiet_${days}_days`,
            quiet.data.since.slice(0, 10),
            new Date().toISOString().slice(0, 10),
          ),
          [
            ['Rep', (r) => r.name],
            ['Email', (r) => r.email],
            ['Last activity', (r) => r.lastActivityAt ?? 'Never'],
          ],
          reps,
        )
      }
    />
  );
}

function OutcomeSections({ choice, userId }: Scope) {
  const outcomes = useTeamQuery('outcomes', choice, userId, () => teamApi.outcomes(choice, userId));
  if (outcomes.isPending) return <Loading label="Loading outcomes..." />;
  if (outcomes.isError) return <ErrorAlert message={messageOf(outcomes.error)} />;
  const { period, scoreBands, categories } = outcomes.data;
  const rows = outcomes.data.outcomes;
  const total = rows.reduce((n, r) => n + r.count, 0);
  const best = highest(
    scoreBands.filter((b) => b.perCall !== null),
    (b) => b.perCall,
  );
  const perCallSeries = [
    { key: 'perCall' as const, label: 'Visits + saves per call', color: SERIES.visits.color },
  ];
  return (
    <>
      <Section
        id="outcomes"
        title="Outcomes"
        summary={
          total === 0
            ? 'Nothing was logged or saved in the period.'
            : rows.map((r) => `${r.outcome}: ${r.count.toLocaleString()}`).join(', ') + '.'
        }
        chart={
          <RowBars
            data={rows}
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
            rows={rows}
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
            rows,
          )
        }
      />
      <Section
        id="bands"
        title="Visits and saves per call by score band"
        summary={
          best
            ? `Prospects scored ${best.key} turned into the most visits and saves per call (${pct(best.perCall)}).`
            : 'No calls in the period, so no band can be compared.'
        }
        chart={
          <RowBars
            data={scoreBands.map((b) => ({ ...b, perCall: b.perCall ?? 0 }))}
            labelKey="key"
            series={perCallSeries}
            percent
          />
        }
        table={
          <DataTable
            label="Score bands"
            columns={conversionColumns('Score band')}
            rows={scoreBands}
            rowKey={(r) => r.key}
          />
        }
        onCsv={() =>
          downloadCsv(
            csvFileName('score_bands', period.from, period.to),
            conversionCsv('Score band'),
            scoreBands,
          )
        }
      />
      <Section
        id="categories"
        title="Categories that turn into visits and saves"
        summary={
          categories.length === 0
            ? 'No category was worked in the period.'
            : `${categories[0]!.key} was worked the most (${categories[0]!.called} calls, ${categories[0]!.visited} visits, ${categories[0]!.saved} saves).`
        }
        chart={
          <RowBars
            data={categories}
            labelKey="key"
            series={[
              { key: 'called', label: 'Calls', color: SERIES.calls.color },
              { key: 'visited', label: 'Visits', color: SERIES.visits.color },
              { key: 'saved', label: 'Saves', color: SERIES.saves.color },
            ]}
            stacked
          />
        }
        table={
          <DataTable
            label="Categories"
            columns={conversionColumns('Category')}
            rows={categories}
            rowKey={(r) => r.key}
          />
        }
        onCsv={() =>
          downloadCsv(
            csvFileName('categories', period.from, period.to),
            conversionCsv('Category'),
            categories,
          )
        }
      />
    </>
  );
}

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

/** The pipeline funnel New → Contacted → Meeting set → Proposal → Won (GET /api/team/funnel). */
function FunnelSection({ choice, userId }: Scope) {
  const funnel = useTeamQuery('funnel', choice, userId, () => teamApi.funnel(choice, userId));
  if (funnel.isPending) return <Loading label="Loading the funnel..." />;
  if (funnel.isError) return <ErrorAlert message={messageOf(funnel.error)} />;
  const { stages, period } = funnel.data;
  const first = stages[0]!;
  const won = stages[stages.length - 1]!;
  const summary =
    first.reached === 0
      ? 'No business moved in the pipeline in the period.'
      : stages
          .slice(0, -1)
          .map((s, i) => `${s.stage} ${s.reached} → ${stages[i + 1]!.stage} ${pct(s.conversion)}`)
          .join(', ') +
        `; ${plural(won.reached, 'business', 'businesses')} won (${pct(
          first.reached ? Math.round((won.reached / first.reached) * 1000) / 1000 : null,
        )} of ${first.reached}).`;
  return (
    <Section
      id="funnel"
      title="Pipeline funnel"
      summary={summary}
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

const winRateColumns: Column<WinRateRow>[] = [
  { header: 'Score band', cell: (r) => r.key },
  { header: 'Businesses', cell: (r) => r.businesses, numeric: true },
  { header: 'Meetings', cell: (r) => r.meetings, numeric: true },
  { header: 'Won', cell: (r) => r.won, numeric: true },
  { header: 'Win rate', cell: (r) => pct(r.winRate), numeric: true },
];
const winRateCsv: CsvColumn<WinRateRow>[] = [
  ['Score band', (r) => r.key],
  ['Businesses', (r) => r.businesses],
  ['Meetings', (r) => r.meetings],
  ['Won', (r) => r.won],
  ['Meeting rate', (r) => r.meetingRate],
  ['Win rate', (r) => r.winRate],
];

/** Meeting and win rates of win-rate rows (score bands or categories) as bars. */
function WinRateBars({ rows }: { rows: readonly WinRateRow[] }) {
  return (
    <RowBars
      data={rows.map((r) => ({ key: r.key, meetingRate: r.meetingRate ?? 0, winRate: r.winRate ?? 0 }))}
      labelKey="key"
      series={[
        { key: 'meetingRate', label: 'Meeting set', color: SERIES.calls.color },
        { key: 'winRate', label: 'Won', color: SERIES.visits.color },
      ]}
      percent
    />
  );
}

/** Win rate by score band (GET /api/team/win-rates): does the score predict? */
function WinRateSection({ choice, userId }: Scope) {
  const rates = useTeamQuery('win-rates', choice, userId, () => teamApi.winRates(choice, userId));
  if (rates.isPending) return <Loading label="Loading win rates..." />;
  if (rates.isError) return <ErrorAlert message={messageOf(rates.error)} />;
  const { bands, period } = rates.data;
  const worked = bands.filter((b) => b.businesses > 0);
  const best = highest(worked, (r) => r.winRate);
  const businesses = worked.reduce((n, b) => n + b.businesses, 0);
  const summary =
    best === null
      ? 'No business was called or visited for the first time in the period, so no band can be compared.'
      : `${plural(businesses, 'business', 'businesses')} called or visited for the first time; ` +
        (best.won === 0
          ? 'none of them has been won yet.'
          : `those scored ${best.key} were won most often (${pct(best.winRate)}, ${best.won} of ${best.businesses}).`);
  return (
    <Section
      id="win-rates"
      title="Does the score predict? Win rate by score band"
      summary={summary}
      note="Businesses called or visited for the first time in the period, by the score they had then; meetings and wins they reached by the end of the period."
      chart={<WinRateBars rows={bands} />}
      table={
        <DataTable
          label="Win rate by score band"
          columns={winRateColumns}
          rows={bands}
          rowKey={(r) => r.key}
          minWidth={340}
          testId="team-win-rates-table"
        />
      }
      onCsv={() => downloadCsv(csvFileName('win_rates', period.from, period.to), winRateCsv, bands)}
    />
  );
}

const categoryWinColumns: Column<WinRateRow>[] = [
  { header: 'Category', cell: (r) => r.key },
  ...winRateColumns.slice(1),
];
const categoryWinCsv: CsvColumn<WinRateRow>[] = [['Category', (r) => r.key], ...winRateCsv.slice(1)];

/** Which categories turn into meetings and wins (GET /api/team/win-rates, the same cohort as the score bands). */
function CategoryWinSection({ choice, userId }: Scope) {
  const rates = useTeamQuery('win-rates', choice, userId, () => teamApi.winRates(choice, userId));
  if (rates.isPending) return <Loading label="Loading win rates by category..." />;
  if (rates.isError) return <ErrorAlert message={messageOf(rates.error)} />;
  const { categories, period } = rates.data;
  const best = highest(categories, (r) => r.winRate);
  const mostMeetings = highest(categories, (r) => r.meetingRate);
  const summary =
    best === null || mostMeetings === null
      ? 'No business was called or visited for the first time in the period.'
      : best.won === 0
        ? `No category has a win yet; ${mostMeetings.key} set meetings most often (${pct(mostMeetings.meetingRate)}, ${mostMeetings.meetings} of ${mostMeetings.businesses}).`
        : `${best.key} was won most often (${pct(best.winRate)}, ${best.won} of ${best.businesses}); ${mostMeetings.key} set meetings most often (${pct(mostMeetings.meetingRate)}).`;
  return (
    <Section
      id="category-wins"
      title="Which categories turn into meetings and wins"
      summary={summary}
      note={`The same businesses as the score bands, by the category they were first logged with; the ${CATEGORY_LIMIT} with the most businesses.`}
      chart={categories.length === 0 ? undefined : <WinRateBars rows={categories} />}
      table={
        <DataTable
          label="Win rate by category"
          columns={categoryWinColumns}
          rows={categories}
          rowKey={(r) => r.key}
          minWidth={340}
          testId="team-category-wins-table"
        />
      }
      onCsv={() =>
        downloadCsv(csvFileName('category_win_rates', period.from, period.to), categoryWinCsv, categories)
      }
    />
  );
}

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

/** One rep's pipeline: what they own now, by stage, and the period's changes (GET /api/team/reps/:id/pipeline). */
function RepPipelineSection({ userId, choice, name }: RepScope) {
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

const localDay = (iso: string, timeZone: string) => localDateOf(Date.parse(iso), timeZone);
const visitCsv: CsvColumn<RouteVisit>[] = [
  ['When', (v) => v.at],
  ['Business', (v) => v.name],
  ['Address', (v) => v.address],
  ['Verified', (v) => (v.verified ? 'yes' : 'no')],
  ['Phone latitude', (v) => v.visitLat ?? ''],
  ['Phone longitude', (v) => v.visitLng ?? ''],
  ['Accuracy (m)', (v) => v.accuracyM ?? ''],
  ['Business latitude', (v) => v.lat ?? ''],
  ['Business longitude', (v) => v.lng ?? ''],
];

/** One rep's route history: the period's visits in order, per day, on a map (GET /api/team/reps/:id/route). */
function RouteSection({ userId, choice, name }: RepScope) {
  const route = useTeamQuery('rep-route', choice, userId, () => teamApi.repRoute(userId, choice));
  const tiles = useMapTiles();
  if (route.isPending) return <Loading label="Loading the route history..." />;
  if (route.isError) return <ErrorAlert message={messageOf(route.error)} />;
  const { visits, total, verified, period, truncated } = route.data;
  const days = [...new Set(visits.map((v) => localDay(v.at, period.timeZone)))];
  const stops = visits.flatMap((v) => {
    const lat = v.visitLat ?? v.lat;
    const lng = v.visitLng ?? v.lng;
    return lat === null || lng === null
      ? []
      : [
          {
            day: localDay(v.at, period.timeZone),
            lat,
            lng,
            label: `${formatDateTime(v.at)} · ${v.name}`,
            verified: v.verified,
          },
        ];
  });
  const columns: Column<RouteVisit>[] = [
    { header: 'When', cell: (v) => formatDateTime(v.at) },
    { header: 'Business', cell: (v) => v.name },
    { header: 'Verified', cell: (v) => (v.verified ? 'Yes' : 'No') },
  ];
  return (
    <Section
      id="rep-route"
      interactive
      title="Route history"
      summary={
        total === 0
          ? 'No visits in the period.'
          : `${plural(total, 'visit')} on ${plural(days.length, 'day')}, ${verified} verified` +
            (truncated ? ' (the first 1,000 are listed)' : '') +
            '.'
      }
      note={
        stops.length
          ? 'Each day’s visits joined in order, one colour per day; a filled dot is a verified visit.'
          : undefined
      }
      chart={
        stops.length ? (
          <MapFrame>
            <RouteMap stops={stops} days={days} {...tiles} />
          </MapFrame>
        ) : undefined
      }
      table={
        visits.length === 0 ? null : (
          <DataTable
            label={`${name}'s visits`}
            columns={columns}
            rows={visits}
            rowKey={(v) => `${v.at}:${v.prospectId}`}
            minWidth={320}
            testId="team-rep-route"
          />
        )
      }
      onCsv={() => downloadCsv(csvFileName(`route_${name}`, period.from, period.to), visitCsv, visits)}
    />
  );
}

function RepPage({ userId, choice, onBack }: { userId: string; choice: PeriodChoice; onBack: () => void }) {
  const page = useTeamQuery('rep', choice, userId, () => teamApi.rep(userId, choice));
  return (
    <Stack gap="sm" data-testid="team-rep-page">
      <Group className="no-print">
        <Button variant="default" size="compact-md" onClick={onBack}>
          ← Back to the team
        </Button>
      </Group>
      {page.isPending && <Loading label="Loading the rep's page..." />}
      {page.isError && <ErrorAlert message={messageOf(page.error)} />}
      {page.isSuccess && (
        <>
          <Title order={2} size="h3" data-testid="team-rep-name">
            {page.data.rep.name}
          </Title>
          <Text size="sm">
            {page.data.rep.email} · {plural(page.data.rep.calls, 'call')},{' '}
            {plural(page.data.rep.visits, 'visit')}, {plural(page.data.rep.saves, 'save')},{' '}
            {plural(page.data.rep.strategies, 'strategy request')},{' '}
            {plural(page.data.rep.followUps, 'follow-up')} set from {page.data.period.from} to{' '}
            {page.data.period.to} · last active{' '}
            {page.data.rep.lastActivityAt ? formatDateTime(page.data.rep.lastActivityAt) : 'never'}
          </Text>
          <DailySection choice={choice} userId={userId} />
          <Section
            id="log"
            title="Log"
            summary={
              page.data.entries.length === 0
                ? 'Nothing logged, saved or asked for in the period.'
                : `${plural(page.data.entries.length, 'entry', 'entries')}, newest first${page.data.truncated ? ' (the newest 1,000)' : ''}.`
            }
            table={
              <DataTable
                label={`${page.data.rep.name}'s log`}
                columns={logColumns}
                rows={page.data.entries}
                rowKey={(e) => `${e.kind}:${e.at}:${e.prospectId}`}
                minWidth={640}
                testId="team-rep-log"
              />
            }
            onCsv={() =>
              downloadCsv(
                csvFileName(`log_${page.data.rep.name}`, page.data.period.from, page.data.period.to),
                logCsv,
                page.data.entries,
              )
            }
          />
          <MapSection choice={choice} userId={userId} />
          <RepPipelineSection userId={userId} choice={choice} name={page.data.rep.name} />
          <RouteSection userId={userId} choice={choice} name={page.data.rep.name} />
        </>
      )}
    </Stack>
  );
}

/** The Team tab: the period and rep pickers, then every section; a rep's name opens their page. */
export function TeamTab() {
  const [choice, setChoice] = useState<PeriodChoice>({ period: 'this-week' });
  const [only, setOnly] = useState('');
  const [openRep, setOpenRep] = useState<string | null>(null);
  const everyone = useTeamQuery('activity', choice, null, () => teamApi.activity(choice));
  const userId = only || null;
  const reps = useMemo(
    () => (everyone.data?.reps ?? []).filter((r) => !userId || r.userId === userId),
    [everyone.data, userId],
  );
  const chartReps = useMemo(
    () =>
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
        })),
    [reps],
  );

  const controls = (
    <Group gap="sm" align="flex-end" className="no-print" wrap="wrap">
      <PeriodControls choice={choice} onChange={setChoice} />
      <NativeSelect
        label="Rep"
        data={[
          { value: '', label: 'Whole team' },
          ...(everyone.data?.reps ?? []).map((r) => ({ value: r.userId, label: r.name })),
        ]}
        value={only}
        onChange={(e) => setOnly(e.currentTarget.value)}
      />
      <Button variant="default" onClick={() => window.print()}>
        Print
      </Button>
    </Group>
  );

  if (openRep) {
    return (
      <Stack gap="sm" className="team-dashboard" data-testid="team-tab">
        <Group gap="sm" align="flex-end" className="no-print">
          <PeriodControls choice={choice} onChange={setChoice} />
        </Group>
        <RepPage userId={openRep} choice={choice} onBack={() => setOpenRep(null)} />
      </Stack>
    );
  }

  const period = everyone.data?.period;
  const totals = reps.reduce(
    (t, r) => ({
      calls: t.calls + r.calls,
      visits: t.visits + r.visits,
      saves: t.saves + r.saves,
      strategies: t.strategies + r.strategies,
      followUps: t.followUps + r.followUps,
    }),
    { calls: 0, visits: 0, saves: 0, strategies: 0, followUps: 0 },
  );
  const top = chartReps[0];

  return (
    <Stack gap="sm" className="team-dashboard" data-testid="team-tab">
      <Title order={2} size="h3">
        Team
        {period && (
          <Text span size="sm" c="dimmed" fw={400}>
            {' '}
            · {shortDate(period.from)} to {shortDate(period.to)} ({period.timeZone})
          </Text>
        )}
      </Title>
      {controls}
      {choice.period === 'custom' && !(choice.from && choice.to) && (
        <Text size="sm" c="dimmed">
          Choose the first and last day.
        </Text>
      )}
      {everyone.isPending && choice.period !== 'custom' && <Loading label="Loading the team's activity..." />}
      {everyone.isError && <ErrorAlert message={messageOf(everyone.error)} />}
      {everyone.isSuccess && (
        <>
          <Section
            id="reps"
            title="Activity per rep"
            summary={
              top
                ? `${plural(totals.calls, 'call')}, ${plural(totals.visits, 'visit')}, ${plural(totals.saves, 'save')}, ` +
                  `${plural(totals.strategies, 'strategy request')} and ${plural(totals.followUps, 'follow-up')} set; ` +
                  `the most active was ${top.name} (${activityOf(top)}).`
                : 'No calls, visits, saves, strategy requests or follow-ups in the period.'
            }
            note={
              reps.length > CHART_REPS
                ? `The chart shows the ${CHART_REPS} most active; the table lists everyone.`
                : undefined
            }
            chart={
              chartReps.length ? (
                <RowBars data={chartReps} labelKey="name" series={ACTIVITY_SERIES} stacked />
              ) : undefined
            }
            table={
              <DataTable
                label="Activity per rep"
                columns={repColumns(setOpenRep)}
                rows={reps}
                rowKey={(r) => r.userId}
                testId="team-reps-table"
              />
            }
            onCsv={() => period && downloadCsv(csvFileName('per_rep', period.from, period.to), repCsv, reps)}
          />
          <DailySection choice={choice} userId={userId} />
          <FunnelSection choice={choice} userId={userId} />
          <WinRateSection choice={choice} userId={userId} />
          <CategoryWinSection choice={choice} userId={userId} />
          <OutcomeSections choice={choice} userId={userId} />
          <MapSection choice={choice} userId={userId} />
          <QuietReps open={setOpenRep} />
        </>
      )}
    </Stack>
  );
}
