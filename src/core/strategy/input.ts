// What the strategy generators know about a business.
import type { Prospect } from '../types';

export interface StrategyInput {
  name: string;
  /** Friendly category label ('Dental', 'Auto Dealer', ...; 'Business' when unknown). */
  category: string;
  /** Place types ('dentist', 'car_dealer', ...). */
  types?: string[];
  rating?: number;
  /** Review count. */
  reviews?: number;
  website?: string;
  phone?: string;
  address?: string;
  city?: string;
  state?: string;
  /** Distance from the scan centre (the rep) in miles. */
  distanceMiles?: number;
  /** Prospect score on the 0-100 scale of the analysis. */
  score?: number;
  /** Score components on the 0-1 scale (fit, presence, scale, keywords, distance, qualitySpread). */
  breakdown?: Record<string, number>;
  /** The analysis's explanation of the score. */
  reasoning?: string;
  /** The vertical the scoring model decided ('dental', 'auto_repair', ...), when known. */
  vertical?: string;
  /** What the check of its website found: kinds and chip labels. */
  signals?: { kind: string; label: string }[];
  /** The rep's name and phone, for the voicemail script and e-mails. */
  repName?: string;
  repPhone?: string;
}

const BREAKDOWN_KEYS = ['fit', 'presence', 'scale', 'keywords', 'distance', 'qualitySpread'] as const;

/** The strategy input of a scanned prospect (its analysis supplies score, breakdown, reasoning and vertical). */
export function strategyInputFromProspect(prospect: Prospect): StrategyInput {
  const input: StrategyInput = {
    name: prospect.name,
    category: prospect.category,
    types: [...prospect.types],
    reviews: prospect.reviews,
    distanceMiles: prospect.distance,
    score: prospect.aiAnalysis?.score ?? Math.round(prospect.score * 100),
  };
  if (prospect.rating !== undefined) input.rating = prospect.rating;
  if (prospect.website) input.website = prospect.website;
  if (prospect.phone) input.phone = prospect.phone;
  if (prospect.address) input.address = prospect.address;
  if (prospect.city) input.city = prospect.city;
  if (prospect.state) input.state = prospect.state;
  if (prospect.signals?.length)
    input.signals = prospect.signals.map((s) => ({ kind: s.kind, label: s.label }));
  const analysis = prospect.aiAnalysis;
  if (analysis) {
    input.reasoning = analysis.reasoning;
    input.vertical = analysis.breakdown.vertical;
    const breakdown: Record<string, number> = {};
    for (const key of BREAKDOWN_KEYS) breakdown[key] = analysis.breakdown[key];
    input.breakdown = breakdown;
  }
  return input;
}
