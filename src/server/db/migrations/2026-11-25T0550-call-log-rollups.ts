import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Rollups of call_logs for the team dashboard, so it stays fast at size: counts the database keeps exact
// itself, so a month of the team's outcomes, categories, score bands, map and per-day chart is read from a
// few thousand counts instead of grouping ~165,000 rows (docs/PERFORMANCE.md). Keys are prefixes of
// created_at (ISO text in UTC): hour '2026-11-25T05', day '2026-11-25', month '2026-11'.
// - call_log_hours (hour, outcome): the per-day chart; a local day is its whole UTC hours plus raw rows.
// - call_log_days (day, outcome, category, band, placed): outcomes, categories, score bands (band 0-9, -1
//   unscored) and the map's unplaced entries (placed 0: no latitude or longitude).
// - call_log_cells (bucket, lat_cell, lng_cell): placed entries on a grid of 0.01 degree (floor(lat * 100)),
//   per UTC day and per UTC month in the same table (bucket '2026-11-25' or '2026-11').
// Kept by triggers on call_logs: insert, delete (also the deletes cascading from a deleted user) and an update
// of a counted column. SQLite: row triggers with upserts. PostgreSQL: statement triggers over transition tables,
// one grouped upsert per rollup and statement (a bulk insert adds its counts in one pass). Counts that fall to 0
// stay as rows of 0. The expressions below are the ones team/repository.ts uses on raw rows: keep them equal.
// TRUNCATE bypasses the triggers (nothing in the app truncates call_logs).

const band = (postgres: boolean, r: string) =>
  `case when ${r}.score is null then -1 when ${r}.score >= 1 then 9 when ${r}.score < 0 then 0 else ` +
  (postgres ? `floor(${r}.score * 10)::int` : `cast(${r}.score * 10 as integer)`) +
  ' end';
const placed = (r: string) => `case when ${r}.lat is not null and ${r}.lng is not null then 1 else 0 end`;
const cell = (postgres: boolean, v: string) =>
  postgres ? `floor(${v} * 100)::int` : `cast(floor(${v} * 100) as integer)`;
const isCall = (r: string) => `case when ${r}.outcome = 'Called' then 1 else 0 end`;
const isVisit = (r: string) => `case when ${r}.outcome = 'Visited' then 1 else 0 end`;

/** SQLite: the upserts adding `d` (1 or -1) for one row (`new` or `old`). */
function sqliteApply(r: 'new' | 'old', d: 1 | -1): string {
  const cellsFor = (len: number) => `
    insert into call_log_cells (bucket, lat_cell, lng_cell, n, calls, visits)
    select substr(${r}.created_at, 1, ${len}), ${cell(false, `${r}.lat`)}, ${cell(false, `${r}.lng`)},
      ${d}, ${d} * ${isCall(r)}, ${d} * ${isVisit(r)}
    where ${r}.lat is not null and ${r}.lng is not null
    on conflict (bucket, lat_cell, lng_cell) do update
      set n = n + excluded.n, calls = calls + excluded.calls, visits = visits + excluded.visits;`;
  return `
    insert into call_log_hours (hour, outcome, n) values (substr(${r}.created_at, 1, 13), ${r}.outcome, ${d})
    on conflict (hour, outcome) do update set n = n + excluded.n;
    insert into call_log_days (day, outcome, category, band, placed, n)
    values (substr(${r}.created_at, 1, 10), ${r}.outcome, ${r}.category, ${band(false, r)}, ${placed(r)}, ${d})
    on conflict (day, outcome, category, band, placed) do update set n = n + excluded.n;
    ${cellsFor(10)}
    ${cellsFor(7)}`;
}

/** PostgreSQL: the grouped upserts of a statement's changes (`changes`: rows of call_logs with a column d). */
function postgresApply(changes: string): string {
  const cellsFor = (len: number) => `
    insert into call_log_cells (bucket, lat_cell, lng_cell, n, calls, visits)
    select substr(c.created_at, 1, ${len}), ${cell(true, 'c.lat')}, ${cell(true, 'c.lng')},
      sum(c.d), sum(c.d * ${isCall('c')}), sum(c.d * ${isVisit('c')})
    from (${changes}) c where c.lat is not null and c.lng is not null
    group by 1, 2, 3
    on conflict (bucket, lat_cell, lng_cell) do update
      set n = call_log_cells.n + excluded.n, calls = call_log_cells.calls + excluded.calls,
        visits = call_log_cells.visits + excluded.visits;`;
  return `
    insert into call_log_hours (hour, outcome, n)
    select substr(c.created_at, 1, 13), c.outcome, sum(c.d) from (${changes}) c group by 1, 2
    on conflict (hour, outcome) do update set n = call_log_hours.n + excluded.n;
    insert into call_log_days (day, outcome, category, band, placed, n)
    select substr(c.created_at, 1, 10), c.outcome, c.category, ${band(true, 'c')}, ${placed('c')}, sum(c.d)
    from (${changes}) c group by 1, 2, 3, 4, 5
    on conflict (day, outcome, category, band, placed) do update set n = call_log_days.n + excluded.n;
    ${cellsFor(10)}
    ${cellsFor(7)}`;
}

const COUNTED = 'created_at, outcome, category, score, lat, lng';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const q = (text: string) => sql.raw(text).execute(db);
  const rowid = postgres ? '' : ' without rowid';
  await q(`create table call_log_hours (hour text not null, outcome text not null, n integer not null,
    primary key (hour, outcome))${rowid}`);
  await q(`create table call_log_days (day text not null, outcome text not null, category text not null,
    band integer not null, placed integer not null, n integer not null,
    primary key (day, outcome, category, band, placed))${rowid}`);
  await q(`create table call_log_cells (bucket text not null, lat_cell integer not null, lng_cell integer not null,
    n integer not null, calls integer not null, visits integer not null,
    primary key (bucket, lat_cell, lng_cell))${rowid}`);

  // What is already logged.
  await q(`insert into call_log_hours (hour, outcome, n)
    select substr(c.created_at, 1, 13), c.outcome, count(*) from call_logs c group by 1, 2`);
  await q(`insert into call_log_days (day, outcome, category, band, placed, n)
    select substr(c.created_at, 1, 10), c.outcome, c.category, ${band(postgres, 'c')}, ${placed('c')}, count(*)
    from call_logs c group by 1, 2, 3, 4, 5`);
  for (const len of [10, 7]) {
    await q(`insert into call_log_cells (bucket, lat_cell, lng_cell, n, calls, visits)
      select substr(c.created_at, 1, ${len}), ${cell(postgres, 'c.lat')}, ${cell(postgres, 'c.lng')},
        count(*), sum(${isCall('c')}), sum(${isVisit('c')})
      from call_logs c where c.lat is not null and c.lng is not null group by 1, 2, 3`);
  }

  if (postgres) {
    const fields = `created_at, outcome, category, score, lat, lng`;
    const fns = {
      insert: `select ${fields}, 1 as d from new_rows`,
      delete: `select ${fields}, -1 as d from old_rows`,
      update: `select ${fields}, 1 as d from new_rows union all select ${fields}, -1 as d from old_rows`,
    };
    for (const [op, changes] of Object.entries(fns)) {
      await q(`create function call_logs_rollup_${op}() returns trigger language plpgsql as $$
        begin
          ${postgresApply(changes)}
          return null;
        end $$`);
    }
    await q(`create trigger call_logs_rollup_insert after insert on call_logs
      referencing new table as new_rows for each statement execute function call_logs_rollup_insert()`);
    await q(`create trigger call_logs_rollup_delete after delete on call_logs
      referencing old table as old_rows for each statement execute function call_logs_rollup_delete()`);
    // Transition tables allow no column list: every update statement, whatever it changes (rare: entries are
    // logged, edited now and then, and deleted).
    await q(`create trigger call_logs_rollup_update after update on call_logs
      referencing old table as old_rows new table as new_rows
      for each statement execute function call_logs_rollup_update()`);
  } else {
    await q(`create trigger call_logs_rollup_insert after insert on call_logs begin
      ${sqliteApply('new', 1)}
    end`);
    await q(`create trigger call_logs_rollup_delete after delete on call_logs begin
      ${sqliteApply('old', -1)}
    end`);
    await q(`create trigger call_logs_rollup_update after update of ${COUNTED} on call_logs begin
      ${sqliteApply('old', -1)}
      ${sqliteApply('new', 1)}
    end`);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const op of ['insert', 'delete', 'update']) {
    await sql.raw(`drop trigger call_logs_rollup_${op}${postgres ? ' on call_logs' : ''}`).execute(db);
    if (postgres) await sql.raw(`drop function call_logs_rollup_${op}()`).execute(db);
  }
  for (const table of ['call_log_cells', 'call_log_days', 'call_log_hours']) {
    await db.schema.dropTable(table).execute();
  }
}
