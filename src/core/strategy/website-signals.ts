// What the website evidence (docs/SCORING.md, "Website evidence") gives the appointment strategy: talking
// points that build on the advertising a business already buys ("you already run search ads; streaming TV
// reaches the households who then search for you"), angles and discovery questions from what its site lacks.
// Pure and deterministic.
import { SIGNAL_KINDS, type SignalKind } from '../websites/kinds';

/** A signal as the strategy reads it. */
export interface StrategySignal {
  kind: string;
  label: string;
}

const has = (signals: readonly StrategySignal[], ...kinds: SignalKind[]) =>
  signals.some((s) => (kinds as string[]).includes(s.kind));

const SEARCH: SignalKind[] = ['google_ads', 'microsoft_uet'];
const SOCIAL: SignalKind[] = ['meta_pixel', 'tiktok_pixel', 'nextdoor_pixel', 'linkedin_insight'];
const PROGRAMMATIC: SignalKind[] = ['stackadapt', 'simplifi', 'trade_desk'];
const STREAMING_TV: SignalKind[] = ['mntn', 'tatari'];

/** The names of the platforms among the signals, for sentences. */
function platforms(signals: readonly StrategySignal[], kinds: readonly SignalKind[]): string {
  const names = signals
    .filter((s) => (kinds as readonly string[]).includes(s.kind))
    .map((s) => SIGNAL_KINDS[s.kind as SignalKind]?.platform ?? s.label);
  return [...new Set(names)].join(', ');
}

export interface SignalLines {
  talkingPoints: string[];
  angles: string[];
  questions: string[];
}

/** The strategy lines the signals call for, most telling first; empty without signals. */
export function signalLines(name: string, signals: readonly StrategySignal[] | undefined): SignalLines {
  const out: SignalLines = { talkingPoints: [], angles: [], questions: [] };
  if (!signals || signals.length === 0) return out;
  if (has(signals, ...SEARCH)) {
    out.talkingPoints.push(
      `You already run search ads (${platforms(signals, SEARCH)}); streaming TV reaches the households who then search for you, so every search dollar works harder.`,
    );
  }
  if (has(signals, ...SOCIAL)) {
    out.talkingPoints.push(
      `You already advertise on social (${platforms(signals, SOCIAL)}); streaming TV and online video put the same message on the biggest screen in the house.`,
    );
  }
  if (has(signals, ...PROGRAMMATIC)) {
    out.talkingPoints.push(
      `You already buy programmatic display (${platforms(signals, PROGRAMMATIC)}); local TV and streaming reach the same audiences with sight, sound and motion.`,
    );
  }
  if (has(signals, ...STREAMING_TV)) {
    out.talkingPoints.push(
      `You already buy streaming TV (${platforms(signals, STREAMING_TV)}); a local partner adds your own market's news and sports, where national buys thin out.`,
    );
  }
  if (has(signals, 'call_tracking')) {
    out.talkingPoints.push(
      'You already track your calls, so we can show exactly which spots make the phone ring.',
    );
  }
  if (has(signals, 'online_booking')) {
    out.talkingPoints.push(
      `Customers can already book online with ${name}, so every ad can send them straight to booking.`,
    );
  }
  if (has(signals, 'video')) {
    out.angles.push(
      `${name} already makes video for its website: that footage can become a 15-second spot quickly.`,
    );
  }
  if (has(signals, 'unreachable', 'parked')) {
    out.questions.push(
      `Your website did not load when we looked: is it being rebuilt? Campaigns can run call-first until it is back.`,
    );
  }
  if (has(signals, 'not_mobile_friendly')) {
    out.angles.push(
      'Most people who see a TV spot look the business up on a phone; a mobile-friendly landing page keeps them from bouncing to a competitor.',
    );
    out.questions.push('Who looks after your website, and is a mobile update planned?');
  }
  if (has(signals, 'stale_copyright', 'no_https')) {
    out.questions.push('When was your website last updated, and who keeps it current?');
  }
  return out;
}

/** The signals as one line of the AI prompt's business facts. */
export function signalFacts(signals: readonly StrategySignal[] | undefined): string | undefined {
  if (!signals || signals.length === 0) return undefined;
  return `Seen on its website: ${signals.map((s) => s.label).join(', ')}`;
}
