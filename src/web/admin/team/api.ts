// The team dashboard's calls: shapes from src/core/api/dashboard.ts, days on this browser's calendar.
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
