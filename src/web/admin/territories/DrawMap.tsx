// The territory form's drawing map, loaded only when the Territories section draws (Leaflet and Leaflet-Geoman
// are its own chunk, never part of the main screen's JavaScript). The admin clicks points to outline an area,
// closes it (double-click, a click on the first point, or Finish), drags its points to change it, or clears
// it. The other territories show faintly underneath, so neighbours can be drawn edge to edge. From the keyboard, the
// arrow keys move the map under a crosshair and a button places a corner at its centre.
import { useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { MapContainer, Polygon, TileLayer, useMap } from 'react-leaflet';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
// Leaflet-Geoman reads the global L that Leaflet sets when it loads (imported just above).
import '@geoman-io/leaflet-geoman-free';
import '@geoman-io/leaflet-geoman-free/dist/leaflet-geoman.css';
import DataAttribution from '../../map/DataAttribution';
import { positionsOf, type Territory, type TerritoryArea } from '../../main/territories/territories';

/** What the form's buttons ask of the map. */
export interface DrawControls {
  draw: () => void;
  /** A corner at the map's centre (under the crosshair): drawing from the keyboard, the map moved by arrow keys. */
  addCenter: () => void;
  finish: () => void;
  toggleEdit: () => void;
  clear: () => void;
  moveTo: (lat: number, lng: number) => void;
}

/** What the map tells the form: drawing or editing under way, points placed so far. */
export interface DrawState {
  drawing: boolean;
  editing: boolean;
  points: number;
}

export interface DrawMapProps {
  /** The area when the form opened (editing a territory), or null. */
  initial: TerritoryArea | null;
  /** The other territories, drawn faintly. */
  others: readonly Territory[];
  /** Where to look when there is nothing drawn: the admin's own search centre. */
  center: { lat: number; lng: number };
  tileUrl: string;
  tileAttribution: string;
  dataAttribution?: string;
  onChange: (area: TerritoryArea | null) => void;
  onState: (state: DrawState) => void;
  controls: Ref<DrawControls>;
}

/** The drawn polygons as one GeoJSON area: a Polygon for one, a MultiPolygon for several. */
function areaOf(layers: readonly L.Polygon[]): TerritoryArea | null {
  const polygons = layers.map(
    (l) => (l.toGeoJSON(7).geometry as GeoJSON.Polygon).coordinates as [number, number][][],
  );
  if (polygons.length === 0) return null;
  if (polygons.length === 1) return { type: 'Polygon', coordinates: polygons[0]! };
  return { type: 'MultiPolygon', coordinates: polygons };
}

const DRAWN_STYLE: L.PathOptions = { color: '#e8590c', weight: 3, fillOpacity: 0.15 };

function Drawing(props: Pick<DrawMapProps, 'initial' | 'onChange' | 'onState' | 'controls'>) {
  const map = useMap();
  const layers = useRef<L.Polygon[]>([]);
  const working = useRef<L.Layer | null>(null);
  const state = useRef<DrawState>({ drawing: false, editing: false, points: 0 });
  const { onChange, onState } = props;
  const report = (patch: Partial<DrawState>) => {
    state.current = { ...state.current, ...patch };
    onState(state.current);
  };
  const changed = () => onChange(areaOf(layers.current));

  useEffect(() => {
    map.pm.setGlobalOptions({
      allowSelfIntersection: false,
      finishOn: 'dblclick',
      // Not Enter: Leaflet-Geoman listens for it on the whole page, so Enter on the form's own buttons (Add corner
      // at the centre) would close the outline early. Finish, a double-click or the first corner close it.
      finishOnEnter: false,
      exitModeOnEscape: true,
      // Points go exactly where clicked (snapping pulled a corner toward the lines being drawn).
      snappable: false,
      pathOptions: DRAWN_STYLE,
      templineStyle: { color: '#e8590c' },
      hintlineStyle: { color: '#e8590c', dashArray: [5, 5] },
    });
    map.doubleClickZoom.disable();
    const track = (layer: L.Polygon) => {
      layer.on('pm:edit', changed);
      layers.current.push(layer);
    };
    if (props.initial) {
      for (const rings of positionsOf(props.initial)) track(L.polygon(rings, DRAWN_STYLE).addTo(map));
      const bounds = L.featureGroup(layers.current).getBounds();
      if (bounds.isValid()) map.fitBounds(bounds, { padding: [24, 24], animate: false });
    }
    const onCreate = (e: { layer: L.Layer }) => {
      if (e.layer instanceof L.Polygon) track(e.layer);
      changed();
    };
    const onDrawStart = (e: { workingLayer: L.Layer }) => {
      working.current = e.workingLayer;
      e.workingLayer.on('pm:vertexadded pm:vertexremoved', () =>
        report({ points: (e.workingLayer as L.Polyline).getLatLngs().length }),
      );
      report({ drawing: true, points: 0 });
    };
    const onDrawEnd = () => {
      working.current = null;
      report({ drawing: false, points: 0 });
    };
    const onEditToggle = (e: { enabled: boolean }) => report({ editing: e.enabled });
    map.on('pm:create', onCreate);
    map.on('pm:drawstart', onDrawStart);
    map.on('pm:drawend', onDrawEnd);
    map.on('pm:globaleditmodetoggled', onEditToggle);
    return () => {
      map.off('pm:create', onCreate);
      map.off('pm:drawstart', onDrawStart);
      map.off('pm:drawend', onDrawEnd);
      map.off('pm:globaleditmodetoggled', onEditToggle);
      for (const l of layers.current) l.remove();
      layers.current = [];
    };
    // Set up once: the initial area is read when the map opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [map]);

  useImperativeHandle(props.controls, () => ({
    draw: () => {
      if (map.pm.globalEditModeEnabled()) map.pm.disableGlobalEditMode();
      map.pm.enableDraw('Polygon');
    },
    addCenter: () => {
      // Leaflet-Geoman places a corner on the map's click; the same event at the centre places one there.
      if (state.current.drawing) map.fire('click', { latlng: map.getCenter() });
    },
    finish: () => {
      // Leaflet-Geoman finishes a shape from its own toolbar and the Enter key with this method; the form's
      // Finish button does the same once three points are placed.
      const shape = map.pm.Draw.Polygon as unknown as { _finishShape?: () => void };
      if (state.current.points >= 3) shape._finishShape?.();
    },
    toggleEdit: () => {
      if (map.pm.globalDrawModeEnabled()) map.pm.disableDraw();
      if (map.pm.globalEditModeEnabled()) map.pm.disableGlobalEditMode();
      else map.pm.enableGlobalEditMode({ allowSelfIntersection: false });
    },
    clear: () => {
      if (map.pm.globalDrawModeEnabled()) map.pm.disableDraw();
      if (map.pm.globalEditModeEnabled()) map.pm.disableGlobalEditMode();
      for (const l of layers.current) l.remove();
      layers.current = [];
      changed();
    },
    moveTo: (lat, lng) => map.setView([lat, lng], Math.max(map.getZoom(), 14), { animate: false }),
  }));
  return null;
}

export default function DrawMap(props: DrawMapProps) {
  const [start] = useState(() => {
    const drawn = props.initial ?? null;
    const all = [...(drawn ? [drawn] : []), ...props.others.map((t) => t.area)].flatMap((a) =>
      positionsOf(a).flatMap((rings) => rings[0] ?? []),
    );
    return all.length > 0 ? L.latLngBounds(all) : null;
  });
  return (
    <MapContainer
      center={[props.center.lat, props.center.lng]}
      zoom={13}
      bounds={start ?? undefined}
      boundsOptions={{ padding: [24, 24] }}
      doubleClickZoom={false}
      className="territory-map"
      aria-label="Map to draw the territory on"
    >
      {props.tileUrl && <TileLayer url={props.tileUrl} attribution={props.tileAttribution} />}
      <DataAttribution text={props.dataAttribution ?? ''} tiles={props.tileAttribution} />
      {props.others.map((t) => (
        <Polygon
          key={t.id}
          positions={positionsOf(t.area)}
          pathOptions={{
            color: '#495057',
            weight: 1,
            dashArray: '4 4',
            fillOpacity: 0.05,
            pmIgnore: true,
          }}
          interactive={false}
        />
      ))}
      <Drawing
        initial={props.initial}
        onChange={props.onChange}
        onState={props.onState}
        controls={props.controls}
      />
    </MapContainer>
  );
}
