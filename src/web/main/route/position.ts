// The phone's position for a route's start and a visit's check: navigator.geolocation with a short
// limit. Never throws and never waits longer than `timeoutMs`: no position is an answer (null), so logging a
// visit or planning a route is never held up by GPS.
import type { VisitPosition } from '../../../core/api';

/** How long a visit or a route waits for the phone's position. */
export const POSITION_WAIT_MS = 4_000;

export function currentPosition(timeoutMs = POSITION_WAIT_MS): Promise<VisitPosition | null> {
  if (typeof navigator === 'undefined' || !('geolocation' in navigator)) return Promise.resolve(null);
  return new Promise((resolve) => {
    let done = false;
    const finish = (value: VisitPosition | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(value);
    };
    // The browser's own timeout does not cover the time a permission prompt stays open: this one does.
    const timer = setTimeout(() => finish(null), timeoutMs);
    try {
      navigator.geolocation.getCurrentPosition(
        (pos) =>
          finish({
            lat: pos.coords.latitude,
            lng: pos.coords.longitude,
            accuracyM: Math.min(100_000, Math.max(0, pos.coords.accuracy)),
          }),
        () => finish(null),
        // A fresh fix: a cached one may be from the last stop (a visit is checked against where the phone is now).
        { enableHighAccuracy: true, timeout: timeoutMs, maximumAge: 0 },
      );
    } catch {
      finish(null);
    }
  });
}
