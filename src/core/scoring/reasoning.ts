// The reasoning text of an analysis, written for a rep about to pick up the phone: first what makes this business
// worth calling (or not), in plain words and in its own facts; then what is missing before calling; then its size
// and its presence as the record shows them; then what the data could not say. Pure string work on the facts the
// scorer gathered (./analyze.ts).
import type { ScoreBreakdown } from '../types';
import type { Vertical } from '../verticals';
import type { PropensityRow, ScoreRule } from './constants';
import { BANDS, NOT_A_PROSPECT, VERTICAL_PROPENSITY_ROW } from './constants';
import type { AnalysisInput, Facts } from './analyze';
import type { RestrictedKind } from './profile';

export type Band = 'excellent' | 'good' | 'decent' | 'poor';

/** >= 80 excellent, >= 60 good, >= 40 decent, else poor. */
export function band(score: number): Band {
  if (score >= BANDS.excellent) return 'excellent';
  if (score >= BANDS.good) return 'good';
  if (score >= BANDS.decent) return 'decent';
  return 'poor';
}

export const BAND_TEXT: Record<Band, string> = {
  excellent: 'Excellent prospect',
  good: 'Good prospect',
  decent: 'Decent prospect',
  poor: 'Poor prospect',
};

/** What a business of each vertical is, as a rep says it. */
const NOUNS: Readonly<Record<Vertical, string>> = {
  auto_dealer: 'a car dealer',
  auto_repair: 'an auto repair shop',
  injury_law: 'an injury law firm',
  legal: 'a law office',
  legal_corporate: 'a business law firm',
  business_services: 'a firm selling to companies',
  hvac: 'a heating and cooling contractor',
  plumbing: 'a plumber',
  roofing: 'a roofer',
  home_services: 'a home-services business',
  dental: 'a dental practice',
  orthodontics: 'an orthodontic practice',
  medical: 'a medical practice',
  hospital: 'a hospital',
  therapy: 'a counselling or therapy practice',
  veterinary: 'a veterinary practice',
  furniture: 'a furniture store',
  insurance: 'an insurance agency',
  finance: 'a local financial business',
  education: 'a private school',
  fitness: 'a gym or studio',
  wellness: 'a spa or massage business',
  beauty: 'a salon',
  entertainment: 'an entertainment venue',
  pharmacy: 'a pharmacy',
  restaurant: 'a restaurant',
  bar: 'a bar',
  hotel: 'a hotel',
  qsr: 'a quick-service restaurant',
  real_estate: 'a real estate office',
  gas_station: 'a gas station',
  government: 'a public institution',
  nonprofit: 'a non-profit',
  restricted: 'a restricted category',
  low_propensity: 'a kind of place that buys no advertising',
  other: 'a business of a kind the model does not know',
};

/** How a propensity row's kind of business buys local media, as a reason to call (or not). */
const ROW_REASONS: Readonly<Record<PropensityRow, string>> = {
  auto_dealer: 'dealers are the biggest buyers of local TV',
  legal_injury: 'injury firms are among the heaviest buyers of local TV, video and search',
  legal_consumer: 'law offices serving people buy search and some local video',
  home_services: 'home services buy local TV and search all year',
  dental_medical: 'practices buy search and local video to fill their books',
  furniture: 'furniture is one of the heaviest local TV categories',
  insurance: 'agencies and local finance buy local TV and search',
  fitness: 'memberships and appointments sell with local video and search',
  real_estate: 'enrolment and listings sell with display, search and video',
  full_service_restaurant: 'venues like it buy some local video and display',
  bar_brewery: 'bars buy little local media',
  hotel_chain: 'hotels buy little local media',
  quick_service_restaurant: 'quick-service restaurants buy little local media',
  other: 'its kind of business buys little local TV',
  business_to_business: 'local TV reaches few of the companies it sells to',
};

/** Rows whose kind of business buys local TV and video: its category is a reason to call. */
const STRONG_ROWS: ReadonlySet<PropensityRow> = new Set<PropensityRow>([
  'auto_dealer',
  'legal_injury',
  'legal_consumer',
  'home_services',
  'dental_medical',
  'furniture',
  'insurance',
  'fitness',
  'real_estate',
]);

const RESTRICTED_NOUNS: Readonly<Record<RestrictedKind, string>> = {
  cannabis: 'a cannabis business',
  firearms: 'a firearms business',
  adult: 'an adult business',
};

const list = (items: readonly string[]): string =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

const hasText = (s: string | null | undefined): boolean => typeof s === 'string' && s.trim().length > 0;

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

const makeName = (make: string) => make.replace(/\b\w/g, (c) => c.toUpperCase());

/** "an outlet of" a brand, "run by" an operator. */
const outlet = (brand: NonNullable<Facts['traits']['brand']>) =>
  brand.noun === 'chain' && brand.via !== 'operator' ? 'an outlet of' : 'run by';

/** The sentence of a business a rule decides: why it is not called, in its own name. */
function ruleSentence(rule: ScoreRule, input: AnalysisInput, b: ScoreBreakdown, facts: Facts): string {
  const name = input.name.trim();
  const brand = facts.traits.brand;
  switch (rule) {
    case 'nationalChain':
      return brand
        ? `${name} is ${outlet(brand)} ${brand.name}, a national ${brand.noun}: its advertising is bought by head office, not here.`
        : `${name} is an outlet of a national chain: its advertising is bought by head office, not here.`;
    case 'chain':
      if (brand) {
        return `${name} is ${outlet(brand)} ${brand.name}, a regional ${brand.noun}: its marketing is bought centrally, not by this location.`;
      }
      if (facts.traits.chainSite) {
        return `${name}'s website is one location's page on a larger business's site: an outlet of a chain, whose marketing is bought centrally.`;
      }
      if (input.manyCities) {
        return `${name} has places in several cities of the imported data: an outlet of a chain, whose marketing is bought centrally.`;
      }
      return `${name} carries a chain's brand: its marketing is usually bought at regional or head office level.`;
    case 'restricted': {
      const noun = RESTRICTED_NOUNS[b.restricted ?? 'adult'];
      return `${name} is ${noun}: most local TV and cable sellers may not accept its ads. Check your station's policy before calling.`;
    }
    case 'hospital':
      return `${name} is a hospital: its advertising is bought by its hospital system's marketing department, not a street-level prospect.`;
    case 'government':
      return brand
        ? `${name} is run by ${brand.name}, a public body: not a local advertising buyer.`
        : `${name} is a public institution: not a local advertising buyer.`;
    case 'nonProfit':
      return `${name} is a non-profit: small or no paid-media budget.`;
    case 'lowPropensity':
      return `${name}: this kind of place does not buy local advertising.`;
    case 'autoRepair':
      return `${name} is an independent repair shop: they rarely buy local TV or video advertising.`;
    case 'gasStation':
      return `${name} is a gas station: they rarely buy local advertising.`;
  }
}

/** Up to three reasons this business is worth calling (or, for a weak one, why not), strongest first. */
function reasons(input: AnalysisInput, b: ScoreBreakdown, facts: Facts): string[] {
  const out: string[] = [];
  const row = VERTICAL_PROPENSITY_ROW[b.vertical];
  if (facts.advertising.length > 0) out.push(`already buys ${list(facts.advertising)}`);
  else if (facts.callTracking) out.push('tracks the calls its advertising brings');
  if (facts.traits.make) {
    out.push(`a ${makeName(facts.traits.make)} franchised dealer: ${ROW_REASONS.auto_dealer}`);
  } else {
    out.push(`${NOUNS[b.vertical]}: ${ROW_REASONS[row]}`);
  }
  const locations = Math.max(facts.locations, facts.siteLocations);
  if (locations > 1) out.push(`${locations} locations${facts.locations > 1 ? ' in this market' : ''}`);
  const size = facts.size.filter((s) => s !== "a make's franchised dealership");
  if (size.length > 0) out.push(list(size));
  if (STRONG_ROWS.has(row) && hasText(input.website) && hasText(input.phone) && facts.presence.length >= 2) {
    out.push('a website, a phone and a kept listing to work from');
  }
  return out.slice(0, 3);
}

/** What a rep must do before calling, or '' when the record is ready to call. */
function beforeCalling(input: AnalysisInput): string {
  if (!hasText(input.phone) && !hasText(input.website)) {
    return 'Find a number first: no phone or website on record.';
  }
  if (!hasText(input.phone)) return 'No phone on record: its website should list one.';
  return '';
}

/** What the record says of the business's size. */
function sizeSentence(facts: Facts, b: ScoreBreakdown): string {
  const parts: string[] = [];
  if (facts.locations > 1) parts.push(`${facts.locations} locations in this market`);
  if (facts.siteLocations > 1) parts.push(`${facts.siteLocations} locations listed on its website`);
  parts.push(...facts.size);
  if (parts.length === 0) {
    return b.unknown?.includes('review counts')
      ? 'Size: one location; nothing on record says how big.'
      : 'Size: read from its review count.';
  }
  return `Size: ${list(parts)}.`;
}

/** What the record shows of its presence: website, phone and the listing's evidence of a kept presence. */
function presenceSentence(input: AnalysisInput, facts: Facts): string {
  const parts: string[] = [];
  if (hasText(input.website)) parts.push('website');
  if (hasText(input.phone)) parts.push('phone');
  if (typeof input.rating === 'number' && input.rating > 0) {
    parts.push(`${input.rating.toFixed(1)} stars from ${input.reviewCount ?? 0} reviews`);
  } else if ((input.reviewCount ?? 0) > 0) parts.push(`${input.reviewCount} reviews`);
  parts.push(...facts.presence);
  if (parts.length === 0) return 'Presence: no website, phone or listing details on record.';
  const missing = hasText(input.website)
    ? ''
    : ' No website on record: a reason to talk about search and display.';
  return `Presence: ${list(parts)}.${missing}`;
}

/** What the data could not say, as the confidence sentence says it. */
function confidenceSentence(conf: number, b: ScoreBreakdown): string {
  const unknown = b.unknown ?? [];
  const notes: string[] = [];
  if (unknown.length > 0) notes.push(`this data source carries no ${unknown.join(' or ')}`);
  if (b.vertical === 'other') notes.push('its kind of business is not one the model knows');
  return notes.length > 0 ? `Confidence ${conf}%: ${notes.join('; ')}.` : '';
}

/** The reasoning of an analysis. */
export function reasoningText(a: {
  score: number;
  confidence: number;
  input: AnalysisInput;
  breakdown: ScoreBreakdown;
  facts: Facts;
}): string {
  const { score, input, breakdown: b, facts } = a;
  const sentences: string[] = [];
  const rule = b.rule as ScoreRule | null;
  if (rule) {
    sentences.push(`${BAND_TEXT.poor} (${score}/100).`, ruleSentence(rule, input, b, facts));
  } else {
    sentences.push(`${BAND_TEXT[band(score)]} (${score}/100).`);
    const why = reasons(input, b, facts);
    const weak = score < BANDS.decent;
    sentences.push(
      `${input.name.trim()}${weak ? ' is a weak prospect' : ' is worth calling'}: ${why.join('; ')}.`,
    );
    const before = beforeCalling(input);
    if (before) sentences.push(before);
    sentences.push(sizeSentence(facts, b), presenceSentence(input, facts));
    if (facts.websiteSentence) sentences.push(facts.websiteSentence);
    const conf = confidenceSentence(a.confidence, b);
    if (conf) sentences.push(conf);
    sentences.push(
      typeof input.distance === 'number' && Number.isFinite(input.distance)
        ? `${input.distance.toFixed(1)} mi away.`
        : 'Distance unknown.',
    );
  }
  if (score < BANDS.notProspect) sentences.push(`${NOT_A_PROSPECT}.`);
  return capitalise(sentences.join(' '));
}
