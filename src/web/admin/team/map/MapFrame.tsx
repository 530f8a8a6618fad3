import { Suspense, type ReactNode } from 'react';
import { useConfig } from '../../../session';

/** The tiles and credits the tab's maps show, from /api/config ('' until it has loaded). */
export function useMapTiles() {
  const config = useConfig();
  return {
    tileUrl: config.data?.map.tileUrl ?? '',
    tileAttribution: config.data?.map.tileAttribution ?? '',
    dataAttribution: config.data?.map.dataAttribution ?? '',
  };
}

/** Holds a lazily loaded map at the tab's map height (team.css), with a placeholder while Leaflet loads. */
export function MapFrame({ children }: { children: ReactNode }) {
  return (
    <div className="map-wrap team-map-wrap">
      <Suspense fallback={<div className="map-placeholder">Loading the map...</div>}>{children}</Suspense>
    </div>
  );
}
