// How many hours a week a business is open, from its OSM opening_hours value (the `opening_hours` package).
// Pure: the value is evaluated over one fixed reference week, so the answer never depends on today's date.
import OpeningHours from 'opening_hours';

/** Monday 2024-02-05 00:00 to the next Monday, local fields: a week without public holidays or a clock change. */
const WEEK_START = new Date(2024, 1, 5);
const WEEK_END = new Date(2024, 1, 12);

const cache = new Map<string, number | null>();

/**
 * Hours a week the value says the place is open (0..168), or null when it is missing or cannot be parsed. Parsing
 * costs about a millisecond, so each distinct value is evaluated once per process (most businesses share a few
 * dozen common values).
 */
export function weeklyOpenHours(value: string | null | undefined): number | null {
  const text = value?.trim();
  if (!text) return null;
  const hit = cache.get(text);
  if (hit !== undefined) return hit;
  let hours: number | null = null;
  try {
    // No holiday context (PH counts as unknown), ignore warnings (mode 0: time ranges only).
    const oh = new OpeningHours(text, null, 0);
    const [open] = oh.getOpenDuration(WEEK_START, WEEK_END);
    hours = Math.max(0, Math.min(168, open / 3_600_000));
  } catch {
    hours = null;
  }
  if (cache.size >= 10_000) cache.clear();
  cache.set(text, hours);
  return hours;
}
