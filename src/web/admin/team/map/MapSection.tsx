// Where the team called and visited in the period, on a map of about 1 km squares (GET /api/team/map).
import { lazy } from 'react';
import type { MapCell } from '../../../../core/api/dashboard';
import type { CsvColumn } from '../../../../core/csv';
import { ErrorAlert, Loading, messageOf } from '../../common';
import { teamApi, useTeamQuery, type Scope } from '../api';
import { csvFileName, downloadCsv } from '../csv';
import { plural } from '../figures';
import { DataTable, Section, type Column } from '../Section';
import { MapFrame, useMapTiles } from './MapFrame';

const TeamMap = lazy(() => import('./TeamMap'));

/** Places listed in the table; the map and the CSV have every one. */
const TABLE_CELLS = 200;

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

export function MapSection({ choice, userId }: Scope) {
  const map = useTeamQuery('map', choice, userId, () => teamApi.map(choice, userId));
  const tiles = useMapTiles();
  if (map.isPending) return <Loading label="Loading the map..." />;
  if (map.isError) return <ErrorAlert message={messageOf(map.error)} />;
  const { cells, cellDegrees, areas, unplaced, truncated, period } = map.data;
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
          <TeamMap cells={cells} cellDegrees={cellDegrees} areas={areas} {...tiles} />
        </MapFrame>
      }
      table={
        <DataTable
          label="Calls and visits by place"
          columns={cellColumns}
          rows={cells.slice(0, TABLE_CELLS)}
          rowKey={(c) => `${c.lat},${c.lng}`}
          minWidth={360}
        />
      }
      onCsv={() => downloadCsv(csvFileName('places', period.from, period.to), cellCsv, cells)}
    />
  );
}
