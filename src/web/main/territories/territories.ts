// The territories the signed-in user gets (a rep: the ones they are assigned to; an admin: all of them), read once
// by the main screen for the map's outlines and the scan settings' "Scan a territory". The Admin Panel's
// Territories section writes them and invalidates this key.
import { useQuery } from '@tanstack/react-query';
import type { Territory, TerritoryArea } from '../../../core/api/territories';
import { call } from '../../http';

export type { Territory, TerritoryArea };

export const TERRITORIES_KEY = ['territories'] as const;

export const territoriesApi = {
  list: async () => (await call('GET /api/territories')).territories,
};

/** No territories: the same empty list each time, so what reads it does not render again. */
export const NO_TERRITORIES: readonly Territory[] = Object.freeze([]);

export function useTerritories() {
  const query = useQuery({
    queryKey: TERRITORIES_KEY,
    queryFn: territoriesApi.list,
    // Territories change rarely (an admin edits them): an hour, and again whenever the admin section saves.
    staleTime: 60 * 60 * 1000,
  });
  return query.data ?? NO_TERRITORIES;
}

/** A territory's area as Leaflet positions: per polygon, its rings (outer first, then holes) of [lat, lng]. */
export function positionsOf(area: TerritoryArea): [number, number][][][] {
  const polygons = area.type === 'Polygon' ? [area.coordinates] : area.coordinates;
  return polygons.map((rings) =>
    rings.map((ring) => ring.map(([lng, lat]) => [lat, lng] as [number, number])),
  );
}
