// Reading businesses out of an OpenStreetMap .osm.pbf extract, streaming, in bounded memory:
//  1. a structural check of the file (every blob header readable, sizes consistent, ends exactly at EOF), so a
//     truncated or foreign file fails loudly before anything is written — the parser itself stops silently;
//  2. pass one: named business nodes are emitted at once; named business ways are kept with their node refs,
//     and only the ids of those refs are remembered;
//  3. pass two (only when such ways exist): the coordinates of just those nodes, then each way at its centroid.
// Relations are skipped (multipolygon shops are rare and need a member-way pass of their own).
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import parseOsm from 'osm-pbf-parser';
import { isOsmBusiness } from '../../core/osm-tags.js';

export class PbfFormatError extends Error {
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
  bytesRead: number;
  totalBytes: number;
  elements: number;
  businesses: number;
}

interface RawNode {
  type: 'node';
  id: number;
  lat: number;
  lon: number;
  tags?: Record<string, string>;
}
interface RawWay {
  type: 'way';
  id: number;
  refs: number[];
  tags?: Record<string, string>;
}
type RawItem = RawNode | RawWay | { type: string; id: number; tags?: Record<string, string> };

const MAX_HEADER_BYTES = 64 * 1024;
const MAX_BLOB_BYTES = 32 * 1024 * 1024;

function readVarint(buf: Buffer, pos: number): [number, number] {
  let result = 0;
  let shift = 0;
  for (;;) {
    if (pos >= buf.length) throw new PbfFormatError('bad blob header');
    const b = buf[pos++] ?? 0;
    result += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) return [result, pos];
    shift += 7;
    if (shift > 49) throw new PbfFormatError('bad blob header');
  }
}

/** Parse one BlobHeader message: its type ('OSMHeader' / 'OSMData') and the size of the blob that follows. */
function parseBlobHeader(buf: Buffer): { type: string; dataSize: number } {
  let pos = 0;
  let type = '';
  let dataSize = -1;
  while (pos < buf.length) {
    let key: number;
    [key, pos] = readVarint(buf, pos);
    const field = Math.floor(key / 8);
    const wire = key % 8;
    if (wire === 0) {
      let v: number;
      [v, pos] = readVarint(buf, pos);
      if (field === 3) dataSize = v;
    } else if (wire === 2) {
      let len: number;
      [len, pos] = readVarint(buf, pos);
      if (pos + len > buf.length) throw new PbfFormatError('bad blob header');
      if (field === 1) type = buf.toString('latin1', pos, pos + len);
      pos += len;
    } else {
      throw new PbfFormatError('bad blob header');
    }
  }
  if (!type || dataSize < 0) throw new PbfFormatError('bad blob header');
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

interface ProtoMessage {
  decode(buf: Buffer): unknown;
}
interface PbfSchemas {
  file: { Blob: ProtoMessage; BlobHeader: ProtoMessage };
  osm: { HeaderBlock: ProtoMessage };
}
let schemas: PbfSchemas | undefined;
/** The protocol-buffer schemas osm-pbf-parser reads the data blocks with (loaded on first use). */
function pbfSchemas(): PbfSchemas {
  schemas ??= createRequire(import.meta.url)('osm-pbf-parser/lib/parsers.js') as PbfSchemas;
  return schemas;
}

export interface PbfHeader {
  /** The area the extract covers, from the header's bounding box (Geofabrik's extracts carry one). */
  bbox: { minLat: number; minLng: number; maxLat: number; maxLng: number } | null;
  /** The date of the data: the header's replication timestamp (ISO), when the file has one. */
  timestamp: string | null;
}

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
    const s = pbfSchemas();
    let block: {
      bbox?: { left: number; right: number; top: number; bottom: number } | null;
      osmosis_replication_timestamp?: number | null;
    };
    try {
      const blob = s.file.Blob.decode(data) as { raw?: Buffer | null; zlib_data?: Buffer | null };
      const raw = blob.raw ?? (blob.zlib_data ? inflateSync(blob.zlib_data) : null);
      if (!raw) throw new Error('no raw or zlib data');
      block = s.osm.HeaderBlock.decode(raw) as typeof block;
    } catch (error) {
      throw new PbfFormatError(`unreadable header block: ${(error as Error).message}`);
    }
    const b = block.bbox;
    const deg = (nano: number) => Number(nano) / 1e9;
    const bbox =
      b && [b.left, b.right, b.top, b.bottom].every((v) => Number.isFinite(Number(v)))
        ? { minLat: deg(b.bottom), minLng: deg(b.left), maxLat: deg(b.top), maxLng: deg(b.right) }
        : null;
    const valid =
      bbox &&
      bbox.minLat >= -90 &&
      bbox.maxLat <= 90 &&
      bbox.minLat <= bbox.maxLat &&
      bbox.minLng >= -180 &&
      bbox.maxLng <= 180 &&
      bbox.minLng <= bbox.maxLng;
    const seconds = Number(block.osmosis_replication_timestamp ?? 0);
    // Anything before OpenStreetMap existed (2004) is not a real replication time.
    const timestamp =
      seconds > 1_072_915_200 && seconds < 32_503_680_000 ? new Date(seconds * 1000).toISOString() : null;
    return { bbox: valid ? bbox : null, timestamp };
  } finally {
    await fh.close();
  }
}

async function streamItems(
  file: string,
  onItems: (items: RawItem[]) => Promise<void> | void,
  onBytes: (bytes: number) => void,
): Promise<void> {
  const source = createReadStream(file, { highWaterMark: 256 * 1024 });
  let bytes = 0;
  source.on('data', (chunk) => {
    bytes += chunk.length;
    onBytes(bytes);
  });
  const parser = parseOsm();
  // The write in progress when the pipeline fails must finish before the caller cleans up after it.
  let inFlight: Promise<void> = Promise.resolve();
  const sink = new Writable({
    objectMode: true,
    write(items: RawItem[], _enc, done) {
      inFlight = Promise.resolve(onItems(items));
      inFlight.then(
        () => done(),
        (e: unknown) => done(e instanceof Error ? e : new Error(String(e))),
      );
    },
  });
  try {
    await pipeline(source, parser, sink);
  } catch (error) {
    await inFlight.catch(() => undefined);
    if (error instanceof PbfFormatError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new PbfFormatError(`cannot decode the file: ${message}`, { cause: error });
  }
}

/** Centroid of a way: area centroid for a closed ring, else (or when degenerate) the mean of its vertices. */
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
  return [mean[0] + cy / (3 * a), mean[1] + cx / (3 * a)];
}

/**
 * Stream the businesses of an extract to `emit` in batches (call order: all nodes of pass one, then the ways).
 * Memory holds only the business ways and the coordinates of their nodes.
 */
export async function readOsmBusinesses(
  file: string,
  emit: (batch: OsmPoi[]) => Promise<void>,
  progress?: (p: PbfProgress) => void,
  batchSize = 1000,
): Promise<{ nodes: number; ways: number; skippedWays: number }> {
  const { bytes: totalBytes } = await checkPbfStructure(file);
  const ways: { id: number; refs: number[]; tags: Record<string, string> }[] = [];
  const needed = new Set<number>();
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
    if (batch.length === 0) return;
    const out = batch;
    batch = [];
    await emit(out);
  };

  await streamItems(
    file,
    async (items) => {
      for (const item of items) {
        elements++;
        const tags = item.tags;
        if (!tags || !isOsmBusiness(tags)) continue;
        if (item.type === 'node') {
          const n = item as RawNode;
          batch.push({ id: `osm:node/${n.id}`, lat: n.lat, lng: n.lon, tags });
          nodeCount++;
        } else if (item.type === 'way') {
          const w = item as RawWay;
          ways.push({ id: w.id, refs: w.refs, tags });
          for (const r of w.refs) needed.add(r);
        }
      }
      if (batch.length >= batchSize) await flush();
      report(1);
    },
    (b) => (bytesRead = b),
  );
  await flush();
  report(1, true);

  let skippedWays = 0;
  if (ways.length > 0) {
    const coords = new Map<number, [number, number]>();
    elements = 0;
    await streamItems(
      file,
      (items) => {
        for (const item of items) {
          elements++;
          if (item.type === 'node' && needed.has(item.id)) {
            const n = item as RawNode;
            coords.set(n.id, [n.lat, n.lon]);
          }
        }
        report(2);
      },
      (b) => (bytesRead = b),
    );
    needed.clear();
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
    await flush();
    report(2, true);
  }
  return { nodes: nodeCount, ways: ways.length - skippedWays, skippedWays };
}
