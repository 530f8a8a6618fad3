// The API contract: every request and answer shape of /api, shared by the server (validation, serialisation,
// /api/openapi.json) and the browser (its types). See docs/ARCHITECTURE.md "The API contract".
export * from './common';
export * from './prospect';
export * from './photos';
export * from './accounts';
export * from './scans';
export * from './lists';
export * from './admin';
export * from './strategy';
export * from './events';
export * from './areas';
export * from './websites';
export * from './pipeline';
export * from './follow-ups';
export * from './route';
export * from './billing';
export * from './endpoint';
