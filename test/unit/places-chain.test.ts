import { getEventListeners } from 'node:events';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../../src/server/config.js';
import { openDatabase, type Db } from '../../src/server/db/database.js';
import { migrateToLatest } from '../../src/server/db/migrate.js';
import { createPlaceChain, selectProviders } from '../../src/server/places/chain.js';
import { commitStaged, placeRow, stageRows } from '../../src/server/places/local-store.js';
import { json, startFakeService, type FakeService } from '../helpers/places-http.js';

const KEY = 'AIzaSyTest-key-0123456789';
const CENTER = { lat: 37.7879, lng: -122.4066 };

let svc: FakeService;
let db: Db;
let warnings: { obj: object; msg?: string }[];
const log = { warn: (obj: object, msg?: string) => warnings.push({ obj, msg }) };

function chain(env: Record<string, string>) {
  const config = parseConfig({
    GOOGLE_PLACES_URL: svc.url,
    GOOGLE_GEOCODING_URL: svc.url,
    OVERPASS_URL: `${svc.url}/api/interpreter`,
    NOMINATIM_URL: svc.url,
    PROVIDER_TIMEOUT_MS: '2000',
    ...env,
  });
  return createPlaceChain(config, db, log, {
    nominatimIntervalMs: 0,
    clock: () => new Date('2026-11-23T18:30:00Z'),
  });
}

const googleBody = (places: unknown[]) => ({ places });
const gPlace = (id: string, name: string, lat: number, lng: number) => ({
  id,
  displayName: { text: name, languageCode: 'en' },
  location: { latitude: lat, longitude: lng },
  types: ['bank', 'point_of_interest', 'establishment'],
  formattedAddress: '1 Main St, San Francisco, CA 94105, USA',
  nationalPhoneNumber: '(415) 555-0100',
  websiteUri: 'https://bank.example.com/',
});
const overpass = (elements: unknown[]) => ({ version: 0.6, generator: 'Overpass API', elements });
const oNode = (id: number, name: string, lat: number, lon: number) => ({
  type: 'node',
  id,
  lat,
  lon,
  tags: { amenity: 'bank', name },
});

async function seedLocal(rows: { id: string; name: string; lat: number; lng: number }[]): Promise<void> {
  const at = new Date().toISOString();
  await stageRows(
    db.kysely,
    'seed',
    rows.map((r) =>
      placeRow({ id: r.id, lat: r.lat, lng: r.lng, tags: { amenity: 'bank', name: r.name } }, at),
    ),
  );
  await commitStaged(db.kysely, 'seed');
}

beforeAll(async () => {
  svc = await startFakeService();
});
afterAll(() => svc.close());
beforeEach(async () => {
  svc.requests.length = 0;
  warnings = [];
  db = openDatabase({ database: { kind: 'sqlite', file: ':memory:', synchronous: 'NORMAL' } });
  await migrateToLatest(db);
});
afterEach(() => db.destroy());

describe('provider selection', () => {
  const d = (providers: string, apiKey = '', osm = false) => ({
    providers,
    google: { apiKey, placesUrl: '', geocodingUrl: '', detailsLimit: 10 },
    osm: { enabled: osm, overpassUrl: '', nominatimUrl: '', userAgent: '' },
  });

  it('auto: local once imported, google with a usable key, osm as the top-up, demo when nothing else', () => {
    expect(selectProviders(d('auto'), false)).toEqual({ primary: ['demo'], topUp: null });
    expect(selectProviders(d('auto'), true)).toEqual({ primary: ['local'], topUp: null });
    expect(selectProviders(d('auto', KEY), true)).toEqual({ primary: ['local', 'google'], topUp: null });
    expect(selectProviders(d('auto', 'YOUR_API_KEY', true), true)).toEqual({
      primary: ['local'],
      topUp: 'osm',
    });
    expect(selectProviders(d('auto', KEY, true), false)).toEqual({ primary: ['google'], topUp: 'osm' });
    expect(selectProviders(d('auto', 'short', true), false)).toEqual({ primary: ['osm'], topUp: null });
  });

  it('an explicit list: in order, osm after a real provider tops up, an unusable google key is skipped', () => {
    expect(selectProviders(d('google,osm', KEY), false)).toEqual({ primary: ['google'], topUp: 'osm' });
    expect(selectProviders(d('osm'), false)).toEqual({ primary: ['osm'], topUp: null });
    expect(selectProviders(d('local, demo'), false)).toEqual({ primary: ['local', 'demo'], topUp: null });
    expect(selectProviders(d('google'), false)).toEqual({ primary: ['demo'], topUp: null });
    expect(selectProviders(d('bogus'), false)).toEqual({ primary: ['demo'], topUp: null });
  });
});

describe('place chain', () => {
  it('falls back to demo data, marked as such, when nothing is configured or imported', async () => {
    const r = await chain({}).nearby({ ...CENTER, radiusMiles: 1, types: ['bank'], limit: 500 });
    expect(r.sources).toEqual([{ provider: 'demo', ok: true, count: 2 }]);
    expect(r.businesses.every((b) => b.demo === true && b.source === 'demo')).toBe(true);
    expect(svc.requests.length).toBe(0);
  });

  it('in auto mode turns to the imported places once there are some, and then stops asking', async () => {
    const c = chain({});
    const query = { ...CENTER, radiusMiles: 1, types: ['bank'], limit: 500 };
    expect(await c.activeProviders()).toEqual({ primary: ['demo'], topUp: null });
    await seedLocal([{ id: 'osm:node/1', name: 'Local Bank One', lat: 37.788, lng: -122.4066 }]);
    // Still asked while the answer was no: the same chain sees the import.
    expect(await c.activeProviders()).toEqual({ primary: ['local'], topUp: null });
    expect((await c.nearby(query)).businesses.map((b) => b.name)).toEqual(['Local Bank One']);
    // Nothing deletes imported places, so the chain no longer asks: with the table emptied behind its back it
    // still answers from it (here, nothing), where a fresh chain would fall back to the demo data.
    await db.kysely.deleteFrom('places').execute();
    expect(await c.activeProviders()).toEqual({ primary: ['local'], topUp: null });
    expect((await c.nearby(query)).sources.map((s) => s.provider)).toEqual(['local']);
    expect(await chain({}).activeProviders()).toEqual({ primary: ['demo'], topUp: null });
  });

  it('leaves no listener on the timeout signal of a provider call once the call is over', async () => {
    // A listener left on kept the timeout's timer holding the call's answer (500 businesses a scan) for the whole
    // timeout, so every scan's businesses outlived it by seconds.
    const add = vi.spyOn(EventTarget.prototype, 'addEventListener'); // calls through
    let signals: AbortSignal[];
    try {
      await chain({}).nearby({ ...CENTER, radiusMiles: 1, types: ['bank'], limit: 500 });
      signals = add.mock.contexts.filter(
        (target, i): target is AbortSignal =>
          target instanceof AbortSignal && add.mock.calls[i]?.[0] === 'abort',
      );
    } finally {
      add.mockRestore();
    }
    expect(signals.length).toBeGreaterThan(0);
    for (const signal of signals) expect(getEventListeners(signal, 'abort')).toEqual([]);
  });

  it('reports a provider that answers 500 and goes on with the others', async () => {
    svc.handle((_req, res) =>
      json(res, 500, { error: { code: 500, message: 'Internal error encountered.', status: 'INTERNAL' } }),
    );
    const r = await chain({ PLACE_PROVIDERS: 'google,demo', GOOGLE_MAPS_API_KEY: KEY }).nearby({
      ...CENTER,
      radiusMiles: 1,
      types: ['bank'],
      limit: 500,
    });
    expect(r.sources).toEqual([
      { provider: 'google', ok: false, count: 0, error: 'google: HTTP 500: Internal error encountered.' },
      { provider: 'demo', ok: true, count: 2 },
    ]);
    expect(r.businesses.length).toBe(2);
    expect(warnings.some((w) => (w.obj as { provider?: string }).provider === 'google')).toBe(true);
  });

  it('reports garbage JSON and a hang past PROVIDER_TIMEOUT_MS as failures', async () => {
    svc.handle((_req, res) => json(res, 200, '{{{{'));
    const garbage = await chain({ PLACE_PROVIDERS: 'google,demo', GOOGLE_MAPS_API_KEY: KEY }).nearby({
      ...CENTER,
      radiusMiles: 1,
      types: [],
      limit: 10,
    });
    expect(garbage.sources[0]).toEqual({
      provider: 'google',
      ok: false,
      count: 0,
      error: 'google: answer is not valid JSON',
    });
    svc.handle(() => undefined);
    const hang = await chain({
      PLACE_PROVIDERS: 'google,demo',
      GOOGLE_MAPS_API_KEY: KEY,
      PROVIDER_TIMEOUT_MS: '200',
    }).nearby({ ...CENTER, radiusMiles: 1, types: [], limit: 10 });
    expect(hang.sources[0]).toEqual({ provider: 'google', ok: false, count: 0, error: 'timed out' });
    expect(hang.sources[1]).toMatchObject({ provider: 'demo', ok: true });
    expect(hang.businesses.length).toBe(10);
  });

  it('merges local and google (same business twice by id only once) and tops up from Overpass with new businesses only', async () => {
    await seedLocal([
      { id: 'osm:node/1', name: 'Local Bank One', lat: 37.788, lng: -122.4066 },
      { id: 'osm:node/2', name: 'Local Bank Two', lat: 37.789, lng: -122.405 },
    ]);
    svc.handle((req, res) => {
      if (req.path === '/v1/places:searchNearby')
        return json(res, 200, googleBody([gPlace('ChIJg1', 'Google Bank', 37.7875, -122.407)]));
      if (req.path === '/api/interpreter') {
        return json(
          res,
          200,
          overpass([
            oNode(1, 'Local Bank One', 37.788, -122.4066), // the same OSM element as a local row
            oNode(10, 'GOOGLE BANK', 37.784, -122.41), // same name as a result, case-insensitive
            oNode(11, 'Next Door Bank', 37.78755, -122.40705), // within 0.001° of Google Bank
            oNode(12, 'Fresh Bank', 37.786, -122.403), // new
          ]),
        );
      }
      return json(res, 404, {});
    });
    const c = chain({ GOOGLE_MAPS_API_KEY: KEY, OSM_ENABLED: 'true', GOOGLE_DETAILS_LIMIT: '0' });
    expect(await c.activeProviders()).toEqual({ primary: ['local', 'google'], topUp: 'osm' });
    const r = await c.nearby({
      ...CENTER,
      radiusMiles: 1,
      types: ['bank'],
      limit: 500,
      minCount: 20,
      useOsmTopUp: true,
    });
    expect(r.businesses.map((b) => b.name)).toEqual([
      'Local Bank One',
      'Local Bank Two',
      'Google Bank',
      'Fresh Bank',
    ]);
    expect(r.sources).toEqual([
      { provider: 'local', ok: true, count: 2 },
      { provider: 'google', ok: true, count: 1 },
      { provider: 'osm', ok: true, count: 4 },
    ]);
    const overpassCalls = svc.requests.filter((q) => q.path === '/api/interpreter');
    expect(overpassCalls.length).toBe(1);
  });

  it('caps the merged list to the nearest `limit`, keeping provider order (best-sourced first)', async () => {
    await seedLocal([
      { id: 'osm:node/1', name: 'Far Local', lat: CENTER.lat + 0.01, lng: CENTER.lng },
      { id: 'osm:node/2', name: 'Near Local', lat: CENTER.lat + 0.0001, lng: CENTER.lng },
    ]);
    const r = await chain({ PLACE_PROVIDERS: 'local,demo' }).nearby({
      ...CENTER,
      radiusMiles: 1,
      types: ['bank'],
      limit: 2,
    });
    // Demo's two banks sit 0.0015° and 0.0025° (longitude) away: nearer than 'Far Local', farther than 'Near Local'.
    expect(r.businesses.map((b) => b.source)).toEqual(['local', 'demo']);
    expect(r.businesses[0]?.name).toBe('Near Local');
    expect(r.sources).toEqual([
      { provider: 'local', ok: true, count: 2 },
      { provider: 'demo', ok: true, count: 2 },
    ]);
  });

  it('skips the top-up when enough were found or when the Algorithm Setting turns it off', async () => {
    await seedLocal([{ id: 'osm:node/1', name: 'Local Bank One', lat: 37.788, lng: -122.4066 }]);
    svc.handle((_req, res) => json(res, 200, overpass([oNode(12, 'Fresh Bank', 37.786, -122.403)])));
    const c = chain({ OSM_ENABLED: 'true' });
    const off = await c.nearby({
      ...CENTER,
      radiusMiles: 1,
      types: [],
      limit: 500,
      minCount: 20,
      useOsmTopUp: false,
    });
    expect(off.sources.map((s) => s.provider)).toEqual(['local']);
    const enough = await c.nearby({ ...CENTER, radiusMiles: 1, types: [], limit: 500, minCount: 1 });
    expect(enough.sources.map((s) => s.provider)).toEqual(['local']);
    expect(svc.requests.length).toBe(0);
    const on = await c.nearby({ ...CENTER, radiusMiles: 1, types: [], limit: 500, minCount: 5 });
    expect(on.businesses.map((b) => b.name)).toEqual(['Local Bank One', 'Fresh Bank']);
  });

  it('geocodes through google, then Nominatim, then the offline gazetteer', async () => {
    svc.handle((req, res) => {
      if (req.path === '/maps/api/geocode/json') return json(res, 500, 'oops');
      if (req.path === '/search')
        return json(res, 200, [
          {
            lat: '33.5207',
            lon: '-86.8025',
            display_name: 'Birmingham, Jefferson County, Alabama, United States',
          },
        ]);
      if (req.path === '/reverse')
        return json(res, 200, {
          lat: '33.52',
          lon: '-86.8',
          display_name: 'x',
          address: { city: 'Birmingham', 'ISO3166-2-lvl4': 'US-AL' },
        });
      return json(res, 404, {});
    });
    const both = chain({ GOOGLE_MAPS_API_KEY: KEY, OSM_ENABLED: 'true' });
    expect(await both.geocode('Birmingham, AL')).toEqual({
      lat: 33.5207,
      lng: -86.8025,
      label: 'Birmingham, Jefferson County, Alabama, United States',
    });
    expect(await both.reverse(33.52, -86.8)).toBe('Birmingham, AL');
    expect(svc.requests.map((r) => r.path)).toEqual([
      '/maps/api/geocode/json',
      '/search',
      '/maps/api/geocode/json',
      '/reverse',
    ]);
    svc.requests.length = 0;
    const offline = chain({});
    expect((await offline.geocode('94105'))?.label).toBe('San Francisco, CA 94105');
    expect(await offline.reverse(37.7879, -122.4066)).toBe('San Francisco, CA');
    expect(await offline.geocode('   ')).toBeNull();
    expect(svc.requests.length).toBe(0);
  });

  it('asks details of the provider the id belongs to', async () => {
    await seedLocal([{ id: 'osm:node/7', name: 'Local Bank', lat: 37.788, lng: -122.4066 }]);
    await db.kysely
      .updateTable('places')
      .set({ phone: '+1 415 555 0177' })
      .where('id', '=', 'osm:node/7')
      .execute();
    svc.handle((req, res) =>
      json(res, 200, {
        id: 'ChIJx',
        nationalPhoneNumber: '(415) 555-0199',
        websiteUri: 'https://x.example.com/',
      }),
    );
    const c = chain({ GOOGLE_MAPS_API_KEY: KEY });
    expect(await c.details('osm:node/7')).toEqual({ phone: '+1 415 555 0177' });
    expect(await c.details('ChIJx')).toEqual({ phone: '(415) 555-0199', website: 'https://x.example.com/' });
    expect(svc.requests[0]?.path).toBe('/v1/places/ChIJx');
    expect((await c.details('demo:dentist:bright-smile-family-dental'))?.phone).toMatch(
      /^\(205\) 555-01\d\d$/,
    );
    expect(await chain({}).details('ChIJx')).toBeNull();
  });

  it('text-searches every active provider and de-duplicates by id', async () => {
    await seedLocal([{ id: 'osm:node/1', name: 'Wells Fargo', lat: 37.788, lng: -122.4066 }]);
    const r = await chain({}).textSearch({ query: 'wells', ...CENTER, radiusMiles: 1 });
    expect(r.businesses.map((b) => b.id)).toEqual(['osm:node/1']);
    expect(r.sources).toEqual([{ provider: 'local', ok: true, count: 1 }]);
  });
});
