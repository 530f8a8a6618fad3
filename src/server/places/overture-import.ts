// `npm run import:overture -- FILE.parquet` (or `--bbox W,S,E,N` / `--region NAME` from a release on the mirror):
// Overture Maps places into the `places` table, the way the OSM import does it (osm-import.ts): rows staged, then
// moved into `places` in one transaction at the end, so a failed, damaged or foreign file leaves the previous
// import exactly as it was; the area recorded (areas.ts) and the market rebuilt (market.ts). Ids are
// `overture:<GERS id>`, so importing the same file again updates the same rows.
//
// A row has the shape of an OSM row (local-store.ts placeRow): the place's types and card label from the category
// table (core/overture-categories.ts), its first phone and website, its brand, its address, and `tags` written as
// OpenStreetMap tags (phone, website, email, contact:facebook..., brand, addr:*) so the scoring evidence that reads
// OSM tags reads these too, plus `overture:*` tags with what has no OSM tag (its category, alternates,
// confidence, source datasets and their licences).
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import type { AsyncBuffer } from 'hyparquet';
import type { Db } from '../db/database.js';
import { nowIso } from '../db/database.js';
import { recordArea, type AreaRecord, type Box } from './areas.js';
import {
  commitStaged,
  countPlaces,
  discardStaged,
  formatAddress,
  stageRows,
  storedRow,
  type PlaceRow,
} from './local-store.js';
import { refreshMarket } from './market.js';
import { conflateStaged, type ConflationSummary } from './conflate.js';
import {
  collectGarbage,
  DEFAULT_MIN_CONFIDENCE,
  openOvertureFile,
  readOvertureFile,
  readOvertureMetadata,
  rowGroupBox,
  rowGroupsMeeting,
  type OverturePlace,
  type OvertureReadSummary,
} from './overture-reader.js';
import { httpAsyncBuffer, newTransferStats, releaseFiles, type TransferStats } from './overture-http.js';
import type { BrandIndex } from '../../core/scoring/brand-index.js';
import { getBrandIndex } from '../../core/scoring/nsi.js';
import { addressFromTags, writeAddresses, type AddressRecord } from '../geocoding/addresses.js';
import type { LngLatBox } from '../../core/region-boxes.js';

/** A row as an import writes it (locations are counted after the import, by market.ts). */

/** The OSM contact key of a social profile, by its host. */
const SOCIAL_KEYS: readonly [RegExp, string][] = [
  [/(^|\.)facebook\.com$|(^|\.)fb\.com$/, 'contact:facebook'],
  [/(^|\.)instagram\.com$/, 'contact:instagram'],
  [/(^|\.)twitter\.com$|(^|\.)x\.com$/, 'contact:twitter'],
  [/(^|\.)youtube\.com$|(^|\.)youtu\.be$/, 'contact:youtube'],
  [/(^|\.)tiktok\.com$/, 'contact:tiktok'],
  [/(^|\.)linkedin\.com$/, 'contact:linkedin'],
  [/(^|\.)yelp\.[a-z.]+$/, 'contact:yelp'],
];

function socialKey(url: string): string | null {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
  for (const [pattern, key] of SOCIAL_KEYS) if (pattern.test(host)) return key;
  return null;
}

/** "800 Mission St" -> house number and street; null when the freeform line does not start with a number. */
function splitStreet(freeform: string): { housenumber: string; street: string } | null {
  const m = /^(\d+[A-Za-z]?(?:-\d+[A-Za-z]?)?)\s+(.+)$/.exec(freeform.trim());
  return m?.[1] && m[2] ? { housenumber: m[1], street: m[2] } : null;
}

/** The state or province without a country prefix ('US-CA' -> 'CA'). */
const regionCode = (region: string): string => region.replace(/^[A-Z]{2}-(?=\S)/, '');

/** Several values in one tag, as OSM writes them. */
const joined = (values: readonly string[]): string => values.join(';');

/** The OSM-like tags of an Overture place (see the header). */
export function overtureTags(place: OverturePlace): Record<string, string> {
  const tags: Record<string, string> = { name: place.name };
  const osm = place.placed.osm?.split('=');
  if (osm?.[0] && osm[1]) tags[osm[0]] = osm[1];
  if (place.phones.length > 0) tags.phone = joined(place.phones);
  if (place.websites[0]) tags.website = place.websites[0];
  if (place.emails.length > 0) tags.email = joined(place.emails);
  const otherSocials: string[] = [];
  for (const url of place.socials) {
    const key = socialKey(url);
    if (key && !tags[key]) tags[key] = url;
    else if (!key) otherSocials.push(url);
  }
  if (place.brand?.name) tags.brand = place.brand.name;
  if (place.brand?.wikidata) tags['brand:wikidata'] = place.brand.wikidata;
  const a = place.address;
  if (a?.freeform) {
    const street = splitStreet(a.freeform);
    if (street) {
      tags['addr:housenumber'] = street.housenumber;
      tags['addr:street'] = street.street;
    } else tags['addr:full'] = a.freeform;
  }
  if (a?.locality) tags['addr:city'] = a.locality;
  if (a?.region) tags['addr:state'] = regionCode(a.region);
  if (a?.postcode) tags['addr:postcode'] = a.postcode;
  if (a?.country) tags['addr:country'] = a.country;
  const c = place.categories;
  if (c.primary) tags['overture:category'] = c.primary;
  if (c.alternates.length > 0) tags['overture:alternate'] = joined(c.alternates);
  if (c.basic) tags['overture:basic_category'] = c.basic;
  if (place.confidence !== null)
    tags['overture:confidence'] = String(Math.round(place.confidence * 1000) / 1000);
  // The datasets that gave the whole record first: the card names a place's source by the first.
  const wholeFirst = [...place.sources].sort(
    (a, b) => Number(a.property !== null) - Number(b.property !== null),
  );
  const datasets = [...new Set(wholeFirst.map((s) => s.dataset))];
  if (datasets.length > 0) tags['overture:sources'] = joined(datasets);
  const licenses = [...new Set(place.sources.flatMap((s) => (s.license ? [s.license] : [])))];
  if (licenses.length > 0) tags['overture:licenses'] = joined(licenses);
  if (otherSocials.length > 0) tags['overture:socials'] = joined(otherSocials);
  if (place.websites.length > 1) tags['overture:websites'] = joined(place.websites.slice(1));
  return tags;
}

/** The street addresses of Overture places (those whose address splits into a house number and a street). */
export function overtureAddresses(places: readonly OverturePlace[]): AddressRecord[] {
  const out: AddressRecord[] = [];
  for (const p of places) {
    const record = addressFromTags(`overture:${p.id}`, p.lat, p.lng, overtureTags(p));
    if (record) out.push(record);
  }
  return out;
}

/**
 * The stored row of one Overture place, the shape placeRow gives an OSM business, with its profile
 * (scoring/profile.ts) made under `brandIndex` from the same fields.
 */
export function overtureRow(
  place: OverturePlace,
  importedAt: string,
  brandIndex: BrandIndex | undefined = getBrandIndex(),
): PlaceRow {
  const tags = overtureTags(place);
  return storedRow(
    {
      id: `overture:${place.id}`,
      name: place.name,
      lat: place.lat,
      lng: place.lng,
      types: [...place.placed.types],
      category: place.placed.label,
      address: formatAddress(tags),
      city: tags['addr:city'] ?? null,
      state: tags['addr:state'] ?? null,
      zip: tags['addr:postcode'] ?? null,
      phone: place.phones[0] ?? null,
      website: place.websites[0] ?? null,
      openingHours: null,
      brand: place.brand?.name ?? null,
      brandWikidata: place.brand?.wikidata ?? null,
      tags,
    },
    importedAt,
    brandIndex,
  );
}

/** What one import read, left out and stored. */
export interface OvertureImportResult {
  /** The file or release imported. */
  source: string;
  files: number;
  /** Rows read (inside the box, when one was given). */
  read: number;
  /** Rows inserted or updated. */
  imported: number;
  /** Places merged with the same business of another source (OpenStreetMap), for the first time or again. */
  merged: ConflationSummary;
  notOpen: number;
  lowConfidence: number;
  uncategorised: number;
  /** Rows without an id, a name or a position. */
  invalid: number;
  /** Primary categories the table does not place, most places first (stored under their raw name or alternates). */
  unmapped: [string, number][];
  rowGroups: { total: number; read: number };
  /** HTTP reads of a release import (null for local files). */
  transfer: TransferStats | null;
  /** Businesses in the table afterwards (this and earlier imports). */
  total: number;
  market: { multiLocation: number; manyCities: number };
  area: AreaRecord;
  ms: number;
}

export type OvertureImportProgress =
  | { phase: 'read'; file: number; files: number; rowGroups: number; rowGroupsDone: number; kept: number; bytes: number }
  | { phase: 'commit' }; // prettier-ignore

export interface OvertureImportOptions {
  minConfidence?: number;
  /** Only places inside the box (and only the row groups that meet it). */
  box?: LngLatBox | null;
  progress?: (p: OvertureImportProgress) => void;
}

/** One source of an import: an opened file and the name it is reported by. */
interface Input {
  name: string;
  open: () => Promise<AsyncBuffer>;
}

function mergeSummary(into: OvertureImportTotals, s: OvertureReadSummary): void {
  into.read += s.read;
  into.notOpen += s.notOpen;
  into.lowConfidence += s.lowConfidence;
  into.uncategorised += s.uncategorised;
  into.invalid += s.invalid;
  into.rowGroups.total += s.rowGroups.total;
  into.rowGroups.read += s.rowGroups.read;
  for (const [c, n] of s.unmapped) into.unmapped.set(c, (into.unmapped.get(c) ?? 0) + n);
}

interface OvertureImportTotals {
  read: number;
  notOpen: number;
  lowConfidence: number;
  uncategorised: number;
  invalid: number;
  rowGroups: { total: number; read: number };
  unmapped: Map<string, number>;
}

/** The box of a file's row groups from their bbox statistics, or null without them. */
function statisticsBox(rowGroups: readonly Parameters<typeof rowGroupBox>[0][]): Box | null {
  let box: Box | null = null;
  for (const rg of rowGroups) {
    const b = rowGroupBox(rg);
    if (!b) return null;
    box = box
      ? {
          minLat: Math.min(box.minLat, b.south),
          minLng: Math.min(box.minLng, b.west),
          maxLat: Math.max(box.maxLat, b.north),
          maxLng: Math.max(box.maxLng, b.east),
        }
      : { minLat: b.south, minLng: b.west, maxLat: b.north, maxLng: b.east };
  }
  return box;
}

/**
 * Read every input (checking each one's schema first, before anything is staged), stage its places, then commit
 * them in one transaction, record the area and rebuild the market. Any failure discards what was staged.
 */
async function importInputs(
  db: Db,
  inputs: readonly Input[],
  area: Omit<AreaRecord, 'businesses' | 'importedAt' | 'box'> & { box: Box | null },
  options: OvertureImportOptions,
  transfer: TransferStats | null,
): Promise<OvertureImportResult> {
  const started = Date.now();
  const importId = randomUUID();
  const importedAt = nowIso();
  const brandIndex = getBrandIndex();
  const totals: OvertureImportTotals = {
    read: 0,
    notOpen: 0,
    lowConfidence: 0,
    uncategorised: 0,
    invalid: 0,
    rowGroups: { total: 0, read: 0 },
    unmapped: new Map(),
  };
  let fileBox: Box | null = null;
  let boxKnown = true;
  try {
    // Every file's schema is checked before the first row is staged: a foreign file among them fails the import
    // with its one line and nothing written.
    const opened: {
      name: string;
      file: AsyncBuffer;
      meta: Awaited<ReturnType<typeof readOvertureMetadata>>;
    }[] = [];
    let needed = 0;
    for (const input of inputs) {
      const file = await input.open();
      const meta = await readOvertureMetadata(file, input.name);
      const { metadata } = meta;
      needed += rowGroupsMeeting(metadata, options.box).length;
      const b = statisticsBox(metadata.row_groups);
      if (!b) boxKnown = false;
      else
        fileBox = fileBox
          ? {
              minLat: Math.min(fileBox.minLat, b.minLat),
              minLng: Math.min(fileBox.minLng, b.minLng),
              maxLat: Math.max(fileBox.maxLat, b.maxLat),
              maxLng: Math.max(fileBox.maxLng, b.maxLng),
            }
          : b;
      opened.push({ name: input.name, file, meta });
    }
    let done = 0;
    let kept = 0;
    for (const [i, { name, file, meta }] of opened.entries()) {
      const summary = await readOvertureFile(
        file,
        name,
        async (places) => {
          await stageRows(
            db.kysely,
            importId,
            places.map((p) => overtureRow(p, importedAt, brandIndex)),
          );
          // Their street addresses for the geocoder, as the OSM import keeps its own.
          await writeAddresses(db.kysely, overtureAddresses(places));
        },
        {
          minConfidence: options.minConfidence ?? DEFAULT_MIN_CONFIDENCE,
          box: options.box ?? null,
          metadata: meta,
          progress: (p) =>
            options.progress?.({
              phase: 'read',
              file: i + 1,
              files: opened.length,
              rowGroups: needed,
              rowGroupsDone: done + p.rowGroup,
              kept: kept + p.kept,
              bytes: transfer?.bytes ?? 0,
            }),
        },
      );
      done += summary.rowGroups.read;
      kept += summary.kept;
      mergeSummary(totals, summary);
    }
    options.progress?.({ phase: 'commit' });
    // The last row group's rows are garbage now, hundreds of MB of it: collected before the commit and the market's
    // rebuild allocate on top (PostgreSQL's 1,000,000-place import peaked at 1.18 GB without).
    collectGarbage();
    let merged: ConflationSummary = { merged: 0, remerged: 0 };
    const imported = await commitStaged(db.kysely, importId, async (trx) => {
      merged = await conflateStaged(trx, importId, 'overture', brandIndex);
    });
    const record: AreaRecord = {
      ...area,
      box: area.box ?? (boxKnown ? fileBox : null),
      businesses: imported,
      importedAt,
    };
    await recordArea(db.kysely, record);
    const market = await refreshMarket(db, brandIndex);
    if (db.kind === 'postgres') {
      // Fresh statistics and visibility map: the planner picks the grid index and can answer from it alone.
      await db.pool?.query('VACUUM ANALYZE places');
    }
    return {
      source: area.source,
      files: inputs.length,
      read: totals.read,
      imported,
      merged,
      notOpen: totals.notOpen,
      lowConfidence: totals.lowConfidence,
      uncategorised: totals.uncategorised,
      invalid: totals.invalid,
      unmapped: [...totals.unmapped].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)),
      rowGroups: totals.rowGroups,
      transfer,
      total: await countPlaces(db.kysely),
      market: { multiLocation: market.multiLocation, manyCities: market.manyCities },
      area: record,
      ms: Date.now() - started,
    };
  } catch (error) {
    await discardStaged(db.kysely, importId).catch(() => undefined);
    throw error;
  }
}

const boxText = (b: LngLatBox) => [b.west, b.south, b.east, b.north].join(',');
const asAreaBox = (b: LngLatBox): Box => ({
  minLat: b.south,
  minLng: b.west,
  maxLat: b.north,
  maxLng: b.east,
});

/**
 * Import local Overture places files (one area, named by the first file). With `options.box`, only the row
 * groups meeting it are read and only the places inside it stored.
 */
export async function importOvertureFiles(
  db: Db,
  files: readonly string[],
  options: OvertureImportOptions = {},
): Promise<OvertureImportResult> {
  const name = basename(files[0] ?? 'overture.parquet');
  return importInputs(
    db,
    files.map((f) => ({ name: f, open: () => openOvertureFile(f) })),
    {
      key: `overture:file:${name}${options.box ? `:${boxText(options.box)}` : ''}`,
      name: `Overture ${name}${files.length > 1 ? ` and ${files.length - 1} more` : ''}`,
      region: null,
      source: files.join(', '),
      box: options.box ? asAreaBox(options.box) : null,
      dataDate: null,
    },
    options,
    null,
  );
}

export interface OvertureReleaseOptions extends OvertureImportOptions {
  box: LngLatBox;
  /** OVERTURE_RELEASE_URL: the folder holding the releases. */
  releaseUrl: string;
  /** A release name (`2025-09-24.0`); default the latest the mirror lists. */
  release?: string;
  /** The region name the box is of (`us/alabama`), recorded as the area's name. */
  region?: string;
  userAgent?: string;
  /** Attempts per HTTP range and the first pause between them (overture-http.ts). */
  attempts?: number;
  retryDelayMs?: number;
}

/**
 * Import the places of a box from a release on the mirror: list its places files, read only the row groups whose
 * bbox statistics meet the box (HTTP Range requests), keep the places inside it.
 */
export async function importOvertureRelease(
  db: Db,
  options: OvertureReleaseOptions,
): Promise<OvertureImportResult> {
  const { release, files } = await releaseFiles(options.releaseUrl, {
    ...(options.release !== undefined && { release: options.release }),
    ...(options.userAgent !== undefined && { userAgent: options.userAgent }),
  });
  const transfer = newTransferStats();
  const http = {
    stats: transfer,
    ...(options.userAgent !== undefined && { userAgent: options.userAgent }),
    ...(options.attempts !== undefined && { attempts: options.attempts }),
    ...(options.retryDelayMs !== undefined && { retryDelayMs: options.retryDelayMs }),
  };
  const where = options.region ?? boxText(options.box);
  return importInputs(
    db,
    files.map((f) => ({ name: f.url, open: () => httpAsyncBuffer(f.url, http) })),
    {
      key: `overture:${options.region ? `region:${options.region}` : `bbox:${boxText(options.box)}`}`,
      name: `Overture ${where}`,
      region: null,
      source: `${options.releaseUrl.replace(/\/+$/, '')}/${release}/theme=places/type=place`,
      box: asAreaBox(options.box),
      // The release is named by the date its data was cut.
      dataDate: `${release.slice(0, 10)}T00:00:00.000Z`,
    },
    options,
    transfer,
  );
}
