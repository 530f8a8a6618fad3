// The signal kinds of the website check: stable codes, chip labels, groups. No zod here: the web app imports
// this file for the chips and the "already advertising" filter; the schemas are in ./signals.ts.

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

/** What the web app and the sentences need of a signal. */
type SignalLike = { kind: string };

export const signalGroup = (kind: SignalKind): SignalGroup => SIGNAL_KINDS[kind].group;

const kindInfo = (kind: string) =>
  (SIGNAL_KINDS as Record<string, (typeof SIGNAL_KINDS)[SignalKind] | undefined>)[kind];

/** True when the signals say the business buys digital advertising today (an ad platform's tag or pixel). */
export const isAdvertising = (signals: readonly SignalLike[] | null | undefined): boolean =>
  (signals ?? []).some((s) => kindInfo(s.kind)?.group === 'advertising');

/** The ad platforms the signals name, for sentences ("Google Ads, Meta (Facebook/Instagram) ads"). */
export function advertisingPlatforms(signals: readonly SignalLike[]): string[] {
  const out: string[] = [];
  for (const s of signals) {
    const k = kindInfo(s.kind);
    if (k?.group === 'advertising' && k.platform && !out.includes(k.platform)) out.push(k.platform);
  }
  return out;
}
