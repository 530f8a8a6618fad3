// Links that open a planned route in the rep's navigation app: Google Maps multi-stop directions (at most 9
// waypoints per link, so a longer route is split into legs, each starting where the last ended), Apple Maps
// (one start and one destination per link: a link per leg) and Waze (one destination per link: a link per
// stop, navigating from wherever the phone is). Pure: coordinates in, URLs out.
import type { LatLng } from '../geo';

export type RouteService = 'google' | 'apple' | 'waze';

export interface RouteLink {
  service: RouteService;
  /** The button's text, e.g. "Google Maps", "Google Maps: stops 11–20", "Apple Maps: stop 3", "Waze: stop 3". */
  label: string;
  url: string;
}

/** Google Maps' documented limit of waypoints in one directions URL (Maps URLs, api=1). */
export const GOOGLE_MAX_WAYPOINTS = 9;

/** "33.520700,-86.802500": six decimals (about 10 cm) is more than any map app uses. */
export const point = (p: LatLng): string => `${p.lat.toFixed(6)},${p.lng.toFixed(6)}`;

const range = (from: number, to: number) => (from === to ? `stop ${from}` : `stops ${from}–${to}`);

/**
 * Google Maps directions links: origin, up to 9 waypoints and a destination each (10 stops a link); the next
 * link's origin is the previous link's destination. One link is labelled "Google Maps"; several name their stops.
 */
export function googleMapsLinks(start: LatLng, stops: readonly LatLng[]): RouteLink[] {
  const perLink = GOOGLE_MAX_WAYPOINTS + 1;
  const links: RouteLink[] = [];
  for (let from = 0; from < stops.length; from += perLink) {
    const chunk = stops.slice(from, from + perLink);
    const origin = from === 0 ? start : stops[from - 1]!;
    const params = new URLSearchParams({
      api: '1',
      origin: point(origin),
      destination: point(chunk[chunk.length - 1]!),
      travelmode: 'driving',
    });
    const waypoints = chunk.slice(0, -1);
    if (waypoints.length > 0) params.set('waypoints', waypoints.map(point).join('|'));
    links.push({
      service: 'google',
      label: stops.length <= perLink ? 'Google Maps' : `Google Maps: ${range(from + 1, from + chunk.length)}`,
      url: `https://www.google.com/maps/dir/?${params.toString()}`,
    });
  }
  return links;
}

/** Apple Maps: one link per leg, from the start (or the stop before) to each stop, driving. */
export function appleMapsLinks(start: LatLng, stops: readonly LatLng[]): RouteLink[] {
  return stops.map((stop, i) => {
    const params = new URLSearchParams({
      saddr: point(i === 0 ? start : stops[i - 1]!),
      daddr: point(stop),
      dirflg: 'd',
    });
    return {
      service: 'apple',
      label: stops.length === 1 ? 'Apple Maps' : `Apple Maps: ${range(i + 1, i + 1)}`,
      url: `https://maps.apple.com/?${params.toString()}`,
    };
  });
}

/** Waze: one link per stop (Waze navigates from the phone's own position to one destination). */
export function wazeLinks(stops: readonly LatLng[]): RouteLink[] {
  return stops.map((stop, i) => ({
    service: 'waze',
    label: stops.length === 1 ? 'Waze' : `Waze: ${range(i + 1, i + 1)}`,
    url: `https://waze.com/ul?${new URLSearchParams({ ll: point(stop), navigate: 'yes' }).toString()}`,
  }));
}

/** Every link of a route, Google first, then Apple, then Waze; none for a route without stops. */
export function routeLinks(start: LatLng, stops: readonly LatLng[]): RouteLink[] {
  if (stops.length === 0) return [];
  return [...googleMapsLinks(start, stops), ...appleMapsLinks(start, stops), ...wazeLinks(stops)];
}
