import { Component, lazy, Suspense, type ReactNode } from 'react';
import type { ProspectMapProps } from '../map/ProspectMap';

const ProspectMap = lazy(() => import('../map/ProspectMap'));

const placeholder = (
  <div className="map-placeholder" role="status">
    Loading map...
  </div>
);

/** SPEC §2: if the map code fails to load, the placeholder stays and the error is logged. */
class MapBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: unknown) {
    console.error('The map failed to load', error);
  }
  override render() {
    return this.state.failed ? placeholder : this.props.children;
  }
}

export function MapArea(props: ProspectMapProps) {
  return (
    <MapBoundary>
      <Suspense fallback={placeholder}>
        <ProspectMap {...props} />
      </Suspense>
    </MapBoundary>
  );
}
