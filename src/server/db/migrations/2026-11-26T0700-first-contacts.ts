import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Win rate by score band and by category as a cohort: each business once, in the period of its first call-log
// entry, in the band of the score (and the category) it was first logged with, and whether it reached Meeting
// set (or a later stage) and Won by the end of the period. Counting "the businesses called in a period" as a
// distinct count over every entry of the period would group about 205,000 entries (a month at 5 million) on
// every request; a cohort is one index range of this table, however long the period (docs/PERFORMANCE.md,
// "Win rates").
//
// first_contacts: one row per business with a call-log entry. log_id, first_at, user_id, score and category are those of
// its first entry (the earliest created_at, then the smallest id); meeting_at and won_at are the earliest
// pipeline_history change of the business to Meeting set, Proposal or Won, and to Won (null: never).
// Kept exact by triggers:
// - call_logs insert: an earlier entry takes the row over; a first entry creates it (with its milestones).
// - call_logs delete (also a deleted user's entries) and update of a column it keeps: when the business's
//   first entry went or changed, its row is computed again from the entries left (none left: no row).
// - pipeline_history insert: the milestones move earlier. pipeline_history is append-only (nothing in the
//   app updates or deletes a change), so it needs no other trigger.
// SQLite: row triggers. PostgreSQL: statement triggers over transition tables, like the call-log rollups.

const MEETING = `('Meeting set', 'Proposal', 'Won')`;
const COLUMNS = 'prospect_id, log_id, first_at, user_id, score, category, meeting_at, won_at';
const KEPT = 'prospect_id, created_at, user_id, score, category';

/** The earliest meeting and win of business `b` (an SQL expression), as two select-list expressions. */
const milestones = (b: string) => `
  (select min(h.at) from pipeline_history h where h.business_id = ${b} and h.to_stage in ${MEETING}),
  (select min(h.at) from pipeline_history h where h.business_id = ${b} and h.to_stage = 'Won')`;

/** SQLite: the entry `new` (just inserted, or the new values of an update) as a first contact. */
const sqliteTakeOver = `
  update first_contacts set log_id = new.id, first_at = new.created_at, user_id = new.user_id, score = new.score,
    category = new.category
  where prospect_id = new.prospect_id
    and (new.created_at < first_at or (new.created_at = first_at and new.id < log_id));
  insert into first_contacts (${COLUMNS})
  select new.prospect_id, new.id, new.created_at, new.user_id, new.score, new.category,
    ${milestones('new.prospect_id')}
  where not exists (select 1 from first_contacts where prospect_id = new.prospect_id);`;

/** SQLite: the entry `old` went (or changed): its business's row again from the entries left. */
const sqliteRecompute = `
  delete from first_contacts where prospect_id = old.prospect_id and log_id = old.id;
  insert into first_contacts (${COLUMNS})
  select c.prospect_id, c.id, c.created_at, c.user_id, c.score, c.category, ${milestones('c.prospect_id')}
  from call_logs c
  where c.prospect_id = old.prospect_id
    and not exists (select 1 from first_contacts where prospect_id = old.prospect_id)
  order by c.created_at, c.id limit 1;`;

/** PostgreSQL: the first entry per business among `rows` (a transition table) takes over or creates a row. */
const postgresTakeOver = (rows: string) => `
  insert into first_contacts (${COLUMNS})
  select f.prospect_id, f.id, f.created_at, f.user_id, f.score, f.category, ${milestones('f.prospect_id')}
  from (select distinct on (prospect_id) prospect_id, id, created_at, user_id, score, category from ${rows}
        order by prospect_id, created_at, id) f
  on conflict (prospect_id) do update
    set log_id = excluded.log_id, first_at = excluded.first_at, user_id = excluded.user_id, score = excluded.score,
      category = excluded.category
    where (excluded.first_at, excluded.log_id) < (first_contacts.first_at, first_contacts.log_id);`;

/** PostgreSQL: the businesses whose first entry is among `rows` (gone or changed), again from what is left. */
const postgresRecompute = (rows: string) => `
  delete from first_contacts f using ${rows} o where f.prospect_id = o.prospect_id and f.log_id = o.id;
  insert into first_contacts (${COLUMNS})
  select f.prospect_id, f.id, f.created_at, f.user_id, f.score, f.category, ${milestones('f.prospect_id')}
  from (select distinct on (c.prospect_id) c.prospect_id, c.id, c.created_at, c.user_id, c.score, c.category
        from call_logs c
        where c.prospect_id in (select prospect_id from ${rows})
          and not exists (select 1 from first_contacts x where x.prospect_id = c.prospect_id)
        order by c.prospect_id, c.created_at, c.id) f
  on conflict (prospect_id) do nothing;`;

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const q = (text: string) => sql.raw(text).execute(db);
  // PostgreSQL compares the ISO timestamps byte by byte (collation "C") instead of by the database's language
  // rules: a month's cohort of 130,000 took 139 ms to filter and group by the default collation, 76 ms so.
  const c = postgres ? 'collate "C"' : '';
  await q(`create table first_contacts (prospect_id text primary key, log_id text not null,
    first_at text ${c} not null, user_id text not null, score ${postgres ? 'double precision' : 'real'},
    category text not null, meeting_at text ${c}, won_at text ${c})`);
  // The cohort of a period, and of one rep in it, read from the index alone.
  await q(
    `create index first_contacts_period on first_contacts (first_at, user_id, score, category, meeting_at, won_at)`,
  );
  if (!postgres) {
    // SQLite sorts the rows of a GROUP BY: for a month in which 130,000 businesses were first called, sorting them
    // by band and category took over half of 300 ms. Led by the band (the expression the team repository groups
    // by, SQLITE_WIN_BAND) or the category, an index hands the rows over already grouped, each value's period one
    // range (docs/PERFORMANCE.md, "Team dashboard"). PostgreSQL hashes the groups instead.
    await q(`create index first_contacts_band on first_contacts (
      (case when score is null then -1 when score >= 1 then 9 when score < 0 then 0 else cast(score * 10 as integer) end),
      first_at, user_id, meeting_at, won_at)`);
    await q(
      `create index first_contacts_category on first_contacts (category, first_at, user_id, meeting_at, won_at)`,
    );
  }
  // A business's entries in time order: its first one again when that one goes.
  await q(`create index call_logs_prospect_created on call_logs (prospect_id, created_at, id)`);

  // What is already logged.
  await q(`insert into first_contacts (${COLUMNS})
    select f.prospect_id, f.id, f.created_at, f.user_id, f.score, f.category, ${milestones('f.prospect_id')}
    from (select c.prospect_id, c.id, c.created_at, c.user_id, c.score, c.category,
            row_number() over (partition by c.prospect_id order by c.created_at, c.id) as k
          from call_logs c) f
    where f.k = 1`);

  if (postgres) {
    const fns = {
      call_logs_first_insert: postgresTakeOver('new_rows'),
      call_logs_first_delete: postgresRecompute('old_rows'),
      call_logs_first_update: postgresRecompute('old_rows') + postgresTakeOver('new_rows'),
      pipeline_history_first: `
        update first_contacts f
        set meeting_at = least(f.meeting_at, m.meeting_at collate "C"),
          won_at = least(f.won_at, m.won_at collate "C")
        from (select business_id, min(at) as meeting_at, min(at) filter (where to_stage = 'Won') as won_at
              from new_rows where to_stage in ${MEETING} group by business_id) m
        where f.prospect_id = m.business_id;`,
    };
    for (const [name, body] of Object.entries(fns)) {
      await q(`create function ${name}() returns trigger language plpgsql as $$
        begin
          ${body}
          return null;
        end $$`);
    }
    await q(`create trigger call_logs_first_insert after insert on call_logs
      referencing new table as new_rows for each statement execute function call_logs_first_insert()`);
    await q(`create trigger call_logs_first_delete after delete on call_logs
      referencing old table as old_rows for each statement execute function call_logs_first_delete()`);
    await q(`create trigger call_logs_first_update after update on call_logs
      referencing old table as old_rows new table as new_rows
      for each statement execute function call_logs_first_update()`);
    await q(`create trigger pipeline_history_first after insert on pipeline_history
      referencing new table as new_rows for each statement execute function pipeline_history_first()`);
  } else {
    await q(`create trigger call_logs_first_insert after insert on call_logs begin
      ${sqliteTakeOver}
    end`);
    await q(`create trigger call_logs_first_delete after delete on call_logs begin
      ${sqliteRecompute}
    end`);
    await q(`create trigger call_logs_first_update after update of ${KEPT} on call_logs begin
      ${sqliteRecompute}
      ${sqliteTakeOver}
    end`);
    await q(`create trigger pipeline_history_first after insert on pipeline_history
      when new.to_stage in ${MEETING} begin
      update first_contacts
      set meeting_at = case when meeting_at is null or new.at < meeting_at then new.at else meeting_at end,
        won_at = case when new.to_stage = 'Won' and (won_at is null or new.at < won_at) then new.at else won_at end
      where prospect_id = new.business_id;
    end`);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const triggers: [string, string][] = [
    ['call_logs_first_insert', 'call_logs'],
    ['call_logs_first_delete', 'call_logs'],
    ['call_logs_first_update', 'call_logs'],
    ['pipeline_history_first', 'pipeline_history'],
  ];
  for (const [name, table] of triggers) {
    await sql.raw(`drop trigger ${name}${postgres ? ` on ${table}` : ''}`).execute(db);
    if (postgres) await sql.raw(`drop function ${name}()`).execute(db);
  }
  await db.schema.dropIndex('call_logs_prospect_created').execute();
  await db.schema.dropTable('first_contacts').execute();
}
