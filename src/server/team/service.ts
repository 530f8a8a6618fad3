import type { Db } from '../db/database.js';
import { badRequest, notFound } from '../http/errors.js';
import { recordAudit, type AuditActor } from '../audit/service.js';
import {
  CATEGORY_LIMIT,
  MAP_AREA_LIMIT,
  MAP_CELL_DEGREES,
  MAP_CELL_LIMIT,
  MAX_PERIOD_DAYS,
  REP_LOG_LIMIT,
  FUNNEL_STAGES,
  REP_PIPELINE_LIMIT,
  type ConversionRow,
  type Period,
  type PeriodQuery,
  type RepLogEntry,
  type RepPage,
  type TeamActivity,
  type TeamDaily,
  type TeamInactive,
  type TeamMap,
  type TeamOutcomes,
  type TeamFunnel,
  type TeamWinRates,
  type WinRateRow,
  type RepPipeline,
  type RepRoute,
} from '../../core/api/dashboard.js';
import { PIPELINE_STAGES } from '../../core/pipeline.js';
import {
  daysBetween,
  periodDays,
  presetPeriod,
  startOfLocalDay,
  addDays,
  type DayBounds,
} from '../../core/local-days.js';
import {
  countsByDay,
  countsByRep,
  funnelReach,
  ownedBusinesses,
  repVisits,
  stageChanges,
  winRateGroups,
  lastActivity,
  lastActivityOf,
  mapCells,
  outcomeGroups,
  people,
  repEntries,
  scannedAreas,
  zeroCounts,
  type GroupCounts,
  type Range,
} from './repository.js';

export const REP_NOT_FOUND = 'Rep not found';
export const SAVED_FOR_LATER = 'Saved for Later';
export const STRATEGY_REQUESTED = 'Strategy requested';
export const UNCATEGORISED = 'Uncategorised';
export const UNSCORED = 'Unscored';

/** A resolved period: its answer shape, its days and the range rows are selected by. */
export interface ResolvedPeriod {
  period: Period;
  days: DayBounds[];
  range: Range;
}

/** The period of a dashboard query: a preset around `now` or custom dates, on the calendar of `tz`. */
export function resolvePeriod(query: PeriodQuery, now = Date.now()): ResolvedPeriod {
  const timeZone = query.tz;
  let from: string;
  let to: string;
  if (query.period === 'custom') {
    if (!query.from || !query.to) {
      throw badRequest('Invalid query: from and to are required with period=custom');
    }
    ({ from, to } = query);
    if (to < from) throw badRequest('Invalid query: to must not be before from');
    if (daysBetween(from, to) + 1 > MAX_PERIOD_DAYS) {
      throw badRequest(`Invalid query: a period is at most ${MAX_PERIOD_DAYS} days`);
    }
  } else {
    ({ from, to } = presetPeriod(query.period, now, timeZone));
  }
  const startsAt = new Date(startOfLocalDay(from, timeZone)).toISOString();
  const endsAt = new Date(startOfLocalDay(addDays(to, 1), timeZone)).toISOString();
  return {
    period: { preset: query.period, from, to, timeZone, startsAt, endsAt },
    days: periodDays(from, to, timeZone),
    range: { start: startsAt, end: endsAt, userId: query.userId },
  };
}

/** 404 unless the rep exists. */
async function assertRep(db: Db, userId: string | undefined): Promise<void> {
  if (userId !== undefined && (await people(db, userId)).length === 0) throw notFound(REP_NOT_FOUND);
}

/** GET /api/team/activity: every account's counts (one rep's with userId), by name. */
export async function teamActivity(db: Db, query: PeriodQuery, now?: number): Promise<TeamActivity> {
  const { period, range } = resolvePeriod(query, now);
  const [persons, counts] = await Promise.all([people(db, query.userId), countsByRep(db, range)]);
  if (query.userId !== undefined && persons.length === 0) throw notFound(REP_NOT_FOUND);
  const totals = zeroCounts();
  const reps = persons.map((p) => {
    const c = counts.get(p.userId) ?? zeroCounts();
    totals.calls += c.calls;
    totals.visits += c.visits;
    totals.saves += c.saves;
    totals.strategies += c.strategies;
    totals.followUps += c.followUps;
    return { userId: p.userId, name: p.name, email: p.email, role: p.role, ...c };
  });
  return { period, reps, totals };
}

/** GET /api/team/daily: each day of the period on the caller's calendar, zeros included. */
export async function teamDaily(db: Db, query: PeriodQuery, now?: number): Promise<TeamDaily> {
  const { period, days } = resolvePeriod(query, now);
  await assertRep(db, query.userId);
  const byDay = await countsByDay(db, days, query.userId);
  return { period, days: days.map((d) => ({ date: d.date, ...(byDay.get(d.date) ?? zeroCounts()) })) };
}

const conversion = (key: string, g: GroupCounts): ConversionRow => ({
  key,
  ...g,
  perCall: g.called > 0 ? Math.round(((g.visited + g.saved) / g.called) * 1000) / 1000 : null,
});

export const bandLabel = (b: number) => (b < 0 ? UNSCORED : b === 9 ? '90-100' : `${b * 10}-${b * 10 + 9}`);

/** GET /api/team/outcomes: outcomes, and calls, visits and saves by score band and by category. */
export async function teamOutcomes(db: Db, query: PeriodQuery, now?: number): Promise<TeamOutcomes> {
  const { period, range } = resolvePeriod(query, now);
  await assertRep(db, query.userId);
  const { outcomes, saves, bands, categories } = await outcomeGroups(db, range);
  const scoreBands: ConversionRow[] = [];
  for (let b = 0; b <= 9; b++) {
    scoreBands.push(conversion(bandLabel(b), bands.get(b) ?? { called: 0, visited: 0, saved: 0 }));
  }
  const unscored = bands.get(-1);
  if (unscored) scoreBands.push(conversion(UNSCORED, unscored));
  const total = (g: GroupCounts) => g.called + g.visited + g.saved;
  const categoryRows = [...categories.entries()]
    .sort((a, b) => total(b[1]) - total(a[1]) || a[0].localeCompare(b[0]))
    .slice(0, CATEGORY_LIMIT)
    .map(([key, g]) => conversion(key || UNCATEGORISED, g));
  return {
    period,
    outcomes: [...outcomes, ...(saves > 0 ? [{ outcome: SAVED_FOR_LATER, count: saves }] : [])],
    scoreBands,
    categories: categoryRows,
  };
}

/** GET /api/team/inactive: reps with no call, visit, save or strategy request in the last `days` days. */
export async function teamInactive(db: Db, days: number, now = Date.now()): Promise<TeamInactive> {
  const since = new Date(now - days * 86_400_000).toISOString();
  const reps = (await lastActivity(db))
    .filter((r) => r.last === null || r.last < since)
    .map((r) => ({ userId: r.userId, name: r.name, email: r.email, lastActivityAt: r.last }));
  return { days, since, reps };
}

/** GET /api/team/map: the period's calls and visits on a grid, and the areas scanned. */
export async function teamMap(db: Db, query: PeriodQuery, now?: number): Promise<TeamMap> {
  const { period, range } = resolvePeriod(query, now);
  await assertRep(db, query.userId);
  const [{ cells, unplaced }, areas] = await Promise.all([
    mapCells(db, range, MAP_CELL_LIMIT + 1),
    scannedAreas(db, range, MAP_AREA_LIMIT + 1),
  ]);
  return {
    period,
    cellDegrees: MAP_CELL_DEGREES,
    cells: cells.slice(0, MAP_CELL_LIMIT),
    unplaced,
    areas: areas.slice(0, MAP_AREA_LIMIT),
    truncated: cells.length > MAP_CELL_LIMIT || areas.length > MAP_AREA_LIMIT,
  };
}

function savedFacts(json: string): { name: string; category: string; address: string; phone: string } {
  try {
    const p = JSON.parse(json) as Record<string, unknown>;
    const s = (v: unknown) => (typeof v === 'string' ? v : '');
    return { name: s(p.name), category: s(p.category), address: s(p.address), phone: s(p.phone) };
  } catch {
    return { name: '', category: '', address: '', phone: '' };
  }
}

/** GET /api/team/reps/:userId: one rep's counts and log (calls, visits, saves, strategy requests) for the period. */
export async function repPage(
  db: Db,
  userId: string,
  query: Omit<PeriodQuery, 'userId'>,
  now?: number,
): Promise<RepPage> {
  const { period, range } = resolvePeriod({ ...query, userId }, now);
  const [person] = await people(db, userId);
  if (!person) throw notFound(REP_NOT_FOUND);
  const [counts, last, found] = await Promise.all([
    countsByRep(db, range),
    lastActivityOf(db, userId),
    repEntries(db, { ...range, userId }, REP_LOG_LIMIT + 1),
  ]);
  const entries: RepLogEntry[] = [
    ...found.logs.map((l) => ({
      kind: 'call' as const,
      at: l.created_at,
      prospectId: l.prospect_id,
      name: l.name,
      category: l.category,
      outcome: l.outcome,
      note: l.note,
      address: l.address,
      phone: l.phone,
    })),
    ...found.saves.map((s) => ({
      kind: 'save' as const,
      at: s.created_at,
      prospectId: s.prospect_id,
      ...savedFacts(s.prospect),
      outcome: SAVED_FOR_LATER,
      note: s.note ?? '',
    })),
    ...found.strategies.map((q) => ({
      kind: 'strategy' as const,
      at: q.created_at,
      prospectId: q.business_id,
      name: q.name,
      category: q.category,
      outcome: STRATEGY_REQUESTED,
      note: '',
      address: '',
      phone: '',
    })),
  ].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  return {
    period,
    rep: {
      userId: person.userId,
      name: person.name,
      email: person.email,
      role: person.role,
      ...(counts.get(userId) ?? zeroCounts()),
      lastActivityAt: last,
    },
    entries: entries.slice(0, REP_LOG_LIMIT),
    truncated: entries.length > REP_LOG_LIMIT,
  };
}

const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 1000) / 1000 : null);

/**
 * GET /api/team/funnel: the businesses moved in the pipeline in the period, each counted at every stage up to
 * the furthest it reached then (a business set to Proposal counts as New, Contacted and Meeting set too), and
 * the conversion from each stage to the next.
 */
export async function teamFunnel(db: Db, query: PeriodQuery, now?: number): Promise<TeamFunnel> {
  const { period, range } = resolvePeriod(query, now);
  await assertRep(db, query.userId);
  const byReach = await funnelReach(db, range);
  const reached = FUNNEL_STAGES.map((_, i) =>
    [...byReach.entries()].reduce((sum, [reach, k]) => (reach >= i ? sum + k : sum), 0),
  );
  return {
    period,
    stages: FUNNEL_STAGES.map((stage, i) => ({
      stage,
      reached: reached[i]!,
      conversion: i + 1 < reached.length ? ratio(reached[i + 1]!, reached[i]!) : null,
    })),
  };
}

/**
 * GET /api/team/win-rates: the businesses first called or visited in the period per score band and per category
 * (the CATEGORY_LIMIT with the most businesses), and how many reached a meeting and a win.
 */
export async function teamWinRates(db: Db, query: PeriodQuery, now?: number): Promise<TeamWinRates> {
  const { period, range } = resolvePeriod(query, now);
  await assertRep(db, query.userId);
  const groups = await winRateGroups(db, range);
  const row = (key: string, g = { businesses: 0, meetings: 0, won: 0 }): WinRateRow => ({
    key,
    ...g,
    meetingRate: ratio(g.meetings, g.businesses),
    winRate: ratio(g.won, g.businesses),
  });
  const bands: WinRateRow[] = [];
  for (let b = 0; b <= 9; b++) bands.push(row(bandLabel(b), groups.bands.get(b)));
  const unscored = groups.bands.get(-1);
  if (unscored) bands.push(row(UNSCORED, unscored));
  const categories = [...groups.categories.entries()]
    .sort((a, b) => b[1].businesses - a[1].businesses || a[0].localeCompare(b[0]))
    .slice(0, CATEGORY_LIMIT)
    .map(([key, g]) => row(key || UNCATEGORISED, g));
  return { period, bands, categories };
}

/** GET /api/team/reps/:userId/pipeline: what the rep owns now and the pipeline changes of the period. */
export async function repPipeline(
  db: Db,
  userId: string,
  query: Omit<PeriodQuery, 'userId'>,
  now?: number,
): Promise<RepPipeline> {
  const { period, range } = resolvePeriod({ ...query, userId }, now);
  await assertRep(db, userId);
  const [owned, changes] = await Promise.all([
    ownedBusinesses(db, userId, REP_PIPELINE_LIMIT + 1),
    stageChanges(db, { ...range, userId }, REP_PIPELINE_LIMIT + 1),
  ]);
  const order = (stage: string) => {
    const i = (PIPELINE_STAGES as readonly string[]).indexOf(stage);
    return i < 0 ? PIPELINE_STAGES.length : i;
  };
  return {
    period,
    owned: owned.rows.slice(0, REP_PIPELINE_LIMIT).map((o) => ({
      businessId: o.business_id,
      label: o.label,
      stage: o.stage,
      since: o.since,
      updatedAt: o.updated_at,
    })),
    ownedByStage: [...owned.stages.entries()]
      .sort((a, b) => order(a[0]) - order(b[0]) || a[0].localeCompare(b[0]))
      .map(([stage, count]) => ({ stage, count })),
    changes: changes.slice(0, REP_PIPELINE_LIMIT).map((c) => ({
      at: c.at,
      businessId: c.business_id,
      label: c.label ?? '',
      fromStage: c.from_stage,
      toStage: c.to_stage,
      fromOwner: c.from_owner_name,
      toOwner: c.to_owner_name,
      by: c.by_name,
      reason: c.reason,
    })),
    truncated: owned.rows.length > REP_PIPELINE_LIMIT || changes.length > REP_PIPELINE_LIMIT,
  };
}

/**
 * GET /api/team/reps/:userId/route: the rep's visits in the period, in the order they were made. An admin's
 * look at another rep's visits (where the phone was, when) is logged, as the CSV made from it would be.
 */
export async function repRoute(
  db: Db,
  actor: AuditActor,
  userId: string,
  query: Omit<PeriodQuery, 'userId'>,
  now?: number,
): Promise<RepRoute> {
  const { period, range } = resolvePeriod({ ...query, userId }, now);
  const [person] = await people(db, userId);
  if (!person) throw notFound(REP_NOT_FOUND);
  if (actor.id !== userId) {
    await recordAudit(
      db,
      actor,
      'team.route_view',
      { type: 'user', id: userId, label: `${person.name} <${person.email}>` },
      { from: period.from, to: period.to },
    );
  }
  const found = await repVisits(db, { ...range, userId }, REP_LOG_LIMIT + 1);
  const num = (v: number | null | undefined) => (typeof v === 'number' ? v : null);
  return {
    period,
    visits: found.rows.slice(0, REP_LOG_LIMIT).map((v) => ({
      at: v.created_at,
      prospectId: v.prospect_id,
      name: v.name,
      address: v.address,
      lat: num(v.lat),
      lng: num(v.lng),
      visitLat: num(v.visit_lat),
      visitLng: num(v.visit_lng),
      accuracyM: num(v.visit_accuracy_m),
      verified: Number(v.verified ?? 0) === 1,
    })),
    total: found.total,
    verified: found.verified,
    truncated: found.rows.length > REP_LOG_LIMIT,
  };
}
