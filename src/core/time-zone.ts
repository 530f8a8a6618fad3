// Clocks in IANA time zones, for every place that shows or counts time the way a rep reads it: export dates,
// the digest hour, opening hours, the Team tab's days. Intl does the zone arithmetic from the runtime's own
// time-zone database; a date library (date-fns-tz, Luxon) would wrap the same Intl calls and add a dependency to
// the browser bundle, so this module is the one thin layer over it.

/** The wall-clock fields of an instant in a zone (month 1–12, hour 0–23). */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** Whether this runtime knows `zone` as an IANA time zone (e.g. 'America/Chicago', 'UTC'). */
export function isTimeZone(zone: string): boolean {
  if (!zone || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** `zone` when this runtime knows it, UTC otherwise: the zone of a request's optional `tz`. */
export function zoneOrUtc(zone: string | undefined): string {
  return zone && isTimeZone(zone) ? zone : 'UTC';
}

/**
 * This runtime's own IANA zone (e.g. 'America/Chicago'), UTC when it cannot tell. In the browser it is the rep's:
 * sent with exports, follow-ups and the Team tab so their days and times are local.
 */
export function runtimeTimeZone(): string {
  const now = Date.now();
  if (runtimeZone && now - runtimeZone.readAt < RUNTIME_ZONE_TTL_MS) return runtimeZone.zone;
  let zone = 'UTC';
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    // An engine without Intl time zones: UTC.
  }
  runtimeZone = { zone, readAt: now };
  return zone;
}

// Making a formatter to ask for the zone costs a phone tens of milliseconds, and a screen renders the due count
// many times: the zone is read once a minute, often enough to follow a rep who drives into another zone.
const RUNTIME_ZONE_TTL_MS = 60_000;
let runtimeZone: { zone: string; readAt: number } | undefined;

// A formatter is costly to make (tens of microseconds) and a batch asks for the same few zones many times.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall-clock fields of an instant (epoch ms) in a zone. Throws a RangeError for an unknown zone. */
export function wallClock(ms: number, timeZone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(ms))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The zone's offset from UTC at an instant, in milliseconds (east positive). */
export function zoneOffsetMs(ms: number, timeZone: string): number {
  const w = wallClock(ms, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - (ms - (((ms % 1000) + 1000) % 1000));
}

/** The local calendar date 'YYYY-MM-DD' of an instant in a zone. */
export function localDateOf(ms: number, timeZone: string): string {
  const w = wallClock(ms, timeZone);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;
}

/** An instant as 'YYYY-MM-DD HH:MM' on a zone's clock. */
export function localMinute(ms: number, timeZone: string): string {
  const w = wallClock(ms, timeZone);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)} ${pad(w.hour)}:${pad(w.minute)}`;
}
