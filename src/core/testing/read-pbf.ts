// TEST-ONLY helper (Node): read the named business nodes and ways of an .osm.pbf extract with osm-pbf-parser.
// Ways come without coordinates here (that needs their nodes); tests that need a position use nodes only.
import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import type { Readable, Writable } from 'node:stream';
import { isOsmBusiness } from '../osm-tags';

export interface OsmBusinessElement {
  type: 'node' | 'way';
  id: number;
  lat?: number;
  lon?: number;
  tags: Record<string, string>;
}

interface RawElement {
  type: 'node' | 'way' | 'relation';
  id: number;
  lat?: number;
  lon?: number;
  tags?: Record<string, string>;
}

const require = createRequire(import.meta.url);
const parseOsm = require('osm-pbf-parser') as () => Writable & Readable;

/** The named nodes and ways with a business tag (see isOsmBusiness) of a .osm.pbf file. */
export async function readOsmBusinesses(file: string): Promise<OsmBusinessElement[]> {
  const out: OsmBusinessElement[] = [];
  const parser = parseOsm();
  await new Promise<void>((resolve, reject) => {
    parser.on('data', (items: RawElement[]) => {
      for (const el of items) {
        if (el.type === 'relation' || !el.tags || !isOsmBusiness(el.tags)) continue;
        out.push({ type: el.type, id: el.id, lat: el.lat, lon: el.lon, tags: el.tags });
      }
    });
    parser.on('end', resolve);
    parser.on('error', reject);
    createReadStream(file).on('error', reject).pipe(parser);
  });
  return out;
}
