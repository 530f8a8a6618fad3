// What a website check found (issue 17): the signal shape the API carries (`signals: [{ kind, label, url,
// seenAt }]` on every prospect) and the evidence record kept per business. The one exported place of these
// schemas; the API shapes import them from here.
import { z } from 'zod';

/**
 * Every signal kind, a stable code, with its chip label and its group:
 * - `advertising`: an ad platform's tag or pixel on the site (the business buys digital ads today);
 * - `measurement`: call tracking (it measures its advertising);
 * - `growth`: what a growing business has (online booking, video, live chat, selling online);
 * - `profile`: what the site's schema.org JSON-LD says (rating, social profiles, several locations);
 * - `health`: what is wrong with the site (no HTTPS, not mobile-friendly, stale, parked, unreachable).
 */
export const SIGNAL_KINDS = {
  google_ads: { label: 'Runs Google Ads', group: 'advertising', platform: 'Google Ads' },
  meta_pixel: { label: 'Meta Pixel', group: 'advertising', platform: 'Meta (Facebook/Instagram) ads' },
  tiktok_pixel: { label: 'TikTok Pixel', group: 'advertising', platform: 'TikTok ads' },
  microsoft_uet: { label: 'Microsoft Ads', group: 'advertising', platform: 'Microsoft (Bing) Ads' },
  linkedin_insight: { label: 'LinkedIn Insight', group: 'advertising', platform: 'LinkedIn ads' },
  nextdoor_pixel: { label: 'Nextdoor Pixel', group: 'advertising', platform: 'Nextdoor ads' },
  stackadapt: { label: 'StackAdapt', group: 'advertising', platform: 'StackAdapt programmatic' },
  simplifi: { label: 'Simpli.fi', group: 'advertising', platform: 'Simpli.fi programmatic' },
  trade_desk: { label: 'The Trade Desk', group: 'advertising', platform: 'The Trade Desk programmatic' },
  mntn: { label: 'MNTN', group: 'advertising', platform: 'MNTN streaming TV' },
  tatari: { label: 'Tatari', group: 'advertising', platform: 'Tatari TV' },
  google_tag_manager: { label: 'Google Tag Manager', group: 'measurement', platform: null },
  call_tracking: { label: 'Call tracking', group: 'measurement', platform: null },
  online_booking: { label: 'Books online', group: 'growth', platform: null },
  video: { label: 'Video on site', group: 'growth', platform: null },
  live_chat: { label: 'Live chat', group: 'growth', platform: null },
  ecommerce: { label: 'Sells online', group: 'growth', platform: null },
  site_rating: { label: 'Rating on its site', group: 'profile', platform: null },
  social_profiles: { label: 'Social profiles', group: 'profile', platform: null },
  several_locations: { label: 'Several locations', group: 'profile', platform: null },
  no_https: { label: 'No HTTPS', group: 'health', platform: null },
  not_mobile_friendly: { label: 'Site not mobile-friendly', group: 'health', platform: null },
  stale_copyright: { label: 'Site looks out of date', group: 'health', platform: null },
  parked: { label: 'Parked or placeholder site', group: 'health', platform: null },
  unreachable: { label: 'Website unreachable', group: 'health', platform: null },
} as const satisfies Record<string, { label: string; group: SignalGroup; platform: string | null }>;

export type SignalGroup = 'advertising' | 'measurement' | 'growth' | 'profile' | 'health';
export type SignalKind = keyof typeof SIGNAL_KINDS;
export const SIGNAL_KIND_LIST = Object.keys(SIGNAL_KINDS) as [SignalKind, ...SignalKind[]];

/** One signal as the API and the card carry it. */
export const websiteSignalSchema = z.object({
  kind: z.enum(SIGNAL_KIND_LIST),
  /** The chip text ("Runs Google Ads", "Call tracking", "Website unreachable", "Rated 4.7 (120 reviews)"). */
  label: z.string().max(120),
  /** The page it was seen on. */
  url: z.string().max(2000),
  /** ISO time it was seen. */
  seenAt: z.string().max(40),
});
export type WebsiteSignal = z.infer<typeof websiteSignalSchema>;

/** Facts read from the site's schema.org JSON-LD, used by the score where the place source has none. */
export const websiteFactsSchema = z.object({
  rating: z.number().min(0).max(5).optional(),
  reviewCount: z.number().int().min(0).optional(),
  locations: z.number().int().min(1).optional(),
  socialProfiles: z.number().int().min(0).optional(),
});
export type WebsiteFacts = z.infer<typeof websiteFactsSchema>;

/**
 * The outcome of a check of one business's website:
 * - `checked`: pages were read; `signals` say what was found;
 * - `unreachable`: the site answered with an error or refused the connection (a dead site: a signal);
 * - `failed`: could not check (no network, the name did not resolve, a refused address, robots.txt
 *   disallows, a hostile page): `reason` says why; no signal and no effect on the score.
 */
export const websiteEvidenceSchema = z.object({
  status: z.enum(['checked', 'unreachable', 'failed']),
  reason: z.string().max(300).nullable(),
  /** The site as checked (the business's website, normalised). */
  url: z.string().max(2000),
  checkedAt: z.string().max(40),
  signals: z.array(websiteSignalSchema).max(60),
  facts: websiteFactsSchema,
  /** The rule set the signals were found with (RULES_VERSION): other versions are not fresh. */
  rules: z.string().max(20),
});
export type WebsiteEvidence = z.infer<typeof websiteEvidenceSchema>;

export const signalGroup = (kind: SignalKind): SignalGroup => SIGNAL_KINDS[kind].group;

/** True when the signals say the business buys digital advertising today (an ad platform's tag or pixel). */
export const isAdvertising = (signals: readonly Pick<WebsiteSignal, 'kind'>[]): boolean =>
  signals.some((s) => SIGNAL_KINDS[s.kind]?.group === 'advertising');

/** The ad platforms the signals name, for sentences ("Google Ads, Meta (Facebook/Instagram) ads"). */
export function advertisingPlatforms(signals: readonly Pick<WebsiteSignal, 'kind'>[]): string[] {
  const out: string[] = [];
  for (const s of signals) {
    const k = SIGNAL_KINDS[s.kind];
    if (k?.group === 'advertising' && k.platform && !out.includes(k.platform)) out.push(k.platform);
  }
  return out;
}
