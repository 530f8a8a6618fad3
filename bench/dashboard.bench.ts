// `npm run bench -- dashboard [--logs=5000000] [--reps=500] [--runs=30] [--skip-postgres] [--skip-sqlite] [--keep]`
// (--keep leaves the SQLite database file or the PostgreSQL database in place, to study query plans)
// The team dashboard at size: 500 reps with two years of activity (5 million call logs, and saves,
// strategy requests and scans in proportion), then every /api/team route timed through the app (access
// control, validation, the database's aggregates, serialisation) as an admin, for this week, last week and
// this month counted in America/Chicago, on SQLite and PostgreSQL. Writes docs/PERFORMANCE.md's "Team dashboard"
// section (only for a full-size run).
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { parseConfig } from '../src/server/config.js';
import { openDatabase, type Db } from '../src/server/db/database.js';
import { buildApp } from '../src/server/app.js';
import { registerAccount } from '../src/server/users/accounts.js';
import { updateProfile } from '../src/server/users/repository.js';
import { arg, rng, scratchDatabase, writeSection } from './util.js';

const ORIGIN = 'http://localhost:3000';
const YEARS_MS = 2 * 365 * 86_400_000;
const CATEGORIES = ['Dentist', 'Auto Dealer', 'Restaurant', 'Plumber', 'Law Firm', 'Gym', 'Salon', 'Florist', 'HVAC', 'Realtor', 'Chiropractor', 'Furniture Store']; // prettier-ignore
const BUSINESSES = 200_000;
/** Chicago and around: businesses on a grid of 0.6 x 0.8 degrees. */
const AREA = { lat: 41.6, lng: -88.0, dLat: 0.6, dLng: 0.8 };

interface Target {
  kind: 'sqlite' | 'postgres';
  db: Db;
  app: FastifyInstance;
  cookie: string;
  file?: string;
  url: string;
  drop(): Promise<void>;
}

async function openTarget(kind: 'sqlite' | 'postgres'): Promise<Target> {
  const scratch = await scratchDatabase(kind, 'pf-bench-dashboard-');
  const config = parseConfig({
    NODE_ENV: 'test',
    DATA_DIR: scratch.dataDir,
    DATABASE_URL: scratch.url,
    LOG_LEVEL: 'silent',
    PUBLIC_URL: ORIGIN,
    AUTH_SECRET: randomBytes(32).toString('hex'),
    SIGN_IN_RATE_LIMIT: '1000',
    // Generating millions of rows takes longer than a request may.
    DATABASE_STATEMENT_TIMEOUT_MS: '0',
  });
  const db = openDatabase(config);
  const app = await buildApp({ config, db, serveWeb: false });
  const password = 'bench-password-1';
  const { userId } = await registerAccount(
    db,
    { name: 'Bench Admin', email: 'admin@bench.example', password },
    8,
  );
  await updateProfile(db.kysely, userId, { role: 'admin', isSuperAdmin: false });
  const res = await app.inject({
    method: 'POST',
    url: '/api/session',
    headers: { origin: ORIGIN },
    payload: { email: 'admin@bench.example', password },
  });
  const setCookie = res.headers['set-cookie'];
  const cookie = (Array.isArray(setCookie) ? setCookie : [setCookie ?? ''])
    .map((c) => c.split(';')[0])
    .join('; ');
  return {
    kind,
    db,
    app,
    cookie,
    url: scratch.url,
    ...(kind === 'sqlite' ? { file: join(scratch.dataDir, 'app.db') } : {}),
    drop: async () => {
      await app.close();
      await db.destroy();
      await scratch.remove();
    },
  };
}

const iso = (ms: number) => new Date(ms).toISOString();
const businessLat = (k: number) => AREA.lat + ((k % 500) / 500) * AREA.dLat;
const businessLng = (k: number) => AREA.lng + (Math.floor(k / 500) / (BUSINESSES / 500)) * AREA.dLng;
const businessScore = (k: number) => ((k * 7919) % 1000) / 1000;

/** 500 reps straight into the tables (better-auth's user and the profile); registering each would hash 500 passwords. */
async function insertReps(db: Db, reps: number, now: number): Promise<string[]> {
  const ids = Array.from({ length: reps }, (_, i) => `rep-${String(i).padStart(4, '0')}`);
  const at = iso(now - YEARS_MS);
  for (let i = 0; i < ids.length; i += 100) {
    const chunk = ids.slice(i, i + 100);
    await db.kysely
      .insertInto('user')
      .values(
        chunk.map((id) => ({
          id,
          name: `Rep ${id.slice(4)}`,
          email: `${id}@bench.example`,
          emailVerified: db.kind === 'sqlite' ? 0 : false,
          createdAt: at,
          updatedAt: at,
        })),
      )
      .execute();
    await db.kysely
      .insertInto('user_profiles')
      .values(
        chunk.map((id) => ({
          user_id: id,
          email: `${id}@bench.example`,
          name: `Rep ${id.slice(4)}`,
          role: 'user' as const,
          is_super_admin: 0,
          hide_instructions: 0,
          install_prompt_dismissed: 0,
          search_settings: null,
          last_sign_in_at: null,
          created_at: at,
          updated_at: at,
        })),
      )
      .execute();
  }
  return ids;
}

interface Volumes {
  logs: number;
  saves: number;
  strategies: number;
  searches: number;
  /** Pipeline stage changes (pipeline_history), follow-ups set, and businesses owned now (pipeline). */
  stageChanges: number;
  followUps: number;
  owned: number;
}

/** The stage a generated change sets, from a number in [0, 1): mostly Contacted, few Won. */
const STAGE_CUTS: [number, string][] = [
  [0.5, 'Contacted'],
  [0.75, 'Meeting set'],
  [0.9, 'Proposal'],
  [0.97, 'Won'],
  [1, 'Lost'],
];
const stageOf = (x: number) => STAGE_CUTS.find(([cut]) => x < cut)![1];

/**
 * SQLite: one prepared INSERT per table, run in one transaction, rows in time order (as they would arrive).
 * Activity is spread over the two years ending now, a rep picked at random for each row.
 */
function fillSqlite(db: Db, reps: string[], v: Volumes, now: number): void {
  const h = db.sqlite!;
  const random = rng(19);
  const start = now - YEARS_MS;
  const log = h.prepare(
    `insert into call_logs (id, user_id, prospect_id, name, category, phone, website, address, outcome, note, created_at, score, lat, lng)
     values (?, ?, ?, ?, ?, '', '', ?, ?, ?, ?, ?, ?, ?)`,
  );
  const save = h.prepare(
    `insert or ignore into saved_prospects (id, user_id, prospect_id, prospect, note, created_at) values (?, ?, ?, ?, null, ?)`,
  );
  const ask = h.prepare(
    `insert into strategy_requests (id, user_id, business_id, name, category, created_at) values (?, ?, ?, ?, ?, ?)`,
  );
  const scan = h.prepare(
    `insert into searches (id, user_id, created_at, kind, lat, lng, radius_miles, count, categories, location_label, query, total)
     values (?, ?, ?, 'scan', ?, ?, ?, 20, '[]', null, null, 20)`,
  );
  const change = h.prepare(
    `insert into pipeline_history (id, business_id, from_stage, to_stage, from_owner_id, from_owner_name, to_owner_id, to_owner_name, by_id, by_name, at, reason)
     values (?, ?, null, ?, null, null, ?, ?, ?, ?, ?, 'Stage changed')`,
  );
  const follow = h.prepare(
    `insert into follow_ups (id, user_id, prospect_id, name, category, address, phone, website, score, lat, lng, due_date, due_time, time_zone, next_step, is_meeting, done_at, created_at, updated_at, call_log_id)
     values (?, ?, ?, ?, '', '', '', '', null, null, null, ?, null, 'America/Chicago', 'Call back', 0, null, ?, ?, null)`,
  );
  const own = h.prepare(
    `insert or ignore into pipeline (business_id, label, owner_id, owner_name, stage, since, updated_at) values (?, ?, ?, ?, ?, ?, ?)`,
  );
  const span = now - 60_000 - start;
  h.transaction(() => {
    for (let i = 0; i < v.logs; i++) {
      const k = Math.floor(random() * BUSINESSES);
      const placed = random() < 0.9;
      log.run(
        `c${i}`,
        reps[Math.floor(random() * reps.length)],
        `b${k}`,
        `Business ${k}`,
        CATEGORIES[k % CATEGORIES.length],
        `${k} Main St`,
        random() < 0.75 ? 'Called' : 'Visited',
        random() < 0.3 ? 'Left a message with the owner' : '',
        iso(start + Math.floor((i / v.logs) * span)),
        placed ? businessScore(k) : null,
        placed ? businessLat(k) : null,
        placed ? businessLng(k) : null,
      );
    }
    for (let i = 0; i < v.saves; i++) {
      const k = Math.floor(random() * BUSINESSES);
      const prospect = JSON.stringify({
        id: `b${k}`,
        name: `Business ${k}`,
        category: CATEGORIES[k % CATEGORIES.length],
        address: `${k} Main St`,
        lat: businessLat(k),
        lng: businessLng(k),
        score: businessScore(k),
      });
      const user = reps[Math.floor(random() * reps.length)]!;
      save.run(`s${i}`, user, `b${k}`, prospect, iso(start + Math.floor((i / v.saves) * span)));
    }
    for (let i = 0; i < v.strategies; i++) {
      const k = Math.floor(random() * BUSINESSES);
      const user = reps[Math.floor(random() * reps.length)];
      const at = iso(start + Math.floor((i / v.strategies) * span));
      ask.run(`q${i}`, user, `b${k}`, `Business ${k}`, CATEGORIES[k % CATEGORIES.length], at);
    }
    for (let i = 0; i < v.searches; i++) {
      const k = Math.floor(random() * BUSINESSES);
      const user = reps[Math.floor(random() * reps.length)];
      const at = iso(start + Math.floor((i / v.searches) * span));
      scan.run(`r${i}`, user, at, businessLat(k), businessLng(k), [1, 3, 5, 10][k % 4]);
    }
    for (let i = 0; i < v.stageChanges; i++) {
      const k = Math.floor(random() * BUSINESSES);
      const user = reps[Math.floor(random() * reps.length)]!;
      const at = iso(start + Math.floor((i / v.stageChanges) * span));
      change.run(
        `h${i}`,
        `b${k}`,
        stageOf(random()),
        user,
        `Rep ${user.slice(4)}`,
        user,
        `Rep ${user.slice(4)}`,
        at,
      );
    }
    for (let i = 0; i < v.followUps; i++) {
      const k = Math.floor(random() * BUSINESSES);
      const user = reps[Math.floor(random() * reps.length)];
      const at = iso(start + Math.floor((i / v.followUps) * span));
      follow.run(`f${i}`, user, `b${k}`, `Business ${k}`, at.slice(0, 10), at, at);
    }
    for (let i = 0; i < v.owned; i++) {
      const k = Math.floor(random() * BUSINESSES);
      const user = reps[Math.floor(random() * reps.length)]!;
      const at = iso(start + Math.floor(random() * span));
      own.run(`b${k}`, `Business ${k}`, user, `Rep ${user.slice(4)}`, stageOf(random()), at, at);
    }
  })();
  h.exec('ANALYZE');
}

/** PostgreSQL: generate_series on the server, the same shapes and proportions as on SQLite. */
async function fillPostgres(db: Db, reps: string[], v: Volumes, now: number): Promise<void> {
  const start = iso(now - YEARS_MS);
  const span = (now - 60_000 - (now - YEARS_MS)) / 1000;
  const cats = `array[${CATEGORIES.map((c) => `'${c}'`).join(',')}]`;
  const k = `(floor(random() * ${BUSINESSES}))::int`;
  const at = (n: number) =>
    `to_char(timestamp '${start.slice(0, 19).replace('T', ' ')}' + (g::float8 / ${n} * ${span}) * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const lat = (b: string) => `${AREA.lat} + ((${b} % 500)::float8 / 500) * ${AREA.dLat}`;
  const lng = (b: string) => `${AREA.lng} + (floor(${b} / 500)::float8 / ${BUSINESSES / 500}) * ${AREA.dLng}`;
  const score = (b: string) => `((${b} * 7919) % 1000)::float8 / 1000`;
  const q = (text: string) => sql.raw(text).execute(db.kysely);
  await q(`select setseed(0.19)`);
  const repArray = `array[${reps.map((r) => `'${r}'`).join(',')}]`;
  const rep = `(${repArray})[1 + floor(random() * ${reps.length})::int]`;
  await q(`
    insert into call_logs (id, user_id, prospect_id, name, category, phone, website, address, outcome, note, created_at, score, lat, lng)
    select 'c' || g, ${rep}, 'b' || b, 'Business ' || b, (${cats})[1 + b % ${CATEGORIES.length}], '', '', b || ' Main St',
      case when random() < 0.75 then 'Called' else 'Visited' end,
      case when random() < 0.3 then 'Left a message with the owner' else '' end,
      ${at(v.logs)},
      case when placed then ${score('b')} end, case when placed then ${lat('b')} end, case when placed then ${lng('b')} end
    from (select g, ${k} as b, random() < 0.9 as placed from generate_series(0, ${v.logs - 1}) g) s`);
  await q(`
    insert into saved_prospects (id, user_id, prospect_id, prospect, note, created_at)
    select 's' || g, ${rep}, 'b' || b,
      json_build_object('id', 'b' || b, 'name', 'Business ' || b, 'category', (${cats})[1 + b % ${CATEGORIES.length}],
        'address', b || ' Main St', 'lat', ${lat('b')}, 'lng', ${lng('b')}, 'score', ${score('b')})::text,
      null, ${at(v.saves)}
    from (select g, ${k} as b from generate_series(0, ${v.saves - 1}) g) s
    on conflict do nothing`);
  await q(`
    insert into strategy_requests (id, user_id, business_id, name, category, created_at)
    select 'q' || g, ${rep}, 'b' || b, 'Business ' || b, (${cats})[1 + b % ${CATEGORIES.length}], ${at(v.strategies)}
    from (select g, ${k} as b from generate_series(0, ${v.strategies - 1}) g) s`);
  await q(`
    insert into searches (id, user_id, created_at, kind, lat, lng, radius_miles, count, categories, location_label, query, total)
    select 'r' || g, ${rep}, ${at(v.searches)}, 'scan', ${lat('b')}, ${lng('b')}, (array[1,3,5,10])[1 + b % 4], 20, '[]', null, null, 20
    from (select g, ${k} as b from generate_series(0, ${v.searches - 1}) g) s`);
  const stage = `(case when x < 0.5 then 'Contacted' when x < 0.75 then 'Meeting set' when x < 0.9 then 'Proposal'
    when x < 0.97 then 'Won' else 'Lost' end)`;
  await q(`
    insert into pipeline_history (id, business_id, from_stage, to_stage, from_owner_id, from_owner_name, to_owner_id, to_owner_name, by_id, by_name, at, reason)
    select 'h' || g, 'b' || b, null, ${stage}, null, null, u, 'Rep ' || substr(u, 5), u, 'Rep ' || substr(u, 5),
      ${at(v.stageChanges)}, 'Stage changed'
    from (select g, ${k} as b, random() as x, ${rep} as u from generate_series(0, ${v.stageChanges - 1}) g) s`);
  await q(`
    insert into follow_ups (id, user_id, prospect_id, name, category, address, phone, website, score, lat, lng, due_date, due_time, time_zone, next_step, is_meeting, done_at, created_at, updated_at, call_log_id)
    select 'f' || g, ${rep}, 'b' || b, 'Business ' || b, '', '', '', '', null, null, null, substr(${at(v.followUps)}, 1, 10), null,
      'America/Chicago', 'Call back', 0, null, ${at(v.followUps)}, ${at(v.followUps)}, null
    from (select g, ${k} as b from generate_series(0, ${v.followUps - 1}) g) s`);
  await q(`
    insert into pipeline (business_id, label, owner_id, owner_name, stage, since, updated_at)
    select 'b' || b, 'Business ' || b, u, 'Rep ' || substr(u, 5), ${stage}, t, t
    from (select ${k} as b, random() as x, ${rep} as u,
      to_char(timestamp '${start.slice(0, 19).replace('T', ' ')}' + random() * ${span} * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as t
      from generate_series(0, ${v.owned - 1}) g) s
    on conflict do nothing`);
  // What autovacuum does on a live server: statistics for the planner and the visibility map for index-only scans.
  await q('vacuum analyze');
}

interface Timing {
  route: string;
  period: string;
  p50: number;
  p95: number;
  max: number;
}

async function timeRoutes(t: Target, reps: string[], runs: number, now: number): Promise<Timing[]> {
  const tz = 'tz=America%2FChicago';
  const rep = reps[7]!;
  const cases: [string, string, string][] = [];
  for (const period of ['this-week', 'last-week', 'this-month']) {
    const q = `period=${period}&${tz}`;
    cases.push(['activity', period, `/api/team/activity?${q}`]);
    cases.push(['daily', period, `/api/team/daily?${q}`]);
    cases.push(['outcomes', period, `/api/team/outcomes?${q}`]);
    cases.push(['map', period, `/api/team/map?${q}`]);
    cases.push(['rep page', period, `/api/team/reps/${rep}?${q}`]);
    cases.push(['activity, one rep', period, `/api/team/activity?${q}&userId=${rep}`]);
    cases.push(['funnel', period, `/api/team/funnel?${q}`]);
    cases.push(['win rates', period, `/api/team/win-rates?${q}`]);
    cases.push(['rep pipeline', period, `/api/team/reps/${rep}/pipeline?${q}`]);
    cases.push(['rep route', period, `/api/team/reps/${rep}/route?${q}`]);
  }
  // Win rates read the businesses first called in the period: the generated entries pick businesses at random,
  // so most are first called in the first weeks of the two years. That month is the largest cohort there is.
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const first = now - YEARS_MS + 86_400_000;
  cases.push([
    'win rates',
    'first month',
    `/api/team/win-rates?period=custom&from=${day(first)}&to=${day(first + 30 * 86_400_000)}&${tz}`,
  ]);
  cases.push(['inactive (7 days)', 'now', '/api/team/inactive?days=7']);
  const out: Timing[] = [];
  for (const [route, period, url] of cases) {
    const call = async () => {
      const res = await t.app.inject({ method: 'GET', url, headers: { origin: ORIGIN, cookie: t.cookie } });
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    };
    for (let i = 0; i < 3; i++) await call(); // warm-up: statement cache, pages in memory
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      await call();
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
    out.push({ route, period, p50: at(0.5), p95: at(0.95), max: at(1) });
  }
  return out;
}

const ms = (v: number) => `${v.toFixed(1)} ms`;

export default async function run(args: string[]): Promise<void> {
  const logs = arg(args, 'logs', 5_000_000);
  const nReps = arg(args, 'reps', 500);
  const runs = arg(args, 'runs', 30);
  const volumes: Volumes = {
    logs,
    saves: Math.round(logs * 0.06),
    strategies: Math.round(logs * 0.04),
    searches: Math.round(logs * 0.04),
    stageChanges: Math.round(logs * 0.1),
    followUps: Math.round(logs * 0.05),
    owned: Math.min(BUSINESSES / 2, Math.round(logs * 0.02)),
  };
  const kinds = (['sqlite', 'postgres'] as const).filter((k) => !args.includes(`--skip-${k}`));
  const now = Date.now();
  const measured: { label: string; generated: string; timings: Timing[] }[] = [];
  let worst = 0;
  const over: string[] = [];
  for (const kind of kinds) {
    const label = kind === 'sqlite' ? 'SQLite' : 'PostgreSQL';
    const t = await openTarget(kind);
    try {
      const reps = await insertReps(t.db, nReps, now);
      const t0 = performance.now();
      if (kind === 'sqlite') fillSqlite(t.db, reps, volumes, now);
      else await fillPostgres(t.db, reps, volumes, now);
      const fillS = (performance.now() - t0) / 1000;
      const size =
        kind === 'sqlite'
          ? statSync(t.file!).size
          : Number(
              (
                await sql<{ s: string }>`select pg_database_size(current_database()) as s`.execute(
                  t.db.kysely,
                )
              ).rows[0]!.s,
            );
      console.log(
        `${label}: ${logs.toLocaleString('en-US')} call logs, ${volumes.saves.toLocaleString('en-US')} saves, ` +
          `${volumes.strategies.toLocaleString('en-US')} strategy requests, ${volumes.searches.toLocaleString('en-US')} scans, ` +
          `${volumes.stageChanges.toLocaleString('en-US')} stage changes, ${volumes.followUps.toLocaleString('en-US')} follow-ups ` +
          `for ${nReps} reps in ${fillS.toFixed(0)} s (${(size / 1e9).toFixed(2)} GB)`,
      );
      const timings = await timeRoutes(t, reps, runs, now);
      for (const r of timings) {
        worst = Math.max(worst, r.p95);
        if (r.p95 >= 300) over.push(`${label} ${r.route} ${r.period} (${ms(r.p95)})`);
        console.log(
          `  ${r.route.padEnd(18)} ${r.period.padEnd(11)} p50 ${ms(r.p50)}  p95 ${ms(r.p95)}  max ${ms(r.max)}`,
        );
      }
      measured.push({
        label,
        generated: `${label}, generated in ${fillS.toFixed(0)} s, ${(size / 1e9).toFixed(2)} GB`,
        timings,
      });
    } finally {
      if (args.includes('--keep')) {
        console.log(`Kept ${kind === 'sqlite' ? t.file : t.url}`);
        await t.app.close();
        await t.db.destroy();
      } else await t.drop();
    }
  }
  console.log(`Worst p95: ${ms(worst)} (target < 300 ms)`);
  if (logs >= 5_000_000 && measured.length === 2) {
    // One row per route and period, the two databases side by side.
    const key = (r: Timing) => `${r.route} ${r.period}`;
    const second = new Map(measured[1]!.timings.map((r) => [key(r), r]));
    const cells = (r: Timing | undefined) => (r ? `${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.max)}` : '— | — | —');
    const table = [
      `| route | period | ${measured.map((m) => `${m.label} p50 | ${m.label} p95 | ${m.label} max`).join(' | ')} |`,
      `| --- | --- | ${measured.map(() => '---: | ---: | ---:').join(' | ')} |`,
      ...measured[0]!.timings.map(
        (r) => `| ${r.route} | ${r.period} | ${cells(r)} | ${cells(second.get(key(r)))} |`,
      ),
    ];
    await writeSection(
      [
        '## Team dashboard',
        '',
        `\`npm run bench -- dashboard\` (\`bench/dashboard.bench.ts\`; options \`--logs=5000000 --reps=500 --runs=30\`,`,
        '`--skip-sqlite`, `--skip-postgres`, `--keep`; a run of both databases at 5,000,000 call logs or more writes this',
        `section): ${nReps} reps with two years of activity (${logs.toLocaleString('en-US')} call logs, ${volumes.saves.toLocaleString('en-US')} saves, ${volumes.strategies.toLocaleString('en-US')} strategy requests,`,
        `${volumes.searches.toLocaleString('en-US')} scans, ${volumes.stageChanges.toLocaleString('en-US')} pipeline stage changes, ${volumes.followUps.toLocaleString('en-US')} follow-ups and ${volumes.owned.toLocaleString('en-US')} owned businesses),`,
        `every \`/api/team\` route called ${runs} times through the app as an admin (after 3 warm-up calls), days counted in`,
        'America/Chicago; "first month" is the largest cohort of first contacts in the data. Target: every route\'s p95',
        'under 300 ms. PostgreSQL after `VACUUM ANALYZE` (what autovacuum keeps up), SQLite after `ANALYZE`. How the',
        'routes count (rollups kept by triggers, first_contacts) is said in src/server/team/repository.ts.',
        `${cpus().length} cores shared with other work (load average ${loadavg()[0]!.toFixed(1)} at the end).`,
        `Worst p95 of any route: **${ms(worst)}** (target < 300 ms).` +
          (over.length ? ` Over the target: ${over.join(', ')}.` : ' Every route met the target.'),
        '',
        `${logs.toLocaleString('en-US')} call logs: ${measured.map((m) => m.generated).join('; ')}.`,
        '',
        ...table,
        '',
      ].join('\n'),
      '## Team dashboard',
    );
  }
}
