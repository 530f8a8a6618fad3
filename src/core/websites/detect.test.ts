import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectPage, evidenceFromPages, evidenceOfFailure, isEvidenceFresh, jsonLdFacts } from './detect';
import { advertisingPlatforms, isAdvertising, websiteEvidenceSchema, type SignalKind } from './signals';
import { RULES_VERSION } from './rules';

const fixture = (name: string) =>
  readFileSync(new URL(`../../../test/fixtures/websites/${name}.html`, import.meta.url), 'utf8');
const NOW = new Date('2026-11-24T12:00:00Z');
const kindsOf = (name: string) =>
  evidenceFromPages(
    `https://${name}.example/`,
    [{ url: `https://${name}.example/`, html: fixture(name) }],
    NOW,
  ).signals.map((s) => s.kind);

// One fixture site per signal: the kind it must show.
const ONE_PER_SIGNAL: [string, SignalKind][] = [
  ['google-ads', 'google_ads'],
  ['meta-pixel', 'meta_pixel'],
  ['tiktok', 'tiktok_pixel'],
  ['microsoft-uet', 'microsoft_uet'],
  ['linkedin', 'linkedin_insight'],
  ['nextdoor', 'nextdoor_pixel'],
  ['stackadapt', 'stackadapt'],
  ['simplifi', 'simplifi'],
  ['trade-desk', 'trade_desk'],
  ['mntn', 'mntn'],
  ['tatari', 'tatari'],
  ['gtm', 'google_tag_manager'],
  ['callrail', 'call_tracking'],
  ['booking', 'online_booking'],
  ['video', 'video'],
  ['chat', 'live_chat'],
  ['shop', 'ecommerce'],
  ['jsonld', 'site_rating'],
  ['jsonld', 'social_profiles'],
  ['jsonld', 'several_locations'],
  ['old-site', 'not_mobile_friendly'],
  ['old-site', 'stale_copyright'],
  ['parked', 'parked'],
];

describe('website signal detection', () => {
  it.each(ONE_PER_SIGNAL)('%s shows %s', (name, kind) => {
    expect(kindsOf(name)).toContain(kind);
  });

  it('a plain modern page shows nothing but what is there', () => {
    // The GTM page carries a tag manager but no ad platform's tag: not "already advertising".
    const kinds = kindsOf('gtm');
    expect(kinds).toEqual(['google_tag_manager']);
    expect(isAdvertising(kinds.map((kind) => ({ kind })))).toBe(false);
    expect(kindsOf('video')).toEqual(['video']);
  });

  it('advertising pages say so and name their platforms', () => {
    const ev = evidenceFromPages(
      'https://x.example/',
      [
        { url: 'https://x.example/', html: fixture('google-ads') },
        { url: 'https://x.example/about', html: fixture('meta-pixel') },
      ],
      NOW,
    );
    expect(isAdvertising(ev.signals)).toBe(true);
    expect(advertisingPlatforms(ev.signals)).toEqual(['Google Ads', 'Meta (Facebook/Instagram) ads']);
    const meta = ev.signals.find((s) => s.kind === 'meta_pixel');
    expect(meta).toEqual({
      kind: 'meta_pixel',
      label: 'Meta Pixel',
      url: 'https://x.example/about',
      seenAt: NOW.toISOString(),
    });
    expect(ev.signals.find((s) => s.kind === 'google_ads')?.label).toBe('Runs Google Ads');
    expect(websiteEvidenceSchema.parse(ev)).toEqual(ev);
  });

  it('reads the JSON-LD rating, review count, social profiles and locations', () => {
    const ev = evidenceFromPages(
      'https://e.example/',
      [{ url: 'https://e.example/', html: fixture('jsonld') }],
      NOW,
    );
    expect(ev.facts).toEqual({ rating: 4.8, reviewCount: 312, locations: 3, socialProfiles: 2 });
    expect(ev.signals.find((s) => s.kind === 'site_rating')?.label).toBe('Rated 4.8 (312 reviews)');
    expect(ev.signals.find((s) => s.kind === 'several_locations')?.label).toBe('3 locations');
  });

  it('scales a rating on another scale and ignores broken JSON-LD', () => {
    expect(
      jsonLdFacts([
        '{ broken',
        JSON.stringify({
          '@graph': [
            {
              '@type': 'LocalBusiness',
              aggregateRating: { ratingValue: 9, bestRating: 10, ratingCount: 40 },
            },
          ],
        }),
      ]),
    ).toEqual({ rating: 4.5, reviewCount: 40 });
    // A rating of something that is not a business (a product) is not the business's.
    expect(
      jsonLdFacts([JSON.stringify({ '@type': 'Product', aggregateRating: { ratingValue: 5 } })]),
    ).toEqual({});
  });

  it('health: http only, no viewport, copyright years out of date, parked', () => {
    const ev = evidenceFromPages(
      'http://joes.example/',
      [{ url: 'http://joes.example/', html: fixture('old-site') }],
      NOW,
    );
    expect(ev.signals.map((s) => s.kind).sort()).toEqual([
      'no_https',
      'not_mobile_friendly',
      'stale_copyright',
    ]);
    expect(ev.signals.find((s) => s.kind === 'stale_copyright')?.label).toBe(
      'Site looks out of date (© 2015)',
    );
    // The current year is not stale.
    expect(kindsOf('google-ads')).not.toContain('stale_copyright');
    expect(kindsOf('parked')).toContain('parked');
    // A script-only shell is neither parked nor anything else.
    expect(kindsOf('script-only')).toEqual([]);
  });

  it('follows same-site contact, locations and about links only', () => {
    const f = detectPage(
      '<a href="/contact-us">Contact</a><a href="https://other.example/about">x</a><a href="/locations#map">Where</a>' +
        '<a href="/blog">Blog</a><a href="mailto:a@b.c">mail</a><a href="/about">About</a><a href="/book">Book</a>',
      'https://site.example/',
      NOW,
    );
    expect(f.follow).toEqual([
      'https://site.example/contact-us',
      'https://site.example/locations',
      'https://site.example/about',
    ]);
  });

  it('survives hostile markup without throwing', () => {
    const hostile =
      '<script>'.repeat(1000) + '\u0000\uFFFD<a href="javascript:alert(1)">' + '<div>'.repeat(5000);
    expect(() => detectPage(hostile, 'https://h.example/', NOW)).not.toThrow();
    expect(() => detectPage('<a href="http://[::1">x</a>', 'not a url', NOW)).not.toThrow();
  });

  it('failure evidence: unreachable is a signal, failed is not; freshness by status and rules', () => {
    const dead = evidenceOfFailure('https://d.example/', 'unreachable', 'answered HTTP 503', NOW);
    expect(dead.signals.map((s) => s.label)).toEqual(['Website unreachable']);
    const failed = evidenceOfFailure('https://d.example/', 'failed', 'could not resolve d.example', NOW);
    expect(failed.signals).toEqual([]);
    const hour = 3_600_000;
    expect(isEvidenceFresh(dead, NOW.getTime() + 6 * 24 * hour)).toBe(true);
    expect(isEvidenceFresh(dead, NOW.getTime() + 8 * 24 * hour)).toBe(false);
    expect(isEvidenceFresh(failed, NOW.getTime() + 2 * hour)).toBe(false);
    expect(isEvidenceFresh({ ...dead, rules: `${RULES_VERSION}-old` }, NOW.getTime())).toBe(false);
  });
});
