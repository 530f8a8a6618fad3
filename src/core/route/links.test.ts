import { describe, expect, it } from 'vitest';
import { appleMapsLinks, GOOGLE_MAX_WAYPOINTS, googleMapsLinks, point, routeLinks, wazeLinks } from './links';

const start = { lat: 33.5207, lng: -86.8025 };
const stops = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ lat: 33.5 + i / 100, lng: -86.8 - i / 100 }));

describe('route links', () => {
  it('writes coordinates with six decimals', () => {
    expect(point({ lat: 33.5, lng: -86.123456789 })).toBe('33.500000,-86.123457');
  });

  it('one Google Maps link for up to 10 stops: origin, 9 waypoints at most, destination', () => {
    const [link, ...rest] = googleMapsLinks(start, stops(10));
    expect(rest).toEqual([]);
    expect(link!.label).toBe('Google Maps');
    const url = new URL(link!.url);
    expect(`${url.origin}${url.pathname}`).toBe('https://www.google.com/maps/dir/');
    expect(url.searchParams.get('api')).toBe('1');
    expect(url.searchParams.get('origin')).toBe('33.520700,-86.802500');
    expect(url.searchParams.get('destination')).toBe(point(stops(10)[9]!));
    const waypoints = url.searchParams.get('waypoints')!.split('|');
    expect(waypoints).toHaveLength(GOOGLE_MAX_WAYPOINTS);
    expect(waypoints).toEqual(stops(9).map(point));
    expect(url.searchParams.get('travelmode')).toBe('driving');
  });

  it('a single stop has no waypoints', () => {
    const url = new URL(googleMapsLinks(start, stops(1))[0]!.url);
    expect(url.searchParams.has('waypoints')).toBe(false);
    expect(url.searchParams.get('destination')).toBe(point(stops(1)[0]!));
  });

  it('splits 25 stops into legs of 10, each starting at the previous destination', () => {
    const all = stops(25);
    const links = googleMapsLinks(start, all);
    expect(links.map((l) => l.label)).toEqual([
      'Google Maps: stops 1–10',
      'Google Maps: stops 11–20',
      'Google Maps: stops 21–25',
    ]);
    const urls = links.map((l) => new URL(l.url).searchParams);
    expect(urls[1]!.get('origin')).toBe(point(all[9]!));
    expect(urls[1]!.get('destination')).toBe(point(all[19]!));
    expect(urls[2]!.get('origin')).toBe(point(all[19]!));
    expect(urls[2]!.get('waypoints')!.split('|')).toEqual(all.slice(20, 24).map(point));
    for (const u of urls) expect(u.get('waypoints')!.split('|').length).toBeLessThanOrEqual(9);
    // Every stop is visited exactly once across the links.
    const visited = urls.flatMap((u) => [...u.get('waypoints')!.split('|'), u.get('destination')]);
    expect(visited).toEqual(all.map(point));
  });

  it('11 stops: a second link with the last stop alone and no waypoints', () => {
    const links = googleMapsLinks(start, stops(11));
    expect(links).toHaveLength(2);
    expect(links[1]!.label).toBe('Google Maps: stop 11');
    expect(new URL(links[1]!.url).searchParams.has('waypoints')).toBe(false);
  });

  it('Apple Maps: one link per leg, saddr the previous stop', () => {
    const all = stops(3);
    const links = appleMapsLinks(start, all);
    expect(links.map((l) => l.label)).toEqual([
      'Apple Maps: stop 1',
      'Apple Maps: stop 2',
      'Apple Maps: stop 3',
    ]);
    const second = new URL(links[1]!.url);
    expect(second.origin).toBe('https://maps.apple.com');
    expect(second.searchParams.get('saddr')).toBe(point(all[0]!));
    expect(second.searchParams.get('daddr')).toBe(point(all[1]!));
    expect(second.searchParams.get('dirflg')).toBe('d');
    expect(new URL(links[0]!.url).searchParams.get('saddr')).toBe(point(start));
    expect(appleMapsLinks(start, stops(1))[0]!.label).toBe('Apple Maps');
  });

  it('Waze: one navigate link per stop', () => {
    const links = wazeLinks(stops(2));
    expect(links[0]!.url).toBe('https://waze.com/ul?ll=33.500000%2C-86.800000&navigate=yes');
    expect(new URL(links[1]!.url).searchParams.get('ll')).toBe(point(stops(2)[1]!));
    expect(links.map((l) => l.label)).toEqual(['Waze: stop 1', 'Waze: stop 2']);
  });

  it('routeLinks: Google, then Apple, then Waze; nothing for no stops', () => {
    expect(routeLinks(start, [])).toEqual([]);
    expect(routeLinks(start, stops(2)).map((l) => l.service)).toEqual([
      'google',
      'apple',
      'apple',
      'waze',
      'waze',
    ]);
  });
});
