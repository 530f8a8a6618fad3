// The areas with imported business data drawn on a map (loaded lazily with Leaflet): one rectangle per area, the
// box its extract covers, labelled with its name; the view fits them all, or the one picked in the list.
import { useEffect, useMemo, useState } from 'react';
import { MapContainer, Rectangle, TileLayer, Tooltip, useMap } from 'react-leaflet';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import type { DataArea } from './areasApi';
import DataAttribution from '../map/DataAttribution';

export interface AreasMapProps {
  areas: DataArea[];
  tileUrl: string;
  tileAttribution: string;
  dataAttribution?: string;
  /** The area to zoom to (picked in the list); the nonce repeats a pick of the same one. */
  focus: { key: string; nonce: number } | null;
  onPick: (key: string) => void;
}

const boundsOf = (a: DataArea): L.LatLngBoundsExpression | null =>
  a.bbox
    ? [
        [a.bbox.minLat, a.bbox.minLng],
        [a.bbox.maxLat, a.bbox.maxLng],
      ]
    : null;

function FitAreas({ areas, focus }: Pick<AreasMapProps, 'areas' | 'focus'>) {
  const map = useMap();
  // The boxes as text: the view moves when what is drawn changes, not on every poll's new array.
  const boxes = areas
    .map((a) => (a.bbox ? [a.bbox.minLat, a.bbox.minLng, a.bbox.maxLat, a.bbox.maxLng].join(',') : ''))
    .join(';');
  useEffect(() => {
    const picked = focus && areas.find((a) => a.key === focus.key);
    const list = picked ? [picked] : areas;
    const all = list.map(boundsOf).filter((b): b is L.LatLngBoundsExpression => b !== null);
    if (all.length === 0) {
      map.setView([20, 0], 1, { animate: false });
      return;
    }
    const bounds = L.latLngBounds(all.flatMap((b) => b as L.LatLngTuple[]));
    map.fitBounds(bounds, { padding: [16, 16], maxZoom: 13, animate: false });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `boxes` stands for `areas`
  }, [map, boxes, focus]);
  return null;
}

const isCoarsePointer = () => window.matchMedia?.('(pointer: coarse)').matches ?? false;

export default function AreasMap({
  areas,
  tileUrl,
  tileAttribution,
  dataAttribution = '',
  focus,
  onPick,
}: AreasMapProps) {
  const [touch] = useState(isCoarsePointer);
  const drawn = useMemo(() => areas.filter((a) => a.bbox), [areas]);
  return (
    <MapContainer
      center={[20, 0]}
      zoom={1}
      // One finger scrolls the page on a phone; two move the map (as on the main screen).
      dragging={!touch}
      scrollWheelZoom={false}
      className="areas-map"
      aria-label="Map of the areas with business data"
    >
      {tileUrl && <TileLayer url={tileUrl} attribution={tileAttribution} />}
      <DataAttribution text={dataAttribution} tiles={tileAttribution} />
      <FitAreas areas={areas} focus={focus} />
      {drawn.map((a) => (
        <Rectangle
          key={a.key}
          bounds={boundsOf(a)!}
          pathOptions={{
            color: focus?.key === a.key ? '#e8590c' : '#1c7ed6',
            weight: 2,
            fillOpacity: 0.12,
          }}
          // Set when Leaflet creates the path (pathOptions only restyle it).
          className="area-box"
          eventHandlers={{ click: () => onPick(a.key) }}
        >
          <Tooltip sticky>{a.name}</Tooltip>
        </Rectangle>
      ))}
    </MapContainer>
  );
}
