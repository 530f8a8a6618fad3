// What the OpenStreetMap file readers share: the format error, how a file's format is told, and the pass a
// reader drives. The formats: PBF (pbf-reader.ts) and XML, plain, gzip or bzip2 (osm-xml-reader.ts).
import { open } from 'node:fs/promises';

/** A file that cannot be read as OpenStreetMap data; the message is the one line a user is shown. */
export class OsmFormatError extends Error {
  override name = 'OsmFormatError';
}

export type OsmFileFormat = 'pbf' | 'xml' | 'xml-gzip' | 'xml-bzip2';

export type OsmTags = Record<string, string>;

/** Bounding box in degrees. */
export interface OsmBox {
  minLat: number;
  minLng: number;
  maxLat: number;
  maxLng: number;
}

/** What a file says about itself, when it says it. */
export interface OsmHeader {
  /** The area the file covers: a PBF header's bounding box, an XML file's <bounds>. */
  bbox: OsmBox | null;
  /** The date of the data (ISO): a PBF header's replication timestamp, an XML file's timestamp or osm_base. */
  timestamp: string | null;
}

/**
 * One reading of a file. 'businesses': tagged nodes with their tags, tagged ways with their node refs and tags
 * (untagged elements are counted, never handed over). 'positions': every node's position, no tags, no ways.
 */
export interface OsmPass {
  mode: 'businesses' | 'positions';
  node(id: number, lat: number, lon: number, tags: OsmTags | null): void;
  way(id: number, refs: number[], tags: OsmTags): void;
  /**
   * Called after each block or chunk with the bytes of the file read so far (compressed bytes for a compressed
   * file) and the elements seen. The reader waits for it, so batches are written here at the reader's pace;
   * answering true ends the pass early (every node it needed has been seen).
   */
  checkpoint(bytesRead: number, elements: number): Promise<boolean> | boolean;
}

/**
 * The format of a file, told by its first bytes: gzip and bzip2 by their magic numbers (an OpenStreetMap file
 * compressed so is XML), PBF by its first blob header naming the OSMHeader block, XML by a leading '<'. A file
 * whose first bytes are none of these is taken by its name, so the error is that of the format the name
 * promises (a name that says nothing is taken as PBF, the format the mirrors serve).
 */
export async function detectOsmFormat(file: string): Promise<OsmFileFormat> {
  const fh = await open(file, 'r');
  let head: Buffer;
  try {
    const buf = Buffer.alloc(64);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    head = buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
  return formatOfBytes(head) ?? formatOfName(file);
}

/** The format the first bytes of a file show, or null when they show none. */
export function formatOfBytes(head: Uint8Array): OsmFileFormat | null {
  if (head[0] === 0x1f && head[1] === 0x8b) return 'xml-gzip';
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if (ascii(0, 3) === 'BZh' && (head[3] ?? 0) >= 0x31 && (head[3] ?? 0) <= 0x39) return 'xml-bzip2';
  // A PBF file opens with a 4-byte header length and a BlobHeader whose field 1 (type) is "OSMHeader".
  if (head.length >= 15 && head[4] === 0x0a && head[5] === 9 && ascii(6, 15) === 'OSMHeader') return 'pbf';
  let i = 0;
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) i = 3; // UTF-8 byte order mark
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x09 || head[i] === 0x0a || head[i] === 0x0d))
    i++;
  if (head[i] === 0x3c) return 'xml';
  return null;
}

/** The format a file's name promises: .osm/.xml, .gz, .bz2, else PBF. */
export function formatOfName(file: string): OsmFileFormat {
  const name = file.toLowerCase();
  if (name.endsWith('.gz')) return 'xml-gzip';
  if (name.endsWith('.bz2')) return 'xml-bzip2';
  if (name.endsWith('.osm') || name.endsWith('.xml')) return 'xml';
  return 'pbf';
}

/** A box the world can hold, min below max; null otherwise. */
export function validBox(box: OsmBox): OsmBox | null {
  const ok =
    [box.minLat, box.minLng, box.maxLat, box.maxLng].every(Number.isFinite) &&
    box.minLat >= -90 &&
    box.maxLat <= 90 &&
    box.minLat <= box.maxLat &&
    box.minLng >= -180 &&
    box.maxLng <= 180 &&
    box.minLng <= box.maxLng;
  return ok ? box : null;
}

/** A data date as ISO, or null when the value is no real one (anything before OpenStreetMap existed, 2004). */
export function dataDate(ms: number): string | null {
  return Number.isFinite(ms) && ms > 1_072_915_200_000 && ms < 32_503_680_000_000
    ? new Date(ms).toISOString()
    : null;
}
