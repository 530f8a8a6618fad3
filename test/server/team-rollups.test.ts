import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';
import type { TeamDaily, TeamMap, TeamOutcomes } from '../../src/core/api/dashboard.js';
import * as rollups from '../../src/server/db/migrations/2026-11-25T0550-call-log-rollups.js';

// The team dashboard's rollups (migration 2026-11-25T0550-call-log-rollups, so it stays fast at size): the
// team's answers come from counts kept by triggers plus or minus raw rows at the ends of the period, one
// rep's from raw rows. So, for any zone and period, the team's answer must equal the sum of every rep's
// answer, and the rollup tables must equal the same counts grouped from call_logs, after inserts, deletes,
// updates and a deleted rep.

let t: TestContext;
let admin: TestUser;
const reps: TestUser[] = [];

const ZONES = ['UTC', 'America/Chicago', 'Asia/Kolkata', 'Asia/Kathmandu', 'America/St_Johns'];
const PERIODS: [string, string][] = [
  ['2026-10-28', '2026-11-30'], // across a month's end and the daylight-saving change of 1 November
  ['2026-11-01', '2026-11-30'], // a month
  ['2026-11-02', '2026-11-08'], // a week
  ['2026-11-15', '2026-11-15'], // a day
];
const CATEGORIES = ['Dentist', 'Florist', ' Gym ', 'Auto Dealer', ''];
const OUTCOMES = ['Called', 'Called', 'Visited', 'Not interested'];

/** A small deterministic generator (mulberry32). */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

let serial = 0;
async function insertLogs(count: number, seed: number) {
  const next = random(seed);
  const from = Date.parse('2026-10-25T00:00:00Z');
  const span = 42 * 86_400_000;
  // Instants on or next to local midnights of the zones: Chicago (05:00/06:00), Kolkata (18:30),
  // Kathmandu (18:15), St John's (02:30/03:30), UTC.
  const edges = ['05:00', '06:00', '18:30', '18:15', '02:30', '03:30', '00:00'];
  const rows = [];
  for (let i = 0; i < count; i++) {
    let at: number;
    if (i % 3 === 0) {
      const day = new Date(from + Math.floor(next() * 42) * 86_400_000).toISOString().slice(0, 10);
      const edge = edges[Math.floor(next() * edges.length)]!;
      at = Date.parse(`${day}T${edge}:00.000Z`) + [-1, 0, 1, -60_000, 59_999][Math.floor(next() * 5)]!;
    } else {
      at = from + Math.floor(next() * span);
    }
    const placed = next() < 0.8;
    const scored = next() < 0.85;
    rows.push({
      id: `r${serial++}`,
      user_id: reps[Math.floor(next() * reps.length)]!.id,
      prospect_id: `p${i}`,
      name: `Business ${i}`,
      category: CATEGORIES[Math.floor(next() * CATEGORIES.length)]!,
      phone: '',
      website: '',
      address: '',
      outcome: OUTCOMES[Math.floor(next() * OUTCOMES.length)]!,
      note: '',
      created_at: new Date(at).toISOString(),
      score: scored
        ? [0, 0.1, 0.42, 0.999, 1, Math.round(next() * 1000) / 1000][Math.floor(next() * 6)]!
        : null,
      lat: placed ? 41.6 + Math.round(next() * 3000) / 10000 : null,
      lng: placed ? -87.9 + Math.round(next() * 3000) / 10000 : null,
    });
  }
  await t.db.kysely.insertInto('call_logs').values(rows).execute();
}

beforeAll(async () => {
  t = await createTestContext();
  admin = await t.newUser('admin', { name: 'Admin Alice' });
  for (const name of ['Ann', 'Bob', 'Cat']) reps.push(await t.newUser('user', { name: `${name} Rep` }));
  await insertLogs(300, 1);
  // One insert per row too (SQLite's row triggers and PostgreSQL's statement triggers alike).
  for (let i = 0; i < 20; i++) await insertLogs(1, 100 + i);
});

afterAll(async () => {
  await t.close();
});

const get = async <T>(url: string): Promise<T> => {
  const res = await t.request({ method: 'GET', url, as: admin });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<T>();
};

const query = (zone: string, [from, to]: [string, string], userId?: string) =>
  `period=custom&from=${from}&to=${to}&tz=${encodeURIComponent(zone)}${userId ? `&userId=${userId}` : ''}`;

/** The team's answers and the sum of every rep's (raw rows), in one comparable shape. */
async function teamAndSumOfReps(zone: string, period: [string, string]) {
  const shape = (daily: TeamDaily[], outcomes: TeamOutcomes[], maps: TeamMap[]) => {
    const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
    const days = new Map<string, number>();
    const counts = new Map<string, number>();
    const cells = new Map<string, number>();
    let unplaced = 0;
    for (const d of daily) {
      for (const day of d.days) {
        add(days, `${day.date} calls`, day.calls);
        add(days, `${day.date} visits`, day.visits);
      }
    }
    for (const o of outcomes) {
      for (const x of o.outcomes) add(counts, `outcome ${x.outcome}`, x.count);
      for (const b of o.scoreBands) {
        add(counts, `band ${b.key} called`, b.called);
        add(counts, `band ${b.key} visited`, b.visited);
      }
      for (const c of o.categories) {
        add(counts, `category ${c.key} called`, c.called);
        add(counts, `category ${c.key} visited`, c.visited);
      }
    }
    for (const m of maps) {
      expect(m.cellDegrees).toBe(0.01);
      expect(m.truncated).toBe(false);
      unplaced += m.unplaced;
      for (const c of m.cells) {
        add(cells, `${c.lat},${c.lng} calls`, c.calls);
        add(cells, `${c.lat},${c.lng} visits`, c.visits);
      }
    }
    const sorted = (m: Map<string, number>) => [...m.entries()].filter(([, v]) => v !== 0).sort();
    return { days: sorted(days), counts: sorted(counts), cells: sorted(cells), unplaced };
  };
  const answers = async (userId?: string) => {
    const q = query(zone, period, userId);
    return Promise.all([
      get<TeamDaily>(`/api/team/daily?${q}`),
      get<TeamOutcomes>(`/api/team/outcomes?${q}`),
      get<TeamMap>(`/api/team/map?${q}`),
    ]);
  };
  const [daily, outcomes, map] = await answers();
  const each = await Promise.all(reps.map((r) => answers(r.id)));
  return {
    team: shape([daily], [outcomes], [map]),
    reps: shape(
      each.map((e) => e[0]),
      each.map((e) => e[1]),
      each.map((e) => e[2]),
    ),
  };
}

/** The rollup tables against the same counts grouped in JS from every row of call_logs. */
async function expectRollupsExact() {
  const logs = await t.db.kysely
    .selectFrom('call_logs')
    .select(['created_at', 'outcome', 'category', 'score', 'lat', 'lng'])
    .execute();
  const hours = new Map<string, number>();
  const days = new Map<string, number>();
  const cells = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  for (const l of logs) {
    const score = l.score ?? null;
    const band = score === null ? -1 : score >= 1 ? 9 : score < 0 ? 0 : Math.floor(score * 10);
    const placed = l.lat != null && l.lng != null;
    add(hours, `${l.created_at.slice(0, 13)}|${l.outcome}`, 1);
    add(days, `${l.created_at.slice(0, 10)}|${l.outcome}|${l.category}|${band}|${placed ? 1 : 0}`, 1);
    if (placed) {
      for (const len of [10, 7]) {
        const key = `${l.created_at.slice(0, len)}|${Math.floor(l.lat! * 100)}|${Math.floor(l.lng! * 100)}`;
        add(cells, `${key}|n`, 1);
        add(cells, `${key}|calls`, l.outcome === 'Called' ? 1 : 0);
        add(cells, `${key}|visits`, l.outcome === 'Visited' ? 1 : 0);
      }
    }
  }
  const stored = {
    hours: new Map<string, number>(),
    days: new Map<string, number>(),
    cells: new Map<string, number>(),
  };
  for (const r of await t.db.kysely.selectFrom('call_log_hours').selectAll().execute()) {
    add(stored.hours, `${r.hour}|${r.outcome}`, Number(r.n));
  }
  for (const r of await t.db.kysely.selectFrom('call_log_days').selectAll().execute()) {
    add(stored.days, `${r.day}|${r.outcome}|${r.category}|${r.band}|${r.placed}`, Number(r.n));
  }
  for (const r of await t.db.kysely.selectFrom('call_log_cells').selectAll().execute()) {
    const key = `${r.bucket}|${r.lat_cell}|${r.lng_cell}`;
    add(stored.cells, `${key}|n`, Number(r.n));
    add(stored.cells, `${key}|calls`, Number(r.calls));
    add(stored.cells, `${key}|visits`, Number(r.visits));
  }
  const nonZero = (m: Map<string, number>) => [...m.entries()].filter(([, v]) => v !== 0).sort();
  expect(nonZero(stored.hours)).toEqual(nonZero(hours));
  expect(nonZero(stored.days)).toEqual(nonZero(days));
  expect(nonZero(stored.cells)).toEqual(nonZero(cells));
  return logs.length;
}

describe('team dashboard rollups', () => {
  it('hold exactly the counts of call_logs', async () => {
    expect(await expectRollupsExact()).toBe(320);
  });

  for (const zone of ZONES) {
    it(`answer the team's counts as the sum of every rep's raw counts in ${zone}`, async () => {
      for (const period of PERIODS) {
        const { team, reps: sum } = await teamAndSumOfReps(zone, period);
        expect(team.days.length).toBeGreaterThan(0);
        expect(team).toEqual(sum);
      }
    });
  }

  it('stay exact after deletes, updates of outcome, time and place, and a deleted rep', async () => {
    const ids = (await t.db.kysely.selectFrom('call_logs').select('id').orderBy('id').execute()).map(
      (r) => r.id,
    );
    await t.db.kysely.deleteFrom('call_logs').where('id', 'in', ids.slice(0, 25)).execute();
    await t.db.kysely.deleteFrom('call_logs').where('id', '=', ids[30]!).execute();
    await t.db.kysely
      .updateTable('call_logs')
      .set({ outcome: 'Visited' })
      .where('id', '=', ids[40]!)
      .execute();
    await t.db.kysely
      .updateTable('call_logs')
      .set({ outcome: 'Called', category: 'Florist' })
      .where('id', 'in', ids.slice(50, 70))
      .execute();
    await t.db.kysely
      .updateTable('call_logs')
      .set({ created_at: '2026-11-15T18:29:59.999Z', score: 0.55, lat: 41.7, lng: -87.7 })
      .where('id', '=', ids[80]!)
      .execute();
    await t.db.kysely.updateTable('call_logs').set({ lat: null }).where('id', '=', ids[81]!).execute();
    // An update of a column the rollups do not count changes nothing.
    await t.db.kysely.updateTable('call_logs').set({ note: 'edited' }).where('id', '=', ids[90]!).execute();
    await insertLogs(40, 7);
    const before = await expectRollupsExact();
    // A deleted account: its call logs go with it (ON DELETE CASCADE), and so do their counts.
    const gone = reps[1]!;
    const own = await t.db.kysely
      .selectFrom('call_logs')
      .select((eb) => eb.fn.countAll<number>().as('k'))
      .where('user_id', '=', gone.id)
      .executeTakeFirstOrThrow();
    expect(Number(own.k)).toBeGreaterThan(0);
    await t.db.kysely.deleteFrom('user').where('id', '=', gone.id).execute();
    reps.splice(1, 1);
    expect(await expectRollupsExact()).toBe(before - Number(own.k));
    for (const zone of ['Asia/Kathmandu', 'America/St_Johns', 'America/Chicago']) {
      for (const period of [PERIODS[0]!, PERIODS[3]!]) {
        const { team, reps: sum } = await teamAndSumOfReps(zone, period);
        expect(team).toEqual(sum);
      }
    }
  });

  it('are filled from the call logs already there when the migration runs, and dropped by its down', async () => {
    const logs = await expectRollupsExact();
    await rollups.down(t.db.kysely);
    await rollups.up(t.db.kysely);
    expect(await expectRollupsExact()).toBe(logs);
    await insertLogs(5, 99);
    expect(await expectRollupsExact()).toBe(logs + 5);
  });
});
