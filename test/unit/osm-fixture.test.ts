// The committed fixture extracts are exactly the hand-written data: edit prairie-junction.ts, run
// `npm run fixtures:osm`, commit all three.
import { describe, expect, it } from 'vitest';
import { createReadStream, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Readable, Writable } from 'node:stream';
import unbzip2Stream from 'unbzip2-stream';
import { fixtureExtract } from '../helpers/osm-data.js';
import { ALL_NODES, WAYS } from '../fixtures/osm/prairie-junction.js';
import { FIXTURE_XML_BZ2, fixtureXml } from '../fixtures/osm/make-fixture.js';

interface Item {
  type: string;
  id: number;
  lat?: number;
  lon?: number;
  refs?: number[];
  tags?: Record<string, string>;
}
const require = createRequire(import.meta.url);
const parseOsm = require('osm-pbf-parser') as () => Writable & Readable;

async function readAll(file: string): Promise<Item[]> {
  const out: Item[] = [];
  const parser = parseOsm();
  await new Promise<void>((resolve, reject) => {
    parser.on('data', (items: Item[]) => out.push(...items));
    parser.on('end', resolve);
    parser.on('error', reject);
    createReadStream(file).on('error', reject).pipe(parser);
  });
  return out;
}

describe('test/fixtures/osm/prairie-junction.osm.pbf', () => {
  it('holds exactly the nodes and ways of prairie-junction.ts (regenerate with npm run fixtures:osm)', async () => {
    const items = await readAll(fixtureExtract());
    const nodes = items.filter((i) => i.type === 'node');
    expect(nodes.map((n) => n.id)).toEqual(ALL_NODES.map((n) => n.id));
    for (const [i, n] of nodes.entries()) {
      const want = ALL_NODES[i]!;
      expect(n.lat).toBeCloseTo(want.lat, 7);
      expect(n.lon).toBeCloseTo(want.lon, 7);
      expect(n.tags).toEqual(want.tags ?? {});
    }
    const ways = items.filter((i) => i.type === 'way');
    expect(ways.map(({ id, refs, tags }) => ({ id, refs, tags }))).toEqual(WAYS);
    expect(items.length).toBe(ALL_NODES.length + WAYS.length);
  });
});

describe('test/fixtures/osm/prairie-junction.osm.bz2', () => {
  it('is the same data as OSM XML, in two bzip2 streams (regenerate with npm run fixtures:osm)', async () => {
    const chunks: Buffer[] = [];
    await new Promise<void>((resolve, reject) => {
      const bz = unbzip2Stream();
      bz.on('data', (d: Buffer) => chunks.push(d));
      bz.on('end', resolve);
      bz.on('error', reject);
      createReadStream(FIXTURE_XML_BZ2).on('error', reject).pipe(bz);
    });
    expect(Buffer.concat(chunks).toString('utf8')).toBe(fixtureXml());
    const bytes = readFileSync(FIXTURE_XML_BZ2);
    expect(bytes.indexOf('BZh9', 4)).toBeGreaterThan(0);
  });
});
