// Visits that count: a "Visited" log from the phone is verified when the phone was within 0.1 mile of the
// business's stored position and the phone's fix was good enough to say so. Pure.
import { haversineMiles, type LatLng } from '../geo';

/** How near the business the phone must be, in miles. */
export const VISIT_RADIUS_MILES = 0.1;
/** The worst accuracy (metres, the browser's 95 % radius) still trusted: 0.1 mile, about 161 m. */
export const VISIT_MAX_ACCURACY_M = 161;

export interface VisitCheck {
  verified: boolean;
  /** Phone to business in miles; null when either position is unknown. */
  distanceMiles: number | null;
}

export function checkVisit(
  business: LatLng | null | undefined,
  phone: (LatLng & { accuracyM: number }) | null | undefined,
): VisitCheck {
  if (!business || !phone) return { verified: false, distanceMiles: null };
  const distanceMiles = haversineMiles(business, phone);
  return {
    verified: distanceMiles <= VISIT_RADIUS_MILES && phone.accuracyM <= VISIT_MAX_ACCURACY_M,
    distanceMiles,
  };
}
