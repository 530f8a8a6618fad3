// A business's id as the team's shared lists (current advertisers, the pipeline) store it. Ids come from the
// place providers: OpenStreetMap's 'osm:node/123' (also way and relation), Overture's 'overture:<GERS id>',
// Google's place ids ('ChIJ…'), the demo's 'demo:<type>:<slug>', else a business hash. Only the parts whose
// case carries no meaning are folded: OpenStreetMap's prefix and element type (its ids are digits) and an
// Overture id (hexadecimal digits and dashes). A Google place id is case-sensitive and is kept as sent, as is
// every other form.

const OSM = /^(?:osm:)?(?:node|way|relation)\/\d+$/i;
const OVERTURE = /^overture:[0-9a-f-]+$/i;

/** The one stored form of a business id: trimmed, with the case-free forms lower-cased. */
export function normalizeBusinessId(raw: string): string {
  const id = raw.trim();
  return OSM.test(id) || OVERTURE.test(id) ? id.toLowerCase() : id;
}
