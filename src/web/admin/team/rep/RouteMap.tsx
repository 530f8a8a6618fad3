// A rep's route history on the rep's page, loaded lazily with Leaflet: each local day's visits joined
// in the order they were made (one colour per day), a filled dot where the visit was verified, an open one where
// not. Drawn at the phone's position when it gave one, else at the business's.
import { useEffect } from 'react';
import { CircleMarker, MapContainer, Polyline, Popup, TileLayer, useMap } from 'react-leaflet';
import L from 'leaflet';
import DataAttribution from '../../../map/DataAttribution';
import 'leaflet/dist/leaflet.css';

export interface RouteStop {
  day: string;
  lat: number;
  lng: number;
  label: string;
  verified: boolean;
}

/** Day colours, apart in lightness too. */
export const DAY_COLORS = ['#1864ab', '#2b8a3e', '#e67700', '#9c36b5', '#c92a2a', '#0b7285', '#5c940d'];

function FitBounds({ stops }: { stops: RouteStop[] }) {
  const map = useMap();
  useEffect(() => {
    if (stops.length === 0) return;
    map.fitBounds(L.latLngBounds(stops.map((s) => [s.lat, s.lng] as L.LatLngTuple)), {
      paddingTopLeft: [40, 24],
      paddingBottomRight: [24, 56],
      maxZoom: 15,
      animate: false,
    });
  }, [map, stops]);
  return null;
}

export default function RouteMap({
  stops,
  days,
  tileUrl,
  tileAttribution,
  dataAttribution = '',
}: {
  stops: RouteStop[];
  days: string[];
  tileUrl: string;
  tileAttribution: string;
  dataAttribution?: string;
}) {
  const color = (day: string) => DAY_COLORS[days.indexOf(day) % DAY_COLORS.length]!;
  return (
    <MapContainer
      center={[39.5, -98.35]}
      zoom={4}
      scrollWheelZoom={false}
      className="prospect-map team-map"
      aria-label="Map of the rep's visits in the period"
    >
      {tileUrl && <TileLayer url={tileUrl} attribution={tileAttribution} />}
      <DataAttribution text={dataAttribution} tiles={tileAttribution} />
      {days.map((day) => {
        const points = stops.filter((s) => s.day === day).map((s) => [s.lat, s.lng] as L.LatLngTuple);
        return points.length > 1 ? (
          <Polyline key={day} positions={points} pathOptions={{ color: color(day), weight: 3 }} />
        ) : null;
      })}
      {stops.map((s, i) => (
        <CircleMarker
          key={i}
          center={[s.lat, s.lng]}
          radius={7}
          pathOptions={{
            color: color(s.day),
            weight: 2,
            fillColor: s.verified ? color(s.day) : '#ffffff',
            fillOpacity: 1,
          }}
        >
          <Popup>{s.label}</Popup>
        </CircleMarker>
      ))}
      <FitBounds stops={stops} />
    </MapContainer>
  );
}
