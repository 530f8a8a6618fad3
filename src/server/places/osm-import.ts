// `npm run import:osm -- FILE`: stream an extract's businesses into the `places` table (.osm.pbf, or OSM XML as
// .osm, .osm.gz or .osm.bz2: pbf-reader.ts tells the format by the file's content).
// Rows go to a staging table first and move into `places` in one transaction at the end, so a failed,
// truncated or foreign file leaves the previous import exactly as it was. Re-importing upserts by OSM id.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database.js';
import { nowIso } from '../db/database.js';
import { readOsmBusinesses, readOsmHeader, type PbfProgress } from './pbf-reader.js';
import { areaIdentity, BoxBuilder, recordArea, type AreaRecord } from './areas.js';
import { commitStaged, countPlaces, discardStaged, placeRow, stageRows } from './local-store.js';
import { refreshMarket } from './market.js';
import { conflateStaged, type ConflationSummary } from './conflate.js';
import { getBrandIndex } from '../../core/scoring/nsi.js';
import { writeAddresses } from '../geocoding/addresses.js';

export interface ImportResult {
  file: string;
  nodes: number;
  ways: number;
  /** Business ways left out because some of their nodes are missing from the extract. */
  skippedWays: number;
  /** Addressed objects stored for the geocoder (a house number and a street). */
  addresses: number;
  /** Rows inserted or updated by this import. */
  upserted: number;
  /** Businesses merged with the same business of another source (Overture Maps), for the first time or again. */
  merged: ConflationSummary;
  /** Businesses in the table afterwards (this and earlier imports). */
  total: number;
  /** The market rebuilt after the import: multi-location businesses, and places in several cities. */
  market: { multiLocation: number; manyCities: number };
  /** The area recorded for the Admin Panel (places/areas.ts). */
  area: AreaRecord;
  ms: number;
}

export interface ImportOptions {
  progress?: (p: PbfProgress) => void;
  /** The region name the file was downloaded as (`--region us/alabama`): the area is that region's. */
  region?: string;
  /** Where the file came from (the download URL), recorded with the area; default: the file. */
  source?: string;
}

export async function importOsmFile(
  db: Db,
  file: string,
  options: ImportOptions | ((p: PbfProgress) => void) = {},
): Promise<ImportResult> {
  const opts: ImportOptions = typeof options === 'function' ? { progress: options } : options;
  const started = Date.now();
  const importId = randomUUID();
  const importedAt = nowIso();
  const identity = areaIdentity(file, opts.region);
  try {
    const box = new BoxBuilder();
    const read = await readOsmBusinesses(
      file,
      (batch) => {
        for (const poi of batch) box.add(poi.lat, poi.lng);
        return stageRows(
          db.kysely,
          importId,
          batch.map((poi) => placeRow(poi, importedAt)),
        );
      },
      opts.progress,
      1000,
      // Addresses are reference data for the geocoder, written as they come: a failed import may leave some
      // updated, never a business.
      (addresses) => writeAddresses(db.kysely, addresses),
    );
    // Read once the file is known to be whole (the reader checked its structure); a header that says nothing usable
    // leaves the box to the businesses and the date to the import.
    const header = await readOsmHeader(file).catch(() => ({ bbox: null, timestamp: null }));
    const brandIndex = getBrandIndex();
    let merged: ConflationSummary = { merged: 0, remerged: 0 };
    const upserted = await commitStaged(db.kysely, importId, async (trx) => {
      merged = await conflateStaged(trx, importId, 'osm', brandIndex);
    });
    // The area it covers: the extract's own bounding box when its header has one, else its businesses' box.
    const area: AreaRecord = {
      ...identity,
      source: opts.source ?? file,
      box: header.bbox ?? box.get(),
      businesses: upserted,
      dataDate: header.timestamp,
      importedAt,
    };
    await recordArea(db.kysely, area);
    // The market the import makes: places per business, businesses in several cities, every place's rank.
    const market = await refreshMarket(db, brandIndex);
    if (db.kind === 'postgres') {
      // Fresh statistics and visibility map: the planner picks the grid index and can answer from it alone.
      await db.pool?.query('VACUUM ANALYZE places');
    }
    return {
      file,
      ...read,
      upserted,
      merged,
      total: await countPlaces(db.kysely),
      market: {
        multiLocation: market.multiLocation,
        manyCities: market.manyCities,
      },
      area,
      ms: Date.now() - started,
    };
  } catch (error) {
    await discardStaged(db.kysely, importId).catch(() => undefined);
    throw error;
  }
}

/** One line of progress for the terminal. */
export function formatProgress(p: PbfProgress): string {
  const pct = p.totalBytes > 0 ? Math.min(100, Math.round((p.bytesRead / p.totalBytes) * 100)) : 0;
  const label = p.pass === 1 ? 'reading businesses' : 'placing buildings at their centroid';
  return `pass ${p.pass}/2 ${label}: ${pct}% (${(p.bytesRead / 1e6).toFixed(1)} of ${(p.totalBytes / 1e6).toFixed(1)} MB), ${p.elements.toLocaleString('en-US')} elements, ${p.businesses.toLocaleString('en-US')} businesses`;
}
