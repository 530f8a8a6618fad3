import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openNow, zonedDate, zoneFor } from '../../src/server/places/open-now.js';
import { hasExactBit, TYPE_BITS, typeMask } from '../../src/server/places/type-mask.js';
import { checkPbfStructure, PbfFormatError, wayCentroid } from '../../src/server/places/pbf-reader.js';
import { formatAddress, placeRow } from '../../src/server/places/local-store.js';
import { finishNearby, matchesTypes } from '../../src/server/places/provider.js';
import { ALL_PLACE_TYPES } from '../../src/core/categories.js';
import type { Business } from '../../src/core/types.js';
import { fixtureExtract } from '../helpers/osm-data.js';

describe('type mask', () => {
  it('gives every place type a scan asks for its own bit, in a frozen order', () => {
    expect([...TYPE_BITS].sort()).toEqual([...ALL_PLACE_TYPES].sort());
    expect(typeMask(['lawyer'])).toBe(1);
    expect(typeMask(['dentist'])).toBe(2);
    expect(typeMask(['furniture_store'])).toBe(2 ** 38);
    expect(typeMask(['lawyer', 'dentist', 'lawyer'])).toBe(3);
    expect(typeMask([])).toBe(0);
  });

  it('hashes other types onto the bits above, within exact JavaScript integers', () => {
    const m = typeMask(['restaurant']);
    expect(hasExactBit('restaurant')).toBe(false);
    expect(m).toBeGreaterThanOrEqual(2 ** 39);
    expect(m).toBeLessThan(2 ** 52);
    expect(Number.isSafeInteger(typeMask([...ALL_PLACE_TYPES, 'restaurant', 'cafe', 'clothes']))).toBe(true);
  });
});

describe('open now', () => {
  // Monday 23 November 2026, 18:30 UTC = 10:30 in San Francisco, 12:30 in Birmingham.
  const monday = new Date('2026-11-23T18:30:00Z');

  it('evaluates opening_hours at the business own local time', () => {
    expect(openNow('Mo-Fr 09:00-17:00', { lng: -122.4, state: 'CA' }, monday)).toBe(true);
    expect(openNow('Mo-Fr 11:00-17:00', { lng: -122.4, state: 'CA' }, monday)).toBe(false);
    expect(openNow('Mo-Fr 12:00-13:00', { lng: -86.8, state: 'AL' }, monday)).toBe(true);
    expect(openNow('Sa-Su 10:00-18:00', { lng: -122.4 }, monday)).toBe(false);
    expect(openNow('24/7', { lng: 7.4 }, monday)).toBe(true);
  });

  it('is null when the hours are missing, unparseable or unknown', () => {
    expect(openNow(undefined, { lng: 0 }, monday)).toBeNull();
    expect(openNow('  ', { lng: 0 }, monday)).toBeNull();
    expect(openNow('whenever we feel like it', { lng: 0 }, monday)).toBeNull();
    expect(openNow('Mo-Fr 09:00-17:00 unknown', { lng: -122.4, state: 'CA' }, monday)).toBeNull();
  });

  it('picks the state zone, else the solar zone of the longitude', () => {
    expect(zoneFor(-122.4, 'ca')).toBe('America/Los_Angeles');
    expect(zoneFor(-122.4)).toBe('Etc/GMT+8');
    expect(zoneFor(7.4)).toBe('Etc/UTC');
    expect(zoneFor(139.7)).toBe('Etc/GMT-9');
    const local = zonedDate(monday, 'America/Los_Angeles');
    expect([local.getDay(), local.getHours(), local.getMinutes()]).toEqual([1, 10, 30]);
  });
});

describe('OSM rows', () => {
  it('formats the address from the addr:* parts and keeps contact fields', () => {
    const tags = {
      name: 'Bay Dental',
      amenity: 'dentist',
      'addr:housenumber': '450',
      'addr:street': 'Sutter Street',
      'addr:city': 'San Francisco',
      'addr:state': 'CA',
      'addr:postcode': '94108',
      'contact:phone': '+1 415 555 0100',
      website: 'https://baydental.example',
      opening_hours: 'Mo-Fr 08:00-17:00',
      brand: 'Bay',
      'brand:wikidata': 'Q1',
    };
    expect(formatAddress(tags)).toBe('450 Sutter Street, San Francisco, CA 94108');
    expect(formatAddress({ 'addr:street': 'Main St' })).toBe('Main St');
    expect(formatAddress({})).toBe('');
    const row = placeRow(
      { id: 'osm:node/1', lat: 37.7899, lng: -122.4075, tags },
      '2026-11-22T00:00:00.000Z',
    );
    expect(row).toMatchObject({
      id: 'osm:node/1',
      name: 'Bay Dental',
      cell_lat: 3778,
      types: '["dentist"]',
      type_mask: 2,
      category: 'Dental',
      city: 'San Francisco',
      state: 'CA',
      zip: '94108',
      phone: '+1 415 555 0100',
      website: 'https://baydental.example',
      opening_hours: 'Mo-Fr 08:00-17:00',
      brand: 'Bay',
      brand_wikidata: 'Q1',
    });
  });

  it('puts a closed way at its area centroid and an open way at the mean of its nodes', () => {
    // An L-shaped building: the area centroid differs from the vertex mean.
    const ring: [number, number][] = [
      [0, 0],
      [0, 2],
      [1, 2],
      [1, 1],
      [2, 1],
      [2, 0],
      [0, 0],
    ];
    const [lat, lng] = wayCentroid(ring) ?? [NaN, NaN];
    expect(lat).toBeCloseTo(5 / 6, 9);
    expect(lng).toBeCloseTo(5 / 6, 9);
    expect(
      wayCentroid([
        [0, 0],
        [0, 2],
      ]),
    ).toEqual([0, 1]);
    expect(wayCentroid([])).toBeNull();
  });

  it('takes the mean for a closed way that crosses itself with next to no area', () => {
    // A bow tie whose two loops almost cancel: the area formula would put it far outside its own box.
    const bowTie: [number, number][] = [
      [0, 0],
      [1, 1],
      [1, 0.000001],
      [0, 1],
      [0, 0],
    ];
    const [lat, lng] = wayCentroid(bowTie) ?? [NaN, NaN];
    expect(lat).toBeCloseTo(0.5, 9);
    expect(lng).toBeGreaterThanOrEqual(0);
    expect(lng).toBeLessThanOrEqual(1);
  });
});

describe('PBF structure check', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pf-pbf-'));
  const whole = readFileSync(fixtureExtract());

  it('accepts a whole extract', async () => {
    const r = await checkPbfStructure(fixtureExtract());
    expect(r.blobs).toBeGreaterThan(0);
  });

  it('names a truncated file and a foreign one', async () => {
    const cut = join(dir, 'cut.pbf');
    writeFileSync(cut, whole.subarray(0, whole.length - 10));
    await expect(checkPbfStructure(cut)).rejects.toThrow(/^truncated at byte \d+ of \d+$/);
    const csv = join(dir, 'x.pbf');
    writeFileSync(csv, 'name,lat,lng\nA,1,2\n');
    await expect(checkPbfStructure(csv)).rejects.toBeInstanceOf(PbfFormatError);
    const empty = join(dir, 'empty.pbf');
    writeFileSync(empty, '');
    await expect(checkPbfStructure(empty)).rejects.toThrow('empty file');
  });
});

describe('provider contract', () => {
  const b = (id: string, lat: number, lng: number, name = id): Business => ({
    id,
    name,
    lat,
    lng,
    types: ['bank'],
    category: 'Financial',
    address: '',
    reviews: 0,
    openNow: null,
    source: 'google',
  });

  it('drops nameless and outside results, sorts nearest first and caps at 500', () => {
    const c = { lat: 0, lng: 0 };
    const list = [
      b('far', 0.02, 0),
      b('near', 0.001, 0),
      b('mid', 0, 0.005),
      b('noname', 0, 0, ' '),
      b('edge', 1 / 69.09, 0),
    ];
    expect(finishNearby(c, 1, list, 10).map((x) => x.id)).toEqual(['near', 'mid']);
    const many = Array.from({ length: 700 }, (_, i) => b(`b${i}`, i * 1e-5, 0));
    expect(finishNearby(c, 1, many, 9999).length).toBe(500);
  });

  it('matches types, with none or only establishment meaning every business', () => {
    expect(matchesTypes(b('x', 0, 0), ['bank'])).toBe(true);
    expect(matchesTypes(b('x', 0, 0), ['dentist'])).toBe(false);
    expect(matchesTypes(b('x', 0, 0), [])).toBe(true);
    expect(matchesTypes(b('x', 0, 0), ['establishment'])).toBe(true);
  });
});
