// The market a team imported: what a scan needs to know about a business beyond the business itself. Today one
// thing: how many places the same business has in the market (SPEC §9 "scale" for a local multi-location
// business). Pure; the server computes it over the imported places (src/server/places/market.ts), tests and
// benchmarks over an extract.
import { ALL_PLACE_TYPES, PLACE_TYPE_LABELS } from './categories';
import { normalizeName } from './dedup';

/** Places closer than this (degrees, rounded grid) are one place: a shop mapped as a node and as its building. */
const SAME_PLACE_DEGREES = 0.001;

const GENERIC_NAMES: ReadonlySet<string> = new Set([
  ...ALL_PLACE_TYPES.map((t) => normalizeName(t.replaceAll('_', ' '))),
  ...Object.values(PLACE_TYPE_LABELS).map((l) => normalizeName(l)),
  ...['dentist office', 'doctors office', 'law office', 'office', 'clinic', 'salon', 'barber', 'barbershop', 'gym', 'garage', 'school', 'bank', 'atm'].map(normalizeName),
]); // prettier-ignore

/** The key two places of one business share: the normalised name; null for names that say only what they are. */
export function locationKey(name: string): string | null {
  const key = normalizeName(name);
  if (key.length < 3 || GENERIC_NAMES.has(key)) return null;
  return key;
}

/**
 * How many distinct places each business name has: places within about 100 m of each other count once. Returns
 * counts only for names with two places or more.
 */
export function countLocations(
  items: Iterable<{ name: string; lat: number; lng: number }>,
): Map<string, number> {
  const cells = new Map<string, Set<string>>();
  for (const it of items) {
    const key = locationKey(it.name);
    if (!key || !Number.isFinite(it.lat) || !Number.isFinite(it.lng)) continue;
    const cell = `${Math.round(it.lat / SAME_PLACE_DEGREES)}:${Math.round(it.lng / SAME_PLACE_DEGREES)}`;
    let set = cells.get(key);
    if (!set) cells.set(key, (set = new Set()));
    set.add(cell);
  }
  const out = new Map<string, number>();
  for (const [key, set] of cells) if (set.size > 1) out.set(key, set.size);
  return out;
}
