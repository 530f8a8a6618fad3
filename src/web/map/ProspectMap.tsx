// The main screen's map (loaded lazily: Leaflet is the largest dependency). Tiles come from the configured tile
// server; without one reachable the markers and the radius circle still show on a plain background.
import {
  Fragment,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type RefObject,
} from 'react';
import {
  Circle,
  MapContainer,
  Marker,
  Polyline,
  Popup,
  TileLayer,
  useMap,
  useMapEvents,
} from 'react-leaflet';
import MarkerClusterGroup from 'react-leaflet-cluster';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import 'leaflet.markercluster';
import 'leaflet.markercluster/dist/MarkerCluster.css';
import { Badge, Group, Rating, Text } from '@mantine/core';
import type { Prospect } from '../../core/types';
import type { PipelineEntry } from '../../core/api';
import { pipelineLine } from '../../core/pipeline';
import { MAP_ZOOM, METERS_PER_MILE } from '../defaults';
import { fullAddress, scoreColor, scoreHex, scorePercent, scoreTextHex, stableId } from '../format';
import { useOnline } from '../offline/useOnline';
import { TILES_MISSING } from '../offline/texts';
import DataAttribution from './DataAttribution';
import { fanOut } from './fan-out';
import { TerritoryOutlines } from './TerritoryOutlines';
import { positionsOf, type Territory } from '../main/territories/territories';

export interface ProspectMapProps {
  center: { lat: number; lng: number };
  radiusMiles: number;
  prospects: Prospect[];
  tileUrl: string;
  tileAttribution: string;
  /** The imported business data's credit ('' for none). */
  dataAttribution?: string;
  /** A single click: report where. */
  onPick: (lat: number, lng: number) => void;
  /** A double click or a moved 'Your Location' marker: the new centre. */
  onCenter: (lat: number, lng: number, how: 'double-click' | 'drag') => void;
  /** Open this prospect's info card (from a card's number); the nonce repeats a request for the same one. */
  focus?: { id: string; nonce: number } | null;
  /** The team pipeline by business id: the info card shows who works it; another rep's marker
   * looks taken. */
  pipeline?: Map<string, PipelineEntry>;
  /** The signed-in user's id, to tell their own businesses from another rep's. */
  meId?: string;
  /** The territories whose outlines are drawn (the user's own; an admin's: all). */
  territories?: readonly Territory[];
  /** The territory the scan covers instead of the circle: no circle is drawn, and new results fit it. */
  scanTerritory?: Territory | null;
}

/** Whose the business is, as the marker shows it. */
type Claim = 'mine' | 'other' | 'none';
function claimOf(entry: PipelineEntry | undefined, meId: string | undefined): Claim {
  if (!entry || entry.ownerId === null) return 'none';
  return entry.ownerId === meId ? 'mine' : 'other';
}

function FocusMarker(props: {
  focus: ProspectMapProps['focus'];
  markers: Map<string, L.Marker>;
  cluster: RefObject<L.MarkerClusterGroup | null>;
}) {
  const map = useMap();
  const { focus, markers, cluster } = props;
  useEffect(() => {
    if (!focus) return;
    const marker = markers.get(focus.id);
    if (!marker) return;
    // A marker of the cluster group may be inside a cluster, not on the map: the group zooms or pans until it
    // shows on its own, then it opens (no setView first: a pan to where the map already is never ends).
    if (cluster.current?.hasLayer(marker)) {
      cluster.current.zoomToShowLayer(marker, () => marker.openPopup());
      return;
    }
    map.setView(marker.getLatLng(), Math.max(map.getZoom(), 15), { animate: false });
    marker.openPopup();
  }, [map, focus, markers, cluster]);
  return null;
}

/**
 * Markers closer than this many pixels are drawn as one cluster with their count (50-70 numbered markers in
 * a small area pile up unreadably). The numbered markers are 28 px wide, so only ones that would cover
 * each other's numbers are grouped; a click or tap on a cluster zooms in to its markers.
 */
const CLUSTER_RADIUS_PX = 36;
/** The deepest zoom (OpenStreetMap's standard tiles go to 19); below it clusters still split. */
const MAX_ZOOM = 19;

/**
 * A cluster: "+N", how many more businesses it holds, on a grey card unlike the round ranked markers (an integer we
 * produce; no business text goes into HTML).
 */
function clusterIcon(cluster: L.MarkerCluster): L.DivIcon {
  const count = Math.trunc(cluster.getChildCount());
  return L.divIcon({
    className: 'prospect-cluster',
    html: `<span class="prospect-cluster-count">+${String(count)}</span><span class="sr-only"> more businesses, zoom in</span>`,
    iconSize: [40, 28],
    iconAnchor: [20, 14],
  });
}

const youIcon = L.divIcon({
  className: 'you-marker',
  html: '<span class="you-marker-dot"></span>',
  iconSize: [22, 22],
  iconAnchor: [11, 11],
});

const numberIcons = new Map<string, L.DivIcon>();
function numberIcon(n: number, score: number, claim: Claim = 'none'): L.DivIcon {
  const key = `${n}-${scoreColor(score)}-${claim}`;
  let icon = numberIcons.get(key);
  if (!icon) {
    // Only the number (an integer we produce) goes into the marker's HTML; business text never does.
    icon = L.divIcon({
      // Another rep's business: a dashed ring and faded, so nobody calls it twice.
      className: `prospect-marker prospect-marker-${scoreColor(score)}${claim === 'other' ? ' prospect-marker-taken' : ''}`,
      html: `<span>${String(Math.trunc(n))}</span>`,
      iconSize: [28, 28],
      iconAnchor: [14, 14],
      popupAnchor: [0, -14],
    });
    numberIcons.set(key, icon);
  }
  return icon;
}

function FollowCenter({ lat, lng }: { lat: number; lng: number }) {
  const map = useMap();
  useEffect(() => {
    map.setView([lat, lng], map.getZoom(), { animate: false });
  }, [map, lat, lng]);
  return null;
}

/**
 * When a new result list arrives, show the whole scan circle (downtown results crowd together at the initial
 * zoom 12). Loading further pages of the same list leaves the view alone.
 */
function FitResults(props: {
  firstId: string | undefined;
  lat: number;
  lng: number;
  radiusMiles: number;
  territory: Territory | null;
}) {
  const map = useMap();
  const { firstId, lat, lng, radiusMiles, territory } = props;
  useEffect(() => {
    if (!firstId) return;
    const bounds = territory
      ? L.latLngBounds(positionsOf(territory.area).flatMap((rings) => rings[0] ?? []))
      : L.latLng(lat, lng).toBounds(radiusMiles * METERS_PER_MILE * 2);
    map.fitBounds(bounds, { animate: false, padding: [8, 8] });
    // Only a new list (its first prospect changed) refits; the centre and radius are read at that moment.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [map, firstId]);
  return null;
}

/** A phone or tablet: one finger should scroll the page past the 500 px map, not pan it. */
const isCoarsePointer = () => window.matchMedia?.('(pointer: coarse)').matches ?? false;

/**
 * On touch screens the map pans under two fingers only (Leaflet's pinch also moves it); a one-finger swipe
 * scrolls the page and shows this hint for a moment.
 */
function TwoFingerHint() {
  const map = useMap();
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const container = map.getContainer();
    let timer: number | undefined;
    const onMove = (e: TouchEvent) => {
      const onMarker = e.target instanceof Element && e.target.closest('.leaflet-marker-icon') !== null;
      if (e.touches.length !== 1 || onMarker) {
        setShown(false);
        return;
      }
      setShown(true);
      window.clearTimeout(timer);
      timer = window.setTimeout(() => setShown(false), 1500);
    };
    container.addEventListener('touchmove', onMove, { passive: true });
    return () => {
      container.removeEventListener('touchmove', onMove);
      window.clearTimeout(timer);
    };
  }, [map]);
  return shown ? (
    <div className="map-hint" role="status" data-testid="map-hint">
      Use two fingers to move the map
    </div>
  ) : null;
}

function ClickHandlers(props: Pick<ProspectMapProps, 'onPick' | 'onCenter'>) {
  useMapEvents({
    click: (e) => props.onPick(e.latlng.lat, e.latlng.lng),
    dblclick: (e) => props.onCenter(e.latlng.lat, e.latlng.lng, 'double-click'),
  });
  return null;
}

/** How many of the best prospects are drawn on their own, never inside a cluster. */
const ALWAYS_SHOWN = 10;

interface ProspectMarkerProps {
  prospect: Prospect;
  /** Where the marker is drawn, when moved off its business to keep clear of another best marker. */
  drawnAt?: L.LatLngLiteral;
  rank: number;
  total: number;
  entry: PipelineEntry | undefined;
  meId: string | undefined;
  /** The markers by prospect id, for the focus from a card. */
  markers: Map<string, L.Marker>;
}

/** Leaflet cannot change a marker's title in place: a new rank or claim is a new marker. */
function markerKey(p: Prospect, index: number, props: Pick<ProspectMapProps, 'pipeline' | 'meId'>): string {
  return `${index + 1}:${p.id}:${claimOf(props.pipeline?.get(stableId(p)), props.meId)}`;
}

/** A prospect's numbered marker and its info card. */
function ProspectMarker({ prospect: p, drawnAt, rank, total, entry, meId, markers }: ProspectMarkerProps) {
  const claim = claimOf(entry, meId);
  return (
    <Marker
      position={drawnAt ?? [p.lat, p.lng]}
      icon={numberIcon(rank, p.score, claim)}
      title={`${rank}. ${p.name}${claim === 'other' && entry ? ` (${entry.ownerName ?? ''} · ${entry.stage})` : ''}`}
      alt={`${rank}. ${p.name}`}
      keyboard
      // The best-ranked markers lie on top where they overlap.
      zIndexOffset={(total - rank + 1) * 10}
      ref={(marker) => {
        if (marker) markers.set(p.id, marker);
        else markers.delete(p.id);
      }}
    >
      <Popup>
        <div className="info-card" data-testid="info-card">
          <Text fw={700} size="sm">
            {p.name}
          </Text>
          <Text size="xs" c="dimmed">
            {p.category}
          </Text>
          <Text size="xs" mt={2}>
            {fullAddress(p)}
          </Text>
          {entry && entry.ownerId !== null && (
            <Text size="xs" fw={600} mt={2} data-testid="info-pipeline">
              {pipelineLine(entry)}
            </Text>
          )}
          <Group gap={6} mt={6}>
            <Badge color={scoreHex(p.score)} style={{ color: scoreTextHex(p.score) }} size="sm">
              {scorePercent(p.score)}
            </Badge>
            {p.rating !== undefined && p.rating > 0 && (
              <Rating
                value={p.rating}
                fractions={2}
                readOnly
                size="xs"
                // A picture of the rating to assistive technology: a plain div may not carry a label.
                role="img"
                aria-label={`Rating ${p.rating}`}
              />
            )}
            {p.openNow && (
              // Filled and dark: the light teal variant's text misses the 4.5:1 contrast of small text.
              <Badge color="teal.9" size="sm">
                Open Now
              </Badge>
            )}
          </Group>
        </div>
      </Popup>
    </Marker>
  );
}

/** A marker's width and a hair: best markers closer than this on screen are moved apart. */
const MARKER_GAP_PX = 30;
/** From a moved best marker's centre to the nearest thing drawn on its spot: half a marker, half a cluster. */
const CLEARANCE_PX = 36;

/**
 * The best prospects' markers, never inside a cluster and never on top of each other: at each zoom, markers that
 * would overlap are laid around their shared spot, with a thin line back to each business.
 */
function BestMarkers(props: {
  prospects: Prospect[];
  /** What else is drawn on the map, which the best markers keep clear of: the other markers, the centre. */
  others: readonly L.LatLngLiteral[];
  markerProps: (p: Prospect, index: number) => ProspectMarkerProps;
  keyOf: (p: Prospect, index: number) => string;
}) {
  const map = useMap();
  // Read after subscribing too: the map may have zoomed to the results before this listened.
  const zoom = useSyncExternalStore(
    useCallback(
      (changed: () => void) => {
        map.on('zoomend', changed);
        return () => void map.off('zoomend', changed);
      },
      [map],
    ),
    () => map.getZoom(),
  );
  const drawnAt = useMemo(() => {
    const spots = props.prospects.map((p) => map.project([p.lat, p.lng], zoom));
    const others = props.others.map((o) => map.project(o, zoom));
    return fanOut(spots, MARKER_GAP_PX, others, CLEARANCE_PX).map((point, i) =>
      point.x === spots[i]!.x && point.y === spots[i]!.y
        ? undefined
        : map.unproject([point.x, point.y], zoom),
    );
  }, [map, zoom, props.prospects, props.others]);
  return props.prospects.map((p, i) => {
    const moved = drawnAt[i];
    return (
      <Fragment key={props.keyOf(p, i)}>
        {moved && (
          <Polyline
            positions={[[p.lat, p.lng], moved]}
            pathOptions={{ color: '#495057', weight: 1, opacity: 0.8, className: 'marker-leader' }}
            interactive={false}
          />
        )}
        <ProspectMarker {...props.markerProps(p, i)} drawnAt={moved} />
      </Fragment>
    );
  });
}

export default function ProspectMap(props: ProspectMapProps) {
  const { center, radiusMiles, prospects } = props;
  const [markers] = useState(() => new Map<string, L.Marker>());
  const cluster = useRef<L.MarkerClusterGroup | null>(null);
  const [touch] = useState(isCoarsePointer);
  const youHandlers = useMemo(
    () => ({
      dragend: (e: L.LeafletEvent) => {
        const ll = (e.target as L.Marker).getLatLng();
        props.onCenter(ll.lat, ll.lng, 'drag');
      },
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [props.onCenter],
  );
  // Tiles the service worker has not kept fail offline; the map says so instead of going grey.
  const online = useOnline();
  const [tilesMissing, setTilesMissing] = useState(false);
  const tileHandlers = useMemo(
    () => ({
      tileerror: () => {
        if (!navigator.onLine) setTilesMissing(true);
      },
    }),
    [],
  );
  useEffect(() => {
    // Back online: the missing tiles load now; a later offline spell says so again if they are missing.
    const reset = () => setTilesMissing(false);
    window.addEventListener('online', reset);
    return () => window.removeEventListener('online', reset);
  }, []);
  const best = useMemo(() => prospects.slice(0, ALWAYS_SHOWN), [prospects]);
  const others = useMemo(
    () => [center, ...prospects.slice(ALWAYS_SHOWN).map((p) => ({ lat: p.lat, lng: p.lng }))],
    // The centre by value: the screen passes a new object each render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [center.lat, center.lng, prospects],
  );
  const markerProps = (p: Prospect, index: number): ProspectMarkerProps => ({
    prospect: p,
    rank: index + 1,
    total: prospects.length,
    entry: props.pipeline?.get(stableId(p)),
    meId: props.meId,
    markers,
  });
  return (
    <>
      <MapContainer
        center={[center.lat, center.lng]}
        zoom={MAP_ZOOM}
        // The clustering needs a maximum zoom before any tile layer is there (the tile URL comes with /api/config).
        maxZoom={MAX_ZOOM}
        zoomControl
        doubleClickZoom={false}
        dragging={!touch}
        attributionControl
        className="prospect-map"
        aria-label="Map of the scan area"
      >
        {props.tileUrl && (
          <TileLayer url={props.tileUrl} attribution={props.tileAttribution} eventHandlers={tileHandlers} />
        )}
        <DataAttribution text={props.dataAttribution ?? ''} tiles={props.tileAttribution} />
        <FollowCenter lat={center.lat} lng={center.lng} />
        <ClickHandlers onPick={props.onPick} onCenter={props.onCenter} />
        {touch && <TwoFingerHint />}
        <FocusMarker focus={props.focus} markers={markers} cluster={cluster} />
        <FitResults
          firstId={prospects[0]?.id}
          lat={center.lat}
          lng={center.lng}
          radiusMiles={radiusMiles}
          territory={props.scanTerritory ?? null}
        />
        {props.territories && props.territories.length > 0 && (
          <TerritoryOutlines territories={props.territories} scanned={props.scanTerritory?.id ?? null} />
        )}
        {!props.scanTerritory && (
          <Circle
            center={[center.lat, center.lng]}
            radius={radiusMiles * METERS_PER_MILE}
            pathOptions={{ color: '#1c7ed6', weight: 2, fillColor: '#339af0', fillOpacity: 0.12 }}
            interactive={false}
          />
        )}
        <Marker
          position={[center.lat, center.lng]}
          icon={youIcon}
          title="Your Location"
          alt="Your Location"
          draggable
          // Dragged with a pointer only (Leaflet has no keyboard dragging): not a keyboard stop or a button, so
          // a cluster drawn over it (its count must stay readable) is not a covered control. From the keyboard
          // the centre moves with the address, GPS or the map's double-click.
          keyboard={false}
          eventHandlers={youHandlers}
          zIndexOffset={1000}
        />
        {/* The best are never inside a cluster: they are what the rep calls first. */}
        <BestMarkers
          prospects={best}
          others={others}
          markerProps={markerProps}
          keyOf={(p, i) => markerKey(p, i, props)}
        />
        <MarkerClusterGroup
          ref={cluster}
          maxClusterRadius={CLUSTER_RADIUS_PX}
          iconCreateFunction={clusterIcon}
          showCoverageOnHover={false}
          spiderfyOnMaxZoom
          chunkedLoading
        >
          {prospects.slice(ALWAYS_SHOWN).map((p, i) => (
            <ProspectMarker
              key={markerKey(p, ALWAYS_SHOWN + i, props)}
              {...markerProps(p, ALWAYS_SHOWN + i)}
            />
          ))}
        </MarkerClusterGroup>
      </MapContainer>
      {tilesMissing && !online && (
        <div className="map-offline-note" role="status" data-testid="tiles-missing">
          {TILES_MISSING}
        </div>
      )}
    </>
  );
}
