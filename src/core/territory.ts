// A territory's geometry: checking an outline an admin drew, its area, whether a business lies inside it, its
// bounding box and circle, and the outline built from ZIP codes. Pure functions over GeoJSON ([lng, lat]).
import { area as turfArea } from '@turf/area';
import { bbox as turfBbox } from '@turf/bbox';
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import { circle } from '@turf/circle';
import { convex } from '@turf/convex';
import { kinks } from '@turf/kinks';
import { union } from '@turf/union';
import type { TerritoryArea } from './api/territories';
import { haversineMiles, type BoundingBox, type LatLng } from './geo';

/** Square metres in one square mile. */
const SQUARE_METERS_PER_SQUARE_MILE = 2_589_988.110336;

/** The most positions one outline may hold in all: the crossing check compares every edge with every other. */
export const MAX_TERRITORY_POSITIONS = 5_000;

/** The radius of the circle drawn around a ZIP code's centre when no imported address gives its shape. */
export const ZIP_CIRCLE_MILES = 1;

type Position = [number, number];
type Ring = Position[];

export const TERRITORY_CROSSES_ITSELF = "The territory's outline crosses itself.";
export const TERRITORY_RING_OPEN = "The territory's outline must end where it starts.";
export const TERRITORY_TOO_FEW_POINTS = "The territory's outline needs at least 3 different points.";
export const TERRITORY_NO_AREA = "The territory's outline encloses no area.";
export const TERRITORY_HOLE_OUTSIDE = 'A hole in the territory lies outside its outline.';
export const territoryTooManyPoints = (n: number) =>
  `The territory's outline has ${n.toLocaleString('en-US')} points; the most is ${MAX_TERRITORY_POSITIONS.toLocaleString('en-US')}.`;
export const territoryTooBig = (squareMiles: number, max: number) =>
  `The territory covers ${formatSquareMiles(squareMiles)} square miles; the most is ${formatSquareMiles(max)}.`;

const formatSquareMiles = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: n < 10 ? 1 : 0 });

/** The polygons of an area, each as its rings (outer first, then holes). */
export function polygonsOf(area: TerritoryArea): Ring[][] {
  return area.type === 'Polygon' ? [area.coordinates] : area.coordinates;
}

const samePosition = (a: Position, b: Position) => a[0] === b[0] && a[1] === b[1];

/** The ring without consecutive repeated positions (a double click while drawing); still closed. */
function withoutRepeats(ring: Ring): Ring {
  const out: Ring = [];
  for (const p of ring)
    if (out.length === 0 || !samePosition(out[out.length - 1]!, p)) out.push([p[0], p[1]]);
  return out;
}

/** Square miles the area covers (on the sphere, holes taken out). */
export function territorySquareMiles(area: TerritoryArea): number {
  return turfArea(area) / SQUARE_METERS_PER_SQUARE_MILE;
}

export type TerritoryCheck =
  { ok: true; area: TerritoryArea; squareMiles: number; box: BoundingBox } | { ok: false; error: string };

/**
 * Checks an outline: every ring closed, with at least 3 different points, no edge crossing another (holes
 * allowed, inside their outline), some area and at most `maxSquareMiles`. Answers the area with repeated
 * consecutive points removed, or the message that names the problem.
 */
export function checkTerritoryArea(area: TerritoryArea, maxSquareMiles: number): TerritoryCheck {
  const polygons = polygonsOf(area);
  const positions = polygons.reduce((n, rings) => n + rings.reduce((m, r) => m + r.length, 0), 0);
  if (positions > MAX_TERRITORY_POSITIONS) return { ok: false, error: territoryTooManyPoints(positions) };
  const cleaned: Ring[][] = [];
  for (const rings of polygons) {
    const out: Ring[] = [];
    for (const ring of rings) {
      if (ring.length < 2 || !samePosition(ring[0]!, ring[ring.length - 1]!)) {
        return { ok: false, error: TERRITORY_RING_OPEN };
      }
      const r = withoutRepeats(ring);
      const distinct = new Set(r.map((p) => `${p[0]},${p[1]}`));
      if (distinct.size < 3 || r.length < 4) return { ok: false, error: TERRITORY_TOO_FEW_POINTS };
      out.push(r);
    }
    cleaned.push(out);
  }
  const normalised: TerritoryArea =
    area.type === 'Polygon'
      ? { type: 'Polygon', coordinates: cleaned[0]! }
      : { type: 'MultiPolygon', coordinates: cleaned };
  if (kinks(normalised).features.length > 0) return { ok: false, error: TERRITORY_CROSSES_ITSELF };
  for (const rings of cleaned) {
    const outer: TerritoryArea = { type: 'Polygon', coordinates: [rings[0]!] };
    for (const hole of rings.slice(1)) {
      if (!booleanPointInPolygon(hole[0]!, outer)) return { ok: false, error: TERRITORY_HOLE_OUTSIDE };
    }
  }
  const squareMiles = territorySquareMiles(normalised);
  if (!(squareMiles > 0)) return { ok: false, error: TERRITORY_NO_AREA };
  if (squareMiles > maxSquareMiles) return { ok: false, error: territoryTooBig(squareMiles, maxSquareMiles) };
  return { ok: true, area: normalised, squareMiles, box: territoryBox(normalised) };
}

/** The smallest latitude/longitude box around the area. */
export function territoryBox(area: TerritoryArea): BoundingBox {
  const [minLng, minLat, maxLng, maxLat] = turfBbox(area);
  return { minLat, maxLat, minLng, maxLng };
}

/** The centre of the area's box and the distance in miles from it to the farthest point of the outline. */
export function territoryCircle(area: TerritoryArea): { center: LatLng; radiusMiles: number } {
  const box = territoryBox(area);
  const center = { lat: (box.minLat + box.maxLat) / 2, lng: (box.minLng + box.maxLng) / 2 };
  let radiusMiles = 0;
  for (const rings of polygonsOf(area)) {
    for (const [lng, lat] of rings[0]!)
      radiusMiles = Math.max(radiusMiles, haversineMiles(center, { lat, lng }));
  }
  return { center, radiusMiles };
}

/** True when the point lies inside the area or on its edge (not in a hole). */
export function isInTerritory(area: TerritoryArea, point: LatLng): boolean {
  return booleanPointInPolygon([point.lng, point.lat], area);
}

/**
 * A test for many points against one area: the box first, then the outline. For ranking every business of a
 * territory, where most candidates of the box query lie inside.
 */
export function territoryContains(area: TerritoryArea): (point: LatLng) => boolean {
  const box = territoryBox(area);
  return (p) =>
    p.lat >= box.minLat &&
    p.lat <= box.maxLat &&
    p.lng >= box.minLng &&
    p.lng <= box.maxLng &&
    booleanPointInPolygon([p.lng, p.lat], area);
}

/** What is known of one ZIP code: the imported street addresses carrying it, and the gazetteer's centre. */
export interface ZipShapeInput {
  zip: string;
  addresses: LatLng[];
  centroid: LatLng | null;
}

/**
 * The outline of a list of ZIP codes: per ZIP the convex hull of its imported addresses (when they span an area),
 * else a circle of ZIP_CIRCLE_MILES around the gazetteer's centre, all merged into one area. Answers the ZIP codes
 * known to neither instead.
 */
export function areaFromZips(
  zips: ZipShapeInput[],
): { ok: true; area: TerritoryArea } | { ok: false; unknown: string[] } {
  const shapes: TerritoryArea[] = [];
  const unknown: string[] = [];
  for (const z of zips) {
    const hull =
      z.addresses.length >= 3
        ? convex({
            type: 'MultiPoint',
            coordinates: z.addresses.map((p) => [p.lng, p.lat]),
          })
        : null;
    if (hull && territorySquareMiles(hull.geometry as TerritoryArea) > 0.01) {
      shapes.push(hull.geometry as TerritoryArea);
    } else if (z.centroid) {
      const c = circle([z.centroid.lng, z.centroid.lat], ZIP_CIRCLE_MILES, { units: 'miles', steps: 48 });
      shapes.push(c.geometry as TerritoryArea);
    } else if (z.addresses.length > 0) {
      const p = z.addresses[0]!;
      const c = circle([p.lng, p.lat], ZIP_CIRCLE_MILES, { units: 'miles', steps: 48 });
      shapes.push(c.geometry as TerritoryArea);
    } else {
      unknown.push(z.zip);
    }
  }
  if (unknown.length > 0) return { ok: false, unknown };
  if (shapes.length === 1) return { ok: true, area: roundArea(shapes[0]!) };
  const merged = union({
    type: 'FeatureCollection',
    features: shapes.map((geometry) => ({ type: 'Feature', properties: {}, geometry })),
  });
  if (!merged) return { ok: false, unknown: zips.map((z) => z.zip) };
  return { ok: true, area: roundArea(merged.geometry as TerritoryArea) };
}

/** Positions to 6 decimals (about 10 cm), as a drawn outline is stored; repeats that rounding made are removed. */
function roundArea(area: TerritoryArea): TerritoryArea {
  const round = (r: Ring): Ring =>
    withoutRepeats(r.map(([lng, lat]) => [Math.round(lng * 1e6) / 1e6, Math.round(lat * 1e6) / 1e6]));
  return area.type === 'Polygon'
    ? { type: 'Polygon', coordinates: (area.coordinates as Ring[]).map(round) }
    : { type: 'MultiPolygon', coordinates: (area.coordinates as Ring[][]).map((p) => p.map(round)) };
}
