// Reading Overture Maps places (GeoParquet, the `places/place` theme and type) as released, across schema
// versions: `categories` (primary/alternate) in releases up to late 2025, `basic_category` and `taxonomy`
// (primary/hierarchy/alternates) since; `operating_status` only in releases since mid-2024. A file is read a row
// group at a time with the columns we use (a national file holds about 14 million places in many row groups),
// and its places are handed on in batches as OverturePlace, with the places left out counted: not open, under
// the confidence threshold, not placed by any category or by their name, outside the box asked for.
//
// hyparquet decodes the file (its WKB geometry to GeoJSON, through the GeoParquet `geo` metadata);
// hyparquet-compressors gives it the codecs Overture uses (zstd, snappy...). The file is any AsyncBuffer: a local
// file or a file on a mirror read by HTTP Range requests (overture-http.ts).
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, parquetSchema } from 'hyparquet';
import type { AsyncBuffer, FileMetaData, RowGroup } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { placeCategories, type PlacedCategory } from '../../core/overture-categories.js';
import { boxesMeet, boxHolds, type LngLatBox } from '../../core/region-boxes.js';

/** A file that is not Overture places GeoParquet, or is damaged: the message is the one line the CLI prints. */
export class OvertureFormatError extends Error {
  override name = 'OvertureFormatError';
}

export interface OvertureAddress {
  freeform: string | null;
  locality: string | null;
  postcode: string | null;
  region: string | null;
  country: string | null;
}

export interface OvertureSource {
  dataset: string;
  recordId: string | null;
  license: string | null;
  /** The one property it gave ('/properties/confidence'); null when it gave the whole record. */
  property: string | null;
}

/** One place as the import and the conflation read it: Overture's fields, normalised. */
export interface OverturePlace {
  /** The GERS id. */
  id: string;
  name: string;
  lat: number;
  lng: number;
  categories: {
    /** `taxonomy.primary`, else `categories.primary`. */
    primary: string | null;
    /** `taxonomy.alternates`, else `categories.alternate`. */
    alternates: string[];
    /** `basic_category` (newer releases). */
    basic: string | null;
    /** `taxonomy.hierarchy`, most general first (newer releases). */
    hierarchy: string[];
  };
  /** 0..1, how sure Overture is that the place exists; null when it does not say. */
  confidence: number | null;
  phones: string[];
  websites: string[];
  socials: string[];
  emails: string[];
  brand: { name: string | null; wikidata: string | null } | null;
  /** The first address. */
  address: OvertureAddress | null;
  /** 'open', 'temporarily_closed', 'permanently_closed'; null in releases without the column. */
  operatingStatus: string | null;
  sources: OvertureSource[];
  /** The product's place types and label for it (core/overture-categories.ts), and what placed it. */
  placed: PlacedCategory;
}

/** What the file's schema holds, as found in its metadata. */
export interface OvertureSchemaInfo {
  categories: boolean;
  taxonomy: boolean;
  basicCategory: boolean;
  operatingStatus: boolean;
  rowGroups: number;
  rows: number;
}

export interface OvertureReadSummary {
  /** Rows read (those inside the box, when one is given). */
  read: number;
  /** Places handed on. */
  kept: number;
  /** operating_status present and not 'open'. */
  notOpen: number;
  /** Confidence under the threshold. */
  lowConfidence: number;
  /** No category, and neither alternates nor the name place it. */
  uncategorised: number;
  /** No id, no name or no usable position. */
  invalid: number;
  /** Rows of the row groups read that lie outside the box. */
  outsideBox: number;
  /** Primary categories the table does not place, with the number of places kept that have them. */
  unmapped: Map<string, number>;
  rowGroups: { total: number; read: number };
  schema: OvertureSchemaInfo;
}

export interface OvertureReadProgress {
  rowGroup: number;
  rowGroups: number;
  read: number;
  kept: number;
}

export interface OvertureReadOptions {
  /** Places with a lower confidence are left out (default 0.5). */
  minConfidence?: number;
  /** Only row groups whose bbox statistics meet it are read, and only places inside it are kept. */
  box?: LngLatBox | null;
  /** Places per batch handed on (default 5,000). */
  batchSize?: number;
  progress?: (p: OvertureReadProgress) => void;
  /** The file's metadata when already read (readOvertureMetadata), so a remote footer is not fetched twice. */
  metadata?: { metadata: FileMetaData; schema: OvertureSchemaInfo };
}

export const DEFAULT_MIN_CONFIDENCE = 0.5;

/**
 * The top-level columns read; the others (`version`, and whatever later releases add) are skipped, and so is
 * `bbox` when `geometry` is there (the row groups' bbox statistics come from the metadata; decoding the struct
 * for every row costs a tenth of a group's time).
 */
const COLUMNS = [
  'id',
  'geometry',
  'names',
  'categories',
  'basic_category',
  'taxonomy',
  'confidence',
  'websites',
  'socials',
  'emails',
  'phones',
  'brand',
  'addresses',
  'operating_status',
  'sources',
] as const;

/** An error raised while fetching the file (overture-http.ts): passed on as it is, never taken for bad data. */
export interface FetchFailure {
  fetchFailure: true;
}
const isFetchFailure = (e: unknown): boolean => (e as Partial<FetchFailure> | null)?.fetchFailure === true;

const describe = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * Bytes read from the end of a file for its footer at first: a places file's metadata is tens of KB per hundred
 * row groups, and a larger one is read in a second request, so a remote file costs little more than its footer.
 */
const FOOTER_FETCH = 64 * 1024;

/** The file's metadata, checked to be Overture places: throws OvertureFormatError (one line) otherwise. */
export async function readOvertureMetadata(
  file: AsyncBuffer,
  name: string,
): Promise<{ metadata: FileMetaData; schema: OvertureSchemaInfo }> {
  let metadata: FileMetaData;
  try {
    metadata = await parquetMetadataAsync(file, { initialFetchSize: FOOTER_FETCH });
  } catch (error) {
    if (isFetchFailure(error)) throw error;
    throw new OvertureFormatError(
      `${name} is not a readable parquet file (${describe(error)}): give a places file of an Overture Maps release`,
    );
  }
  const tree = parquetSchema(metadata);
  const top = new Map(tree.children.map((c) => [c.element.name, c]));
  const missing = ['id', 'geometry', 'names'].filter((c) => !top.has(c));
  if (missing.length > 0 || !top.get('names')?.children.some((c) => c.element.name === 'primary')) {
    throw new OvertureFormatError(
      `${name} is not an Overture places file: it has no ${missing.length > 0 ? missing.join(', ') : 'names.primary'} column` +
        ` (its columns: ${[...top.keys()].slice(0, 12).join(', ')})`,
    );
  }
  return {
    metadata,
    schema: {
      categories: top.has('categories'),
      taxonomy: top.has('taxonomy'),
      basicCategory: top.has('basic_category'),
      operatingStatus: top.has('operating_status'),
      rowGroups: metadata.row_groups.length,
      rows: Number(metadata.num_rows),
    },
  };
}

const statNumber = (v: unknown): number | undefined =>
  typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : undefined;

/**
 * The box a row group covers, from the min/max statistics of its `bbox.xmin/xmax/ymin/ymax` columns (Overture
 * writes them for every row group, and sorts rows spatially so a group covers a small area); null when the file
 * has no such statistics (then the group must be read to know).
 */
export function rowGroupBox(rowGroup: RowGroup): LngLatBox | null {
  const stat = (path: string, which: 'min' | 'max'): number | undefined => {
    const chunk = rowGroup.columns.find((c) => c.meta_data?.path_in_schema.join('.') === path);
    const s = chunk?.meta_data?.statistics;
    if (!s) return undefined;
    return which === 'min' ? statNumber(s.min_value ?? s.min) : statNumber(s.max_value ?? s.max);
  };
  const west = stat('bbox.xmin', 'min');
  const east = stat('bbox.xmax', 'max');
  const south = stat('bbox.ymin', 'min');
  const north = stat('bbox.ymax', 'max');
  if (west === undefined || east === undefined || south === undefined || north === undefined) return null;
  return { west, south, east, north };
}

/** The indexes of the row groups that may hold places inside `box` (all of them without a box). */
export function rowGroupsMeeting(metadata: FileMetaData, box: LngLatBox | null | undefined): number[] {
  const out: number[] = [];
  metadata.row_groups.forEach((rg, i) => {
    if (Number(rg.num_rows) === 0) return;
    const b = box ? rowGroupBox(rg) : null;
    if (!box || !b || boxesMeet(b, box)) out.push(i);
  });
  return out;
}

type Row = Record<string, unknown>;

/** A full collection where the process exposes it (node --expose-gc); nothing otherwise. */
export const collectGarbage = (): void => (globalThis as { gc?: () => void }).gc?.();

const text = (v: unknown): string | null => {
  if (typeof v !== 'string') return null;
  const t = v.trim();
  return t ? t : null;
};

/** Non-empty trimmed strings of a list column, each once. */
function strings(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  const out: string[] = [];
  for (const x of v) {
    const t = text(x);
    if (t && !out.includes(t)) out.push(t);
  }
  return out;
}

const record = (v: unknown): Row | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Row) : null;

/** Every [lng, lat] pair of a GeoJSON coordinates array, at any depth. */
function positions(coords: unknown, out: [number, number][] = []): [number, number][] {
  if (!Array.isArray(coords)) return out;
  if (typeof coords[0] === 'number' && typeof coords[1] === 'number') {
    out.push([coords[0], coords[1]]);
    return out;
  }
  for (const c of coords) positions(c, out);
  return out;
}

/**
 * The place's position: a Point's own; for another geometry (places are points, but the schema does not forbid
 * others) a representative point, the mean of its vertices; else the centre of its bbox.
 */
function positionOf(row: Row): { lat: number; lng: number } | null {
  const g = record(row.geometry);
  if (g) {
    const pts = g.type === 'Point' ? positions(g.coordinates).slice(0, 1) : positions(g.coordinates);
    if (g.type === 'GeometryCollection' && Array.isArray(g.geometries)) {
      for (const part of g.geometries) pts.push(...positions(record(part)?.coordinates));
    }
    if (pts.length > 0) {
      const lng = pts.reduce((s, p) => s + p[0], 0) / pts.length;
      const lat = pts.reduce((s, p) => s + p[1], 0) / pts.length;
      if (Number.isFinite(lat) && Number.isFinite(lng)) return { lat, lng };
    }
  }
  const b = record(row.bbox);
  const [xmin, xmax, ymin, ymax] = [b?.xmin, b?.xmax, b?.ymin, b?.ymax].map((v) =>
    typeof v === 'number' ? v : NaN,
  );
  if ([xmin, xmax, ymin, ymax].every((v) => Number.isFinite(v))) {
    return { lat: ((ymin ?? 0) + (ymax ?? 0)) / 2, lng: ((xmin ?? 0) + (xmax ?? 0)) / 2 };
  }
  return null;
}

function addressOf(v: unknown): OvertureAddress | null {
  if (!Array.isArray(v)) return null;
  for (const a of v) {
    const r = record(a);
    if (!r) continue;
    const address: OvertureAddress = {
      freeform: text(r.freeform),
      locality: text(r.locality),
      postcode: text(r.postcode),
      region: text(r.region),
      country: text(r.country),
    };
    if (Object.values(address).some((x) => x !== null)) return address;
  }
  return null;
}

function sourcesOf(v: unknown): OvertureSource[] {
  if (!Array.isArray(v)) return [];
  const out: OvertureSource[] = [];
  for (const s of v) {
    const r = record(s);
    const dataset = text(r?.dataset);
    if (r && dataset) {
      const property = text(r.property);
      out.push({
        dataset,
        recordId: text(r.record_id),
        license: text(r.license),
        property: property === '/' ? null : property,
      });
    }
  }
  return out;
}

/**
 * What a row keeps of one decoded column: the parts toPlace reads, in their smallest form (a position for the
 * geometry, the first address, the primary name). Each column of a row group is decoded on its own and cut down
 * so, before the next: hyparquet decodes a nested column's whole chunk, and the decoded group of every column at
 * once (its lists of structs above all) was four times the size of what a place keeps.
 */
function compactColumn(column: string, value: unknown): unknown {
  switch (column) {
    case 'geometry': {
      const at = positionOf({ geometry: value });
      return at ? { type: 'Point', coordinates: [at.lng, at.lat] } : null;
    }
    case 'names':
      return { primary: text(record(value)?.primary) };
    case 'brand': {
      const b = record(value);
      return b ? { wikidata: text(b.wikidata), names: { primary: text(record(b.names)?.primary) } } : null;
    }
    case 'addresses': {
      const a = addressOf(value);
      return a ? [a] : null;
    }
    case 'sources':
      return sourcesOf(value).map((x) => ({
        dataset: x.dataset,
        record_id: x.recordId,
        license: x.license,
        property: x.property,
      }));
    case 'categories': {
      const c = record(value);
      return c ? { primary: text(c.primary), alternate: strings(c.alternate) } : null;
    }
    case 'taxonomy': {
      const c = record(value);
      return c
        ? { primary: text(c.primary), hierarchy: strings(c.hierarchy), alternates: strings(c.alternates) }
        : null;
    }
    case 'websites':
    case 'socials':
    case 'emails':
    case 'phones':
      return strings(value);
    default:
      return value;
  }
}

type Outcome =
  | { place: OverturePlace }
  | { dropped: 'invalid' | 'notOpen' | 'lowConfidence' | 'uncategorised' | 'outsideBox' };

/** One row to a place, or why it is left out (checked in this order). */
function toPlace(row: Row, minConfidence: number, box: LngLatBox | null): Outcome {
  const id = text(row.id);
  const name = text(record(row.names)?.primary);
  const at = positionOf(row);
  if (!id || !name || !at) return { dropped: 'invalid' };
  if (box && !boxHolds(box, at.lat, at.lng)) return { dropped: 'outsideBox' };
  const operatingStatus = text(row.operating_status);
  if (operatingStatus !== null && operatingStatus !== 'open') return { dropped: 'notOpen' };
  const confidence = typeof row.confidence === 'number' ? row.confidence : null;
  if (confidence !== null && confidence < minConfidence) return { dropped: 'lowConfidence' };
  const taxonomy = record(row.taxonomy);
  const legacy = record(row.categories);
  const categories = {
    primary: text(taxonomy?.primary) ?? text(legacy?.primary),
    alternates: taxonomy ? strings(taxonomy.alternates) : strings(legacy?.alternate),
    basic: text(row.basic_category),
    hierarchy: strings(taxonomy?.hierarchy),
  };
  if (taxonomy && legacy && categories.alternates.length === 0)
    categories.alternates = strings(legacy.alternate);
  const placed = placeCategories(categories, name);
  if (!placed) return { dropped: 'uncategorised' };
  const brandRow = record(row.brand);
  const brandName = text(record(brandRow?.names)?.primary);
  const brandWikidata = text(brandRow?.wikidata);
  return {
    place: {
      id,
      name,
      lat: at.lat,
      lng: at.lng,
      categories,
      confidence,
      phones: strings(row.phones),
      websites: strings(row.websites),
      socials: strings(row.socials),
      emails: strings(row.emails),
      brand: brandName || brandWikidata ? { name: brandName, wikidata: brandWikidata } : null,
      address: addressOf(row.addresses),
      operatingStatus,
      sources: sourcesOf(row.sources),
      placed,
    },
  };
}

/**
 * Read an Overture places file row group by row group and hand its places on in batches (each batch awaited
 * before the next is made). The schema is checked first: a file that is not Overture places fails with
 * OvertureFormatError before any batch; one damaged further in fails the same way at that row group.
 */
export async function readOvertureFile(
  file: AsyncBuffer,
  name: string,
  onBatch: (places: OverturePlace[]) => Promise<void> | void,
  options: OvertureReadOptions = {},
): Promise<OvertureReadSummary> {
  const { metadata, schema } = options.metadata ?? (await readOvertureMetadata(file, name));
  const minConfidence = options.minConfidence ?? DEFAULT_MIN_CONFIDENCE;
  const box = options.box ?? null;
  const batchSize = Math.max(1, options.batchSize ?? 5000);
  const present = new Set(parquetSchema(metadata).children.map((c) => c.element.name));
  const columns: string[] = COLUMNS.filter((c) => present.has(c));
  if (!present.has('geometry') && present.has('bbox')) columns.push('bbox');
  const groups = rowGroupsMeeting(metadata, box);
  const summary: OvertureReadSummary = {
    read: 0,
    kept: 0,
    notOpen: 0,
    lowConfidence: 0,
    uncategorised: 0,
    invalid: 0,
    outsideBox: 0,
    unmapped: new Map(),
    rowGroups: { total: metadata.row_groups.length, read: 0 },
    schema,
  };
  const starts: number[] = [];
  let start = 0;
  for (const rg of metadata.row_groups) {
    starts.push(start);
    start += Number(rg.num_rows);
  }
  for (const g of groups) {
    const rowStart = starts[g] ?? 0;
    const rowEnd = rowStart + Number(metadata.row_groups[g]?.num_rows ?? 0);
    let rows: Row[] = Array.from({ length: rowEnd - rowStart }, () => ({}));
    try {
      for (const column of columns) {
        const values = (await parquetReadObjects({
          file,
          metadata,
          columns: [column],
          rowStart,
          rowEnd,
          compressors,
        })) as Row[];
        for (let i = 0; i < rows.length; i++) {
          const row = rows[i];
          if (row) row[column] = compactColumn(column, values[i]?.[column]);
        }
        values.length = 0;
        // One decoded column of 100,000 rows (its lists of structs above all) is up to 400 MB of garbage now:
        // collected before the next column is decoded (where the process runs with --expose-gc, as
        // `npm run import:overture` does), the peak is one column's, not the group's.
        collectGarbage();
      }
    } catch (error) {
      if (isFetchFailure(error)) throw error;
      throw new OvertureFormatError(
        `${name}: row group ${g + 1} of ${groups.length} is damaged (${describe(error)})`,
      );
    }
    summary.rowGroups.read++;
    let batch: OverturePlace[] = [];
    for (let i = 0; i < rows.length; i++) {
      const outcome = toPlace(rows[i] ?? {}, minConfidence, box);
      // Free each row as it is taken.
      rows[i] = {};
      if ('dropped' in outcome) {
        if (outcome.dropped !== 'outsideBox') summary.read++;
        summary[outcome.dropped]++;
        continue;
      }
      summary.read++;
      summary.kept++;
      const { placed, categories } = outcome.place;
      if ((placed.by === 'raw' || placed.by === 'alternate') && categories.primary) {
        summary.unmapped.set(categories.primary, (summary.unmapped.get(categories.primary) ?? 0) + 1);
      }
      batch.push(outcome.place);
      if (batch.length >= batchSize) {
        await onBatch(batch);
        batch = [];
      }
    }
    if (batch.length > 0) await onBatch(batch);
    rows = [];
    options.progress?.({
      rowGroup: summary.rowGroups.read,
      rowGroups: groups.length,
      read: summary.read,
      kept: summary.kept,
    });
  }
  return summary;
}

/** A local file as an AsyncBuffer; a missing or unreadable file is an OvertureFormatError naming it. */
export async function openOvertureFile(path: string): Promise<AsyncBuffer> {
  try {
    return await asyncBufferFromFile(path);
  } catch (error) {
    throw new OvertureFormatError(`cannot open ${path}: ${describe(error)}`);
  }
}
