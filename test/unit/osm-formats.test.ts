// The reader of every OpenStreetMap file a user may have: the Prairie Junction fixture written as a PBF with dense
// nodes, with plain nodes, with a coarse granularity and offsets, as OSM XML, gzipped and bzip2-compressed, reads as
// the same businesses; and each kind of broken file fails with one clear error.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ALL_NODES, BUSINESS_NODES, WAYS } from '../fixtures/osm/prairie-junction.js';
import { writePbf, type PbfBlockOptions, type PbfRelation } from '../fixtures/osm/pbf-writer.js';
import { writeOsmXml, type OsmXmlFields } from '../fixtures/osm/osm-xml-writer.js';
import { FIXTURE_XML_BZ2 } from '../fixtures/osm/make-fixture.js';
import { detectOsmFormat, OsmFormatError } from '../../src/server/places/osm-format.js';
import { OsmXmlFormatError } from '../../src/server/places/osm-xml-reader.js';
import {
  checkOsmFile,
  PbfFormatError,
  readOsmBusinesses,
  readOsmHeader,
  readPbfHeader,
  type OsmPoi,
  type PbfProgress,
} from '../../src/server/places/pbf-reader.js';

const PROGRAM = 'prospect-finder test/unit/osm-formats.test.ts';
// A shop mapped as a multipolygon: relations are skipped by every reader.
const RELATIONS: PbfRelation[] = [
  {
    id: 4001,
    members: [{ type: 'way', ref: 3001, role: 'outer' }],
    tags: { type: 'multipolygon', name: 'Relation Outlet', shop: 'clothes' },
  },
];

let dir: string;
const file = (name: string) => join(dir, name);

async function read(path: string, batchSize = 7) {
  const pois: OsmPoi[] = [];
  const batches: number[] = [];
  const progress: PbfProgress[] = [];
  const result = await readOsmBusinesses(
    path,
    async (batch) => {
      batches.push(batch.length);
      pois.push(...batch);
    },
    (p) => progress.push(p),
    batchSize,
  );
  return { pois, batches, progress, result };
}

function pbf(options: PbfBlockOptions = {}): Buffer {
  return writePbf(ALL_NODES, WAYS, PROGRAM, {}, { relations: RELATIONS, ...options });
}

function xml(fields: OsmXmlFields = {}): string {
  return writeOsmXml(ALL_NODES, WAYS, { relations: RELATIONS, ...fields });
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pf-osm-formats-'));
  writeFileSync(file('dense.osm.pbf'), pbf());
  writeFileSync(file('plain.osm.pbf'), pbf({ denseNodes: false }));
  // 1e-5 degrees a unit from 40 N, 3 E: the fixture's coordinates lie on that grid, so they come out exact.
  const coarse = { granularity: 10_000, latOffset: 40_000_000_000, lonOffset: 3_000_000_000 };
  writeFileSync(file('coarse-dense.osm.pbf'), pbf(coarse));
  writeFileSync(file('coarse-plain.osm.pbf'), pbf({ ...coarse, denseNodes: false }));
  writeFileSync(file('town.osm'), xml());
  writeFileSync(file('town.osm.gz'), gzipSync(xml()));
  copyFileSync(FIXTURE_XML_BZ2, file('town.osm.bz2'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('every OpenStreetMap format', () => {
  const FORMATS = [
    'plain.osm.pbf',
    'coarse-dense.osm.pbf',
    'coarse-plain.osm.pbf',
    'town.osm',
    'town.osm.gz',
    'town.osm.bz2',
  ];

  it('reads the fixture as its business nodes, then its whole business ways at their centroid', async () => {
    const { pois, result } = await read(file('dense.osm.pbf'));
    const nodes = BUSINESS_NODES.slice().sort((a, b) => a.id - b.id);
    expect(result).toEqual({ nodes: nodes.length, ways: 2, skippedWays: 1, addresses: 0 });
    expect(pois.map((p) => p.id)).toEqual([
      ...nodes.map((n) => `osm:node/${n.id}`),
      'osm:way/3001',
      'osm:way/3002',
    ]);
    for (const [i, n] of nodes.entries()) {
      expect(pois[i]).toEqual({ id: `osm:node/${n.id}`, lat: n.lat, lng: n.lon, tags: n.tags });
    }
    // Way 3001 is a square around (CENTER + 0.0035, CENTER - 0.0035).
    expect(pois.at(-2)?.lat).toBeCloseTo(40.2084, 7);
    expect(pois.at(-2)?.lng).toBeCloseTo(-100.6314, 7);
    expect(pois.at(-2)?.tags).toEqual(WAYS[0]?.tags);
  });

  it.each(FORMATS)(
    'reads %s exactly as the dense PBF: same ids, order, coordinates and tags',
    async (name) => {
      const want = await read(file('dense.osm.pbf'));
      const got = await read(file(name));
      expect(got.result).toEqual(want.result);
      expect(got.pois).toEqual(want.pois);
      for (const [i, p] of got.pois.entries()) {
        expect(Math.abs(p.lat - (want.pois[i]?.lat ?? NaN))).toBeLessThan(1e-7);
        expect(Math.abs(p.lng - (want.pois[i]?.lng ?? NaN))).toBeLessThan(1e-7);
      }
    },
  );

  it.each(['dense.osm.pbf', ...FORMATS])('%s: batches and progress as the import expects', async (name) => {
    const { batches, progress, pois } = await read(file(name), 7);
    expect(batches.reduce((a, b) => a + b, 0)).toBe(pois.length);
    expect(batches.every((n) => n > 0)).toBe(true);
    const size = statSync(file(name)).size;
    const last1 = progress.filter((p) => p.pass === 1).at(-1);
    const last2 = progress.filter((p) => p.pass === 2).at(-1);
    // bytesRead counts the file's own (compressed) bytes.
    expect(last1).toMatchObject({ bytesRead: size, totalBytes: size, businesses: BUSINESS_NODES.length });
    const elements = ALL_NODES.length + WAYS.length + (name === 'town.osm.bz2' ? 0 : RELATIONS.length);
    expect(last1?.elements).toBe(elements);
    expect(last2).toMatchObject({ pass: 2, bytesRead: size, totalBytes: size });
    expect(last2?.businesses).toBe(BUSINESS_NODES.length + WAYS.length);
  });

  it('tells the format by content, whatever the name says', async () => {
    const want = await read(file('dense.osm.pbf'));
    writeFileSync(file('xml-named.osm.pbf'), xml());
    writeFileSync(file('gz-named.osm'), gzipSync(xml()));
    copyFileSync(file('dense.osm.pbf'), file('pbf-named.osm'));
    copyFileSync(file('town.osm.bz2'), file('interpreter'));
    expect(await detectOsmFormat(file('xml-named.osm.pbf'))).toBe('xml');
    expect(await detectOsmFormat(file('gz-named.osm'))).toBe('xml-gzip');
    expect(await detectOsmFormat(file('pbf-named.osm'))).toBe('pbf');
    expect(await detectOsmFormat(file('interpreter'))).toBe('xml-bzip2');
    for (const name of ['xml-named.osm.pbf', 'gz-named.osm', 'pbf-named.osm', 'interpreter']) {
      expect((await read(file(name))).pois).toEqual(want.pois);
    }
  });

  it('reads without a console line or a process warning', async () => {
    const spies = (['log', 'warn', 'error', 'info'] as const).map((m) => vi.spyOn(console, m));
    const warnings: unknown[] = [];
    const onWarning = (w: unknown) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      for (const name of ['plain.osm.pbf', 'town.osm', 'town.osm.gz', 'town.osm.bz2']) await read(file(name));
      await new Promise((r) => setImmediate(r));
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      for (const spy of spies) spy.mockRestore();
    }
  });

  it('leaves out the elements a JOSM file marks deleted and deleted versions', async () => {
    const text = xml()
      .replace('<node id="1001" version="1"', '<node id="1001" action="delete" version="1"')
      .replace('<way id="3002" version="1"', '<way id="3002" visible="false" version="1"');
    writeFileSync(file('edited.osm'), text);
    const { pois, result } = await read(file('edited.osm'));
    expect(pois.map((p) => p.id)).not.toContain('osm:node/1001');
    expect(pois.map((p) => p.id)).not.toContain('osm:way/3002');
    expect(result).toEqual({ nodes: BUSINESS_NODES.length - 1, ways: 1, skippedWays: 1, addresses: 0 });
  });
});

describe('what a file says about itself', () => {
  const bbox = { minLat: 40.1, minLng: -100.8, maxLat: 40.3, maxLng: -100.5 };

  it('reads an XML file’s <bounds> and root timestamp, Overpass’ osm_base, Osmosis’ <bound box>', async () => {
    writeFileSync(file('bounds.osm'), xml({ bbox, timestamp: '2026-11-20T21:14:02Z' }));
    writeFileSync(file('bounds.osm.gz'), gzipSync(xml({ bbox, timestamp: '2026-11-20T21:14:02Z' })));
    writeFileSync(file('overpass.osm'), xml({ osmBase: '2026-10-01T08:00:00Z' }));
    writeFileSync(
      file('osmosis.osm'),
      xml().replace('<node id=', '<bound box="40.1,-100.8,40.3,-100.5" origin="osmosis"/>\n  <node id='),
    );
    const header = { bbox, timestamp: '2026-11-20T21:14:02.000Z' };
    expect(await readOsmHeader(file('bounds.osm'))).toEqual(header);
    expect(await readOsmHeader(file('bounds.osm.gz'))).toEqual(header);
    expect(await readOsmHeader(file('overpass.osm'))).toEqual({
      bbox: null,
      timestamp: '2026-10-01T08:00:00.000Z',
    });
    expect(await readOsmHeader(file('osmosis.osm'))).toEqual({ bbox, timestamp: null });
    expect(await readOsmHeader(file('town.osm.bz2'))).toEqual({ bbox: null, timestamp: null });
  });

  it('reads a PBF header as readPbfHeader does', async () => {
    writeFileSync(
      file('header.osm.pbf'),
      writePbf(ALL_NODES, WAYS, PROGRAM, { bbox, timestamp: '2026-11-20T21:14:02Z' }),
    );
    const header = { bbox, timestamp: '2026-11-20T21:14:02.000Z' };
    expect(await readPbfHeader(file('header.osm.pbf'))).toEqual(header);
    expect(await readOsmHeader(file('header.osm.pbf'))).toEqual(header);
    expect(await readOsmHeader(file('dense.osm.pbf'))).toEqual({ bbox: null, timestamp: null });
  });
});

describe('a file that cannot be read fails with one clear error', () => {
  const whole = () => xml();

  async function failure(name: string, content: string | Buffer): Promise<Error> {
    writeFileSync(file(name), content);
    const emitted: OsmPoi[] = [];
    const error = await readOsmBusinesses(file(name), async (b) => void emitted.push(...b)).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(OsmFormatError);
    return error ?? new Error('no error');
  }

  it('malformed XML, naming the line and column', async () => {
    const text = whole().replace('</node>', '</nod>');
    const e = await failure('malformed.osm', text);
    expect(e).toBeInstanceOf(OsmXmlFormatError);
    expect(e.message).toMatch(/^malformed XML at line \d+, column \d+: /);
    const e2 = await failure('attr.osm', whole().replace('<node id="1001"', '<node id="1001 lat=1'));
    expect(e2.message).toMatch(/^malformed XML at line 3, column \d+: /);
  });

  it('XML cut short, plain or gzipped', async () => {
    const text = whole();
    const cut = text.slice(0, Math.floor(text.length * 0.6));
    expect((await failure('cut.osm', cut)).message).toMatch(/^the XML ends early, the file is truncated: /);
    const gz = gzipSync(text);
    expect((await failure('cut.osm.gz', gz.subarray(0, Math.floor(gz.length * 0.6)))).message).toBe(
      'the gzip data ends early: the file is truncated',
    );
    const bz2 = readFileSync(FIXTURE_XML_BZ2);
    expect((await failure('cut.osm.bz2', bz2.subarray(0, Math.floor(bz2.length * 0.6)))).message).toBe(
      'the bzip2 data ends early: the file is truncated',
    );
  });

  it('corrupt compressed data', async () => {
    const gz = Buffer.from(gzipSync(whole()));
    gz.fill(0x55, 100, 140);
    expect((await failure('bad.osm.gz', gz)).message).toMatch(/^cannot decompress the gzip file: /);
    const bz2 = Buffer.from(readFileSync(FIXTURE_XML_BZ2));
    bz2.fill(0x55, 100, 140);
    expect((await failure('bad.osm.bz2', bz2)).message).toMatch(/^cannot decompress the bzip2 file: /);
  });

  it('XML that is not OpenStreetMap, and a file that is no XML', async () => {
    expect((await failure('page.osm', '<!DOCTYPE html>\n<html><body>Not found</body></html>')).message).toBe(
      'not an OpenStreetMap XML file: its root element is <html>, not <osm>',
    );
    expect((await failure('change.osm', '<osmChange version="0.6"><create/></osmChange>')).message).toMatch(
      /^an osmChange file lists changes/,
    );
    expect((await failure('notes.osm', 'name,lat,lng\nA,1,2\n')).message).toMatch(
      /^not an OpenStreetMap XML file: /,
    );
    expect((await failure('empty.osm', '')).message).toBe(
      'not an OpenStreetMap XML file: it holds no XML element',
    );
    expect(
      (
        await failure(
          'latin1.osm',
          Buffer.from(
            '<osm version="0.6"><node id="1" lat="1" lon="1"><tag k="name" v="Caf\xe9"/></node></osm>',
            'latin1',
          ),
        )
      ).message,
    ).toMatch(/the file is not UTF-8 text/);
    expect(
      (await failure('declared.osm', '<?xml version="1.0" encoding="ISO-8859-1"?><osm/>')).message,
    ).toMatch(/^the XML is encoded as ISO-8859-1/);
  });

  it('OpenStreetMap XML with an element it cannot place, or an Overpass answer that failed', async () => {
    const e = await failure('nolat.osm', whole().replace(/ lat="40\.2069000"/, ''));
    expect(e.message).toMatch(/^a <node> without a valid id, lat and lon \(id="1001"\) \(line 3\)$/);
    const remark = whole().replace(
      '<node id=',
      '<remark> runtime error: Query timed out in "query" at line 3 after 26 seconds. </remark>\n  <node id=',
    );
    expect((await failure('timeout.osm', remark)).message).toBe(
      'the file is an incomplete Overpass answer: runtime error: Query timed out in "query" at line 3 after 26 seconds.',
    );
  });

  it('a PBF file that needs a feature the reader does not know, and a file in no format', async () => {
    writeFileSync(
      file('history.osm.pbf'),
      writePbf(ALL_NODES, WAYS, PROGRAM, { requiredFeatures: ['OsmSchema-V0.6', 'HistoricalInformation'] }),
    );
    const e = await readOsmBusinesses(file('history.osm.pbf'), async () => undefined).catch(
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(PbfFormatError);
    expect((e as Error).message).toMatch(
      /^the file requires HistoricalInformation, which this reader does not support/,
    );
    const csv = await failure('table.osm.pbf', 'name,lat,lng\nA,1,2\n');
    expect(csv).toBeInstanceOf(PbfFormatError);
    expect(csv.message).toBe('not an OpenStreetMap PBF file');
  });

  it('checkOsmFile checks the PBF structure or the XML root without reading the rest', async () => {
    expect(await checkOsmFile(file('dense.osm.pbf'))).toBe('pbf');
    expect(await checkOsmFile(file('town.osm.gz'))).toBe('xml-gzip');
    expect(await checkOsmFile(file('town.osm.bz2'))).toBe('xml-bzip2');
    writeFileSync(file('page.html'), '<html><body/></html>');
    await expect(checkOsmFile(file('page.html'))).rejects.toThrow('its root element is <html>');
  });
});
