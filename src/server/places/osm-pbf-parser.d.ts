// The parser ships no types: a Transform stream that takes .osm.pbf bytes and emits arrays of elements.
declare module 'osm-pbf-parser' {
  import type { Duplex } from 'node:stream';
  function parseOsm(): Duplex;
  export default parseOsm;
}
