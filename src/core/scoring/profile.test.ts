// A place's stored profile (./profile.ts) changes how fast a scan is, never what it shows: on every extract, scans
// of businesses with their profiles de-duplicate and score exactly as the same businesses without them. And a
// profile is only used when it was made under the scorer's rules and brand index.
import { describe, expect, it } from 'vitest';
import { dedupeDetailed, type DedupCandidate } from '../dedup';
import type { Business } from '../types';
import { toAnalysisInput } from '../prospect';
import { buildBrandIndex } from './brand-index';
import { scoreBatch } from './analyze';
import { getBrandIndex, placeArea } from './nsi';
import { decodeProfile, encodeProfile, placeProfile, profileVersion, type PlaceProfile } from './profile';
import { describeWithOsm, fixtureExtract, osmExtract } from '../../../test/helpers/osm-data';
import { busiestPoint, loadExtract, scanCandidates } from '../../../test/helpers/extract-scan';

const brandIndex = getBrandIndex();

const withoutProfile = (b: Business): Business => {
  const { profile: _made, ...rest } = b;
  return rest;
};

/** The analyses of a batch, every one explained. */
const analyses = (businesses: readonly Business[], center: { lat: number; lng: number }) =>
  scoreBatch(
    // As the server's scorer reads them: where a place stands is looked up when it has no profile.
    businesses.map((b) => ({
      ...toAnalysisInput(b, Math.hypot(b.lat - center.lat, b.lng - center.lng) * 69),
      ...(b.profile ? {} : { area: placeArea(b.lat, b.lng) }),
    })),
    { brandIndex, now: new Date('2026-01-01T12:00:00Z') },
  ).map((s) => s.analysis());

/** A scan's steps with the profiles and without them give the same list, the same duplicates, the same analyses. */
async function expectSameScans(file: string) {
  const all = await loadExtract(file);
  expect(all.length).toBeGreaterThan(0);
  // Every place of the extract carries a usable profile, as after an import.
  expect(all.every((b) => b.profile?.v === profileVersion(brandIndex))).toBe(true);
  const busiest = busiestPoint(all);
  const points = [busiest, { lat: busiest.lat + 0.01, lng: busiest.lng - 0.01 }, all[0]!];
  for (const center of points) {
    const found = scanCandidates(all, center, { radiusMiles: 2 });
    const made = dedupeDetailed(found);
    const afresh = dedupeDetailed(found.map(withoutProfile));
    expect(made.kept.map(withoutProfile)).toEqual(afresh.kept);
    expect(made.dropped.map((d) => [d.item.id, d.duplicateOf.id, d.rule])).toEqual(
      afresh.dropped.map((d) => [d.item.id, d.duplicateOf.id, d.rule]),
    );
    expect(analyses(made.kept, center)).toEqual(analyses(afresh.kept, center));
  }
}

describe('place profiles: the same scan, made ahead', () => {
  it('de-duplicates and scores the fixture town exactly as without profiles', async () => {
    await expectSameScans(fixtureExtract());
  });

  it('survives being stored: decode(encode(p)) is p, a stale or damaged one is nothing', () => {
    const p = placeProfile(
      {
        name: "Joe's Plumbing Group, Inc.",
        category: 'Plumbing',
        address: '12 Main Street, Springfield, IL 62701',
        types: ['plumber'],
        tags: {
          craft: 'plumber',
          website: 'https://joes.example',
          email: 'joe@gmail.com',
          opening_hours: '24/7',
        },
        brand: null,
        brandWikidata: null,
      },
      brandIndex,
    );
    expect(p.keywords.matches.length + p.listing.found.length + p.size.found.length).toBeGreaterThan(2);
    expect(decodeProfile(encodeProfile(p), p.v)).toEqual(p);
    expect(decodeProfile(encodeProfile(p), 'another')).toBeUndefined();
    expect(decodeProfile(encodeProfile(p).slice(0, -3), p.v)).toBeUndefined();
    expect(decodeProfile(`["${p.v}",1]`, p.v)).toBeUndefined();
    expect(decodeProfile(null, p.v)).toBeUndefined();
  });

  it('is read by the scorer when made under its rules and brand index, and ignored otherwise', () => {
    const business = {
      name: 'Corner Bistro',
      category: 'Restaurant',
      address: '1 Main Street',
      types: ['restaurant'],
      tags: { amenity: 'restaurant', name: 'Corner Bistro' },
    };
    const input = { ...business, distance: 0.5, source: 'local' };
    const live = scoreBatch([input], { brandIndex })[0]!.analysis();
    // A profile that says otherwise (a national chain), under the current version: the scorer goes by it.
    const made: PlaceProfile = {
      ...placeProfile(business, brandIndex),
      brand: { name: 'Bistro Chain', national: true, via: 'name', noun: 'chain' },
    };
    const trusted = scoreBatch([{ ...input, profile: made }], { brandIndex })[0]!.analysis();
    expect(live.breakdown.rule).toBeNull();
    expect(trusted.breakdown.rule).toBe('nationalChain');
    // The same profile made under another brand index, or older rules: the scorer derives the business afresh.
    const other = buildBrandIndex({ nsi: {} });
    const underOther = scoreBatch([{ ...input, profile: made }], { brandIndex: other })[0]!.analysis();
    expect(underOther.breakdown.rule).toBeNull();
    const stale = scoreBatch([{ ...input, profile: { ...made, v: 'older' } }], { brandIndex })[0]!.analysis();
    expect(stale.breakdown.rule).toBeNull();
    expect(stale.score).toBe(live.score);
  });

  it('names the brand index it was made under: two builds of unstamped data are two versions', () => {
    const a = buildBrandIndex({ nsi: {} });
    const b = buildBrandIndex({ nsi: {} });
    expect(profileVersion(a)).not.toBe(profileVersion(b));
    expect(profileVersion(brandIndex)).toBe(profileVersion(getBrandIndex()));
    expect(profileVersion(buildBrandIndex({ _meta: { hash: 'h1' }, nsi: {} }))).not.toBe(
      profileVersion(buildBrandIndex({ _meta: { hash: 'h2' }, nsi: {} })),
    );
  });

  it('is dropped from a kept entry that takes over a duplicate’s address (its keys were the old address’s)', () => {
    const keys = { name: 'cafe', addressKey: '', street: '', campus: '' };
    const kept = { id: 'a', name: 'Cafe', lat: 37, lng: -122, address: 'Main Street', profile: keys };
    const dup = { id: 'b', name: 'Cafe', lat: 37.0002, lng: -122, address: '5 Main Street' };
    const { kept: out } = dedupeDetailed<DedupCandidate>([kept, dup]);
    expect(out).toHaveLength(1);
    expect(out[0]!.address).toBe('5 Main Street');
    expect(out[0]!.profile).toBeNull();
  });
});

describeWithOsm(
  ['sf-downtown.osm.pbf', 'harrisburg.osm.pbf', 'baltimore.osm.pbf', 'monaco-2021.osm.pbf'],
  'place profiles on the real extracts',
  () => {
    for (const file of [
      'sf-downtown.osm.pbf',
      'harrisburg.osm.pbf',
      'baltimore.osm.pbf',
      'monaco-2021.osm.pbf',
    ]) {
      it(`de-duplicates and scores ${file} exactly as without profiles`, async () => {
        await expectSameScans(osmExtract(file));
      }, 120_000);
    }
  },
);
