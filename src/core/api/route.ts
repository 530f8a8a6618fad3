// Route for the day and visits that count (docs/PRODUCT.md, "Follow-ups, routes and the pipeline"):
// POST /api/route and GET /api/visits.
import { z } from 'zod';
import { isLocalDate } from '../local-days';
import { isoTime, requiredText, text } from './common';
import { endpoint } from './endpoint';
import { MAX_ROUTE_STOPS } from './limits';

export { MAX_ROUTE_STOPS } from './limits';

export const latLngSchema = z.object({
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
});

/** POST /api/route: where the rep starts (GPS, else the scan centre) and the businesses to visit. */
export const routeBody = z.object({
  start: latLngSchema,
  prospectIds: z.array(requiredText(300)).min(1).max(MAX_ROUTE_STOPS),
});
export type RouteRequest = z.infer<typeof routeBody>;

export const routeStopSchema = z.object({
  prospectId: z.string(),
  name: z.string(),
  address: z.string(),
  lat: z.number(),
  lng: z.number(),
  /** From the start or the stop before, in miles (straight line or by road: `source`). */
  legMiles: z.number(),
  /** Driving time of the leg in minutes; only with road distances. */
  legMinutes: z.number().nullable(),
});
export type RouteStop = z.infer<typeof routeStopSchema>;

export const routeLinkSchema = z.object({
  service: z.enum(['google', 'apple', 'waze']),
  label: z.string(),
  url: z.string(),
});
export type RouteLinkView = z.infer<typeof routeLinkSchema>;

export const routeAnswer = z.object({
  start: latLngSchema,
  /** The stops in visiting order. */
  stops: z.array(routeStopSchema),
  totalMiles: z.number(),
  totalMinutes: z.number().nullable(),
  /** 'roads': distances from the routing server (ROUTING_URL); 'straight': great-circle lines. */
  source: z.enum(['straight', 'roads']),
  /** Why the distances are straight lines when a routing server is configured (it failed or timed out). */
  note: z.string().optional(),
  /** Businesses asked for that are not on the route, each with why. */
  dropped: z.array(z.object({ prospectId: z.string(), reason: z.string() })),
  links: z.array(routeLinkSchema),
});
export type RouteAnswer = z.infer<typeof routeAnswer>;

/** The device's position sent with a "Visited" log (navigator.geolocation). */
export const visitPositionSchema = z.object({
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
  /** The position's accuracy radius in metres, as the browser reports it. */
  accuracyM: z.number().min(0).max(100_000),
});
export type VisitPosition = z.infer<typeof visitPositionSchema>;

/** GET /api/visits?date=YYYY-MM-DD&tz=Area/City: the signed-in rep's visits of one local day, in order. */
export const visitsQuery = z.object({
  date: z.string().max(10).refine(isLocalDate, 'must be a date like 2026-11-25'),
  tz: text(64).optional(),
});

export const visitSchema = z.object({
  id: z.string(),
  prospectId: z.string(),
  name: z.string(),
  address: z.string(),
  visitedAt: isoTime,
  verified: z.boolean(),
  /** Distance from the business's stored position in miles, when both positions are known. */
  distanceMiles: z.number().nullable(),
});
export type Visit = z.infer<typeof visitSchema>;

export const visitsAnswer = z.object({
  date: z.string(),
  timeZone: z.string(),
  visits: z.array(visitSchema),
});
export type VisitsAnswer = z.infer<typeof visitsAnswer>;

export const routeEndpoints = {
  'POST /api/route': endpoint({
    access: 'user',
    tags: ['route'],
    summary:
      'Order businesses the rep may see into the shortest open route from a start (straight lines, or roads via ROUTING_URL), with map-app links',
    body: routeBody,
    answers: { 200: routeAnswer },
  }),
  'GET /api/visits': endpoint({
    access: 'user',
    tags: ['route'],
    summary:
      "The rep's own visits of one day (date, in the IANA time zone tz, UTC by default), in the order logged",
    query: visitsQuery,
    answers: { 200: visitsAnswer },
  }),
};
