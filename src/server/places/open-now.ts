// "Open now" from an OSM opening_hours value (the `opening_hours` package), evaluated at the business's own
// wall-clock time. The package reads a Date's local fields, so we hand it a Date whose local fields are the
// time at the business: the zone comes from the US state (addr:state) when known, else from the longitude
// (solar offset), which is right to the hour for most places and never worse than an hour or two.
import OpeningHours from 'opening_hours';
import { wallClock } from '../../core/time-zone.js';

/** Main time zone of each US state (and DC, PR). */
const US_STATE_ZONES: Readonly<Record<string, string>> = {
  AL: 'America/Chicago', AK: 'America/Anchorage', AZ: 'America/Phoenix', AR: 'America/Chicago',
  CA: 'America/Los_Angeles', CO: 'America/Denver', CT: 'America/New_York', DE: 'America/New_York',
  DC: 'America/New_York', FL: 'America/New_York', GA: 'America/New_York', HI: 'Pacific/Honolulu',
  ID: 'America/Boise', IL: 'America/Chicago', IN: 'America/Indiana/Indianapolis', IA: 'America/Chicago',
  KS: 'America/Chicago', KY: 'America/New_York', LA: 'America/Chicago', ME: 'America/New_York',
  MD: 'America/New_York', MA: 'America/New_York', MI: 'America/Detroit', MN: 'America/Chicago',
  MS: 'America/Chicago', MO: 'America/Chicago', MT: 'America/Denver', NE: 'America/Chicago',
  NV: 'America/Los_Angeles', NH: 'America/New_York', NJ: 'America/New_York', NM: 'America/Denver',
  NY: 'America/New_York', NC: 'America/New_York', ND: 'America/Chicago', OH: 'America/New_York',
  OK: 'America/Chicago', OR: 'America/Los_Angeles', PA: 'America/New_York', RI: 'America/New_York',
  SC: 'America/New_York', SD: 'America/Chicago', TN: 'America/Chicago', TX: 'America/Chicago',
  UT: 'America/Denver', VT: 'America/New_York', VA: 'America/New_York', WA: 'America/Los_Angeles',
  WV: 'America/New_York', WI: 'America/Chicago', WY: 'America/Denver', PR: 'America/Puerto_Rico',
}; // prettier-ignore

/** The IANA zone used for a business: its US state's, else the solar offset of its longitude. */
export function zoneFor(lng: number, state?: string | null): string {
  const byState = state ? US_STATE_ZONES[state.trim().toUpperCase()] : undefined;
  if (byState) return byState;
  const offset = Math.max(-12, Math.min(14, Math.round(lng / 15)));
  // Etc/GMT zones have inverted signs: Etc/GMT+8 is UTC-8.
  return offset === 0 ? 'Etc/UTC' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}

/** A Date whose local fields (getHours, getDay...) read the wall-clock time of `zone` at `instant`. */
export function zonedDate(instant: Date, zone: string): Date {
  const w = wallClock(instant.getTime(), zone);
  return new Date(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
}

const parsed = new Map<string, OpeningHours | null>();

function parse(value: string): OpeningHours | null {
  if (parsed.has(value)) return parsed.get(value) ?? null;
  let oh: OpeningHours | null = null;
  try {
    // No holiday context: the value is evaluated without public-holiday rules (PH is treated as unknown).
    oh = new OpeningHours(value, null, 0);
  } catch {
    oh = null;
  }
  if (parsed.size > 5000) parsed.clear();
  parsed.set(value, oh);
  return oh;
}

/**
 * Whether a business with this opening_hours value is open at `now`, at its own local time; null when the
 * value is missing, unparseable or says the state is unknown at that moment.
 */
export function openNow(
  value: string | null | undefined,
  where: { lng: number; state?: string | null },
  now: Date = new Date(),
  /** Wall-clock Dates by zone for this `now`; pass one map per batch to convert each zone once. */
  zoneCache?: Map<string, Date>,
): boolean | null {
  if (!value?.trim()) return null;
  const oh = parse(value.trim());
  if (!oh) return null;
  try {
    const zone = zoneFor(where.lng, where.state);
    let local = zoneCache?.get(zone);
    if (!local) {
      local = zonedDate(now, zone);
      zoneCache?.set(zone, local);
    }
    if (oh.getUnknown(local)) return null;
    return oh.getState(local);
  } catch {
    return null;
  }
}
