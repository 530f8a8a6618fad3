// The built-in playbook generator: a complete appointment strategy with no AI service, used when no endpoint
// is configured or the endpoint fails. Every section is filled, at least to the counts asked of the model
// (REQUESTED_MINIMUMS), from the business's own data (name, category, rating and reviews, website and phone,
// distance, score breakdown) and its vertical's playbook (playbooks.ts).
//
// Deterministic: the output depends only on the input (no clock, no randomness), so the same business always
// reads the same and tests can compare bytes.
//
// Media mix: the four channels of the scoring model's propensity table. A channel's weight is its share in
// the scoring model's fit formula (CTV 0.4, online video 0.25, display 0.15, search 0.2) times the vertical's
// propensity squared (squaring separates strong channels from weak ones); weights become whole percents
// summing to exactly 100 by largest remainder.
import { FIT_WEIGHTS } from '../scoring/constants';
import { PLAYBOOKS, type VerticalPlaybook } from './playbooks';
import { apportion, repairStrategy } from './repair';
import {
  DEFAULT_BEST_TIME_TO_CALL,
  type MediaChannel,
  type MediaMixRow,
  type ObjectionHandler,
  REP_NAME_SLOT,
  type Strategy,
} from './schema';
import type { StrategyInput } from './input';
import { signalLines } from './website-signals';
import {
  CHANNEL_PROPENSITY,
  classifyVertical,
  type ChannelPropensity,
  type VerticalMatch,
} from './verticals';

/** How many items each list section gets (at least REQUESTED_MINIMUMS). */
export const PLAYBOOK_COUNTS = {
  keyTalkingPoints: 10,
  objectionHandlers: 10,
  competitiveAngles: 6,
  verticalInsights: 7,
  discoveryQuestions: 9,
  hookLines: 6,
  plan30Day: 8,
} as const;

/** The scoring model's fit weights, reused as the base share of each channel. */
const CHANNEL_WEIGHTS: ReadonlyArray<{
  key: keyof ChannelPropensity;
  channel: MediaChannel;
  weight: number;
}> = [
  { key: 'ctv', channel: 'CTV', weight: FIT_WEIGHTS.ctv },
  { key: 'olv', channel: 'Online Video', weight: FIT_WEIGHTS.olv },
  { key: 'display', channel: 'Display', weight: FIT_WEIGHTS.display },
  { key: 'sem', channel: 'Search Engine Marketing', weight: FIT_WEIGHTS.sem },
];

/** Score components a rep can act on, with their names in the insight text. */
const BREAKDOWN_LABELS: ReadonlyArray<[string, string]> = [
  ['fit', 'channel fit'],
  ['presence', 'online presence'],
  ['scale', 'scale'],
  ['keywords', 'name keywords'],
  ['distance', 'distance'],
];

const LEAD_COMPONENTS: readonly string[] = ['channel fit', 'online presence', 'scale'];

interface Facts {
  name: string;
  area: string;
  noun: string;
  nouns: string;
  customers: string;
  job: string;
  rating: number | undefined;
  reviews: number;
  domain: string | undefined;
  phone: string | undefined;
  address: string | undefined;
  distance: number | undefined;
  score: number | undefined;
  breakdown: Record<string, number> | undefined;
  reasoning: string | undefined;
  repName: string | undefined;
  repPhone: string | undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Formatting helpers (locale-free, so output never depends on the machine)

export function formatCount(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function formatRating(r: number): string {
  return r.toFixed(1);
}

function formatMiles(d: number): string {
  if (d < 0.1) return 'less than 0.1 miles';
  const text = d.toFixed(1).replace(/\.0$/, '');
  return text === '1' ? '1 mile' : `${text} miles`;
}

function percent(x: number): string {
  return `${Math.round(Math.min(1, Math.max(0, x)) * 100)}%`;
}

function domainOf(website: string): string {
  return website
    .trim()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
    .replace(/^www\./i, '')
    .replace(/[/?#].*$/, '');
}

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

function plural(noun: string): string {
  if (/s$/i.test(noun)) return `${noun}es`;
  if (/[^aeiou]y$/i.test(noun)) return `${noun.slice(0, -1)}ies`;
  return `${noun}s`;
}

function possessive(name: string): string {
  return /s$/i.test(name) ? `${name}'` : `${name}'s`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function bare(job: string): string {
  return job.replace(/^an? /, '');
}

/** Replace the playbook tokens; "a {noun}" gets the right article and "{name}'s" the right possessive. */
function fill(template: string, f: Facts): string {
  return template
    .replace(/\ba \{noun\}/g, `${article(f.noun)} ${f.noun}`)
    .replace(/\{name\}'s/g, possessive(f.name))
    .replace(/\{name\}/g, f.name)
    .replace(/\{area\}/g, f.area)
    .replace(/\{noun\}/g, f.noun)
    .replace(/\{customers\}/g, f.customers)
    .replace(/\{job\}/g, f.job);
}

/**
 * A name that ends in a full stop ("Magic City Plumbing Co.") takes no second one where a sentence ends on it:
 * every "{name}." of the strategy's texts becomes "{name}".
 */
export function singleStopAfter<T>(name: string, value: T): T {
  if (!name.endsWith('.')) return value;
  const fix = (v: unknown): unknown => {
    if (typeof v === 'string') return v.split(`${name}.`).join(name);
    if (Array.isArray(v)) return v.map(fix);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fix(x)]));
    return v;
  };
  return fix(value) as T;
}

/** The first `count` distinct non-empty items. */
function take(items: ReadonlyArray<string | undefined>, count: number): string[] {
  const out: string[] = [];
  for (const item of items) {
    if (item && !out.includes(item)) out.push(item);
    if (out.length === count) break;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------

/** Last words that make a category label a noun on its own ('beauty salon'); others get 'business' added. */
const NOUN_ENDINGS: ReadonlySet<string> = new Set(
  (
    'shop store salon studio spa center centre clinic agency company firm office school college university gym ' +
    'bank union museum theater theatre gallery park alley service pharmacy contractor wash station practice ' +
    'dealer market bakery club academy hall'
  ).split(' '),
);

/** How an 'other' business is named from its category label: 'beauty salon', 'auto repair business'. */
function otherNoun(category: string): string {
  const words = category
    .trim()
    .split(/\s+/)
    .filter((w) => w.length > 0);
  if (words.length === 0 || /^(business|other|establishment|point of interest)$/i.test(words.join(' '))) {
    return 'local business';
  }
  // Acronyms keep their capitals ('ATM'); other words are lower-cased mid-sentence.
  const text = words.map((w) => (/^[A-Z]{2,}$/.test(w) ? w : w.toLowerCase())).join(' ');
  const last = (words[words.length - 1] ?? '').toLowerCase();
  return NOUN_ENDINGS.has(last) ? text : `${text} business`;
}

function nounOf(playbook: VerticalPlaybook, match: VerticalMatch, category: string): string {
  if (typeof playbook.noun === 'string') {
    if (match.vertical !== 'other') return playbook.noun;
    return otherNoun(category);
  }
  const byTrade = match.trade ? playbook.noun[match.trade] : undefined;
  if (byTrade) return byTrade;
  return match.vertical === 'health' ? 'healthcare practice' : 'home-services company';
}

function factsOf(input: StrategyInput, playbook: VerticalPlaybook, match: VerticalMatch): Facts {
  const noun = nounOf(playbook, match, input.category);
  const rating = typeof input.rating === 'number' && input.rating > 0 ? input.rating : undefined;
  const reviews = typeof input.reviews === 'number' && input.reviews > 0 ? Math.round(input.reviews) : 0;
  const text = (s: string | undefined) => (s && s.trim() !== '' ? s.trim() : undefined);
  const website = text(input.website);
  return {
    name: input.name.trim() || 'this business',
    area: text(input.city) ?? 'your area',
    noun,
    nouns: plural(noun),
    customers: playbook.customers,
    job: playbook.job,
    rating,
    reviews,
    domain: website ? domainOf(website) : undefined,
    phone: text(input.phone),
    address: text(input.address),
    distance:
      typeof input.distanceMiles === 'number' &&
      Number.isFinite(input.distanceMiles) &&
      input.distanceMiles >= 0
        ? input.distanceMiles
        : undefined,
    score:
      typeof input.score === 'number' && Number.isFinite(input.score) ? Math.round(input.score) : undefined,
    breakdown: input.breakdown,
    reasoning: text(input.reasoning),
    repName: text(input.repName),
    repPhone: text(input.repPhone),
  };
}

/** A vertical's channel propensities turned into a media mix that sums to exactly 100. */
export function playbookMediaMix(
  propensity: ChannelPropensity,
): { channel: MediaChannel; percent: number }[] {
  const weights = CHANNEL_WEIGHTS.map((c) => c.weight * propensity[c.key] ** 2);
  const percents = apportion(weights);
  return CHANNEL_WEIGHTS.map((c, i) => ({ channel: c.channel, percent: percents[i] ?? 0, key: c.key }))
    .sort((a, b) => b.percent - a.percent)
    .map(({ channel, percent }) => ({ channel, percent }));
}

function reputationLine(f: Facts): string {
  if (f.rating !== undefined && f.reviews > 0) {
    if (f.rating >= 4.5) {
      return `${possessive(f.name)} ${formatRating(f.rating)}-star rating across ${formatCount(f.reviews)} reviews is proof most competitors cannot show; streaming TV and online video put that reputation in front of people before they search.`;
    }
    if (f.rating >= 4) {
      return `A ${formatRating(f.rating)}-star rating from ${formatCount(f.reviews)} reviews gives us credible creative: real customer words in a 15-second spot.`;
    }
    return `At ${formatRating(f.rating)} stars from ${formatCount(f.reviews)} reviews, the fastest way to lift the average is more new, well-served customers; targeted campaigns bring in the customers you want to be reviewed by.`;
  }
  return `Real customer reviews make the most credible creative: a 15-second spot built on what ${possessive(f.name)} customers say beats any claim we could write.`;
}

function websiteLine(f: Facts): string {
  if (f.domain) {
    return `Your website (${f.domain}) gives online video, display and search a place to send people, and lets us measure visits from households that saw your TV ads.`;
  }
  return `If ${f.name} has no website yet, we build call-first campaigns: call-only search ads and TV creative with your number, measured with call tracking.`;
}

function phoneLine(f: Facts): string {
  if (f.phone) {
    return `With your listed number, ${f.phone}, we can run click-to-call search ads and track calls from every channel, so you see which one rings the phone.`;
  }
  return `A tracked phone number on every ad makes it easy for anyone who sees one to reach ${f.name}, and lets us count the calls each channel brings.`;
}

function distanceLine(f: Facts): string | undefined {
  if (f.distance === undefined) return undefined;
  return `I'm working in the area today, about ${formatMiles(f.distance)} from ${f.name}, so I can stop by with examples of campaigns for ${f.nouns} in ${f.area}.`;
}

function fitLine(f: Facts): string | undefined {
  const fit = f.breakdown?.['fit'];
  if (fit === undefined) return undefined;
  if (fit >= 0.75) {
    return `${capitalize(f.nouns)} are among the strongest categories for streaming TV and search advertising, so ${f.name} is a natural fit for a local campaign.`;
  }
  if (fit >= 0.45) {
    return `For ${f.nouns}, a mix of digital and streaming TV works well: digital catches people who are ready now, streaming builds the name for later.`;
  }
  return `For ${f.nouns}, we would lead with search and display near ${f.name} and keep streaming TV to the busiest seasons.`;
}

function whyThisProspect(f: Facts): string | undefined {
  const parts: string[] = [];
  const b = f.breakdown;
  const components = b
    ? BREAKDOWN_LABELS.filter(([key]) => typeof b[key] === 'number' && Number.isFinite(b[key])).map(
        ([key, label]) => ({ label, value: b[key] ?? 0 }),
      )
    : [];
  if (f.score === undefined && components.length === 0) return undefined;
  parts.push(
    f.score === undefined
      ? `Why ${f.name} is on the list:`
      : `Why ${f.name} is on the list: prospect score ${f.score}/100`,
  );
  if (components.length > 0) {
    const list = components.map((c) => `${c.label} ${percent(c.value)}`).join(', ');
    parts[0] = f.score === undefined ? `${parts[0]} ${list}.` : `${parts[0]} (${list}).`;
    // Only the qualities of the business itself are something to lead with or ask about.
    const qualities = components.filter((c) => LEAD_COMPONENTS.includes(c.label));
    const strongest = qualities.reduce<(typeof qualities)[number] | undefined>(
      (a, c) => (!a || c.value > a.value ? c : a),
      undefined,
    );
    const weakest = qualities.reduce<(typeof qualities)[number] | undefined>(
      (a, c) => (!a || c.value < a.value ? c : a),
      undefined,
    );
    if (strongest && weakest && strongest.label !== weakest.label) {
      parts.push(`Lead with its ${strongest.label}; ${weakest.label} is the gap to ask about.`);
    }
  } else {
    parts[0] = `${parts[0]}.`;
  }
  return parts.join(' ');
}

const GENERIC_TALKING_POINTS = [
  "We start with a test sized to {name}'s budget, report results every month and only scale what works.",
  'One local partner for cable, streaming TV, online video, display and search means one plan, one report and no gaps between channels.',
  'Production of a first 15- and 30-second spot can be part of the plan, so there is nothing to build in-house.',
];

const GENERIC_OBJECTIONS: readonly ObjectionHandler[] = [
  {
    objection: 'Just send me some information.',
    response:
      'Happy to. So I send the right thing, can I ask two quick questions about your best customers and where they come from? Then you get a one-page plan built for {name}, not a brochure.',
  },
  {
    objection: 'We tried TV before and it did not work.',
    response:
      'What did you run, for how long, and how was it measured? Most TV that "did not work" ran too briefly, too broadly or without tracking. Streaming TV is targeted by household and reported by impression, so we can see exactly what happened.',
  },
  {
    objection: 'Nobody watches cable any more.',
    response:
      'People have not stopped watching TV; many have moved to streaming apps. That is why we sell streaming (CTV) alongside cable, so we reach cord-cutters in your ZIP codes on the same big screen.',
  },
  {
    objection: 'It is too expensive.',
    response:
      "Streaming campaigns are priced per thousand households reached and can start at a level sized to {name}. The real question is what one new customer is worth to you and how many it takes to pay back; let's work that out together.",
  },
  {
    objection: 'We already advertise on Google and Facebook.',
    response:
      'Good, those catch people who are already looking. TV and streaming create more people who look: businesses that run both usually see more searches for their own name, so your search budget works harder.',
  },
  {
    objection: 'We get enough business from word of mouth.',
    response:
      'Word of mouth is the best sign of a good business. Advertising makes sure that when someone hears your name they have already seen you, and that people with no one to ask find you first.',
  },
  {
    objection: 'I need to talk to my partner first.',
    response:
      'Of course. Would a one-page summary help? Then we can find 15 minutes when you are both available, so your partner can ask questions directly.',
  },
  {
    objection: 'Call me next quarter.',
    response:
      'Happy to. Planning and production take a few weeks, so if next quarter matters, now is when we would build it. Can we pencil in 15 minutes to map the timing?',
  },
];

const GENERIC_ANGLES = [
  'National brands buy whole markets; household-targeted streaming puts {name} on the same screen only in the ZIP codes it serves.',
  'Most local competitors go quiet in slow months; staying visible then costs less and builds recall for the busy season.',
];

const GENERIC_QUESTIONS = [
  'What is a new customer worth to {name} over a year?',
  'How do new customers find you today?',
  'What have you tried in advertising before, and how did you judge whether it worked?',
  'Who else is involved in decisions about marketing and budget?',
  'If we met in 90 days and this had worked, what would have changed for {name}?',
];

const GENERIC_HOOKS = [
  'Your next customer is streaming something tonight. Make sure they see {name}.',
  'Big-screen presence for {name}, only in the ZIP codes you serve.',
  '{name}: the name {area} remembers when it is time to buy.',
];

function objectionsFor(f: Facts, playbook: VerticalPlaybook): ObjectionHandler[] {
  const out: ObjectionHandler[] = [];
  const add = (h: ObjectionHandler) => {
    const filled = { objection: fill(h.objection, f), response: fill(h.response, f) };
    if (!out.some((o) => o.objection === filled.objection)) out.push(filled);
  };
  for (const h of playbook.objections) add(h);
  if (!f.domain) {
    add({
      objection: "We don't really have a website, so online ads won't do much for us.",
      response: `Streaming TV and call-only search ads don't need one: viewers call ${f.phone ?? 'you'} directly and we track every call. If you want a simple landing page later, we can point you to easy options.`,
    });
  }
  if (f.rating !== undefined && f.rating >= 4.5 && f.reviews >= 25) {
    add({
      objection: 'Our reviews speak for themselves.',
      response: `They do: ${formatRating(f.rating)} stars from ${formatCount(f.reviews)} reviews is excellent. But reviews only work on people who already found you. Advertising puts that reputation in front of the people who have not.`,
    });
  } else if (f.rating !== undefined && f.reviews < 20) {
    add({
      objection: 'We are still building our reputation; advertising can wait.',
      response:
        'Awareness is how a newer business catches up with established competitors. People who have seen {name} are more likely to choose it, and to leave a review afterwards.',
    });
  }
  for (const h of GENERIC_OBJECTIONS) {
    if (out.length >= PLAYBOOK_COUNTS.objectionHandlers) break;
    add(h);
  }
  return out.slice(0, PLAYBOOK_COUNTS.objectionHandlers);
}

function mediaMixFor(f: Facts, playbook: VerticalPlaybook, propensity: ChannelPropensity): MediaMixRow[] {
  const whyByChannel: Record<MediaChannel, string> = {
    CTV: playbook.channelWhy.ctv,
    'Streaming TV': playbook.channelWhy.ctv,
    'Linear TV': playbook.channelWhy.ctv,
    'Online Video': playbook.channelWhy.olv,
    Display: playbook.channelWhy.display,
    'Search Engine Marketing': playbook.channelWhy.sem,
  };
  return playbookMediaMix(propensity).map(({ channel, percent: share }) => {
    let why = fill(whyByChannel[channel], f);
    if (!f.domain && channel === 'Search Engine Marketing') {
      why += ` If there is no website, these run as call-only ads to ${f.phone ?? 'your phone line'}.`;
    } else if (!f.domain && (channel === 'Display' || channel === 'Online Video')) {
      why += ' If there is no website, ads click through to a simple landing page or a call.';
    }
    return { channel, percent: share, why };
  });
}

/** A playbook's lines with the business's facts filled in. */
type Fill = <T extends string>(items: readonly T[]) => string[];
type WebLines = ReturnType<typeof signalLines>;

function talkingPointsFor(f: Facts, tp: string[], web: WebLines, v: Fill): string[] {
  // What its website shows: advertising it already buys comes first.
  return take(
    [
      ...web.talkingPoints,
      reputationLine(f),
      tp[0],
      tp[1],
      websiteLine(f),
      tp[2],
      tp[3],
      phoneLine(f),
      tp[4],
      fitLine(f),
      distanceLine(f),
      ...v(GENERIC_TALKING_POINTS),
    ],
    PLAYBOOK_COUNTS.keyTalkingPoints,
  );
}

function anglesFor(f: Facts, playbook: VerticalPlaybook, web: WebLines, v: Fill): string[] {
  const factAngles: string[] = [];
  if (f.rating !== undefined && f.rating >= 4.5 && f.reviews >= 25) {
    factAngles.push(
      `Lead with proof: ${formatRating(f.rating)} stars from ${formatCount(f.reviews)} reviews is a claim most competing ${f.nouns} in ${f.area} cannot make on screen.`,
    );
  }
  if (f.reviews >= 300) {
    factAngles.push(
      `Scale: with ${formatCount(f.reviews)} reviews, ${f.name} is one of the most-reviewed ${f.nouns} nearby; it can advertise like the leader it already is.`,
    );
  }
  if (!f.domain) {
    factAngles.push(
      `Without a website, competitors win the search click; call-first search and TV creative let ${f.name} compete anyway.`,
    );
  }
  return take(
    [...factAngles, ...web.angles, ...v(playbook.angles), ...v(GENERIC_ANGLES)],
    PLAYBOOK_COUNTS.competitiveAngles,
  );
}

function questionsFor(f: Facts, playbook: VerticalPlaybook, web: WebLines, v: Fill): string[] {
  const factQuestions: string[] = [];
  if (!f.domain)
    factQuestions.push(
      'Do you have a website we should send people to, or should the campaign be built to make the phone ring?',
    );
  const presence = f.breakdown?.['presence'];
  if ((presence !== undefined && presence < 0.4) || (f.rating !== undefined && f.reviews < 20)) {
    factQuestions.push('Who looks after your online listings and reviews today?');
  }
  return take(
    [...factQuestions, ...web.questions, ...v(playbook.questions), ...v(GENERIC_QUESTIONS)],
    PLAYBOOK_COUNTS.discoveryQuestions,
  );
}

function hooksFor(f: Facts, playbook: VerticalPlaybook, v: Fill): string[] {
  const factHooks: string[] = [];
  if (f.rating !== undefined && f.rating >= 4 && f.reviews > 0) {
    factHooks.push(
      `${formatRating(f.rating)} stars from ${formatCount(f.reviews)} reviews. Let's show the rest of ${f.area} what your customers already know.`,
    );
  }
  return take([...factHooks, ...v(playbook.hooks), ...v(GENERIC_HOOKS)], PLAYBOOK_COUNTS.hookLines);
}

function planFor(f: Facts, playbook: VerticalPlaybook, mixSummary: string): string[] {
  const trackingStep = f.domain
    ? `Days 4-7: Add a conversion pixel to ${f.domain} and call tracking on ${f.phone ?? 'a dedicated number'}, so every channel is measured from day one.`
    : `Days 4-7: Set up call tracking on ${f.phone ?? 'a dedicated number'} and a simple landing page, so every channel is measured from day one.`;
  const where = f.address ? `around ${f.address}` : `around ${f.name}`;
  return take(
    [
      `Days 1-3: 15-minute discovery meeting with ${playbook.decisionMaker}: goals, budget, best customers and what counts as a result.`,
      `Days 1-3: ${fill(playbook.plan[0] ?? '', f)}`,
      trackingStep,
      `Days 4-7: ${fill(playbook.plan[1] ?? '', f)}`,
      `Week 2: Build the media plan (${mixSummary}) targeting the ZIP codes ${where}.`,
      `Week 2: Produce 15- and 30-second spots and display sizes around ${fill(playbook.offer, f)}; ${f.name} approves every script.`,
      'Week 3: Launch all channels together; check delivery, search terms and call recordings in the first 72 hours.',
      `Week 4: Results review with ${f.name}: reach, site visits, calls and cost per ${bare(f.job)}; adjust creative and targeting and agree the next 90 days.`,
    ],
    PLAYBOOK_COUNTS.plan30Day,
  );
}

/** What the rep says: the opening line, when to call, the ask, and the voicemail. */
function callLinesFor(f: Facts, playbook: VerticalPlaybook) {
  const greeting = f.repName ? `Hi, this is ${f.repName}. ` : 'Hi, ';
  const noticed =
    f.rating !== undefined && f.rating >= 4 && f.reviews > 0
      ? ` I noticed your ${formatRating(f.rating)}-star rating from ${formatCount(f.reviews)} reviews.`
      : '';
  const rep = f.repName ?? REP_NAME_SLOT;
  return {
    openingLine: `${greeting}${f.repName ? 'Is' : 'is'} this the owner or manager of ${f.name}? I work with ${f.nouns} in ${f.area} on streaming TV, cable and digital advertising.${noticed} I have an idea about ${fill(playbook.openingAngle, f)}. Do you have two minutes?`,
    bestTimeToCall: `${DEFAULT_BEST_TIME_TO_CALL}. For ${article(f.noun)} ${f.noun}: ${playbook.timingNote}.`,
    callToAction:
      f.distance !== undefined && f.distance <= 1.5
        ? `I'm about ${formatMiles(f.distance)} away today: could I stop by for 15 minutes to show you who a campaign for ${f.name} would reach, what it would cost and how we'd measure every ${bare(f.job)}? If not, would Tuesday or Thursday work for a short meeting?`
        : `Can we set up a 15-minute meeting this Tuesday or Thursday so I can show you a plan for ${f.name}: who it reaches, what it costs and how we'd measure every ${bare(f.job)}?`,
    voicemailScript: `Hi, this is ${rep}. I work with ${f.nouns} in ${f.area} on streaming TV and digital advertising, and I have an idea for ${f.name} about ${fill(playbook.openingAngle, f)}. I'll send a short e-mail as well.${f.repPhone ? ` You can reach me at ${f.repPhone}.` : ''} Again, this is ${rep}. Thanks!`,
  };
}

/** The first e-mail and the follow-up, in the rep's name. */
function emailsFor(
  f: Facts,
  playbook: VerticalPlaybook,
  {
    valueProposition,
    mediaMix,
    firstPoint,
  }: { valueProposition: string; mediaMix: MediaMixRow[]; firstPoint: string },
) {
  const signOff = f.repName ? `Best regards,\n${f.repName}` : 'Best regards,';
  const factSentence =
    f.rating !== undefined && f.rating >= 4 && f.reviews > 0
      ? `${possessive(f.name)} ${formatRating(f.rating)}-star rating from ${formatCount(f.reviews)} reviews shows customers like what you do; I'd like to help more people in ${f.area} find out.`
      : `${f.name} stood out when I looked at ${f.nouns} in ${f.area}.`;
  const introEmail = [
    `Subject: An idea for ${f.name}`,
    '',
    'Hi,',
    '',
    `I work with ${f.nouns} in ${f.area} on streaming TV, cable, online video and search advertising. ${factSentence}`,
    '',
    valueProposition,
    '',
    `In 15 minutes I can show you who a campaign would reach, what it would cost and how we would measure every ${bare(f.job)}. Would Tuesday or Thursday work for a short meeting?`,
    '',
    signOff,
  ].join('\n');

  const top = mediaMix[0];
  const second = mediaMix[1];
  const followUpEmail = [
    `Subject: Following up: ideas for ${f.name}`,
    '',
    'Hi,',
    '',
    `I reached out recently about advertising for ${f.name}. Three ideas I'd bring to a short meeting:`,
    '',
    `- ${firstPoint}`,
    top && second
      ? `- A starting mix weighted to ${top.channel} (${top.percent}%) and ${second.channel} (${second.percent}%), the channels that work best for ${f.nouns}.`
      : `- A starting mix built for ${f.nouns}.`,
    `- A first flight built around ${fill(playbook.offer, f)}.`,
    '',
    'Would 15 minutes on Tuesday or Thursday work? If the timing is wrong, tell me when to check back.',
    '',
    signOff,
  ].join('\n');
  return { introEmail, followUpEmail };
}

/** The playbook strategy of one business. */
export function playbookStrategy(input: StrategyInput): Strategy {
  const match = classifyVertical(input);
  const playbook = PLAYBOOKS[match.vertical];
  const f = factsOf(input, playbook, match);
  const v: Fill = (items) => items.map((t) => fill(t, f));
  const tp = v(playbook.talkingPoints);
  const web = signalLines(f.name, input.signals);
  const keyTalkingPoints = talkingPointsFor(f, tp, web, v);
  const mediaMix = mediaMixFor(f, playbook, CHANNEL_PROPENSITY[match.vertical]);
  const mixSummary = mediaMix.map((r) => `${r.channel} ${r.percent}%`).join(', ');
  const valueProposition = fill(playbook.valueProposition, f);
  const { openingLine, bestTimeToCall, callToAction, voicemailScript } = callLinesFor(f, playbook);
  const strategy: Strategy = {
    openingLine,
    bestTimeToCall,
    keyTalkingPoints,
    objectionHandlers: objectionsFor(f, playbook),
    valueProposition,
    callToAction,
    competitiveAngles: anglesFor(f, playbook, web, v),
    verticalInsights: take(
      [
        whyThisProspect(f),
        f.reasoning ? `Analysis: ${f.reasoning}` : undefined,
        ...v(playbook.insights),
        `Suggested mix for ${f.nouns}, from channel propensity: ${mixSummary}.`,
      ],
      PLAYBOOK_COUNTS.verticalInsights,
    ),
    discoveryQuestions: questionsFor(f, playbook, web, v),
    hookLines: hooksFor(f, playbook, v),
    mediaMix,
    plan30Day: planFor(f, playbook, mixSummary),
    ...emailsFor(f, playbook, { valueProposition, mediaMix, firstPoint: tp[0] ?? keyTalkingPoints[0] ?? '' }),
    voicemailScript,
  };
  const repaired = repairStrategy(singleStopAfter(f.name, strategy));
  if (!repaired.ok) throw new Error(`playbook strategy failed validation: ${repaired.error}`);
  return repaired.strategy;
}
