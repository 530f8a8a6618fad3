// The map of the period's calls and visits, loaded lazily with Leaflet: each grid cell (cellDegrees of
// the answer, 0.01 degree: about 1 km) is drawn as that square, the busier the darker (green where a visit
// happened, blue for calls only), over the areas the team scanned (dashed circles), so covered and untouched
// ground show at a glance. Tiles from /api/config.
import { useEffect } from 'react';
import { Circle, MapContainer, Popup, Rectangle, TileLayer, useMap } from 'react-leaflet';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import type { MapCell, ScannedArea } from '../../../../core/api/dashboard';
import { METERS_PER_MILE } from '../../../defaults';
import DataAttribution from '../../../map/DataAttribution';

export const CALLS_COLOR = '#1864ab';
export const VISITS_COLOR = '#2b8a3e';

function FitBounds({ cells, half, areas }: { cells: MapCell[]; half: number; areas: ScannedArea[] }) {
  const map = useMap();
  useEffect(() => {
    // Whole squares in view, not just their centres.
    const points: L.LatLngExpression[] = cells.flatMap((c): L.LatLngExpression[] => [
      [c.lat - half, c.lng - half],
      [c.lat + half, c.lng + half],
    ]);
    for (const a of areas) {
      const circle = L.latLng(a.lat, a.lng).toBounds(a.radiusMiles * METERS_PER_MILE * 2);
      points.push(circle.getNorthWest(), circle.getSouthEast());
    }
    if (points.length === 0) return;
    // More room at the bottom: the attribution (two lines on a phone) must not cover a square. At most zoom 13,
    // where a cell of 0.01 degree is about 50 px: the squares stay small against the streets around them.
    map.fitBounds(L.latLngBounds(points), {
      paddingTopLeft: [56, 24],
      paddingBottomRight: [24, 56],
      maxZoom: 13,
      animate: false,
    });
  }, [map, cells, half, areas]);
  return null;
}

export default function TeamMap({
  cells,
  cellDegrees,
  areas,
  tileUrl,
  tileAttribution,
  dataAttribution = '',
}: {
  cells: MapCell[];
  cellDegrees: number;
  areas: ScannedArea[];
  tileUrl: string;
  tileAttribution: string;
  dataAttribution?: string;
}) {
  const busiest = Math.max(1, ...cells.map((c) => c.calls + c.visits));
  const half = cellDegrees / 2;
  return (
    <MapContainer
      center={[39.5, -98.35]}
      zoom={4}
      scrollWheelZoom={false}
      className="prospect-map team-map"
      aria-label="Map of the period's calls and visits"
    >
      {tileUrl && <TileLayer url={tileUrl} attribution={tileAttribution} />}
      <DataAttribution text={dataAttribution} tiles={tileAttribution} />
      {areas.map((a) => (
        <Circle
          key={`${a.lat},${a.lng},${a.radiusMiles}`}
          center={[a.lat, a.lng]}
          radius={a.radiusMiles * METERS_PER_MILE}
          pathOptions={{ color: '#495057', weight: 1, dashArray: '4 4', fillOpacity: 0.04 }}
        />
      ))}
      {cells.map((c) => {
        const n = c.calls + c.visits;
        return (
          <Rectangle
            key={`${c.lat},${c.lng}`}
            bounds={[
              [c.lat - half, c.lng - half],
              [c.lat + half, c.lng + half],
            ]}
            pathOptions={{
              color: c.visits > 0 ? VISITS_COLOR : CALLS_COLOR,
              weight: 1,
              fillColor: c.visits > 0 ? VISITS_COLOR : CALLS_COLOR,
              fillOpacity: 0.25 + 0.6 * Math.sqrt(n / busiest),
            }}
          >
            <Popup>
              {c.calls} {c.calls === 1 ? 'call' : 'calls'}, {c.visits} {c.visits === 1 ? 'visit' : 'visits'}
            </Popup>
          </Rectangle>
        );
      })}
      <FitBounds cells={cells} half={half} areas={areas} />
    </MapContainer>
  );
}
