// Public surface of the places slice: the chain the scan service calls, the contract types and the pieces
// (providers, gazetteer) that tools and tests use on their own.
export { createPlaceChain, selectProviders, DEFAULT_MIN_COUNT } from './chain.js';
export type { ChainNearbyQuery, ChainOptions, PlaceChain } from './chain.js';
export type {
  ChainResult,
  FoundBusiness,
  GeocodeResult,
  NearbyQuery,
  PlaceDetails,
  PlaceProvider,
  ProviderName,
  SourceReport,
  TextSearchQuery,
} from './provider.js';
export { MAX_PROVIDER_RESULTS } from './provider.js';
export { isUsableGoogleKey } from './google.js';
export { importOsmFile } from './osm-import.js';
export { DEFAULT_LOCATION, gazetteerGeocode, gazetteerReverse } from '../geocoding/gazetteer.js';
