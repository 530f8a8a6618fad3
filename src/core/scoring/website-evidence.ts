// How the evidence of a business's own website (src/core/websites) enters the scoring model. It changes the inputs
// of the components, never their constants or weights:
// - an ad platform's tag or pixel says the business buys that platform's channels today: those channels' propensity
//   is certain, not its kind of business's usual (a Google Ads tag is search and display bought), and presence rises;
//   call tracking (it measures its advertising) raises presence a little; the reasoning names the platforms;
// - a growing business's tools (online booking, video, live chat, selling online) raise presence a little;
// - the site's schema.org JSON-LD rating and review count stand in for the rating and review parts where the
//   place source carries none (OSM), and its review count for scale; its several locations feed scale;
// - a dead (unreachable) or parked site counts as no website: the website part of presence is withheld;
// - health hints (no HTTPS, not mobile-friendly, out of date) do not change the score: they are what a rep can
//   offer to fix, shown on the card and used by the strategy.
// docs/SCORING.md "Website evidence" has the worked example.
import {
  advertisingPlatforms,
  SIGNAL_KINDS,
  type SignalKind,
  type WebsiteEvidence,
} from '../websites/signals';
import type { Propensity } from './constants';

/** What the scorer reads of a website check. */
export type WebsiteEvidenceInput = Pick<WebsiteEvidence, 'status' | 'signals' | 'facts'>;

/** The presence each kind of signal adds (on the 0..1 presence scale, still capped at PRESENCE.cap). */
export const WEBSITE_PRESENCE = {
  /** Any ad platform's tag or pixel: the business buys digital advertising today (added past the cap). */
  advertising: 0.2,
  /** Call tracking (without an ad tag): it measures advertising, most often calls from ads. */
  callTracking: 0.05,
  /** Each growth tool (booking, video, chat, e-commerce), up to `growthCap` together. */
  growth: 0.02,
  growthCap: 0.06,
} as const;

/** The channels each ad platform's tag shows a business buying today. */
export const BOUGHT_CHANNELS: Readonly<Partial<Record<SignalKind, readonly (keyof Propensity)[]>>> = {
  google_ads: ['sem', 'display'],
  microsoft_uet: ['sem'],
  meta_pixel: ['olv', 'display'],
  tiktok_pixel: ['olv'],
  linkedin_insight: ['display'],
  nextdoor_pixel: ['display'],
  stackadapt: ['display', 'olv', 'ctv'],
  simplifi: ['display', 'olv', 'ctv'],
  trade_desk: ['display', 'olv', 'ctv'],
  mntn: ['ctv', 'olv'],
  tatari: ['ctv', 'olv'],
};

export interface WebsiteEffect {
  /** The channels its ad tags show it buying today. */
  channels: ReadonlySet<keyof Propensity>;
  /** The ad platforms it buys ("Google Ads"), for the reasoning. */
  platforms: string[];
  /** Call tracking on the site (it measures its advertising). */
  callTracking: boolean;
  /** False when the site is dead or parked: the website part of presence is withheld. */
  websiteCounts: boolean;
  /** Added to presence (before its cap). */
  presenceBonus: number;
  /**
   * Added to presence after its cap: ads bought today are evidence beyond anything a listing shows, so a business
   * with a full listing that also buys ads still stands above its twin that does not.
   */
  advertisingBonus: number;
  /** A rating from the site's JSON-LD, for a source without ratings. */
  rating?: number;
  /** A review count from the site's JSON-LD, for a source without review counts. */
  reviewCount?: number;
  /** Locations the site lists (2 or more). */
  locations?: number;
  /** Short phrases for the presence facts of the reasoning ("Google Ads tag on its website"). */
  evidence: string[];
  /** A sentence of its own for the reasoning, or null. */
  sentence: string | null;
}

const NO_CHANNELS: ReadonlySet<keyof Propensity> = new Set();
const NONE: WebsiteEffect = {
  channels: NO_CHANNELS,
  platforms: [],
  callTracking: false,
  websiteCounts: true,
  presenceBonus: 0,
  advertisingBonus: 0,
  evidence: [],
  sentence: null,
};

const list = (items: readonly string[]): string =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

/**
 * The effect of a website check on the scoring inputs. `sourceHas` says which fields the place source carries:
 * the site's rating and review count are used only where it carries none.
 */
export function websiteEffect(
  evidence: WebsiteEvidenceInput | null | undefined,
  sourceHas: { rating: boolean; reviews: boolean },
): WebsiteEffect {
  if (!evidence || evidence.status === 'failed') return NONE;
  const kinds = new Set(evidence.signals.map((s) => s.kind));
  if (evidence.status === 'unreachable' || kinds.has('unreachable')) {
    return {
      ...NONE,
      websiteCounts: false,
      presenceBonus: 0,
      evidence: [],
      sentence: 'Its website did not answer when checked: no working website counted.',
    };
  }
  if (kinds.has('parked')) {
    return {
      ...NONE,
      websiteCounts: false,
      presenceBonus: 0,
      evidence: [],
      sentence: 'Its website is a parked or placeholder page: no working website counted.',
    };
  }
  const platforms = advertisingPlatforms(evidence.signals);
  let bonus = 0;
  const facts: string[] = [];
  let sentence: string | null = null;
  let advertising = 0;
  if (platforms.length > 0) {
    advertising = WEBSITE_PRESENCE.advertising;
    sentence = `Already advertising: its website carries ${list(platforms)} tags${kinds.has('call_tracking') ? ' and call tracking' : ''}.`;
  } else if (kinds.has('call_tracking')) {
    bonus += WEBSITE_PRESENCE.callTracking;
    sentence = 'Measures its advertising: call tracking on its website.';
  }
  let growth = 0;
  for (const k of kinds) {
    if (SIGNAL_KINDS[k]?.group === 'growth') {
      growth += WEBSITE_PRESENCE.growth;
      facts.push(SIGNAL_KINDS[k].label.toLowerCase());
    }
  }
  bonus += Math.min(WEBSITE_PRESENCE.growthCap, growth);
  const channels = new Set<keyof Propensity>();
  for (const k of kinds) for (const c of BOUGHT_CHANNELS[k] ?? []) channels.add(c);
  const effect: WebsiteEffect = {
    channels,
    platforms,
    callTracking: kinds.has('call_tracking'),
    websiteCounts: true,
    presenceBonus: bonus,
    advertisingBonus: advertising,
    evidence: [],
    sentence,
  };
  const f = evidence.facts;
  if (!sourceHas.rating && f.rating !== undefined && f.rating > 0) {
    effect.rating = f.rating;
    facts.push(`${f.rating.toFixed(1)} stars on its website`);
  }
  if (!sourceHas.reviews && f.reviewCount !== undefined && f.reviewCount > 0) {
    effect.reviewCount = f.reviewCount;
    facts.push(`${f.reviewCount} reviews on its website`);
  }
  if (f.locations !== undefined && f.locations > 1) {
    effect.locations = f.locations;
    facts.push(`${f.locations} locations listed on its website`);
  }
  effect.evidence = facts;
  return effect;
}

/**
 * The evidence sentences of a check, for a reasoning text the model wrote before the evidence arrived: the
 * check's own sentence ("Already advertising: ...") and what else the site showed. '' when it showed nothing.
 */
export function websiteSentences(
  evidence: WebsiteEvidenceInput | null | undefined,
  sourceHas: { rating: boolean; reviews: boolean },
): string {
  const effect = websiteEffect(evidence, sourceHas);
  let text = effect.sentence ?? '';
  if (effect.evidence.length > 0) text += `${text ? ' ' : ''}Website evidence: ${list(effect.evidence)}.`;
  return text;
}
