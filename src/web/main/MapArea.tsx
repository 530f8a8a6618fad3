import { Component, lazy, memo, Suspense, type ReactNode } from 'react';
import type { ProspectMapProps } from '../map/ProspectMap';
import { mapServiceName } from '../format';

const ProspectMap = lazy(() => import('../map/ProspectMap'));

/** 'Loading {maps service}...' while the map code loads. */
function Placeholder({ service }: { service: string }) {
  return (
    <div className="map-placeholder" role="status" data-testid="map-placeholder">
      Loading {service}...
    </div>
  );
}

/** If the map code fails to load, the placeholder stays and the error is logged. */
class MapBoundary extends Component<{ children: ReactNode; fallback: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: unknown) {
    console.error('The map failed to load', error);
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

/** The same props: the centre by value (the screen passes a new object each render), the rest by identity. */
function sameProps(a: ProspectMapProps, b: ProspectMapProps): boolean {
  return (Object.keys({ ...a, ...b }) as (keyof ProspectMapProps)[]).every((key) =>
    key === 'center' ? a.center.lat === b.center.lat && a.center.lng === b.center.lng : a[key] === b[key],
  );
}

/**
 * The map renders again only when what it shows changes, not on every answer that reaches the main screen
 * (saved list, call log, advertisers): re-rendering its markers and their info cards each time would add to
 * the screen's blocking time on a phone.
 */
export const MapArea = memo(function MapArea(props: ProspectMapProps) {
  const placeholder = <Placeholder service={mapServiceName(props.tileAttribution, props.tileUrl)} />;
  return (
    <MapBoundary fallback={placeholder}>
      <Suspense fallback={placeholder}>
        <ProspectMap {...props} />
      </Suspense>
    </MapBoundary>
  );
}, sameProps);
