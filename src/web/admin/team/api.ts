// The Team tab's calls to /api/team (shapes from src/core/api/dashboard.ts), days on this browser's calendar, and
// the query every section loads its figures with.
import { useQuery } from '@tanstack/react-query';
import type { PeriodPreset } from '../../../core/api/dashboard';
import { runtimeTimeZone } from '../../../core/time-zone';
import { call } from '../../http';

export interface PeriodChoice {
  period: PeriodPreset;
  /** YYYY-MM-DD, with period 'custom'. */
  from?: string;
  to?: string;
}

/** What a section shows: the chosen period, and one rep's figures or (null) the whole team's. */
export interface Scope {
  choice: PeriodChoice;
  userId: string | null;
}

/** What a section of a rep's page shows: the chosen period and the rep, by id and name. */
export interface RepScope {
  choice: PeriodChoice;
  userId: string;
  name: string;
}

/** The query of a period (custom dates only with 'custom'), on this browser's calendar, for one rep or all. */
function query(choice: PeriodChoice, userId?: string | null) {
  return {
    period: choice.period,
    tz: runtimeTimeZone(),
    ...(choice.period === 'custom' ? { from: choice.from, to: choice.to } : {}),
    ...(userId ? { userId } : {}),
  };
}

export const teamApi = {
  activity: (c: PeriodChoice, userId?: string | null) =>
    call('GET /api/team/activity', { query: query(c, userId) }),
  daily: (c: PeriodChoice, userId?: string | null) =>
    call('GET /api/team/daily', { query: query(c, userId) }),
  outcomes: (c: PeriodChoice, userId?: string | null) =>
    call('GET /api/team/outcomes', { query: query(c, userId) }),
  map: (c: PeriodChoice, userId?: string | null) => call('GET /api/team/map', { query: query(c, userId) }),
  funnel: (c: PeriodChoice, userId?: string | null) =>
    call('GET /api/team/funnel', { query: query(c, userId) }),
  winRates: (c: PeriodChoice, userId?: string | null) =>
    call('GET /api/team/win-rates', { query: query(c, userId) }),
  repPipeline: (userId: string, c: PeriodChoice) =>
    call('GET /api/team/reps/:userId/pipeline', { params: { userId }, query: query(c) }),
  repRoute: (userId: string, c: PeriodChoice) =>
    call('GET /api/team/reps/:userId/route', { params: { userId }, query: query(c) }),
  territories: (c: PeriodChoice, userId?: string | null) =>
    call('GET /api/team/territories', { query: query(c, userId) }),
  inactive: (days: number) => call('GET /api/team/inactive', { query: { days } }),
  rep: (userId: string, c: PeriodChoice) =>
    call('GET /api/team/reps/:userId', { params: { userId }, query: query(c) }),
};

export const teamKey = (what: string, c: PeriodChoice, userId?: string | null) => [
  'team',
  what,
  c.period,
  c.from ?? '',
  c.to ?? '',
  userId ?? '',
];

/** A section's figures for the period; nothing is asked while custom dates lack their first or last day. */
export function useTeamQuery<T>(
  what: string,
  choice: PeriodChoice,
  userId: string | null,
  fn: () => Promise<T>,
) {
  const ready = choice.period !== 'custom' || Boolean(choice.from && choice.to);
  return useQuery({ queryKey: teamKey(what, choice, userId), queryFn: fn, enabled: ready });
}
