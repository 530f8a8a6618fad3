// Reading OpenStreetMap XML (.osm; .osm.gz; .osm.bz2: what Overpass, JOSM and many download pages give),
// streaming, in bounded memory: the file is decompressed and parsed chunk by chunk, and only the element being
// read is held. The parser is saxes, which checks that the XML is well-formed, so a malformed or truncated file
// fails with its line and column instead of importing what came before the damage. bzip2 is decompressed by
// unbzip2-stream (pure JavaScript), gzip by Node's zlib.
// What is read, as from a PBF file: nodes (id, lat, lon, tags) and ways (id, node refs, tags) that are children
// of the <osm> root; relations are counted and skipped; elements JOSM marks deleted (action="delete") and
// deleted versions (visible="false") are left out.
import { createReadStream } from 'node:fs';
import { pipeline, Transform, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import unbzip2Stream from 'unbzip2-stream';
import {
  dataDate,
  OsmFormatError,
  validBox,
  type OsmFileFormat,
  type OsmHeader,
  type OsmPass,
  type OsmTags,
} from './osm-format.js';

export class OsmXmlFormatError extends OsmFormatError {
  override name = 'OsmXmlFormatError';
}

type XmlFormat = Exclude<OsmFileFormat, 'pbf'>;

const READ_CHUNK = 256 * 1024;

/**
 * unbzip2-stream decompresses inside write() and emits its output at once; this carries it as a Node stream. It
 * decodes a block only once the whole block has arrived, so a stream that ends inside a block (it then reads
 * past the data: a TypeError) or before the end-of-stream marker is a truncated file; any other failure is
 * corrupt data.
 */
function bunzip2(): Transform {
  const bz = unbzip2Stream();
  let failed: Error | null = null;
  let ending = false;
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bz.write(chunk);
      done(failed);
    },
    flush(done) {
      ending = true;
      bz.end();
      done(failed);
    },
  });
  bz.on('data', (data: Buffer) => transform.push(data));
  bz.on('error', (error: Error) => {
    const truncated = /ended prematurely/.test(error.message) || (ending && error instanceof TypeError);
    failed ??= new OsmXmlFormatError(
      truncated
        ? 'the bzip2 data ends early: the file is truncated'
        : `cannot decompress the bzip2 file: ${error.message}`,
      { cause: error },
    );
  });
  return transform;
}

/** The file's bytes as XML text chunks: decompressed, and read no faster than they are parsed. */
function xmlBytes(
  file: string,
  format: XmlFormat,
): { source: ReturnType<typeof createReadStream>; out: Readable } {
  const source = createReadStream(file, { highWaterMark: READ_CHUNK });
  if (format === 'xml') return { source, out: source };
  // The callback form hands back the last stream: an error of any stage reaches whoever iterates it, and a
  // reader that stops early destroys it and so the whole chain (the callback then only hears of that).
  const out = pipeline(source, format === 'xml-gzip' ? createGunzip() : bunzip2(), () => undefined);
  return { source, out };
}

function decompressionError(error: unknown): OsmXmlFormatError | null {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string' || !code.startsWith('Z_')) return null;
  const message = (error as Error).message;
  return new OsmXmlFormatError(
    code === 'Z_BUF_ERROR'
      ? 'the gzip data ends early: the file is truncated'
      : `cannot decompress the gzip file: ${message}`,
    { cause: error },
  );
}

/**
 * Parse the file with `setup`'s handlers, calling `afterChunk` after each chunk of text (it may stop the parse by
 * answering true). Every failure to read the file as XML is an OsmXmlFormatError; errors of the handlers and of
 * `afterChunk` pass through as they are.
 */
async function parseXml(
  file: string,
  format: XmlFormat,
  setup: (parser: SaxesParser, fail: (message: string) => never) => void,
  afterChunk: (bytesRead: number) => Promise<boolean> | boolean,
): Promise<void> {
  const parser = new SaxesParser({ position: true });
  // saxes keeps one handler per event: `setup` has opentag and closetag, this reader opentagstart.
  let rootSeen = false;
  let closing = false;
  parser.on('opentagstart', () => (rootSeen = true));
  const fail = (message: string): never => {
    throw new OsmXmlFormatError(`${message} (line ${parser.line})`);
  };
  parser.on('error', (error) => {
    // saxes prefixes its messages with "line:column: ".
    const m = /^(\d+):(\d+): (.*)$/s.exec(error.message);
    const where = m ? `line ${m[1]}, column ${Number(m[2]) + 1}` : `line ${parser.line}`;
    const what = m?.[3] ?? error.message;
    if (!rootSeen) throw new OsmXmlFormatError(`not an OpenStreetMap XML file: ${what} (${where})`);
    if (closing) throw new OsmXmlFormatError(`the XML ends early, the file is truncated: ${what} (${where})`);
    throw new OsmXmlFormatError(`malformed XML at ${where}: ${what}`);
  });
  parser.on('xmldecl', (decl) => {
    if (decl.encoding && !/^utf-?8$/i.test(decl.encoding)) {
      throw new OsmXmlFormatError(
        `the XML is encoded as ${decl.encoding}; OpenStreetMap XML is UTF-8 (re-save the file as UTF-8)`,
      );
    }
  });
  setup(parser, fail);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const text = (chunk?: Buffer): string => {
    try {
      return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
    } catch {
      return fail('the file is not UTF-8 text: not an OpenStreetMap XML file');
    }
  };
  const { source, out } = xmlBytes(file, format);
  try {
    for await (const chunk of out as AsyncIterable<Buffer>) {
      parser.write(text(chunk));
      if (await afterChunk(source.bytesRead)) return;
    }
    parser.write(text());
    if (!rootSeen) throw new OsmXmlFormatError('not an OpenStreetMap XML file: it holds no XML element');
    closing = true;
    parser.close();
  } catch (error) {
    throw decompressionError(error) ?? error;
  } finally {
    out.destroy();
  }
}

const ELEMENT_NONE = 0;
const ELEMENT_NODE = 1;
const ELEMENT_WAY = 2;
const ELEMENT_OTHER = 3;

function integer(value: string | undefined): number | null {
  if (value === undefined || !/^-?\d{1,16}$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : null;
}

function degrees(value: string | undefined, limit: number): number | null {
  if (value === undefined || value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) && Math.abs(n) <= limit ? n : null;
}

/** JOSM keeps elements deleted in the editor with action="delete"; history files keep deleted versions. */
function gone(attributes: Record<string, string>): boolean {
  return attributes.action === 'delete' || attributes.visible === 'false';
}

/** The root must be <osm>: an osmChange (a diff) or any other XML is refused by name. */
function checkRoot(tag: SaxesTagPlain): void {
  if (tag.name === 'osm') return;
  if (tag.name === 'osmChange') {
    throw new OsmXmlFormatError('an osmChange file lists changes, not the map: export the area as OSM XML');
  }
  throw new OsmXmlFormatError(`not an OpenStreetMap XML file: its root element is <${tag.name}>, not <osm>`);
}

/** Walk an OSM XML file for one pass of the business reader (see OsmPass). */
export async function scanOsmXml(file: string, format: XmlFormat, pass: OsmPass): Promise<void> {
  const businesses = pass.mode === 'businesses';
  let depth = 0;
  let elements = 0;
  let current = ELEMENT_NONE;
  let skip = false;
  let id = 0;
  let lat = 0;
  let lon = 0;
  let tags: OsmTags | null = null;
  const refs: number[] = [];
  let remark: string | null = null;

  await parseXml(
    file,
    format,
    (parser, fail) => {
      parser.on('opentag', (tag) => {
        depth++;
        if (depth === 1) return checkRoot(tag);
        const a = tag.attributes;
        if (depth === 2) {
          tags = null;
          if (tag.name === 'node') {
            elements++;
            current = ELEMENT_NODE;
            skip = gone(a);
            if (skip) return;
            const nodeId = integer(a.id);
            const nodeLat = degrees(a.lat, 90);
            const nodeLon = degrees(a.lon, 180);
            if (nodeId === null || nodeLat === null || nodeLon === null) {
              fail(`a <node> without a valid id, lat and lon (id="${a.id ?? ''}")`);
            }
            id = nodeId ?? 0;
            lat = nodeLat ?? 0;
            lon = nodeLon ?? 0;
          } else if (tag.name === 'way') {
            elements++;
            current = ELEMENT_WAY;
            skip = gone(a) || !businesses;
            refs.length = 0;
            if (skip) return;
            const wayId = integer(a.id);
            if (wayId === null) fail(`a <way> without a valid id (id="${a.id ?? ''}")`);
            id = wayId ?? 0;
          } else {
            if (tag.name === 'relation') elements++;
            // Overpass reports a query that failed part-way (a timeout, out of memory) in a <remark>.
            if (tag.name === 'remark') remark = '';
            current = ELEMENT_OTHER;
          }
          return;
        }
        if (depth !== 3 || skip || !businesses) return;
        if (tag.name === 'tag' && (current === ELEMENT_NODE || current === ELEMENT_WAY)) {
          if (a.k === undefined || a.v === undefined) fail('a <tag> without k and v');
          (tags ??= {})[a.k ?? ''] = a.v ?? '';
        } else if (tag.name === 'nd' && current === ELEMENT_WAY) {
          const ref = integer(a.ref);
          if (ref === null) fail(`a way's <nd> without a valid ref (ref="${a.ref ?? ''}")`);
          refs.push(ref ?? 0);
        }
      });
      parser.on('text', (text) => {
        if (remark !== null) remark += text;
      });
      parser.on('closetag', () => {
        if (depth === 2) {
          if (!skip && current === ELEMENT_NODE && (tags || !businesses)) pass.node(id, lat, lon, tags);
          else if (!skip && current === ELEMENT_WAY && tags) pass.way(id, refs.slice(), tags);
          if (remark !== null && /runtime error/i.test(remark)) {
            throw new OsmXmlFormatError(
              `the file is an incomplete Overpass answer: ${remark.trim().replace(/\s+/g, ' ')}`,
            );
          }
          remark = null;
          current = ELEMENT_NONE;
          skip = false;
        }
        depth--;
      });
    },
    (bytesRead) => pass.checkpoint(bytesRead, elements),
  );
}

/**
 * The area and date an OSM XML file states before its data: <bounds> (the API's and JOSM's) or <bound box>
 * (Osmosis'), and the root's timestamp attribute or Overpass' <meta osm_base>. Reads only up to the first element.
 */
export async function readOsmXmlHeader(file: string, format: XmlFormat): Promise<OsmHeader> {
  let bbox: OsmHeader['bbox'] = null;
  let timestamp: string | null = null;
  let depth = 0;
  let done = false;
  const date = (value: string | undefined) => (value ? dataDate(Date.parse(value)) : null);
  await parseXml(
    file,
    format,
    (parser) => {
      parser.on('opentag', (tag) => {
        depth++;
        if (done) return;
        const a = tag.attributes;
        if (depth === 1) {
          checkRoot(tag);
          timestamp = date(a.timestamp);
        } else if (depth === 2) {
          if (tag.name === 'node' || tag.name === 'way' || tag.name === 'relation') done = true;
          else if (tag.name === 'meta') timestamp = date(a.osm_base) ?? timestamp;
          else if (tag.name === 'bounds') {
            bbox = validBox({
              minLat: Number(a.minlat),
              minLng: Number(a.minlon),
              maxLat: Number(a.maxlat),
              maxLng: Number(a.maxlon),
            });
          } else if (tag.name === 'bound' && a.box) {
            const [minLat, minLng, maxLat, maxLng] = a.box.split(',').map(Number);
            bbox = validBox({
              minLat: minLat ?? NaN,
              minLng: minLng ?? NaN,
              maxLat: maxLat ?? NaN,
              maxLng: maxLng ?? NaN,
            });
          }
        }
      });
      parser.on('closetag', () => {
        depth--;
      });
    },
    () => done,
  );
  return { bbox, timestamp };
}
