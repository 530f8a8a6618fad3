// The Team tab's calls to /api/team (shapes from src/core/api/dashboard.ts), days on this browser's calendar, and
// the query every section loads its figures with.
import { useQuery } from '@tanstack/react-query';
import type {
  PeriodPreset,
  RepPage,
  RepPipeline,
  RepRoute,
  TeamActivity,
  TeamFunnel,
  TeamWinRates,
  TeamDaily,
  TeamInactive,
  TeamMap,
  TeamOutcomes,
} from '../../../core/api/dashboard';
import { browserTimeZone } from '../../format';
import { request } from '../http';

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

function query(choice: PeriodChoice, userId?: string | null): string {
  const q = new URLSearchParams({ period: choice.period, tz: browserTimeZone() });
  if (choice.period === 'custom') {
    if (choice.from) q.set('from', choice.from);
    if (choice.to) q.set('to', choice.to);
  }
  if (userId) q.set('userId', userId);
  return q.toString();
}

export const teamApi = {
  activity: (c: PeriodChoice, userId?: string | null) =>
    request<TeamActivity>('GET', `/api/team/activity?${query(c, userId)}`),
  daily: (c: PeriodChoice, userId?: string | null) =>
    request<TeamDaily>('GET', `/api/team/daily?${query(c, userId)}`),
  outcomes: (c: PeriodChoice, userId?: string | null) =>
    request<TeamOutcomes>('GET', `/api/team/outcomes?${query(c, userId)}`),
  map: (c: PeriodChoice, userId?: string | null) =>
    request<TeamMap>('GET', `/api/team/map?${query(c, userId)}`),
  funnel: (c: PeriodChoice, userId?: string | null) =>
    request<TeamFunnel>('GET', `/api/team/funnel?${query(c, userId)}`),
  winRates: (c: PeriodChoice, userId?: string | null) =>
    request<TeamWinRates>('GET', `/api/team/win-rates?${query(c, userId)}`),
  repPipeline: (userId: string, c: PeriodChoice) =>
    request<RepPipeline>('GET', `/api/team/reps/${encodeURIComponent(userId)}/pipeline?${query(c)}`),
  repRoute: (userId: string, c: PeriodChoice) =>
    request<RepRoute>('GET', `/api/team/reps/${encodeURIComponent(userId)}/route?${query(c)}`),
  inactive: (days: number) => request<TeamInactive>('GET', `/api/team/inactive?days=${days}`),
  rep: (userId: string, c: PeriodChoice) =>
    request<RepPage>('GET', `/api/team/reps/${encodeURIComponent(userId)}?${query(c)}`),
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
