import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import type { DayBounds } from '../../core/local-days.js';
import { keysOf, splitRange, type RawPiece, type SplitRange } from '../../core/rollup-range.js';
import { MAP_CELL_DEGREES } from '../../core/api/dashboard.js';

// The team dashboard's queries. Every count is made in the database: the team's call-log counts from the
// rollups kept by triggers (migration 2026-11-25T0550-call-log-rollups) plus or minus the raw rows of the
// period's part-buckets (core/rollup-range.ts), the rest over one period's rows selected by the time indexes
// of migration 2026-11-24T2200-team-dashboard; nothing loads a period's rows into Node except a rep's own log
// (bounded). Times are ISO text, so a period is a text range [start, end) and a local day is the range
// between two instants computed in Node (core/local-days.ts): the same SQL on SQLite and PostgreSQL, and days
// counted in the browser's time zone whatever its daylight-saving rules.

/** [start, end) in ISO text, and optionally one rep. */
export interface Range {
  start: string;
  end: string;
  userId?: string | undefined;
}

const n = (v: unknown) => Number(v ?? 0);

const forUser = (column: string, userId: string | undefined) =>
  userId ? sql`and ${sql.ref(column)} = ${userId}` : sql``;

/** The days as a VALUES list: (day, s, e). */
const daysValues = (days: readonly DayBounds[]) =>
  sql.join(days.map((d) => sql`(${d.date}, ${d.start}, ${d.end})`));

/**
 * The score (0-1) and category of the saved prospects in the range, from their JSON; null when absent or not of
 * that type. PostgreSQL parses each prospect once (jsonb, in a subquery OFFSET 0 keeps from being merged into
 * the caller, which would parse it again for every use of score in the band): a month's saves parsed ten times
 * each cost more than the whole rest of the outcomes.
 */
function savedFields(db: Db, r: Range): RawBuilder<unknown> {
  const where = sql`created_at >= ${r.start} and created_at < ${r.end} ${forUser('user_id', r.userId)}`;
  if (db.kind === 'postgres') {
    return sql`
      select case when jsonb_typeof(s.j->'score') = 'number' then (s.j->>'score')::float8 end as score,
        case when jsonb_typeof(s.j->'category') = 'string' then s.j->>'category' end as category
      from (select prospect::jsonb as j from saved_prospects where ${where} offset 0) s
      offset 0`;
  }
  const field = (name: 'score' | 'category') => {
    const types = name === 'score' ? sql`('real', 'integer')` : sql`('text')`;
    const path = `$.${name}`;
    return sql`case when json_type(s.prospect, ${path}) in ${types} then json_extract(s.prospect, ${path}) end`;
  };
  return sql`select ${field('score')} as score, ${field('category')} as category
    from saved_prospects s where ${where}`;
}

/** Score band 0..9 (ten points each, 1.0 in the top band) of a 0-1 score; -1 when unscored. */
function band(db: Db, score: RawBuilder<unknown>): RawBuilder<number> {
  const floor = db.kind === 'postgres' ? sql`floor(${score} * 10)::int` : sql`cast(${score} * 10 as integer)`;
  return sql<number>`case when ${score} is null then -1 when ${score} >= 1 then 9 when ${score} < 0 then 0 else ${floor} end`;
}

export interface Person {
  userId: string;
  name: string;
  email: string;
  role: string;
  suspended: boolean;
}

/** Every account (or one), with its profile's name and role where it has one. */
export async function people(db: Db, userId?: string): Promise<Person[]> {
  const rows = await sql<{
    id: string;
    name: string | null;
    user_name: string;
    email: string;
    role: string | null;
    suspended: string | null;
  }>`
    select u.id, p.name, u.name as user_name, u.email, p.role, s.suspended_at as suspended
    from "user" u
    left join user_profiles p on p.user_id = u.id
    left join account_suspensions s on s.user_id = u.id
    ${userId ? sql`where u.id = ${userId}` : sql``}
    order by coalesce(p.name, u.name), u.id`.execute(db.kysely);
  return rows.rows.map((r) => ({
    userId: r.id,
    name: r.name ?? r.user_name,
    email: r.email,
    role: r.role ?? 'user',
    suspended: r.suspended !== null,
  }));
}

export interface Counts {
  calls: number;
  visits: number;
  saves: number;
  strategies: number;
  followUps: number;
}
export const zeroCounts = (): Counts => ({ calls: 0, visits: 0, saves: 0, strategies: 0, followUps: 0 });

const KINDS = ['calls', 'visits', 'saves', 'strategies', 'followUps'] as const;
type Kind = (typeof KINDS)[number];

/** A row of counts per kind as the database answers them. */
const countsOf = (row: Record<string, unknown>): Counts => ({
  calls: n(row.calls),
  visits: n(row.visits),
  saves: n(row.saves),
  strategies: n(row.strategies),
  followUps: n(row.followUps),
});

/**
 * Counts of one kind of activity in [s, e) as a correlated subquery, for a rep (`userRef`) or the whole team:
 * a count over one index range (call_logs_user_outcome_created, *_user_created; call_logs_period for the team),
 * read from the index alone. No GROUP BY: SQLite sorts every row of a GROUP BY, and at 5 million call logs a
 * month of them took longer than the dashboard may.
 */
function countIn(
  kind: Kind,
  s: RawBuilder<unknown> | string,
  e: RawBuilder<unknown> | string,
  userRef: RawBuilder<unknown> | string | undefined,
) {
  const table =
    kind === 'saves'
      ? 'saved_prospects'
      : kind === 'strategies'
        ? 'strategy_requests'
        : kind === 'followUps'
          ? 'follow_ups'
          : 'call_logs';
  const outcome =
    kind === 'calls'
      ? sql`and x.outcome = 'Called'`
      : kind === 'visits'
        ? sql`and x.outcome = 'Visited'`
        : sql``;
  const user = userRef === undefined ? sql`` : sql`and x.user_id = ${userRef}`;
  return sql`(select count(*) from ${sql.table(table)} x
    where x.created_at >= ${s} and x.created_at < ${e} ${user} ${outcome})`;
}

/** Calls, visits, saves and strategy requests per account (one, with userId) in the range. */
export async function countsByRep(db: Db, r: Range): Promise<Map<string, Counts>> {
  const rows = await sql<Record<string, unknown> & { id: string }>`
    select u.id,
      ${sql.join(KINDS.map((k) => sql`${countIn(k, r.start, r.end, sql.ref('u.id'))} as ${sql.ref(k)}`))}
    from "user" u
    ${r.userId ? sql`where u.id = ${r.userId}` : sql``}`.execute(db.kysely);
  const byRep = new Map<string, Counts>();
  for (const row of rows.rows) byRep.set(row.id, countsOf(row));
  return byRep;
}

/** Called and Visited per UTC hour from the rollup call_log_hours, keys in [first, last]. */
async function hourCounts(db: Db, first: string, last: string) {
  const rows = await sql<{ hour: string; outcome: string; n: unknown }>`
    select hour, outcome, n from call_log_hours
    where hour >= ${first} and hour <= ${last} and outcome in ('Called', 'Visited')`.execute(db.kysely);
  const byHour = new Map<string, { calls: number; visits: number }>();
  for (const r of rows.rows) {
    let h = byHour.get(r.hour);
    if (!h) byHour.set(r.hour, (h = { calls: 0, visits: 0 }));
    if (r.outcome === 'Called') h.calls += n(r.n);
    else h.visits += n(r.n);
  }
  return byHour;
}

/**
 * The same counts per local day, every day of the period. One rep's: a count over one index range per day and
 * kind. The team's calls and visits: each local day is its whole UTC hours from the rollup call_log_hours plus or
 * minus the raw rows of the part-hours at its ends (zones half or three quarters of an hour off UTC), counted
 * over the index call_logs_period (core/rollup-range.ts); saves and strategy requests from their tables.
 */
export async function countsByDay(
  db: Db,
  days: readonly DayBounds[],
  userId?: string,
): Promise<Map<string, Counts>> {
  const kinds = userId ? KINDS : (['saves', 'strategies', 'followUps'] as const);
  const rows = await sql<Record<string, unknown> & { day: string }>`
    with days(day, s, e) as (values ${daysValues(days)})
    select d.day,
      ${sql.join(kinds.map((k) => sql`${countIn(k, sql.ref('d.s'), sql.ref('d.e'), userId)} as ${sql.ref(k)}`))}
    from days d`.execute(db.kysely);
  const byDay = new Map<string, Counts>();
  for (const row of rows.rows) byDay.set(row.day, countsOf(row));
  if (userId || days.length === 0) return byDay;

  const splits = days.map((d) => ({
    date: d.date,
    split: splitRange(Date.parse(d.start), Date.parse(d.end), ['hour']),
  }));
  const keys = splits.flatMap((d) => d.split.buckets.map((b) => b.key)).sort();
  const raw = splits.flatMap((d) => d.split.raw.map((r) => ({ date: d.date, ...r })));
  const [byHour, rawRows] = await Promise.all([
    keys.length
      ? hourCounts(db, keys[0]!, keys[keys.length - 1]!)
      : new Map<string, { calls: number; visits: number }>(),
    raw.length
      ? sql<{ i: unknown; calls: unknown; visits: unknown }>`
          with pieces(i, s, e) as (values ${sql.join(raw.map((r, i) => sql`(${i}, ${r.start}, ${r.end})`))})
          select p.i, ${countIn('calls', sql.ref('p.s'), sql.ref('p.e'), undefined)} as calls,
            ${countIn('visits', sql.ref('p.s'), sql.ref('p.e'), undefined)} as visits
          from pieces p`.execute(db.kysely)
      : Promise.resolve({ rows: [] }),
  ]);
  for (const { date, split } of splits) {
    const c = byDay.get(date)!;
    for (const b of split.buckets) {
      const h = byHour.get(b.key);
      if (h) {
        c.calls += b.sign * h.calls;
        c.visits += b.sign * h.visits;
      }
    }
  }
  for (const r of rawRows.rows) {
    const piece = raw[n(r.i)]!;
    const c = byDay.get(piece.date)!;
    c.calls += piece.sign * n(r.calls);
    c.visits += piece.sign * n(r.visits);
  }
  return byDay;
}

export interface GroupCounts {
  called: number;
  visited: number;
  saved: number;
}

interface LogGroup {
  b: unknown;
  category: string;
  outcome: string;
  k: unknown;
}

/** Call-log entries per band, category and outcome in raw rows [start, end), optionally one rep's. */
function rawLogGroups(db: Db, start: string, end: string, userId: string | undefined) {
  return sql<LogGroup>`
    select ${band(db, sql`score`)} as b, category, outcome, count(*) as k from call_logs
    where created_at >= ${start} and created_at < ${end} ${forUser('user_id', userId)}
    group by 1, 2, 3`.execute(db.kysely);
}

/** Rows of a rollup query, each count times the sign of its piece. */
const signed = <T extends { k: unknown }>(rows: T[], sign: number) =>
  rows.map((r) => ({ ...r, k: sign * n(r.k) }));

/**
 * The team's call-log entries per band, category and outcome in the range: whole UTC days from the rollup
 * call_log_days plus or minus the raw rows of the part-days at the ends (core/rollup-range.ts). One rep's: raw.
 */
async function logGroups(
  db: Db,
  r: Range,
): Promise<{ b: unknown; category: string; outcome: string; k: number }[]> {
  if (r.userId) return signed((await rawLogGroups(db, r.start, r.end, r.userId)).rows, 1);
  const split = splitRange(Date.parse(r.start), Date.parse(r.end), ['day']);
  const fromDays = async (sign: 1 | -1) => {
    const keys = keysOf(split, 'day', sign);
    if (!keys.length) return [];
    const rows = await sql<LogGroup>`
      select band as b, category, outcome, sum(n) as k from call_log_days where day in (${sql.join(keys)})
      group by 1, 2, 3`.execute(db.kysely);
    return signed(rows.rows, sign);
  };
  const parts = await Promise.all([
    fromDays(1),
    fromDays(-1),
    ...split.raw.map(async (p) => signed((await rawLogGroups(db, p.start, p.end, undefined)).rows, p.sign)),
  ]);
  return parts.flat();
}

/**
 * Call-log entries per outcome, the number of saves, and calls, visits and saves per score band (-1: unscored)
 * and per category: the period's call logs grouped by band, category and outcome together (logGroups), and one
 * pass over its saves.
 */
export async function outcomeGroups(db: Db, r: Range) {
  const [logs, saves] = await Promise.all([
    logGroups(db, r),
    sql<{ b: unknown; category: string | null; k: unknown }>`
      select ${band(db, sql`x.score`)} as b, x.category, count(*) as k
      from (${savedFields(db, r)}) x
      group by 1, 2`.execute(db.kysely),
  ]);
  const outcomes = new Map<string, number>();
  const bands = new Map<number, GroupCounts>();
  const categories = new Map<string, GroupCounts>();
  // Rows behind each group: a group whose rollup counts add up to 0 is not in the period at all.
  const bandRows = new Map<number, number>();
  const categoryRows = new Map<string, number>();
  const add = <K>(map: Map<K, number>, key: K, k: number) => map.set(key, (map.get(key) ?? 0) + k);
  let saveCount = 0;
  const of = <K>(map: Map<K, GroupCounts>, key: K) => {
    let g = map.get(key);
    if (!g) map.set(key, (g = { called: 0, visited: 0, saved: 0 }));
    return g;
  };
  const addLog = (g: GroupCounts, outcome: string, k: number) => {
    if (outcome === 'Called') g.called += k;
    else if (outcome === 'Visited') g.visited += k;
  };
  const cat = (c: string | null) => (c ?? '').trim();
  for (const row of logs) {
    const k = row.k;
    const b = n(row.b);
    add(outcomes, row.outcome, k);
    addLog(of(bands, b), row.outcome, k);
    addLog(of(categories, cat(row.category)), row.outcome, k);
    add(bandRows, b, k);
    add(categoryRows, cat(row.category), k);
  }
  for (const row of saves.rows) {
    const k = n(row.k);
    saveCount += k;
    of(bands, n(row.b)).saved += k;
    of(categories, cat(row.category)).saved += k;
    add(bandRows, n(row.b), k);
    add(categoryRows, cat(row.category), k);
  }
  for (const [key, k] of bandRows) if (k === 0) bands.delete(key);
  for (const [key, k] of categoryRows) if (k === 0) categories.delete(key);
  return {
    outcomes: [...outcomes.entries()]
      .filter(([, count]) => count !== 0)
      .sort((a, b) => (a[0] < b[0] ? -1 : 1))
      .map(([outcome, count]) => ({ outcome, count })),
    saves: saveCount,
    bands,
    categories,
  };
}

/** Reps (role user, not suspended) and the time of their last call, visit, save or strategy request. */
export async function lastActivity(
  db: Db,
): Promise<{ userId: string; name: string; email: string; last: string | null }[]> {
  const rows = await sql<{
    id: string;
    name: string;
    email: string;
    c: string | null;
    s: string | null;
    r: string | null;
  }>`
    select p.user_id as id, p.name, p.email,
      (select max(created_at) from call_logs c where c.user_id = p.user_id) as c,
      (select max(created_at) from saved_prospects s where s.user_id = p.user_id) as s,
      (select max(created_at) from strategy_requests q where q.user_id = p.user_id) as r
    from user_profiles p
    where p.role = 'user'
      and not exists (select 1 from account_suspensions x where x.user_id = p.user_id)
    order by p.name, p.user_id`.execute(db.kysely);
  return rows.rows.map((row) => {
    const times = [row.c, row.s, row.r].filter((t): t is string => typeof t === 'string');
    return {
      userId: row.id,
      name: row.name,
      email: row.email,
      last: times.length ? times.reduce((a, b) => (a > b ? a : b)) : null,
    };
  });
}

/** One rep's last activity of any kind. */
export async function lastActivityOf(db: Db, userId: string): Promise<string | null> {
  const row = await sql<{ c: string | null; s: string | null; r: string | null }>`
    select
      (select max(created_at) from call_logs where user_id = ${userId}) as c,
      (select max(created_at) from saved_prospects where user_id = ${userId}) as s,
      (select max(created_at) from strategy_requests where user_id = ${userId}) as r`.execute(db.kysely);
  const r = row.rows[0];
  const times = [r?.c, r?.s, r?.r].filter((t): t is string => typeof t === 'string');
  return times.length ? times.reduce((a, b) => (a > b ? a : b)) : null;
}

/** A grid index of a coordinate, as migration 2026-11-25T0550-call-log-rollups computes it (0.01 degree). */
function cellOf(db: Db, column: string): RawBuilder<number> {
  return db.kind === 'postgres'
    ? sql<number>`floor(${sql.ref(column)} * 100)::int`
    : sql<number>`cast(floor(${sql.ref(column)} * 100) as integer)`;
}

/** Placed raw rows of [start, end) as rollup rows (cell, n, calls, visits), each times `sign`. */
function rawCells(db: Db, p: RawPiece | { start: string; end: string; sign: 1 }, userId: string | undefined) {
  return sql`select ${cellOf(db, 'lat')} as lat_cell, ${cellOf(db, 'lng')} as lng_cell, ${sql.lit(p.sign)} as n,
      ${sql.lit(p.sign)} * case when outcome = 'Called' then 1 else 0 end as calls,
      ${sql.lit(p.sign)} * case when outcome = 'Visited' then 1 else 0 end as visits
    from call_logs
    where created_at >= ${p.start} and created_at < ${p.end} ${forUser('user_id', userId)}
      and lat is not null and lng is not null`;
}

/** Rollup rows of the cells table for the buckets of one unit and sign, times the sign. */
function bucketCells(split: SplitRange, unit: 'month' | 'day', sign: 1 | -1) {
  const keys = keysOf(split, unit, sign);
  if (!keys.length) return [];
  return [
    sql`select lat_cell, lng_cell, ${sql.lit(sign)} * n as n, ${sql.lit(sign)} * calls as calls,
        ${sql.lit(sign)} * visits as visits
      from call_log_cells where bucket in (${sql.join(keys)})`,
  ];
}

/** Unplaced entries (no latitude or longitude) in the range: the team's from call_log_days plus raw part-days. */
async function unplacedIn(db: Db, r: Range): Promise<number> {
  const rawCount = (start: string, end: string) =>
    sql<{ k: unknown }>`
      select count(*) as k from call_logs
      where created_at >= ${start} and created_at < ${end} ${forUser('user_id', r.userId)}
        and (lat is null or lng is null)`.execute(db.kysely);
  if (r.userId) return n((await rawCount(r.start, r.end)).rows[0]?.k);
  const split = splitRange(Date.parse(r.start), Date.parse(r.end), ['day']);
  const parts = await Promise.all([
    ...([1, -1] as const).map(async (sign) => {
      const keys = keysOf(split, 'day', sign);
      if (!keys.length) return 0;
      const row = await sql<{ k: unknown }>`
        select sum(n) as k from call_log_days where day in (${sql.join(keys)}) and placed = 0`.execute(
        db.kysely,
      );
      return sign * n(row.rows[0]?.k);
    }),
    ...split.raw.map(async (p) => p.sign * n((await rawCount(p.start, p.end)).rows[0]?.k)),
  ]);
  return parts.reduce((a, b) => a + b, 0);
}

/**
 * Calls and visits on a grid of MAP_CELL_DEGREES (the centre of each cell), busiest cells first, at most
 * `limit`. The team's: whole UTC months and days from the rollup call_log_cells plus or minus the raw rows of
 * the part-days at the ends (a Chicago month is one UTC month and twelve hours of raw rows); one rep's: raw rows.
 */
export async function mapCells(db: Db, r: Range, limit: number) {
  const parts = r.userId
    ? [rawCells(db, { start: r.start, end: r.end, sign: 1 }, r.userId)]
    : (() => {
        const split = splitRange(Date.parse(r.start), Date.parse(r.end), ['month', 'day']);
        return [
          ...bucketCells(split, 'month', 1),
          ...bucketCells(split, 'month', -1),
          ...bucketCells(split, 'day', 1),
          ...bucketCells(split, 'day', -1),
          ...split.raw.map((p) => rawCells(db, p, undefined)),
        ];
      })();
  const [cells, unplaced] = await Promise.all([
    parts.length
      ? sql<{ lat_cell: unknown; lng_cell: unknown; calls: unknown; visits: unknown }>`
          select lat_cell, lng_cell, sum(calls) as calls, sum(visits) as visits
          from (${sql.join(parts, sql` union all `)}) x
          group by lat_cell, lng_cell
          having sum(n) > 0
          order by sum(n) desc, lat_cell, lng_cell
          limit ${limit}`.execute(db.kysely)
      : Promise.resolve({ rows: [] }),
    unplacedIn(db, r),
  ]);
  const centre = (cell: unknown) => Math.round((n(cell) + 0.5) * MAP_CELL_DEGREES * 1e6) / 1e6;
  return {
    cells: cells.rows.map((c) => ({
      lat: centre(c.lat_cell),
      lng: centre(c.lng_cell),
      calls: n(c.calls),
      visits: n(c.visits),
    })),
    unplaced,
  };
}

/** The areas scanned in the range (centre and radius), the most scanned first, at most `limit`. */
export async function scannedAreas(db: Db, r: Range, limit: number) {
  const rows = await sql<{ lat: unknown; lng: unknown; radius: unknown; k: unknown }>`
    select lat, lng, radius_miles as radius, count(*) as k from searches
    where created_at >= ${r.start} and created_at < ${r.end} ${forUser('user_id', r.userId)}
    group by lat, lng, radius_miles
    order by count(*) desc, lat, lng
    limit ${limit}`.execute(db.kysely);
  return rows.rows.map((a) => ({
    lat: n(a.lat),
    lng: n(a.lng),
    radiusMiles: n(a.radius),
    scans: n(a.k),
  }));
}

/** One rep's call-log entries, saves and strategy requests in the range, newest first, `limit` of each. */
export async function repEntries(db: Db, r: Range & { userId: string }, limit: number) {
  const [logs, saves, strategies] = await Promise.all([
    db.kysely
      .selectFrom('call_logs')
      .select(['created_at', 'prospect_id', 'name', 'category', 'outcome', 'note', 'address', 'phone'])
      .where('user_id', '=', r.userId)
      .where('created_at', '>=', r.start)
      .where('created_at', '<', r.end)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute(),
    db.kysely
      .selectFrom('saved_prospects')
      .select(['created_at', 'prospect_id', 'prospect', 'note'])
      .where('user_id', '=', r.userId)
      .where('created_at', '>=', r.start)
      .where('created_at', '<', r.end)
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute(),
    db.kysely
      .selectFrom('strategy_requests')
      .select(['created_at', 'business_id', 'name', 'category'])
      .where('user_id', '=', r.userId)
      .where('created_at', '>=', r.start)
      .where('created_at', '<', r.end)
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute(),
  ]);
  return { logs, saves, strategies };
}

/** How far a pipeline stage is along the funnel: New 0 ... Won 4 (Lost and anything else 0). */
const reachOf = (column: RawBuilder<unknown>) => sql`case ${column}
  when 'Contacted' then 1 when 'Meeting set' then 2 when 'Proposal' then 3 when 'Won' then 4 else 0 end`;

/**
 * The funnel: per business moved in the pipeline in the range (a history entry; with userId, an entry that
 * left the business with that rep), the furthest stage it reached then (reachOf), counted per reach. Read from
 * the index pipeline_history_period alone; a handful of rows come back.
 */
export async function funnelReach(db: Db, r: Range): Promise<Map<number, number>> {
  const rows = await sql<{ reach: unknown; k: unknown }>`
    select x.reach, count(*) as k from (
      select h.business_id, max(${reachOf(sql.ref('h.to_stage'))}) as reach
      from pipeline_history h
      where h.at >= ${r.start} and h.at < ${r.end} ${forUser('h.to_owner_id', r.userId)}
      group by h.business_id
    ) x group by x.reach`.execute(db.kysely);
  return new Map(rows.rows.map((row) => [n(row.reach), n(row.k)]));
}

/** The businesses of a win-rate group, and how many of them reached a meeting and a win. */
export interface WinCounts {
  businesses: number;
  meetings: number;
  won: number;
}

/**
 * The band of first_contacts.score exactly as the SQLite index first_contacts_band is built on (migration
 * 2026-11-26T0700-first-contacts): SQLite uses an expression index only for the same expression.
 */
export const SQLITE_WIN_BAND =
  'case when score is null then -1 when score >= 1 then 9 when score < 0 then 0 else cast(score * 10 as integer) end';
const BAND_VALUES = [-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9];

/**
 * Win rate by score band and by category, a cohort: the businesses whose first call-log entry is in the range
 * (with userId, made by that rep), each in the band of the score and in the category it was first logged with,
 * and how many of them reached Meeting set (or a later stage) and Won by the end of the range, by anyone. Read
 * from first_contacts (kept by triggers: migration 2026-11-26T0700-first-contacts). PostgreSQL groups one range
 * of first_contacts_period. SQLite would sort that range; instead each band, and each category logged in the
 * range (from the call_log_days rollup), is one range of an index led by it, already grouped.
 */
export async function winRateGroups(
  db: Db,
  r: Range,
): Promise<{ bands: Map<number, WinCounts>; categories: Map<string, WinCounts> }> {
  const counts = sql`count(*) as businesses,
      sum(case when meeting_at < ${r.end} then 1 else 0 end) as meetings,
      sum(case when won_at < ${r.end} then 1 else 0 end) as won`;
  const period = sql`first_at >= ${r.start} and first_at < ${r.end} ${forUser('user_id', r.userId)}`;
  const toCounts = (row: WinRateGroup) => ({
    businesses: n(row.businesses),
    meetings: n(row.meetings),
    won: n(row.won),
  });
  const bands = new Map<number, WinCounts>();
  const categories = new Map<string, WinCounts>();
  if (db.kind === 'postgres') {
    const rows = await sql<WinRateGroup & { b: unknown; category: string }>`
      select ${band(db, sql`score`)} as b, category, ${counts}
      from first_contacts where ${period} group by 1, 2`.execute(db.kysely);
    const add = <K>(into: Map<K, WinCounts>, key: K, g: WinCounts) => {
      const sum = into.get(key) ?? { businesses: 0, meetings: 0, won: 0 };
      into.set(key, {
        businesses: sum.businesses + g.businesses,
        meetings: sum.meetings + g.meetings,
        won: sum.won + g.won,
      });
    };
    for (const row of rows.rows) {
      add(bands, n(row.b), toCounts(row));
      add(categories, row.category, toCounts(row));
    }
    return { bands, categories };
  }
  const bandExpr = sql.raw(SQLITE_WIN_BAND);
  const logged = await sql<{ category: string }>`
    select distinct category from call_log_days
    where day >= ${r.start.slice(0, 10)} and day <= ${r.end.slice(0, 10)}`.execute(db.kysely);
  const names = logged.rows.map((row) => row.category);
  const [byBand, byCategory] = await Promise.all([
    sql<WinRateGroup & { b: unknown }>`
      select ${bandExpr} as b, ${counts} from first_contacts indexed by first_contacts_band
      where ${bandExpr} in (${sql.join(BAND_VALUES)}) and ${period} group by 1`.execute(db.kysely),
    names.length === 0
      ? { rows: [] }
      : sql<WinRateGroup & { category: string }>`
      select category, ${counts} from first_contacts indexed by first_contacts_category
      where category in (${sql.join(names)}) and ${period} group by 1`.execute(db.kysely),
  ]);
  for (const row of byBand.rows) bands.set(n(row.b), toCounts(row));
  for (const row of byCategory.rows) categories.set(row.category, toCounts(row));
  return { bands, categories };
}

interface WinRateGroup {
  businesses: unknown;
  meetings: unknown;
  won: unknown;
}

/** The businesses a rep owns now, the latest stage first, `limit` of them; and their count per stage. */
export async function ownedBusinesses(db: Db, userId: string, limit: number) {
  const [rows, stages] = await Promise.all([
    db.kysely
      .selectFrom('pipeline')
      .select(['business_id', 'label', 'stage', 'since', 'updated_at'])
      .where('owner_id', '=', userId)
      .orderBy('since', 'desc')
      .orderBy('business_id', 'asc')
      .limit(limit)
      .execute(),
    sql<{ stage: string; k: unknown }>`
      select stage, count(*) as k from pipeline where owner_id = ${userId} group by stage`.execute(db.kysely),
  ]);
  return { rows, stages: new Map(stages.rows.map((s) => [s.stage, n(s.k)])) };
}

/**
 * The pipeline changes in the range that involve a rep: made by them, or giving them a business or taking one
 * away; newest first, `limit` of them, with the business's label from its pipeline row.
 */
export async function stageChanges(db: Db, r: Range & { userId: string }, limit: number) {
  return db.kysely
    .selectFrom('pipeline_history as h')
    .leftJoin('pipeline as p', 'p.business_id', 'h.business_id')
    .select([
      'h.id',
      'h.at',
      'h.business_id',
      'p.label',
      'h.from_stage',
      'h.to_stage',
      'h.from_owner_name',
      'h.to_owner_name',
      'h.by_name',
      'h.reason',
    ])
    .where('h.at', '>=', r.start)
    .where('h.at', '<', r.end)
    .where((eb) =>
      eb.or([
        eb('h.by_id', '=', r.userId),
        eb('h.to_owner_id', '=', r.userId),
        eb('h.from_owner_id', '=', r.userId),
      ]),
    )
    .orderBy('h.at', 'desc')
    .orderBy('h.id', 'desc')
    .limit(limit)
    .execute();
}

/** A rep's visits (call-log entries Visited) in the range, oldest first, `limit` of them, and the totals. */
export async function repVisits(db: Db, r: Range & { userId: string }, limit: number) {
  const inRange = db.kysely
    .selectFrom('call_logs')
    .where('user_id', '=', r.userId)
    .where('outcome', '=', 'Visited')
    .where('created_at', '>=', r.start)
    .where('created_at', '<', r.end);
  const [rows, totals] = await Promise.all([
    inRange
      .select([
        'created_at',
        'prospect_id',
        'name',
        'address',
        'lat',
        'lng',
        'visit_lat',
        'visit_lng',
        'visit_accuracy_m',
        'verified',
      ])
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .limit(limit)
      .execute(),
    inRange
      .select((eb) => [
        eb.fn.countAll().as('total'),
        eb.fn.sum<number | string | null>(sql`case when verified = 1 then 1 else 0 end`).as('verified'),
      ])
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: n(totals.total), verified: n(totals.verified) };
}
