// Bounding boxes (west, south, east, north in degrees) of the regions `import:overture --region NAME` takes,
// named as the OpenStreetMap region download names them (places/osm-download.ts regionPath: `us/alabama` is
// north-america/us/alabama). Nothing else in the project knows a region's extent, so the boxes are data here,
// derived from polygons that ship in the project's own dependencies and rounded outward to 0.01 degree: the US
// states, the District of Columbia from name-suggestion-index's featureCollection.json (its us-XX.geojson
// regions, which are generous: they take in coastal waters), Puerto Rico and the countries from
// @rapideditor/country-coder's borders (metropolitan France, FX, for France). Alaska's box stops at the
// antimeridian (the Aleutians west of it are left out). test/unit/region-boxes.test.ts derives every box again
// from those packages and fails when one here differs.

export interface LngLatBox {
  west: number;
  south: number;
  east: number;
  north: number;
}

/** Region path on the download mirror (without `-latest.osm.pbf`) -> its box. */
export const REGION_BOXES: Readonly<Record<string, LngLatBox>> = {
  'north-america/us/alabama': { west: -88.45, south: 30.11, east: -84.89, north: 35 },
  'north-america/us/alaska': { west: -179.56, south: 50.81, east: -129.97, north: 72 },
  'north-america/us/arizona': { west: -114.83, south: 31.33, east: -109.04, north: 37 },
  'north-america/us/arkansas': { west: -94.62, south: 33.01, east: -89.7, north: 36.5 },
  'north-america/us/california': { west: -126.13, south: 32.53, east: -114.13, north: 42.01 },
  'north-america/us/colorado': { west: -109.06, south: 36.99, east: -102.04, north: 41.01 },
  'north-america/us/connecticut': { west: -73.73, south: 40.95, east: -71.79, north: 42.06 },
  'north-america/us/delaware': { west: -75.79, south: 38.44, east: -74.79, north: 39.85 },
  'north-america/us/district-of-columbia': { west: -77.12, south: 38.79, east: -76.9, north: 39 },
  'north-america/us/florida': { west: -87.64, south: 24.19, east: -79.75, north: 31.01 },
  'north-america/us/georgia': { west: -85.63, south: 30.35, east: -80.42, north: 34.99 },
  'north-america/us/hawaii': { west: -161.47, south: 18.14, east: -154.25, north: 23.24 },
  'north-america/us/idaho': { west: -117.22, south: 41.99, east: -111.04, north: 49.01 },
  'north-america/us/illinois': { west: -91.52, south: 36.95, east: -87.03, north: 42.51 },
  'north-america/us/indiana': { west: -88.02, south: 37.78, east: -84.79, north: 41.77 },
  'north-america/us/iowa': { west: -96.6, south: 40.37, east: -90.15, north: 43.51 },
  'north-america/us/kansas': { west: -102.06, south: 36.99, east: -94.6, north: 40.01 },
  'north-america/us/kentucky': { west: -89.5, south: 36.49, east: -81.97, north: 39.11 },
  'north-america/us/louisiana': { west: -94.35, south: 28.74, east: -88.81, north: 33.02 },
  'north-america/us/maine': { west: -71.09, south: 43.08, east: -66.93, north: 47.47 },
  'north-america/us/maryland': { west: -79.49, south: 37.93, east: -74.79, north: 39.73 },
  'north-america/us/massachusetts': { west: -73.5, south: 40.96, east: -69.64, north: 42.89 },
  'north-america/us/michigan': { west: -90.42, south: 41.69, east: -82.41, north: 48.31 },
  'north-america/us/minnesota': { west: -97.23, south: 43.5, east: -89.48, north: 49.39 },
  'north-america/us/mississippi': { west: -91.64, south: 30.1, east: -88.09, north: 35 },
  'north-america/us/missouri': { west: -95.77, south: 35.99, east: -89.1, north: 40.62 },
  'north-america/us/montana': { west: -116.06, south: 44.4, east: -104.03, north: 49.01 },
  'north-america/us/nebraska': { west: -104.06, south: 39.99, east: -95.32, north: 43.01 },
  'north-america/us/nevada': { west: -120.01, south: 35, east: -114.04, north: 42.01 },
  'north-america/us/new-hampshire': { west: -72.56, south: 42.69, east: -70.64, north: 45.31 },
  'north-america/us/new-jersey': { west: -75.59, south: 38.78, east: -73.6, north: 41.36 },
  'north-america/us/new-mexico': { west: -109.06, south: 31.33, east: -103, north: 37 },
  'north-america/us/new-york': { west: -79.78, south: 40.47, east: -71, north: 45.01 },
  'north-america/us/north-carolina': { west: -84.33, south: 33.22, east: -75.15, north: 36.6 },
  'north-america/us/north-dakota': { west: -104.05, south: 45.93, east: -96.56, north: 49.01 },
  'north-america/us/ohio': { west: -84.83, south: 38.4, east: -80.51, north: 42.35 },
  'north-america/us/oklahoma': { west: -103.01, south: 33.63, east: -94.43, north: 37 },
  'north-america/us/oregon': { west: -126.13, south: 41.99, east: -116.47, north: 46.26 },
  'north-america/us/pennsylvania': { west: -80.53, south: 39.72, east: -74.69, north: 42.58 },
  'north-america/us/rhode-island': { west: -71.96, south: 41.09, east: -71.08, north: 42.03 },
  'north-america/us/south-carolina': { west: -83.35, south: 31.94, east: -77.79, north: 35.19 },
  'north-america/us/south-dakota': { west: -104.07, south: 42.47, east: -96.45, north: 45.95 },
  'north-america/us/tennessee': { west: -90.3, south: 34.98, east: -81.68, north: 36.66 },
  'north-america/us/texas': { west: -106.64, south: 25.83, east: -93.51, north: 36.5 },
  'north-america/us/utah': { west: -114.06, south: 36.99, east: -109.04, north: 42.01 },
  'north-america/us/vermont': { west: -73.45, south: 42.72, east: -71.5, north: 45.02 },
  'north-america/us/virginia': { west: -83.68, south: 36.54, east: -74.94, north: 39.46 },
  'north-america/us/washington': { west: -126.03, south: 45.54, east: -116.9, north: 49.01 },
  'north-america/us/west-virginia': { west: -82.59, south: 37.19, east: -77.72, north: 40.64 },
  'north-america/us/wisconsin': { west: -92.9, south: 42.49, east: -86.77, north: 47.65 },
  'north-america/us/wyoming': { west: -111.06, south: 41, east: -104.05, north: 45 },
  'north-america/us/puerto-rico': { west: -68.24, south: 17.56, east: -65.02, north: 18.98 },
  'north-america/canada': { west: -141.01, south: 37.34, east: -46.37, north: 84.58 },
  'north-america/mexico': { west: -120.13, south: 14.39, east: -85.9, north: 32.72 },
  'europe/monaco': { west: 7.4, south: 43.72, east: 7.48, north: 43.76 },
  'europe/germany': { west: 5.45, south: 47.27, east: 15.05, north: 55.1 },
  'europe/france': { west: -6.29, south: 41.05, east: 10.1, north: 51.53 },
  'europe/belgium': { west: 2.18, south: 49.49, east: 6.41, north: 51.86 },
  'europe/italy': { west: 6.62, south: 34.2, east: 18.84, north: 47.1 },
  'europe/austria': { west: 9.53, south: 46.37, east: 17.17, north: 49.02 },
  'europe/switzerland': { west: 5.95, south: 45.82, east: 10.5, north: 47.81 },
};

/** The US extracts are named by the state's name; name-suggestion-index keys its polygons by the postal code. */
export const US_STATE_CODES: Readonly<Record<string, string>> = {
  alabama: 'al', alaska: 'ak', arizona: 'az', arkansas: 'ar', california: 'ca', colorado: 'co', connecticut: 'ct',
  delaware: 'de', 'district-of-columbia': 'dc', florida: 'fl', georgia: 'ga', hawaii: 'hi', idaho: 'id',
  illinois: 'il', indiana: 'in', iowa: 'ia', kansas: 'ks', kentucky: 'ky', louisiana: 'la', maine: 'me',
  maryland: 'md', massachusetts: 'ma', michigan: 'mi', minnesota: 'mn', mississippi: 'ms', missouri: 'mo',
  montana: 'mt', nebraska: 'ne', nevada: 'nv', 'new-hampshire': 'nh', 'new-jersey': 'nj', 'new-mexico': 'nm',
  'new-york': 'ny', 'north-carolina': 'nc', 'north-dakota': 'nd', ohio: 'oh', oklahoma: 'ok', oregon: 'or',
  pennsylvania: 'pa', 'rhode-island': 'ri', 'south-carolina': 'sc', 'south-dakota': 'sd', tennessee: 'tn',
  texas: 'tx', utah: 'ut', vermont: 'vt', virginia: 'va', washington: 'wa', 'west-virginia': 'wv',
  wisconsin: 'wi', wyoming: 'wy',
}; // prettier-ignore

/** The country-coder id of each region that is a country or territory. */
export const REGION_COUNTRY_CODES: Readonly<Record<string, string>> = {
  'north-america/us/puerto-rico': 'PR',
  'north-america/canada': 'CA',
  'north-america/mexico': 'MX',
  'europe/monaco': 'MC',
  'europe/germany': 'DE',
  'europe/france': 'FX',
  'europe/belgium': 'BE',
  'europe/italy': 'IT',
  'europe/austria': 'AT',
  'europe/switzerland': 'CH',
};

/** The box of a region path (as regionPath gives it, with or without `-latest.osm.pbf`), or undefined. */
export function regionBox(path: string): LngLatBox | undefined {
  const key = path.replace(/-latest\.osm\.pbf$/, '').toLowerCase();
  return REGION_BOXES[key];
}

/**
 * A box from `W,S,E,N` text (degrees; west below east: a box across the antimeridian is given as two imports),
 * or a message saying what is wrong with it.
 */
export function parseBox(text: string): LngLatBox | string {
  const parts = text.split(',').map((p) => p.trim());
  const numbers = parts.map(Number);
  if (parts.length !== 4 || parts.some((p) => p === '') || numbers.some((n) => !Number.isFinite(n))) {
    return `"${text}" is not a box: give W,S,E,N in degrees, e.g. -122.52,37.70,-122.35,37.83`;
  }
  const [west = 0, south = 0, east = 0, north = 0] = numbers;
  if (west < -180 || east > 180 || south < -90 || north > 90)
    return `"${text}" lies outside -180..180, -90..90`;
  if (west >= east || south >= north) return `"${text}": west must be below east and south below north`;
  return { west, south, east, north };
}

/** True when two boxes share any point (edges included). */
export const boxesMeet = (a: LngLatBox, b: LngLatBox): boolean =>
  a.west <= b.east && b.west <= a.east && a.south <= b.north && b.south <= a.north;

/** True when the point lies in the box (edges included). */
export const boxHolds = (box: LngLatBox, lat: number, lng: number): boolean =>
  lng >= box.west && lng <= box.east && lat >= box.south && lat <= box.north;
