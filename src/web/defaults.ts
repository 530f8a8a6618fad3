import { ALL_GROUPS } from '../core/categories';
import { COUNT_MAX, COUNT_MIN } from '../core/api/limits';
import type { SearchSettings } from './api';

// Limits and defaults of the search controls, GPS, install prompt and map (docs/PRODUCT.md, "Limits").
export const RADIUS_MIN = 0.5;
export const RADIUS_MAX = 1.5;
export const RADIUS_STEP = 0.1;
export const RADIUS_DEFAULT = 1;
export const COUNT_DEFAULT = 20;
// The API's own limits, so the controls never offer what the server refuses.
export { COUNT_MAX, COUNT_MIN, MAX_LOADED } from '../core/api/limits';
export const GPS_TIMEOUT_MS = 10_000;
export const GPS_MAX_AGE_MS = 60_000;
export const INSTALL_PROMPT_DELAY_MS = 3000;
export const MAP_ZOOM = 12;
export const METERS_PER_MILE = 1609.34;

/** Birmingham, AL when the user has no saved search settings. */
export const DEFAULT_SETTINGS: SearchSettings = {
  lat: 33.5186,
  lng: -86.8104,
  label: 'Birmingham, AL',
  radiusMiles: RADIUS_DEFAULT,
  count: COUNT_DEFAULT,
  categories: [...ALL_GROUPS],
  spreadOut: false,
};

const clamp = (v: number, min: number, max: number) => Math.min(max, Math.max(min, v));

/** The saved settings, brought inside the sliders' ranges (the server accepts a wider range). */
export function initialSettings(saved: SearchSettings | null): SearchSettings {
  if (!saved) return DEFAULT_SETTINGS;
  return {
    lat: saved.lat,
    lng: saved.lng,
    label: saved.label || `${saved.lat.toFixed(4)}, ${saved.lng.toFixed(4)}`,
    radiusMiles: Math.round(clamp(saved.radiusMiles, RADIUS_MIN, RADIUS_MAX) * 10) / 10,
    count: Math.round(clamp(saved.count, COUNT_MIN, COUNT_MAX)),
    categories: saved.categories.filter((c) => (ALL_GROUPS as readonly string[]).includes(c)),
    spreadOut: saved.spreadOut === true,
  };
}
