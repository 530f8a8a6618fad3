// Route for the day: the businesses' positions from the server's records, a distance matrix (straight lines,
// or road distances from OSRM when ROUTING_URL is set, falling back to straight lines when it fails), the
// optimised visiting order (core/route/optimise.ts), leg and total distances, and the map-app links.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { CallLogTable } from '../db/schema.js';
import { badRequest } from '../http/errors.js';
import { haversineMiles, metersToMiles, type LatLng } from '../../core/geo.js';
import { startOfLocalDay, addDays } from '../../core/local-days.js';
import { routeLinks } from '../../core/route/links.js';
import { optimiseRoute } from '../../core/route/optimise.js';
import type { RouteAnswer, RouteRequest, Visit, VisitsAnswer } from '../../core/api/route.js';
import { knownBusinesses, type KnownBusiness } from './positions.js';
import { roadMatrix, RoutingError } from './osrm.js';
import { visitsBetween } from './repository.js';

export const NOTHING_TO_ROUTE = 'None of these businesses can be put on a route.';

const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;

interface Matrix {
  miles: number[][];
  minutes: number[][] | null;
  source: 'straight' | 'roads';
  note?: string;
}

async function distances(
  routing: Config['routing'],
  points: readonly LatLng[],
  log?: FastifyBaseLogger,
): Promise<Matrix> {
  const straight = () => points.map((a) => points.map((b) => haversineMiles(a, b)));
  if (!routing.url) return { miles: straight(), minutes: null, source: 'straight' };
  try {
    const roads = await roadMatrix(routing.url, points, routing.timeoutMs);
    return {
      miles: roads.metres.map((row) => row.map(metersToMiles)),
      minutes: roads.seconds.map((row) => row.map((s) => s / 60)),
      source: 'roads',
    };
  } catch (error) {
    const why = error instanceof RoutingError ? error.message : 'the routing server failed';
    log?.warn({ err: error }, 'routing server failed; straight-line distances used');
    return {
      miles: straight(),
      minutes: null,
      source: 'straight',
      note: `Road distances are not available (${why}): distances are straight lines.`,
    };
  }
}

export async function planRoute(
  db: Db,
  routing: Config['routing'],
  user: { id: string; admin: boolean },
  input: RouteRequest,
  log?: FastifyBaseLogger,
): Promise<RouteAnswer> {
  const ids = [...new Set(input.prospectIds.map((id) => id.trim()))];
  const { found, dropped } = await knownBusinesses(db, user, ids);
  const stops: KnownBusiness[] = ids.flatMap((id) => found.get(id) ?? []);
  const droppedList = [...dropped].map(([prospectId, reason]) => ({ prospectId, reason }));
  if (stops.length === 0) {
    throw badRequest(
      `${NOTHING_TO_ROUTE} ${droppedList.map((d) => `${d.prospectId}: ${d.reason}`).join('; ')}`,
    );
  }
  const points: LatLng[] = [input.start, ...stops];
  const matrix = await distances(routing, points, log);
  const { order } = optimiseRoute(matrix.miles);
  let at = 0;
  let totalMiles = 0;
  let totalMinutes = 0;
  const ordered = order.map((index) => {
    const stop = stops[index - 1]!;
    const legMiles = matrix.miles[at]![index]!;
    const legMinutes = matrix.minutes ? matrix.minutes[at]![index]! : null;
    totalMiles += legMiles;
    totalMinutes += legMinutes ?? 0;
    at = index;
    return {
      prospectId: stop.prospectId,
      name: stop.name,
      address: stop.address,
      lat: stop.lat,
      lng: stop.lng,
      legMiles: round(legMiles, 2),
      legMinutes: legMinutes === null ? null : round(legMinutes, 1),
    };
  });
  return {
    start: input.start,
    stops: ordered,
    totalMiles: round(totalMiles, 2),
    totalMinutes: matrix.minutes ? round(totalMinutes, 1) : null,
    source: matrix.source,
    ...(matrix.note ? { note: matrix.note } : {}),
    dropped: droppedList,
    links: routeLinks(input.start, ordered),
  };
}

function presentVisit(row: CallLogTable): Visit {
  const business = row.lat != null && row.lng != null ? { lat: row.lat, lng: row.lng } : null;
  const phone =
    row.visit_lat != null && row.visit_lng != null ? { lat: row.visit_lat, lng: row.visit_lng } : null;
  return {
    id: row.id,
    prospectId: row.prospect_id,
    name: row.name,
    address: row.address,
    visitedAt: row.created_at,
    verified: row.verified === 1,
    distanceMiles: business && phone ? round(haversineMiles(business, phone), 3) : null,
  };
}

/** The rep's visits of one local day (in `timeZone`), in the order they were logged. */
export async function visitsOfDay(
  db: Db,
  userId: string,
  date: string,
  timeZone: string,
): Promise<VisitsAnswer> {
  const from = new Date(startOfLocalDay(date, timeZone)).toISOString();
  const to = new Date(startOfLocalDay(addDays(date, 1), timeZone)).toISOString();
  const rows = await visitsBetween(db.kysely, userId, from, to);
  return { date, timeZone, visits: rows.map(presentVisit) };
}
