import { Component, lazy, Suspense, type ReactNode } from 'react';
import type { ProspectMapProps } from '../map/ProspectMap';
import { mapServiceName } from '../format';

const ProspectMap = lazy(() => import('../map/ProspectMap'));

/** SPEC §2: 'Loading {maps service}...' while the map code loads. */
function Placeholder({ service }: { service: string }) {
  return (
    <div className="map-placeholder" role="status" data-testid="map-placeholder">
      Loading {service}...
    </div>
  );
}

/** SPEC §2: if the map code fails to load, the placeholder stays and the error is logged. */
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

export function MapArea(props: ProspectMapProps) {
  const placeholder = <Placeholder service={mapServiceName(props.tileAttribution, props.tileUrl)} />;
  return (
    <MapBoundary fallback={placeholder}>
      <Suspense fallback={placeholder}>
        <ProspectMap {...props} />
      </Suspense>
    </MapBoundary>
  );
}
