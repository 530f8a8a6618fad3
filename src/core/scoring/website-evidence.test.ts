import { describe, expect, it } from 'vitest';
import { analyzeOne, type AnalysisInput } from './analyze';
import { PRESENCE, WEIGHTS } from './constants';
import { locationScale, ratingPart } from './components';
import { WEBSITE_PRESENCE, websiteEffect, type WebsiteEvidenceInput } from './website-evidence';
import type { SignalKind } from '../websites/signals';

const NOW = new Date('2026-11-24T12:00:00Z');
const ev = (
  kinds: SignalKind[],
  facts: WebsiteEvidenceInput['facts'] = {},
  status: WebsiteEvidenceInput['status'] = 'checked',
): WebsiteEvidenceInput => ({
  status,
  facts,
  signals: kinds.map((kind) => ({ kind, label: kind, url: 'https://x.example/', seenAt: NOW.toISOString() })),
});

/** The worked example of docs/SCORING.md "Website evidence": an HVAC contractor from an imported extract. */
const VALLEY_COMFORT: AnalysisInput = {
  id: 'osm:node/1',
  name: 'Valley Comfort Heating & Air',
  category: 'HVAC',
  types: ['hvac'],
  website: 'https://valleycomfort.example',
  phone: '+1 555 555 0100',
  source: 'local',
  distance: 1,
  tags: { craft: 'hvac', opening_hours: 'Mo-Fr 08:00-17:00', 'addr:housenumber': '12' },
  reviewCount: 0,
};
const score = (input: AnalysisInput) => analyzeOne(input, { now: NOW });

/** The worked example's scores without and with the evidence (docs/SCORING.md "Website evidence"). */
const WORKED_SCORES = [77, 86];

describe('website evidence in the score', () => {
  it('no evidence, a failed check and health hints change nothing', () => {
    const plain = score(VALLEY_COMFORT);
    for (const e of [
      null,
      ev([], {}, 'failed'),
      ev(['no_https', 'not_mobile_friendly', 'stale_copyright', 'google_tag_manager']),
    ]) {
      const r = score({ ...VALLEY_COMFORT, websiteEvidence: e });
      expect(r.score).toBe(plain.score);
      expect(r.breakdown.presence).toBe(plain.breakdown.presence);
    }
  });

  it('already advertising raises presence past its cap and says so in the reasoning', () => {
    const plain = score(VALLEY_COMFORT);
    const ads = score({
      ...VALLEY_COMFORT,
      websiteEvidence: ev(['google_ads', 'meta_pixel', 'call_tracking', 'online_booking']),
    });
    expect(ads.breakdown.presence).toBeCloseTo(
      plain.breakdown.presence + WEBSITE_PRESENCE.advertising + WEBSITE_PRESENCE.growth,
      10,
    );
    expect(ads.score).toBeGreaterThan(plain.score);
    expect(ads.reasoning).toContain(
      'Already advertising: its website carries Google Ads and Meta (Facebook/Instagram) ads tags and call tracking.',
    );
    expect(ads.reasoning).toContain('books online');
  });

  it('the worked example of docs/SCORING.md', () => {
    const plain = score(VALLEY_COMFORT);
    const r = score({
      ...VALLEY_COMFORT,
      websiteEvidence: ev(['google_ads', 'call_tracking', 'online_booking']),
    });
    expect(plain.breakdown.presence).toBeCloseTo(0.585, 10);
    expect(r.breakdown.presence).toBeCloseTo(0.805, 10);
    expect(r.breakdown.contributions.presence - plain.breakdown.contributions.presence).toBeCloseTo(
      WEIGHTS.presence * 0.22,
      10,
    );
    // Google Ads is search and display bought: those channels' propensity is 1, not the home-services row's.
    expect(r.breakdown.propensity).toEqual({ ctv: 0.9, olv: 0.85, display: 1, sem: 1 });
    expect(r.breakdown.fit).toBeCloseTo(0.4 * 0.9 + 0.25 * 0.85 + 0.15 + 0.2, 10);
    expect([plain.score, r.score]).toEqual(WORKED_SCORES);
  });

  it('a business already buying ads gains at least 8 points over its twin that does not', () => {
    const twins: AnalysisInput[] = [
      VALLEY_COMFORT,
      { ...VALLEY_COMFORT, name: 'Bay Injury Law', category: 'Legal Services', types: ['lawyer'], tags: { office: 'lawyer' } },
      { ...VALLEY_COMFORT, name: 'Soma Smiles', category: 'Dental', types: ['dentist'], tags: { amenity: 'dentist' } },
      { ...VALLEY_COMFORT, name: 'Corner Boutique', category: 'Clothing', types: ['clothes'], tags: { shop: 'clothes' } },
    ];
    for (const twin of twins) {
      const ads = score({ ...twin, websiteEvidence: ev(['google_ads', 'meta_pixel']) });
      expect(ads.score - score(twin).score, twin.name).toBeGreaterThanOrEqual(8);
    }
  }); // prettier-ignore

  it('call tracking alone is a smaller step; growth tools are capped', () => {
    const plain = score(VALLEY_COMFORT).breakdown.presence;
    expect(
      score({ ...VALLEY_COMFORT, websiteEvidence: ev(['call_tracking']) }).breakdown.presence,
    ).toBeCloseTo(plain + 0.05, 10);
    expect(
      score({ ...VALLEY_COMFORT, websiteEvidence: ev(['online_booking', 'video', 'live_chat', 'ecommerce']) })
        .breakdown.presence,
    ).toBeCloseTo(plain + WEBSITE_PRESENCE.growthCap, 10);
  });

  it('presence stays under its cap, and ads bought today count beyond it', () => {
    const full = ev(['online_booking', 'video', 'live_chat'], { rating: 4.9, reviewCount: 900 });
    expect(score({ ...VALLEY_COMFORT, websiteEvidence: full }).breakdown.presence).toBe(PRESENCE.cap);
    const ads = score({
      ...VALLEY_COMFORT,
      websiteEvidence: { ...full, signals: ev(['google_ads']).signals },
    });
    expect(ads.breakdown.presence).toBeCloseTo(PRESENCE.cap + WEBSITE_PRESENCE.advertising, 10);
  });

  it('the JSON-LD rating and reviews feed the rating and review parts where the source has none', () => {
    const plain = score(VALLEY_COMFORT);
    const rated = score({
      ...VALLEY_COMFORT,
      websiteEvidence: ev(['site_rating'], { rating: 4.8, reviewCount: 400 }),
    });
    // rating part 1 instead of the neutral 0.5; review part ln(401)/ln(401) = 1 instead of the listing's 0.64
    expect(rated.breakdown.presence).toBeCloseTo(0.25 + 0.05 + 0.25 * ratingPart(4.8) + 0.25 * 1, 10);
    expect(rated.breakdown.presence).toBeGreaterThan(plain.breakdown.presence);
    expect(rated.breakdown.scale).toBe(1); // 400 reviews = the HVAC benchmark
    expect(rated.reasoning).toContain('4.8 stars on its website and 400 reviews on its website');
    // A source with ratings keeps its own.
    const google = { ...VALLEY_COMFORT, source: 'google', rating: 4.0, reviewCount: 20, tags: null };
    expect(
      score({ ...google, websiteEvidence: ev(['site_rating'], { rating: 5, reviewCount: 999 }) }).breakdown
        .presence,
    ).toBe(score(google).breakdown.presence);
  });

  it('several locations on the site feed scale', () => {
    const r = score({ ...VALLEY_COMFORT, websiteEvidence: ev(['several_locations'], { locations: 3 }) });
    expect(r.breakdown.scale).toBeCloseTo(locationScale(3), 10);
    expect(r.reasoning).toContain('3 locations listed on its website');
    expect(r.reasoning).not.toContain('locations in this market');
  });

  it('a dead or parked site lowers presence: its website part is withheld', () => {
    const plain = score(VALLEY_COMFORT);
    for (const e of [ev(['unreachable'], {}, 'unreachable'), ev(['parked'])]) {
      const r = score({ ...VALLEY_COMFORT, websiteEvidence: e });
      expect(r.breakdown.presence).toBeCloseTo(plain.breakdown.presence - PRESENCE.website, 10);
      expect(r.score).toBeLessThan(plain.score);
      expect(r.reasoning).toMatch(/no working website counted/);
    }
  });

  it('a re-scored business can keep its scan quality spread', () => {
    const r = analyzeOne({ ...VALLEY_COMFORT }, { now: NOW, qualitySpread: 0.3 });
    expect(r.breakdown.qualitySpread).toBe(0.3);
  });

  it('websiteEffect is neutral without evidence', () => {
    expect(websiteEffect(undefined, { rating: false, reviews: false })).toEqual({
      channels: new Set(),
      platforms: [],
      callTracking: false,
      websiteCounts: true,
      presenceBonus: 0,
      advertisingBonus: 0,
      evidence: [],
      sentence: null,
    });
  });
});
