import { describe, expect, it } from 'vitest';
import {
  AD_SOLUTIONS,
  BANDS,
  CONFIDENCE_WEIGHTS,
  DEALER_GROUP_BONUS,
  DEFAULT_REVIEW_BENCHMARK,
  DISPLAY,
  DISTANCE,
  FALLBACK_BONUS,
  FALLBACK_SCORES,
  FIT_WEIGHTS,
  KEYWORD_BONUS,
  KEYWORD_CAP,
  LOW_INTENT_PRESENCE_VERTICALS,
  MODEL_VERSION,
  NOT_A_PROSPECT,
  PRESENCE,
  PROPENSITY_ROWS,
  QUALITY_SPREAD,
  RATING_PART,
  RECOMMEND_THRESHOLD,
  REVIEW_BENCHMARKS,
  RULE_SCORES,
  VERTICAL_PROPENSITY_ROW,
  WEIGHTS,
} from './constants';

describe('scoring model constants', () => {
  it('model version v4 (chains across countries, institutions and restricted categories, a fixed reference)', () =>
    expect(MODEL_VERSION).toBe('v4'));

  it('weights 0.45 fit, 0.20 presence, 0.10 scale, 0.09 keywords, 0.06 distance, 0.10 quality spread', () => {
    expect(WEIGHTS).toEqual({
      fit: 0.45,
      presence: 0.2,
      scale: 0.1,
      keywords: 0.09,
      distance: 0.06,
      qualitySpread: 0.1,
    });
    expect(Object.values(WEIGHTS).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it('fit = 0.4 CTV + 0.25 OLV + 0.15 display + 0.2 search', () => {
    expect(FIT_WEIGHTS).toEqual({ ctv: 0.4, olv: 0.25, display: 0.15, sem: 0.2 });
  });

  it('channel propensity table', () => {
    const row = (r: keyof typeof PROPENSITY_ROWS) => Object.values(PROPENSITY_ROWS[r]);
    expect(row('auto_dealer')).toEqual([0.95, 0.9, 0.85, 0.9]);
    expect(row('legal_injury')).toEqual([0.9, 0.85, 0.9, 0.95]);
    expect(row('home_services')).toEqual([0.9, 0.85, 0.8, 0.9]);
    expect(row('dental_medical')).toEqual([0.85, 0.8, 0.75, 0.95]);
    expect(row('furniture')).toEqual([0.85, 0.8, 0.85, 0.75]);
    expect(row('insurance')).toEqual([0.75, 0.7, 0.7, 0.8]);
    expect(row('fitness')).toEqual([0.7, 0.75, 0.7, 0.7]);
    expect(row('full_service_restaurant')).toEqual([0.45, 0.5, 0.55, 0.45]);
    expect(row('bar_brewery')).toEqual([0.3, 0.35, 0.4, 0.35]);
    expect(row('hotel_chain')).toEqual([0.2, 0.25, 0.35, 0.3]);
    expect(row('quick_service_restaurant')).toEqual([0.1, 0.15, 0.2, 0.15]);
    expect(row('real_estate')).toEqual([0.65, 0.6, 0.75, 0.7]);
    expect(row('business_to_business')).toEqual([0.1, 0.15, 0.3, 0.35]);
    expect(row('legal_consumer')).toEqual([0.55, 0.55, 0.7, 0.9]);
    expect(row('other')).toEqual([0.35, 0.3, 0.35, 0.4]);
    expect(Object.keys(PROPENSITY_ROWS)).toHaveLength(15);
  });

  it('maps hvac, plumbing and roofing to the home-services row and dental, orthodontics, medical to theirs', () => {
    expect(VERTICAL_PROPENSITY_ROW.hvac).toBe('home_services');
    expect(VERTICAL_PROPENSITY_ROW.plumbing).toBe('home_services');
    expect(VERTICAL_PROPENSITY_ROW.roofing).toBe('home_services');
    expect(VERTICAL_PROPENSITY_ROW.dental).toBe('dental_medical');
    expect(VERTICAL_PROPENSITY_ROW.orthodontics).toBe('dental_medical');
    expect(VERTICAL_PROPENSITY_ROW.medical).toBe('dental_medical');
    expect(VERTICAL_PROPENSITY_ROW.injury_law).toBe('legal_injury');
    expect(VERTICAL_PROPENSITY_ROW.legal).toBe('legal_consumer');
    expect(VERTICAL_PROPENSITY_ROW.qsr).toBe('quick_service_restaurant');
    expect(VERTICAL_PROPENSITY_ROW.other).toBe('other');
  });

  it('presence parts, 0.7 multiplier for bar/brewery/QSR/hotel, cap 0.8', () => {
    expect(PRESENCE).toEqual({
      website: 0.25,
      phone: 0.05,
      rating: 0.25,
      reviews: 0.25,
      lowIntentMultiplier: 0.7,
      cap: 0.8,
    });
    expect([...LOW_INTENT_PRESENCE_VERTICALS].sort()).toEqual(['bar', 'hotel', 'qsr']);
    expect(RATING_PART).toEqual({ ceiling: 4.8, floor: 3.5, span: 1.3 });
  });

  it('review benchmarks', () => {
    expect(REVIEW_BENCHMARKS.auto_dealer).toBe(800);
    expect(REVIEW_BENCHMARKS.legal).toBe(600);
    expect(REVIEW_BENCHMARKS.hvac).toBe(400);
    expect(REVIEW_BENCHMARKS.plumbing).toBe(400);
    expect(REVIEW_BENCHMARKS.roofing).toBe(400);
    expect(REVIEW_BENCHMARKS.dental).toBe(500);
    expect(REVIEW_BENCHMARKS.orthodontics).toBe(500);
    expect(REVIEW_BENCHMARKS.medical).toBe(600);
    expect(REVIEW_BENCHMARKS.furniture).toBe(300);
    expect(REVIEW_BENCHMARKS.insurance).toBe(200);
    expect(REVIEW_BENCHMARKS.fitness).toBe(400);
    expect(REVIEW_BENCHMARKS.restaurant).toBe(800);
    expect(REVIEW_BENCHMARKS.bar).toBe(600);
    expect(REVIEW_BENCHMARKS.hotel).toBe(1000);
    expect(REVIEW_BENCHMARKS.qsr).toBe(1200);
    expect(REVIEW_BENCHMARKS.other).toBe(500);
    expect(DEFAULT_REVIEW_BENCHMARK).toBe(500);
  });

  it('keyword bonuses and cap', () => {
    expect(KEYWORD_BONUS).toEqual({
      legal: 0.25,
      autoBrand: 0.2,
      dentalMedical: 0.15,
      homeServices: 0.15,
      furniture: 0.1,
    });
    expect(KEYWORD_CAP).toBe(1);
  });

  it('distance: unknown .55, 3 miles .2, centred at 2.1', () => {
    expect(DISTANCE).toEqual({ unknown: 0.55, far: 0.2, farMiles: 3, centreMiles: 2.1, near: 1 });
  });

  it('dealer group +0.03 fit and presence', () => {
    expect(DEALER_GROUP_BONUS).toEqual({ fit: 0.03, presence: 0.03, fitCap: 1 });
  });

  it('rule scores: national chains and low-propensity 0, restricted 2, auto repair 5, prefilter 5/10/15/15/20', () => {
    expect(RULE_SCORES).toEqual({
      nationalChain: 0,
      lowPropensity: 0,
      restricted: 2,
      autoRepair: 5,
      chain: 5,
      gasStation: 10,
      government: 15,
      hospital: 15,
      nonProfit: 20,
    });
  });

  it('display 10-90 with exponent 1.3; quality spread constants', () => {
    expect(DISPLAY).toEqual({ min: 10, max: 90, exponent: 1.3 });
    expect(QUALITY_SPREAD).toEqual({ empty: 0.5, low: 0.25, high: 0.75, divisor: 100 });
  });

  it('bands, confidence weights and recommendations', () => {
    expect(BANDS).toEqual({ excellent: 80, good: 60, decent: 40, notProspect: 30 });
    expect(NOT_A_PROSPECT).toBe('Not a local advertising prospect');
    expect(CONFIDENCE_WEIGHTS).toEqual({ category: 40, reputation: 30, contact: 30 });
    expect(Object.values(AD_SOLUTIONS)).toEqual([
      'Linear TV',
      'Streaming TV/CTV',
      'Online Video',
      'Display',
      'Search Engine Marketing',
    ]);
    expect(RECOMMEND_THRESHOLD).toEqual({ channel: 0.7, linearTv: 0.85 });
  });

  it('fallback category scores, bonuses and the unparseable default', () => {
    expect(FALLBACK_SCORES).toEqual({
      'Auto Dealer': 0.8,
      HVAC: 0.7,
      Orthodontics: 0.7,
      Dental: 0.6,
      Plumbing: 0.6,
      Roofing: 0.6,
      Other: 0.4,
    });
    expect(FALLBACK_BONUS).toEqual({ website: 0.1, ratingAbove4: 0.1, ratingThreshold: 4, cap: 1 });
  });
});
