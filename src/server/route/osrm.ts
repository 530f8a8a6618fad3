// Road distances from an OSRM server's table service: one request for the whole matrix,
// GET {ROUTING_URL}/table/v1/driving/{lng,lat;lng,lat;...}?annotations=distance,duration
// (http://project-osrm.org/docs/v5.24.0/api/#table-service). Distances in metres, durations in seconds.
import { z } from 'zod';
import type { LatLng } from '../../core/geo.js';

const tableAnswer = z.object({
  code: z.string(),
  message: z.string().optional(),
  distances: z.array(z.array(z.number().nullable())).optional(),
  durations: z.array(z.array(z.number().nullable())).optional(),
});

export interface RoadMatrix {
  /** metres[i][j] from point i to point j. */
  metres: number[][];
  /** seconds[i][j]. */
  seconds: number[][];
}

export class RoutingError extends Error {}

const coordinate = (p: LatLng) => `${p.lng.toFixed(6)},${p.lat.toFixed(6)}`;

function square(rows: (number | null)[][] | undefined, n: number, what: string): number[][] {
  if (!rows || rows.length !== n || rows.some((r) => r.length !== n)) {
    throw new RoutingError(`the routing server's ${what} table is not ${n}×${n}`);
  }
  return rows.map((r) =>
    r.map((v) => {
      if (v === null || !Number.isFinite(v) || v < 0) {
        throw new RoutingError('the routing server found no road between some of these stops');
      }
      return v;
    }),
  );
}

/** The road distance and duration matrix of `points`, or a RoutingError (unreachable, timeout, bad answer). */
export async function roadMatrix(
  baseUrl: string,
  points: readonly LatLng[],
  timeoutMs: number,
): Promise<RoadMatrix> {
  const url = `${baseUrl.replace(/\/+$/, '')}/table/v1/driving/${points.map(coordinate).join(';')}?annotations=distance,duration`;
  let body: unknown;
  try {
    const res = await fetch(url, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: 'application/json' },
    });
    body = await res.json().catch(() => null);
    if (!res.ok && !(body && typeof body === 'object' && 'code' in body)) {
      throw new RoutingError(`the routing server answered HTTP ${res.status}`);
    }
  } catch (error) {
    if (error instanceof RoutingError) throw error;
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw new RoutingError(
      timedOut
        ? `the routing server did not answer within ${timeoutMs} ms`
        : 'the routing server could not be reached',
    );
  }
  const parsed = tableAnswer.safeParse(body);
  if (!parsed.success) throw new RoutingError('the routing server gave an answer that is not a table');
  if (parsed.data.code !== 'Ok') {
    throw new RoutingError(
      `the routing server answered ${parsed.data.code}${parsed.data.message ? `: ${parsed.data.message}` : ''}`,
    );
  }
  return {
    metres: square(parsed.data.distances, points.length, 'distance'),
    seconds: square(parsed.data.durations, points.length, 'duration'),
  };
}
