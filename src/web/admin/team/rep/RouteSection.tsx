// One rep's route history: the period's visits in order, each day's joined on a map (GET /api/team/reps/:id/route).
import { lazy } from 'react';
import type { RouteVisit } from '../../../../core/api/dashboard';
import type { CsvColumn } from '../../../../core/csv';
import { localDateOf } from '../../../../core/time-zone';
import { formatDateTime } from '../../../format';
import { ErrorAlert, Loading, messageOf } from '../../common';
import { teamApi, useTeamQuery, type RepScope } from '../api';
import { csvFileName, downloadCsv } from '../csv';
import { plural } from '../figures';
import { MapFrame, useMapTiles } from '../map/MapFrame';
import { DataTable, Section, type Column } from '../Section';
import type { RouteStop } from './RouteMap';

const RouteMap = lazy(() => import('./RouteMap'));

const visitColumns: Column<RouteVisit>[] = [
  { header: 'When', cell: (v) => formatDateTime(v.at) },
  { header: 'Business', cell: (v) => v.name },
  { header: 'Verified', cell: (v) => (v.verified ? 'Yes' : 'No') },
];
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

const localDay = (iso: string, timeZone: string) => localDateOf(Date.parse(iso), timeZone);

/** The map's stops: at the phone's position when it gave one, else at the business's; none without either. */
function stopsOf(visits: readonly RouteVisit[], timeZone: string): RouteStop[] {
  return visits.flatMap((v) => {
    const lat = v.visitLat ?? v.lat;
    const lng = v.visitLng ?? v.lng;
    return lat === null || lng === null
      ? []
      : [
          {
            day: localDay(v.at, timeZone),
            lat,
            lng,
            label: `${formatDateTime(v.at)} · ${v.name}`,
            verified: v.verified,
          },
        ];
  });
}

export function RouteSection({ userId, choice, name }: RepScope) {
  const route = useTeamQuery('rep-route', choice, userId, () => teamApi.repRoute(userId, choice));
  const tiles = useMapTiles();
  if (route.isPending) return <Loading label="Loading the route history..." />;
  if (route.isError) return <ErrorAlert message={messageOf(route.error)} />;
  const { visits, total, verified, period, truncated } = route.data;
  const days = [...new Set(visits.map((v) => localDay(v.at, period.timeZone)))];
  const stops = stopsOf(visits, period.timeZone);
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
            columns={visitColumns}
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
