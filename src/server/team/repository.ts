import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import type { DayBounds } from '../../core/local-days.js';

// The team dashboard's queries (issue 19). Every count is a GROUP BY in the database over one period's rows,
// selected by the time indexes of migration 2026-11-24T2200-team-dashboard; nothing loads a period's rows into
// Node except a rep's own log (bounded). Times are ISO text, so a period is a text range [start, end) and a
// local day is the range between two instants computed in Node (core/local-days.ts): the same SQL on SQLite
// and PostgreSQL, and days counted in the browser's time zone whatever its daylight-saving rules.

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

/** A saved prospect's score (0-1) or category from its JSON; null when absent or not of that type. */
function savedField(db: Db, field: 'score' | 'category'): RawBuilder<unknown> {
  if (db.kind === 'postgres') {
    const type = field === 'score' ? 'number' : 'string';
    const value =
      field === 'score' ? sql`(s.prospect::json->>'score')::float8` : sql`(s.prospect::json->>'category')`;
    return sql`case when json_typeof(s.prospect::json->${sql.lit(field)}) = ${sql.lit(type)} then ${value} end`;
  }
  const types = field === 'score' ? sql`('real', 'integer')` : sql`('text')`;
  const path = `$.${field}`;
  return sql`case when json_type(s.prospect, ${path}) in ${types} then json_extract(s.prospect, ${path}) end`;
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
}
export const zeroCounts = (): Counts => ({ calls: 0, visits: 0, saves: 0, strategies: 0 });

/**
 * Counts of one kind of activity in [s, e) as a correlated subquery, for a rep (`userRef`) or the whole team:
 * a count over one index range (call_logs_user_outcome_created, *_user_created; call_logs_period for the team),
 * read from the index alone. No GROUP BY: SQLite sorts every row of a GROUP BY, and at 5 million call logs a
 * month of them took longer than the dashboard may.
 */
function countIn(
  kind: 'calls' | 'visits' | 'saves' | 'strategies',
  s: RawBuilder<unknown> | string,
  e: RawBuilder<unknown> | string,
  userRef: RawBuilder<unknown> | string | undefined,
) {
  const table =
    kind === 'saves' ? 'saved_prospects' : kind === 'strategies' ? 'strategy_requests' : 'call_logs';
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

const KINDS = ['calls', 'visits', 'saves', 'strategies'] as const;

/** Calls, visits, saves and strategy requests per account (one, with userId) in the range. */
export async function countsByRep(db: Db, r: Range): Promise<Map<string, Counts>> {
  const rows = await sql<{
    id: string;
    calls: unknown;
    visits: unknown;
    saves: unknown;
    strategies: unknown;
  }>`
    select u.id,
      ${sql.join(KINDS.map((k) => sql`${countIn(k, r.start, r.end, sql.ref('u.id'))} as ${sql.ref(k)}`))}
    from "user" u
    ${r.userId ? sql`where u.id = ${r.userId}` : sql``}`.execute(db.kysely);
  const byRep = new Map<string, Counts>();
  for (const row of rows.rows) {
    byRep.set(row.id, {
      calls: n(row.calls),
      visits: n(row.visits),
      saves: n(row.saves),
      strategies: n(row.strategies),
    });
  }
  return byRep;
}

/** The same counts per local day, every day of the period. */
export async function countsByDay(
  db: Db,
  days: readonly DayBounds[],
  userId?: string,
): Promise<Map<string, Counts>> {
  const rows = await sql<{
    day: string;
    calls: unknown;
    visits: unknown;
    saves: unknown;
    strategies: unknown;
  }>`
    with days(day, s, e) as (values ${daysValues(days)})
    select d.day,
      ${sql.join(KINDS.map((k) => sql`${countIn(k, sql.ref('d.s'), sql.ref('d.e'), userId)} as ${sql.ref(k)}`))}
    from days d`.execute(db.kysely);
  const byDay = new Map<string, Counts>();
  for (const row of rows.rows) {
    byDay.set(row.day, {
      calls: n(row.calls),
      visits: n(row.visits),
      saves: n(row.saves),
      strategies: n(row.strategies),
    });
  }
  return byDay;
}

export interface GroupCounts {
  called: number;
  visited: number;
  saved: number;
}

/**
 * Call-log entries per outcome, the number of saves, and calls, visits and saves per score band (-1: unscored)
 * and per category: one pass over the period's call logs (grouped by band, category and outcome together, read
 * from the index call_logs_period) and one over its saves.
 */
export async function outcomeGroups(db: Db, r: Range) {
  const [logs, saves] = await Promise.all([
    sql<{ b: unknown; category: string; outcome: string; k: unknown }>`
      select ${band(db, sql`score`)} as b, category, outcome, count(*) as k from call_logs
      where created_at >= ${r.start} and created_at < ${r.end} ${forUser('user_id', r.userId)}
      group by 1, 2, 3`.execute(db.kysely),
    sql<{ b: unknown; category: string | null; k: unknown }>`
      select ${band(db, savedField(db, 'score'))} as b, ${savedField(db, 'category')} as category, count(*) as k
      from saved_prospects s
      where created_at >= ${r.start} and created_at < ${r.end} ${forUser('user_id', r.userId)}
      group by 1, 2`.execute(db.kysely),
  ]);
  const outcomes = new Map<string, number>();
  const bands = new Map<number, GroupCounts>();
  const categories = new Map<string, GroupCounts>();
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
  for (const row of logs.rows) {
    const k = n(row.k);
    outcomes.set(row.outcome, (outcomes.get(row.outcome) ?? 0) + k);
    addLog(of(bands, n(row.b)), row.outcome, k);
    addLog(of(categories, cat(row.category)), row.outcome, k);
  }
  for (const row of saves.rows) {
    const k = n(row.k);
    saveCount += k;
    of(bands, n(row.b)).saved += k;
    of(categories, cat(row.category)).saved += k;
  }
  return {
    outcomes: [...outcomes.entries()]
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

/** Calls and visits on a grid of 0.001 degree, busiest cells first, at most `limit`. */
export async function mapCells(db: Db, r: Range, limit: number) {
  const [cells, unplaced] = await Promise.all([
    sql<{ lat: unknown; lng: unknown; calls: unknown; visits: unknown }>`
      select avg(lat) as lat, avg(lng) as lng,
        sum(case when outcome = 'Called' then 1 else 0 end) as calls,
        sum(case when outcome = 'Visited' then 1 else 0 end) as visits
      from call_logs
      where created_at >= ${r.start} and created_at < ${r.end} ${forUser('user_id', r.userId)}
        and lat is not null and lng is not null
      group by round(lat * 1000), round(lng * 1000)
      order by count(*) desc, 1, 2
      limit ${limit}`.execute(db.kysely),
    sql<{ k: unknown }>`
      select count(*) as k from call_logs
      where created_at >= ${r.start} and created_at < ${r.end} ${forUser('user_id', r.userId)}
        and (lat is null or lng is null)`.execute(db.kysely),
  ]);
  return {
    cells: cells.rows.map((c) => ({
      lat: n(c.lat),
      lng: n(c.lng),
      calls: n(c.calls),
      visits: n(c.visits),
    })),
    unplaced: n(unplaced.rows[0]?.k),
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
