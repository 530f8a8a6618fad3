// The planned route, a lazy chunk with its Leaflet map: the numbered stops joined by a line from the
// start, the distance of each leg and in total (straight lines or by road), and the links that open the route
// in Google Maps (one multi-stop link per 10 stops), Apple Maps (a link per leg) and Waze (a link per stop).
import { useEffect, useMemo } from 'react';
import { MapContainer, Marker, Polyline, Popup, TileLayer, useMap } from 'react-leaflet';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { Alert, Badge, Button, Group, Stack, Text } from '@mantine/core';
import type { RouteAnswer } from '../../../core/api';
import DataAttribution from '../../map/DataAttribution';

export interface RouteViewProps {
  route: RouteAnswer;
  /** Where the route starts: "Your position" (GPS) or "Scan centre". */
  startLabel: string;
  tileUrl: string;
  tileAttribution: string;
  dataAttribution?: string;
}

const miles = (m: number) => `${m.toFixed(1)} mi`;
const minutes = (m: number | null) => (m === null ? '' : ` · ${Math.round(m)} min`);

const startIcon = L.divIcon({
  className: 'you-marker',
  html: '<span class="you-marker-dot"></span>',
  iconSize: [22, 22],
  iconAnchor: [11, 11],
});

const stopIcons = new Map<number, L.DivIcon>();
function stopIcon(n: number): L.DivIcon {
  let icon = stopIcons.get(n);
  if (!icon) {
    // Only the number (an integer we produce) goes into the marker's HTML; business text never does.
    icon = L.divIcon({
      className: 'prospect-marker route-marker',
      html: `<span>${String(Math.trunc(n))}</span>`,
      iconSize: [28, 28],
      iconAnchor: [14, 14],
      popupAnchor: [0, -14],
    });
    stopIcons.set(n, icon);
  }
  return icon;
}

/** Fit the map to the whole route once it is drawn (and when the dialog's size changes). */
function FitRoute({ points }: { points: [number, number][] }) {
  const map = useMap();
  useEffect(() => {
    const fit = () => {
      map.invalidateSize();
      // More room at the bottom: the attribution takes two lines on a phone.
      map.fitBounds(L.latLngBounds(points), {
        paddingTopLeft: [24, 24],
        paddingBottomRight: [24, 60],
        maxZoom: 16,
        animate: false,
      });
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(map.getContainer());
    return () => observer.disconnect();
  }, [map, points]);
  return null;
}

export default function RouteView({
  route,
  startLabel,
  tileUrl,
  tileAttribution,
  dataAttribution = '',
}: RouteViewProps) {
  const start: [number, number] = [route.start.lat, route.start.lng];
  const points = useMemo<[number, number][]>(
    () => [[route.start.lat, route.start.lng], ...route.stops.map((s): [number, number] => [s.lat, s.lng])],
    [route],
  );
  const google = route.links.filter((l) => l.service === 'google');
  const apple = route.links.filter((l) => l.service === 'apple');
  const waze = route.links.filter((l) => l.service === 'waze');
  const kind = route.source === 'roads' ? 'by road' : 'straight line';

  return (
    <Stack gap="sm" data-testid="route-view">
      <Text fw={600} data-testid="route-total">
        {route.stops.length} {route.stops.length === 1 ? 'stop' : 'stops'} · {miles(route.totalMiles)}
        {minutes(route.totalMinutes)} ({kind})
      </Text>
      {route.note && (
        <Alert color="yellow" variant="light" data-testid="route-note">
          {route.note}
        </Alert>
      )}
      {route.dropped.length > 0 && (
        <Alert color="yellow" variant="light" data-testid="route-dropped">
          Not on the route: {route.dropped.map((d) => `${d.prospectId} (${d.reason})`).join(', ')}
        </Alert>
      )}
      <div className="route-map" data-testid="route-map">
        <MapContainer
          center={start}
          zoom={13}
          zoomControl
          doubleClickZoom={false}
          attributionControl
          style={{ height: '100%', width: '100%' }}
        >
          {tileUrl && <TileLayer url={tileUrl} attribution={tileAttribution} />}
          <DataAttribution text={dataAttribution} tiles={tileAttribution} />
          <FitRoute points={points} />
          <Polyline positions={points} pathOptions={{ color: '#1c7ed6', weight: 4, opacity: 0.8 }} />
          <Marker position={start} icon={startIcon} title={startLabel} />
          {route.stops.map((s, i) => (
            <Marker
              key={s.prospectId}
              position={[s.lat, s.lng]}
              icon={stopIcon(i + 1)}
              title={`${i + 1}. ${s.name}`}
            >
              <Popup>
                <Text fw={600} size="sm">
                  {i + 1}. {s.name}
                </Text>
                <Text size="xs">{s.address}</Text>
              </Popup>
            </Marker>
          ))}
        </MapContainer>
      </div>
      <Group gap="xs" data-testid="route-google">
        {google.map((l) => (
          <Button key={l.url} component="a" href={l.url} target="_blank" rel="noopener noreferrer" size="sm">
            {l.label}
          </Button>
        ))}
      </Group>
      <Text size="sm" c="dimmed">
        Start: {startLabel}
      </Text>
      <ol className="route-stops" data-testid="route-stops">
        {route.stops.map((s, i) => (
          <li key={s.prospectId} className="route-stop" data-testid="route-stop">
            <Group gap="xs" wrap="nowrap" align="flex-start">
              <span className="prospect-marker route-marker card-number" aria-hidden="true">
                {i + 1}
              </span>
              <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
                <Text fw={600} size="sm" data-testid="route-stop-name">
                  {s.name}
                </Text>
                {s.address && (
                  <Text size="xs" c="dimmed">
                    {s.address}
                  </Text>
                )}
                <Badge variant="light" size="sm" tt="none" data-testid="route-leg">
                  {miles(s.legMiles)}
                  {minutes(s.legMinutes)}
                </Badge>
                <Group gap="xs">
                  {apple[i] && (
                    <Button
                      component="a"
                      href={apple[i].url}
                      target="_blank"
                      rel="noopener noreferrer"
                      size="xs"
                      variant="default"
                      aria-label={`Apple Maps to stop ${i + 1}, ${s.name}`}
                    >
                      Apple Maps
                    </Button>
                  )}
                  {waze[i] && (
                    <Button
                      component="a"
                      href={waze[i].url}
                      target="_blank"
                      rel="noopener noreferrer"
                      size="xs"
                      variant="default"
                      aria-label={`Waze to stop ${i + 1}, ${s.name}`}
                    >
                      Waze
                    </Button>
                  )}
                </Group>
              </Stack>
            </Group>
          </li>
        ))}
      </ol>
    </Stack>
  );
}
