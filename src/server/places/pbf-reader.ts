// Reading the businesses out of an OpenStreetMap file, streaming, in bounded memory. `readOsmBusinesses` takes
// any of the formats (osm-format.ts tells which); the PBF format is read here, XML in osm-xml-reader.ts.
//  1. a PBF file's structure is checked first (every blob header readable, sizes consistent, ends exactly at
//     EOF), so a truncated or foreign file fails loudly before anything is written; an XML file is checked as it
//     is parsed, and a failure anywhere fails the whole read (the import then keeps nothing of it);
//  2. pass one: named business nodes are emitted at once; named business ways are kept with their node refs,
//     and only the ids of those refs are remembered;
//  3. pass two (only when such ways exist): the coordinates of just those nodes, then each way at its centroid.
// Relations are skipped (multipolygon shops are rare and need a member-way pass of their own).
//
// The PBF decoder: each blob is read at its offset, inflated (zlib) and its PrimitiveBlock decoded field by
// field with `pbf` (the protocol-buffers wire format): the string table, then each PrimitiveGroup's plain nodes,
// dense nodes and ways; what a pass does not need (relations, metadata, the tags and ways in pass two) is
// stepped over undecoded.
import { open, stat, type FileHandle } from 'node:fs/promises';
import { promisify } from 'node:util';
import { inflate } from 'node:zlib';
import { PbfReader } from 'pbf';
import { isOsmBusiness } from '../../core/osm-tags.js';
import {
  dataDate,
  detectOsmFormat,
  OsmFormatError,
  validBox,
  type OsmFileFormat,
  type OsmHeader,
  type OsmPass,
  type OsmTags,
} from './osm-format.js';
import { readOsmXmlHeader, scanOsmXml } from './osm-xml-reader.js';
import { addressFromTags, type AddressRecord } from '../geocoding/addresses.js';

export class PbfFormatError extends OsmFormatError {
  override name = 'PbfFormatError';
}

export interface OsmPoi {
  /** 'osm:node/123' or 'osm:way/456'. */
  id: string;
  lat: number;
  lng: number;
  tags: Record<string, string>;
}

export interface PbfProgress {
  pass: 1 | 2;
  /** Bytes of the file read (of the compressed file, for a compressed one). */
  bytesRead: number;
  totalBytes: number;
  elements: number;
  businesses: number;
}

const MAX_HEADER_BYTES = 64 * 1024;
// The format's own limit for a blob, compressed or not.
const MAX_BLOB_BYTES = 32 * 1024 * 1024;
/** Header features this reader handles; a file that requires any other is refused, as the format asks. */
const KNOWN_FEATURES = new Set(['OsmSchema-V0.6', 'DenseNodes']);

const WIRE_VARINT = 0;
const WIRE_BYTES = 2;

const inflateAsync = promisify(inflate);

/** Parse one BlobHeader message: its type ('OSMHeader' / 'OSMData') and the size of the blob that follows. */
function parseBlobHeader(buf: Uint8Array): { type: string; dataSize: number } {
  const pbf = new PbfReader(buf);
  let type = '';
  let dataSize = -1;
  try {
    for (let field = pbf.nextField(); field; field = pbf.nextField()) {
      if (field === 1 && pbf.type === WIRE_BYTES) type = pbf.readString();
      else if (field === 3 && pbf.type === WIRE_VARINT) dataSize = pbf.readVarint();
    }
  } catch {
    throw new PbfFormatError('bad blob header');
  }
  if (pbf.pos !== buf.length || !type || dataSize < 0) throw new PbfFormatError('bad blob header');
  return { type, dataSize };
}

/**
 * Walk the blob headers of a .osm.pbf file without decoding any data. Throws PbfFormatError naming the problem:
 * not a PBF file, or truncated at a byte offset. Returns the number of data blobs.
 */
export async function checkPbfStructure(file: string): Promise<{ blobs: number; bytes: number }> {
  const size = (await stat(file)).size;
  const fh = await open(file, 'r');
  try {
    let offset = 0;
    let blobs = 0;
    const lenBuf = Buffer.alloc(4);
    while (offset < size) {
      if (offset + 4 > size) throw new PbfFormatError(`truncated at byte ${offset} of ${size}`);
      await fh.read(lenBuf, 0, 4, offset);
      const headerLen = lenBuf.readUInt32BE(0);
      if (headerLen === 0 || headerLen > MAX_HEADER_BYTES) {
        throw new PbfFormatError(
          blobs === 0 ? 'not an OpenStreetMap PBF file' : `corrupt blob header at byte ${offset}`,
        );
      }
      if (offset + 4 + headerLen > size) throw new PbfFormatError(`truncated at byte ${offset} of ${size}`);
      const header = Buffer.alloc(headerLen);
      await fh.read(header, 0, headerLen, offset + 4);
      let parsed: { type: string; dataSize: number };
      try {
        parsed = parseBlobHeader(header);
      } catch {
        throw new PbfFormatError(
          blobs === 0 ? 'not an OpenStreetMap PBF file' : `corrupt blob header at byte ${offset}`,
        );
      }
      if (blobs === 0 && parsed.type !== 'OSMHeader')
        throw new PbfFormatError('not an OpenStreetMap PBF file');
      if (blobs > 0 && parsed.type !== 'OSMData')
        throw new PbfFormatError(`unexpected blob "${parsed.type}" at byte ${offset}`);
      if (parsed.dataSize > MAX_BLOB_BYTES) throw new PbfFormatError(`corrupt blob size at byte ${offset}`);
      const next = offset + 4 + headerLen + parsed.dataSize;
      if (next > size) throw new PbfFormatError(`truncated at byte ${offset} of ${size}`);
      offset = next;
      blobs++;
    }
    if (blobs === 0) throw new PbfFormatError('empty file');
    return { blobs: blobs - 1, bytes: size };
  } finally {
    await fh.close();
  }
}

/** Thrown while decoding a blob's content: the caller names the blob's offset. */
class CorruptBlock extends Error {}

function corrupt(what: string): never {
  throw new CorruptBlock(what);
}

/** The end of the length-delimited field at the reader's position, checked against the enclosing end. */
function fieldEnd(pbf: PbfReader, end: number): number {
  const len = pbf.readVarint();
  const fieldEndAt = pbf.pos + len;
  if (!(len >= 0) || fieldEndAt > end) corrupt('a field runs past its message');
  return fieldEndAt;
}

/** A Blob's content: raw, or zlib-inflated to the size it declares. */
async function blobContent(blob: Uint8Array): Promise<Uint8Array> {
  const pbf = new PbfReader(blob);
  let raw: Uint8Array | null = null;
  let zlib: Uint8Array | null = null;
  let rawSize = -1;
  let other: string | null = null;
  for (let field = pbf.nextField(); field; field = pbf.nextField()) {
    if (field === 1) raw = pbf.readBytes();
    else if (field === 2) rawSize = pbf.readVarint();
    else if (field === 3) zlib = pbf.readBytes();
    else if (field === 4) other = 'LZMA';
    else if (field === 5) other = 'bzip2';
    else if (field === 6) other = 'LZ4';
    else if (field === 7) other = 'Zstandard';
  }
  if (pbf.pos !== blob.length) corrupt('bad blob');
  if (raw) return raw;
  if (zlib) {
    if (rawSize > MAX_BLOB_BYTES) corrupt(`blob of ${rawSize} bytes`);
    const out = await inflateAsync(zlib, { maxOutputLength: MAX_BLOB_BYTES });
    if (rawSize >= 0 && out.length !== rawSize) corrupt('blob size differs from the size it declares');
    return out;
  }
  if (other) {
    throw new PbfFormatError(
      `the file's blocks are compressed with ${other}, which this reader does not read (re-write it with zlib, e.g. osmium cat)`,
    );
  }
  return corrupt('empty blob');
}

interface Header {
  bbox: OsmHeader['bbox'];
  timestamp: string | null;
  required: string[];
}

function decodeHeaderBlock(buf: Uint8Array): Header {
  const pbf = new PbfReader(buf);
  let bbox: Header['bbox'] = null;
  let timestamp: string | null = null;
  const required: string[] = [];
  for (let field = pbf.nextField(); field; field = pbf.nextField()) {
    if (field === 1 && pbf.type === WIRE_BYTES) {
      const end = fieldEnd(pbf, buf.length);
      const nano = { left: NaN, right: NaN, top: NaN, bottom: NaN };
      for (let f = pbf.nextField(end); f; f = pbf.nextField(end)) {
        if (f === 1) nano.left = pbf.readSVarint();
        else if (f === 2) nano.right = pbf.readSVarint();
        else if (f === 3) nano.top = pbf.readSVarint();
        else if (f === 4) nano.bottom = pbf.readSVarint();
      }
      if (pbf.pos !== end) corrupt('bad bounding box');
      bbox = validBox({
        minLat: nano.bottom / 1e9,
        minLng: nano.left / 1e9,
        maxLat: nano.top / 1e9,
        maxLng: nano.right / 1e9,
      });
    } else if (field === 4 && pbf.type === WIRE_BYTES) required.push(pbf.readString());
    else if (field === 32 && pbf.type === WIRE_VARINT) timestamp = dataDate(pbf.readVarint(true) * 1000);
  }
  if (pbf.pos !== buf.length) corrupt('bad header block');
  return { bbox, timestamp, required };
}

/** What a PrimitiveBlock's groups are read with. */
interface Block {
  pbf: PbfReader;
  /** Four more readers over the same block, for the dense fields read side by side. */
  cursors: [PbfReader, PbfReader, PbfReader, PbfReader];
  strings: string[];
  granularity: number;
  latOffset: number;
  lonOffset: number;
  pass: OsmPass;
}

/** Degrees of a coordinate: offset and granularity in nanodegrees (divided, so 1e-7 steps come out exact). */
function deg(value: number, offset: number, granularity: number): number {
  return (offset + granularity * value) / 1e9;
}

function tagsOf(b: Block, keys: number[], vals: number[]): OsmTags {
  const tags: OsmTags = {};
  for (let i = 0; i < keys.length; i++) {
    const k = b.strings[keys[i] ?? -1];
    const v = b.strings[vals[i] ?? -1];
    if (k === undefined || v === undefined) corrupt('a tag outside the string table');
    tags[k] = v;
  }
  return tags;
}

/** A plain Node message: id, keys, vals, lat, lon (sint64, not delta-coded). */
function plainNode(b: Block, end: number): void {
  const { pbf, pass } = b;
  const businesses = pass.mode === 'businesses';
  let id = NaN;
  let lat = NaN;
  let lon = NaN;
  const keys: number[] = [];
  const vals: number[] = [];
  for (let f = pbf.nextField(end); f; f = pbf.nextField(end)) {
    if (f === 1) id = pbf.readSVarint();
    else if (f === 8) lat = pbf.readSVarint();
    else if (f === 9) lon = pbf.readSVarint();
    else if (f === 2 && businesses) pbf.readPackedVarint(keys);
    else if (f === 3 && businesses) pbf.readPackedVarint(vals);
  }
  if (pbf.pos !== end || Number.isNaN(id + lat + lon) || keys.length !== vals.length) corrupt('bad node');
  if (businesses && keys.length === 0) return;
  pass.node(
    id,
    deg(lat, b.latOffset, b.granularity),
    deg(lon, b.lonOffset, b.granularity),
    businesses ? tagsOf(b, keys, vals) : null,
  );
}

/** How many varints a packed field holds: one per byte without the continuation bit. */
function varintCount(buf: Uint8Array, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) if ((buf[i] ?? 0) < 0x80) n++;
  return n;
}

/**
 * DenseNodes: ids and coordinates delta-coded in three packed fields, every node's tags in keys_vals as key,
 * value, ..., 0 (empty when no node of the group has a tag). The fields are read side by side, one cursor each,
 * so no array is built; a group without a tag is only counted in pass one.
 */
function denseNodes(b: Block, end: number): number {
  const { pbf, pass } = b;
  const buf = pbf.buf;
  const businesses = pass.mode === 'businesses';
  const at = { id: -1, idEnd: -1, lat: -1, latEnd: -1, lon: -1, lonEnd: -1, kv: -1, kvEnd: -1 };
  for (let f = pbf.nextField(end); f; f = pbf.nextField(end)) {
    if (f !== 1 && f !== 8 && f !== 9 && f !== 10) continue;
    if (pbf.type !== WIRE_BYTES) corrupt('bad dense nodes');
    const fieldEndAt = fieldEnd(pbf, end);
    if (f === 1) [at.id, at.idEnd] = [pbf.pos, fieldEndAt];
    else if (f === 8) [at.lat, at.latEnd] = [pbf.pos, fieldEndAt];
    else if (f === 9) [at.lon, at.lonEnd] = [pbf.pos, fieldEndAt];
    else [at.kv, at.kvEnd] = [pbf.pos, fieldEndAt];
    pbf.pos = fieldEndAt;
  }
  if (pbf.pos !== end) corrupt('bad dense nodes');
  const count = at.id < 0 ? 0 : varintCount(buf, at.id, at.idEnd);
  if (count === 0 || (businesses && at.kv < 0)) return count;
  if (at.lat < 0 || at.lon < 0) corrupt('dense nodes without coordinates');
  const [ids, lats, lons, kvs] = b.cursors;
  ids.pos = at.id;
  lats.pos = at.lat;
  lons.pos = at.lon;
  kvs.pos = at.kv;
  let id = 0;
  let lat = 0;
  let lon = 0;
  for (let i = 0; i < count; i++) {
    id += ids.readSVarint();
    lat += lats.readSVarint();
    lon += lons.readSVarint();
    if (!businesses) {
      pass.node(id, deg(lat, b.latOffset, b.granularity), deg(lon, b.lonOffset, b.granularity), null);
      continue;
    }
    let tags: OsmTags | null = null;
    for (;;) {
      if (kvs.pos >= at.kvEnd) corrupt('bad dense tags');
      const key = kvs.readVarint();
      if (key === 0) break;
      const k = b.strings[key];
      const v = kvs.pos < at.kvEnd ? b.strings[kvs.readVarint()] : undefined;
      if (k === undefined || v === undefined) corrupt('a tag outside the string table');
      (tags ??= {})[k] = v;
    }
    if (tags) pass.node(id, deg(lat, b.latOffset, b.granularity), deg(lon, b.lonOffset, b.granularity), tags);
  }
  // Every field must end with the last node: coordinates for each id, no tags left over.
  if (ids.pos !== at.idEnd || lats.pos !== at.latEnd || lons.pos !== at.lonEnd) corrupt('bad dense nodes');
  if (businesses && kvs.pos !== at.kvEnd) corrupt('bad dense tags');
  return count;
}

/** A Way message: id (int64), keys, vals, refs (sint64, delta-coded); the refs are decoded only for a tagged way. */
function way(b: Block, end: number): void {
  const { pbf, pass } = b;
  let id = NaN;
  const keys: number[] = [];
  const vals: number[] = [];
  let refsAt = -1;
  let refsEnd = -1;
  for (let f = pbf.nextField(end); f; f = pbf.nextField(end)) {
    if (f === 1) id = pbf.readVarint(true);
    else if (f === 2) pbf.readPackedVarint(keys);
    else if (f === 3) pbf.readPackedVarint(vals);
    else if (f === 8 && pbf.type === WIRE_BYTES) {
      refsEnd = fieldEnd(pbf, end);
      refsAt = pbf.pos;
      pbf.pos = refsEnd;
    }
  }
  if (pbf.pos !== end || Number.isNaN(id) || keys.length !== vals.length) corrupt('bad way');
  if (keys.length === 0) return;
  const refs: number[] = [];
  if (refsAt >= 0) {
    pbf.pos = refsAt;
    let ref = 0;
    while (pbf.pos < refsEnd) refs.push((ref += pbf.readSVarint()));
    if (pbf.pos !== refsEnd || Number.isNaN(ref)) corrupt('bad way refs');
    pbf.pos = end;
  }
  pass.way(id, refs, tagsOf(b, keys, vals));
}

/** Decode a PrimitiveBlock, handing its elements to the pass; returns how many elements it holds. */
function decodePrimitiveBlock(buf: Uint8Array, pass: OsmPass): number {
  const pbf = new PbfReader(buf);
  const businesses = pass.mode === 'businesses';
  const groups: [number, number][] = [];
  const strings: string[] = [];
  let granularity = 100;
  let latOffset = 0;
  let lonOffset = 0;
  // Top-level fields first: the coordinate scale may come after the groups it applies to.
  for (let field = pbf.nextField(); field; field = pbf.nextField()) {
    if (field === 1 && pbf.type === WIRE_BYTES) {
      const end = fieldEnd(pbf, buf.length);
      if (!businesses) {
        pbf.pos = end;
        continue;
      }
      for (let f = pbf.nextField(end); f; f = pbf.nextField(end)) {
        if (f === 1 && pbf.type === WIRE_BYTES) strings.push(pbf.readString());
      }
      if (pbf.pos !== end) corrupt('bad string table');
    } else if (field === 2 && pbf.type === WIRE_BYTES) {
      const end = fieldEnd(pbf, buf.length);
      groups.push([pbf.pos, end]);
      pbf.pos = end;
    } else if (field === 17) granularity = pbf.readVarint();
    else if (field === 19) latOffset = pbf.readVarint(true);
    else if (field === 20) lonOffset = pbf.readVarint(true);
  }
  if (pbf.pos !== buf.length || !(granularity > 0)) corrupt('bad primitive block');
  const cursors: Block['cursors'] = [
    new PbfReader(buf),
    new PbfReader(buf),
    new PbfReader(buf),
    new PbfReader(buf),
  ];
  const block: Block = { pbf, cursors, strings, granularity, latOffset, lonOffset, pass };
  let elements = 0;
  for (const [start, end] of groups) {
    pbf.pos = start;
    for (let field = pbf.nextField(end); field; field = pbf.nextField(end)) {
      if (pbf.type !== WIRE_BYTES) continue;
      const messageEnd = fieldEnd(pbf, end);
      if (field === 1) {
        elements++;
        plainNode(block, messageEnd);
      } else if (field === 2) {
        elements += denseNodes(block, messageEnd);
      } else if (field === 3) {
        elements++;
        if (businesses) way(block, messageEnd);
      } else if (field === 4) {
        elements++;
      }
      pbf.pos = messageEnd;
    }
    if (pbf.pos !== end) corrupt('bad primitive group');
  }
  return elements;
}

async function readAt(fh: FileHandle, length: number, position: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  const { bytesRead } = await fh.read(buf, 0, length, position);
  if (bytesRead !== length) throw new PbfFormatError(`truncated at byte ${position + bytesRead}`);
  return buf;
}

function cannotDecode(error: unknown, offset: number): PbfFormatError {
  if (error instanceof PbfFormatError) return error;
  // A corrupt block: the decoder's own finding, or zlib's.
  const message = error instanceof Error ? error.message : String(error);
  return new PbfFormatError(`cannot decode the file: ${message} (blob at byte ${offset})`, { cause: error });
}

/** The blob at `offset`, read and inflated: its type, content and where the next one starts. */
async function loadBlob(
  fh: FileHandle,
  offset: number,
): Promise<{ type: string; content: Uint8Array; offset: number; next: number }> {
  const headerLen = (await readAt(fh, 4, offset)).readUInt32BE(0);
  const { type, dataSize } = parseBlobHeader(await readAt(fh, headerLen, offset + 4));
  const blob = await readAt(fh, dataSize, offset + 4 + headerLen);
  try {
    return { type, content: await blobContent(blob), offset, next: offset + 4 + headerLen + dataSize };
  } catch (error) {
    throw cannotDecode(error, offset);
  }
}

/**
 * Walk a PBF file (its structure already checked) for one pass of the business reader (see OsmPass). The next
 * blob is read and inflated (on libuv's threads) while this one is decoded. A blob that cannot be decoded throws
 * PbfFormatError "cannot decode the file: ..." naming its offset.
 */
async function scanPbf(file: string, pass: OsmPass): Promise<void> {
  type Loaded = Awaited<ReturnType<typeof loadBlob>>;
  const fh = await open(file, 'r');
  const load = (offset: number, size: number): Promise<Loaded> | null => {
    if (offset >= size) return null;
    const loading = loadBlob(fh, offset);
    // Awaited below, or dropped when the pass ends early or fails: never an unhandled rejection.
    loading.catch(() => undefined);
    return loading;
  };
  let pending: Promise<Loaded> | null = null;
  try {
    const size = (await fh.stat()).size;
    let elements = 0;
    pending = load(0, size);
    while (pending) {
      const blob = await pending;
      pending = load(blob.next, size);
      try {
        if (blob.type === 'OSMHeader') {
          const unknown = decodeHeaderBlock(blob.content).required.filter((f) => !KNOWN_FEATURES.has(f));
          if (unknown.length > 0) {
            throw new PbfFormatError(
              `the file requires ${unknown.join(', ')}, which this reader does not support (a current extract needs only OsmSchema-V0.6 and DenseNodes)`,
            );
          }
        } else {
          elements += decodePrimitiveBlock(blob.content, pass);
        }
      } catch (error) {
        throw cannotDecode(error, blob.offset);
      }
      if (await pass.checkpoint(blob.next, elements)) return;
    }
  } finally {
    // A read still in flight must end before the file is closed under it.
    await pending?.catch(() => undefined);
    await fh.close();
  }
}

export type PbfHeader = OsmHeader;

/**
 * The OSMHeader block of an extract: its bounding box and the time its data was taken. Either may be missing
 * (small hand-made files carry neither); a file whose first blob cannot be read throws PbfFormatError.
 */
export async function readPbfHeader(file: string): Promise<PbfHeader> {
  const fh = await open(file, 'r');
  try {
    const lenBuf = Buffer.alloc(4);
    const { bytesRead } = await fh.read(lenBuf, 0, 4, 0);
    const headerLen = bytesRead === 4 ? lenBuf.readUInt32BE(0) : 0;
    if (headerLen === 0 || headerLen > MAX_HEADER_BYTES)
      throw new PbfFormatError('not an OpenStreetMap PBF file');
    const header = Buffer.alloc(headerLen);
    await fh.read(header, 0, headerLen, 4);
    const { type, dataSize } = parseBlobHeader(header);
    if (type !== 'OSMHeader' || dataSize > MAX_BLOB_BYTES)
      throw new PbfFormatError('not an OpenStreetMap PBF file');
    const data = Buffer.alloc(dataSize);
    const read = await fh.read(data, 0, dataSize, 4 + headerLen);
    if (read.bytesRead < dataSize) throw new PbfFormatError('truncated header block');
    try {
      const { bbox, timestamp } = decodeHeaderBlock(await blobContent(data));
      return { bbox, timestamp };
    } catch (error) {
      throw new PbfFormatError(`unreadable header block: ${(error as Error).message}`);
    }
  } finally {
    await fh.close();
  }
}

/**
 * Whether a file is OpenStreetMap data the reader takes, without reading it all: a PBF file's whole structure
 * (checkPbfStructure), an XML file's root element (the rest is checked as it is read). Throws OsmFormatError.
 */
export async function checkOsmFile(file: string): Promise<OsmFileFormat> {
  const format = await detectOsmFormat(file);
  if (format === 'pbf') await checkPbfStructure(file);
  else await readOsmXmlHeader(file, format);
  return format;
}

/**
 * The area and data date a file states (any format): the PBF header's box and replication timestamp, or the
 * XML file's <bounds> and timestamp/osm_base. Either may be null.
 */
export async function readOsmHeader(file: string): Promise<OsmHeader> {
  const format = await detectOsmFormat(file);
  return format === 'pbf' ? readPbfHeader(file) : readOsmXmlHeader(file, format);
}

/**
 * Centroid of a way: area centroid for a closed ring, else (or when degenerate) the mean of its vertices. A
 * simple ring's centroid lies within its bounding box; one outside it comes of a ring that crosses itself with
 * next to no area, and the mean is taken instead.
 */
export function wayCentroid(points: ReadonlyArray<readonly [number, number]>): [number, number] | null {
  if (points.length === 0) return null;
  const first = points[0];
  const last = points[points.length - 1];
  const closed = points.length >= 4 && first && last && first[0] === last[0] && first[1] === last[1];
  const ring = closed ? points.slice(0, -1) : points;
  let sumLat = 0;
  let sumLng = 0;
  for (const [lat, lng] of ring) {
    sumLat += lat;
    sumLng += lng;
  }
  const mean: [number, number] = [sumLat / ring.length, sumLng / ring.length];
  if (!closed) return mean;
  // Shoelace formula relative to the mean (keeps the numbers small and precise).
  let a = 0;
  let cx = 0;
  let cy = 0;
  for (let i = 0; i < ring.length; i++) {
    const p = ring[i] ?? mean;
    const q = ring[(i + 1) % ring.length] ?? mean;
    const x0 = p[1] - mean[1];
    const y0 = p[0] - mean[0];
    const x1 = q[1] - mean[1];
    const y1 = q[0] - mean[0];
    const cross = x0 * y1 - x1 * y0;
    a += cross;
    cx += (x0 + x1) * cross;
    cy += (y0 + y1) * cross;
  }
  if (Math.abs(a) < 1e-14) return mean;
  const lat = mean[0] + cy / (3 * a);
  const lng = mean[1] + cx / (3 * a);
  const inside = (v: number, axis: 0 | 1) => ring.some((p) => p[axis] <= v) && ring.some((p) => p[axis] >= v);
  return inside(lat, 0) && inside(lng, 1) ? [lat, lng] : mean;
}

/**
 * Stream the businesses of an OpenStreetMap file (.osm.pbf, .osm, .osm.gz or .osm.bz2, told by its content) to
 * `emit` in batches (call order: all nodes of pass one, then the ways). Memory holds only the business ways and
 * the coordinates of their nodes. A file that cannot be read throws an OsmFormatError (PbfFormatError,
 * OsmXmlFormatError) naming the problem.
 *
 * With `emitAddresses`, every addressed node and way (a house number and a street, business or not) goes to it
 * too. An addressed way (a building, mostly) is placed at its first node, within a building's width of its
 * centre: only that node's position is kept for pass two, not the whole outline.
 */
export async function readOsmBusinesses(
  file: string,
  emit: (batch: OsmPoi[]) => Promise<void>,
  progress?: (p: PbfProgress) => void,
  batchSize = 1000,
  emitAddresses?: (batch: AddressRecord[]) => Promise<void>,
): Promise<{ nodes: number; ways: number; skippedWays: number; addresses: number }> {
  const format = await detectOsmFormat(file);
  const totalBytes = format === 'pbf' ? (await checkPbfStructure(file)).bytes : (await stat(file)).size;
  const scan = (pass: OsmPass) => (format === 'pbf' ? scanPbf(file, pass) : scanOsmXml(file, format, pass));
  const ways: { id: number; refs: number[]; tags: Record<string, string> }[] = [];
  const needed = new Set<number>();
  const addressWays: { at: number; address: AddressRecord }[] = [];
  let addressBatch: AddressRecord[] = [];
  let addressCount = 0;
  let batch: OsmPoi[] = [];
  let nodeCount = 0;
  let elements = 0;
  let bytesRead = 0;
  let lastReport = 0;
  const report = (pass: 1 | 2, force = false) => {
    if (!progress) return;
    const now = Date.now();
    if (!force && now - lastReport < 500) return;
    lastReport = now;
    progress({
      pass,
      bytesRead,
      totalBytes,
      elements,
      businesses: nodeCount + (pass === 2 ? ways.length : 0),
    });
  };
  const flush = async () => {
    if (batch.length > 0) {
      const out = batch;
      batch = [];
      await emit(out);
    }
    if (addressBatch.length > 0 && emitAddresses) {
      const out = addressBatch;
      addressBatch = [];
      await emitAddresses(out);
    }
  };
  const address = (record: AddressRecord | null) => {
    if (!record) return;
    addressBatch.push(record);
    addressCount++;
  };

  await scan({
    mode: 'businesses',
    node(id, lat, lon, tags) {
      if (!tags) return;
      if (emitAddresses) address(addressFromTags(`osm:node/${id}`, lat, lon, tags));
      if (!isOsmBusiness(tags)) return;
      batch.push({ id: `osm:node/${id}`, lat, lng: lon, tags });
      nodeCount++;
    },
    way(id, refs, tags) {
      const first = refs[0];
      if (emitAddresses && first !== undefined) {
        const record = addressFromTags(`osm:way/${id}`, 0, 0, tags);
        if (record) {
          addressWays.push({ at: first, address: record });
          needed.add(first);
        }
      }
      if (!isOsmBusiness(tags)) return;
      ways.push({ id, refs, tags });
      for (const r of refs) needed.add(r);
    },
    async checkpoint(bytes, seen) {
      bytesRead = bytes;
      elements = seen;
      if (batch.length >= batchSize || addressBatch.length >= batchSize) await flush();
      report(1);
      return false;
    },
  });
  await flush();
  bytesRead = totalBytes;
  report(1, true);

  let skippedWays = 0;
  if (ways.length > 0 || addressWays.length > 0) {
    const coords = new Map<number, [number, number]>();
    elements = 0;
    await scan({
      mode: 'positions',
      node(id, lat, lon) {
        if (needed.has(id)) coords.set(id, [lat, lon]);
      },
      way() {},
      checkpoint(bytes, seen) {
        bytesRead = bytes;
        elements = seen;
        report(2);
        // Once every node the ways need has been seen, the rest of the file has nothing for this pass.
        return coords.size === needed.size;
      },
    });
    needed.clear();
    bytesRead = totalBytes;
    for (const w of ways) {
      const points = w.refs.map((r) => coords.get(r)).filter((p): p is [number, number] => p !== undefined);
      const c = points.length === w.refs.length ? wayCentroid(points) : null;
      if (!c) {
        skippedWays++;
        continue;
      }
      batch.push({ id: `osm:way/${w.id}`, lat: c[0], lng: c[1], tags: w.tags });
      if (batch.length >= batchSize) await flush();
    }
    for (const { at, address: record } of addressWays) {
      const point = coords.get(at);
      if (point) address({ ...record, lat: point[0], lng: point[1] });
      if (addressBatch.length >= batchSize) await flush();
    }
    addressWays.length = 0;
    await flush();
    report(2, true);
  }
  return { nodes: nodeCount, ways: ways.length - skippedWays, skippedWays, addresses: addressCount };
}
