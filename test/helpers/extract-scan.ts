// A scan of an OpenStreetMap extract without a database: the same steps the server takes for the `local`
// provider (import rows -> nearest 500 of the requested types inside the radius -> clean-up (cleanCandidates)
// -> scoring -> prefilter -> rank), so the ranking report (`npm run bench -- ranking`) and the ranking tests
// judge exactly what a rep would see. Used by tests and benchmarks only.
import { ALL_GROUPS, placeTypesForGroups } from '../../src/core/categories';
import { CitySpread, countLocations, locationsOf, referenceInput } from '../../src/core/market';
import { buildMarketReference, type BrandIndex, type ScoreReference } from '../../src/core/scoring';
import { haversineMiles, type LatLng } from '../../src/core/geo';
import { rankProspects, type AnalysisResult } from '../../src/core/scoring';
import type { Business } from '../../src/core/types';
import { readOsmBusinesses } from '../../src/server/places/pbf-reader';
import { placeRow } from '../../src/server/places/local-store';
import { rowToBusiness } from '../../src/server/places/local';
import { matchesTypes } from '../../src/server/places/provider';
import { cleanCandidates, PROVIDER_MAX_RESULTS } from '../../src/server/scans/service';
import { isPrefiltered } from '../../src/server/scans/analysis';
import { getBrandIndex } from '../../src/core/scoring/nsi';
import { profileVersion } from '../../src/core/scoring/profile';

/**
 * Every business of an extract, as the local provider hands it to a scan after an import: with its stored profile
 * (made under the brand index given, by default the server's; `profiles: false` leaves them out, as for rows
 * imported before profiles) and the number of places each business has in the extract (the market).
 */
export async function loadExtract(
  file: string,
  { brandIndex = getBrandIndex(), profiles = true }: { brandIndex?: BrandIndex; profiles?: boolean } = {},
): Promise<Business[]> {
  const out: Business[] = [];
  const at = new Date('2026-01-01T12:00:00Z');
  const version = profiles ? profileVersion(brandIndex) : undefined;
  await readOsmBusinesses(file, (batch) => {
    for (const poi of batch) {
      out.push(rowToBusiness(placeRow(poi, at.toISOString(), brandIndex), at, undefined, version));
    }
    return Promise.resolve();
  });
  const counts = countLocations(out);
  const spread = new CitySpread();
  for (const b of out) spread.add(b.name, b.website, b.lat, b.lng);
  const cities = spread.done();
  for (const b of out) {
    const n = locationsOf(counts, b.name);
    if (n > 1) b.locations = n;
    if (cities.of(b.name, b.website)) b.manyCities = true;
  }
  return out;
}

/** The market's reference population: every business of the kinds a scan returns, scored where it stands. */
export function marketReference(all: readonly Business[], brandIndex?: BrandIndex): ScoreReference | null {
  return buildMarketReference(
    all.map(referenceInput).filter((i) => i !== null),
    'local',
    brandIndex ? { brandIndex, now: new Date('2026-01-01T12:00:00Z') } : {},
  );
}

export interface ExtractScanOptions {
  radiusMiles?: number;
  /** Category groups; all when absent. */
  groups?: readonly string[];
  showAll?: boolean;
}

export interface RankedRow {
  business: Business;
  distance: number;
  analysis: AnalysisResult;
  score: number;
  name: string;
}

/** The candidates of a scan at `center`: the nearest 500 of the requested types inside the radius, cleaned. */
export function scanCandidates(all: readonly Business[], center: LatLng, opts: ExtractScanOptions = {}) {
  const radius = opts.radiusMiles ?? 1;
  const types = placeTypesForGroups((opts.groups ?? ALL_GROUPS) as Parameters<typeof placeTypesForGroups>[0]);
  const near = all
    .filter((b) => matchesTypes(b, types))
    .map((b) => ({ b, d: haversineMiles(center, b) }))
    .filter((x) => x.d < radius)
    .sort((a, b) => a.d - b.d || (a.b.id < b.b.id ? -1 : 1))
    .slice(0, PROVIDER_MAX_RESULTS)
    .map((x) => x.b);
  return cleanCandidates(near, center, radius);
}

/** Rank candidates with a scorer (the server's ScoreFn shape), prefiltered as a default scan is. */
export function rankCandidates(
  candidates: readonly Business[],
  center: LatLng,
  score: (b: Business[], c: LatLng) => { analysis(): AnalysisResult }[],
  opts: ExtractScanOptions = {},
): RankedRow[] {
  const analyses = score([...candidates], center);
  const rows = candidates.map((business, i) => {
    const analysis = analyses[i]!.analysis();
    return {
      business,
      distance: haversineMiles(center, business),
      analysis,
      score: analysis.score,
      name: business.name,
    };
  });
  return rankProspects(rows.filter((r) => opts.showAll || !isPrefiltered(r.analysis)));
}

/** The point with the most businesses of the requested types within `radiusMiles` (searched on a grid). */
export function busiestPoint(all: readonly Business[], radiusMiles = 1): LatLng {
  const types = placeTypesForGroups(ALL_GROUPS);
  const pts = all.filter((b) => matchesTypes(b, types));
  // Candidate centres: a 0.005° grid over the middle of the businesses.
  const lats = pts.map((p) => p.lat).sort((a, b) => a - b);
  const lngs = pts.map((p) => p.lng).sort((a, b) => a - b);
  const q = (xs: number[], p: number) => xs[Math.floor((xs.length - 1) * p)] ?? 0;
  let best: LatLng = { lat: q(lats, 0.5), lng: q(lngs, 0.5) };
  let bestN = -1;
  for (let lat = q(lats, 0.05); lat <= q(lats, 0.95); lat += 0.005) {
    for (let lng = q(lngs, 0.05); lng <= q(lngs, 0.95); lng += 0.005) {
      const c = { lat, lng };
      let n = 0;
      for (const p of pts) if (haversineMiles(c, p) < radiusMiles) n++;
      if (n > bestN) {
        bestN = n;
        best = { lat: Math.round(lat * 1e4) / 1e4, lng: Math.round(lng * 1e4) / 1e4 };
      }
    }
  }
  return best;
}
