import {
  Component,
  lazy,
  memo,
  Suspense,
  useCallback,
  useEffect,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import type { ProspectMapProps } from '../map/ProspectMap';
import { mapServiceName } from '../format';

const ProspectMap = lazy(() => import('../map/ProspectMap'));

/**
 * 'Loading {maps service}...' while the map code loads; with `onNear`, also until the rep scrolls near it (it is
 * called once the placeholder comes within half a screen of the view).
 */
function Placeholder({ service, onNear }: { service: string; onNear?: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (!onNear || !element) return;
    if (typeof IntersectionObserver === 'undefined') return onNear();
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) onNear();
      },
      { rootMargin: '0px 0px 50% 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [onNear]);
  return (
    <div ref={ref} className="map-placeholder" role="status" data-testid="map-placeholder">
      Loading {service}...
    </div>
  );
}

/**
 * A phone's layout puts the map below the scan settings, out of the first screen: it is made when the rep scrolls
 * to it (or a card asks it to show a business), so Leaflet's set-up does not hold up the list a phone opens on.
 */
const belowTheFold = () => typeof window !== 'undefined' && window.matchMedia('(max-width: 48em)').matches;

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
  const service = mapServiceName(props.tileAttribution, props.tileUrl);
  const [near, setNear] = useState(() => !belowTheFold());
  const onNear = useCallback(() => setNear(true), []);
  const placeholder = <Placeholder service={service} />;
  // A card's number asks the map to show its business: the map is made then, and stays.
  if (props.focus && !near) setNear(true);
  if (!near && !props.focus) return <Placeholder service={service} onNear={onNear} />;
  return (
    <MapBoundary fallback={placeholder}>
      <Suspense fallback={placeholder}>
        <ProspectMap {...props} />
      </Suspense>
    </MapBoundary>
  );
}, sameProps);
