import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Migrator } from 'kysely';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';
import { migrations } from '../../src/server/db/migrations/index.js';
import { deleteUserCompletely } from '../../src/server/users/repository.js';
import type { TeamWinRates } from '../../src/core/api/dashboard.js';

// The cohorts behind win rate by score band: first_contacts is kept by triggers on call_logs and
// pipeline_history (migration 2026-11-26T0700-first-contacts). Each case changes the entries the way the app or
// an admin can (a new entry, an earlier one, a deleted one, a deleted rep, an edited one, a stage change) and
// compares the table with what it must hold, counted by hand, and the answer of the API.

let t: TestContext;
let admin: TestUser;
let ann: TestUser;
let bob: TestUser;

const WEEK = 'period=custom&from=2026-11-02&to=2026-11-08&tz=UTC';

async function log(
  id: string,
  user: TestUser,
  business: string,
  at: string,
  score: number | null,
  category = 'Dentist',
) {
  await t.db.kysely
    .insertInto('call_logs')
    .values({
      id,
      user_id: user.id,
      prospect_id: business,
      name: `Business ${business}`,
      category,
      phone: '',
      website: '',
      address: '',
      outcome: 'Called',
      note: '',
      created_at: at,
      score,
    })
    .execute();
}

let serial = 0;
async function stage(business: string, to: string, at: string) {
  await t.db.kysely
    .insertInto('pipeline_history')
    .values({
      id: `fc-h${serial++}`,
      business_id: business,
      from_stage: null,
      to_stage: to,
      from_owner_id: null,
      from_owner_name: null,
      to_owner_id: ann.id,
      to_owner_name: ann.name,
      by_id: ann.id,
      by_name: ann.name,
      at,
      reason: 'Stage changed',
    })
    .execute();
}

/** The table, as business -> [log id, rep, score, meeting_at, won_at]. */
async function table() {
  const rows = await t.db.kysely.selectFrom('first_contacts').selectAll().orderBy('prospect_id').execute();
  const name = (id: string) => (id === ann.id ? 'ann' : id === bob.id ? 'bob' : id);
  return Object.fromEntries(
    rows.map((r) => [
      r.prospect_id,
      [r.log_id, name(r.user_id), r.score === null ? null : Number(r.score), r.meeting_at, r.won_at],
    ]),
  );
}

const winRateAnswer = async (query: string) => {
  const res = await t.request({ method: 'GET', url: `/api/team/win-rates?${query}`, as: admin });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TeamWinRates>();
};
const counts = (rows: TeamWinRates['bands']) =>
  Object.fromEntries(
    rows.filter((b) => b.businesses > 0).map((b) => [b.key, [b.businesses, b.meetings, b.won]]),
  );
/** Per score band, business count, meetings and wins. */
const winRates = async (query = WEEK) => counts((await winRateAnswer(query)).bands);
/** The same per category. */
const categoryWins = async (query = WEEK) => counts((await winRateAnswer(query)).categories);
const categoryOf = async (business: string) =>
  (
    await t.db.kysely
      .selectFrom('first_contacts')
      .select('category')
      .where('prospect_id', '=', business)
      .executeTakeFirst()
  )?.category;

beforeAll(async () => {
  t = await createTestContext();
  admin = await t.newUser('admin', { name: 'Admin Alice' });
  ann = await t.newUser('user', { name: 'Ann Rep' });
  bob = await t.newUser('user', { name: 'Bob Rep' });
});

afterAll(async () => {
  await t.close();
});

describe('first contacts (the cohorts of win rate by score band)', () => {
  it('follows inserts, earlier entries, deletes, edits, stage changes and a deleted rep', async () => {
    // A meeting before any call is still the business's meeting.
    await stage('X', 'Meeting set', '2026-11-01T10:00:00.000Z');
    await log('a1', ann, 'X', '2026-11-03T10:00:00.000Z', 0.35);
    await log('a2', ann, 'X', '2026-11-04T10:00:00.000Z', 0.95); // a later entry changes nothing
    await log('b1', bob, 'Y', '2026-11-05T10:00:00.000Z', 0.62, 'Plumber');
    expect(await table()).toEqual({
      X: ['a1', 'ann', 0.35, '2026-11-01T10:00:00.000Z', null],
      Y: ['b1', 'bob', 0.62, null, null],
    });
    expect(await winRates()).toEqual({ '30-39': [1, 1, 0], '60-69': [1, 0, 0] });
    expect(await categoryWins()).toEqual({ Dentist: [1, 1, 0], Plumber: [1, 0, 0] });

    // An earlier entry (logged before the week) takes Y over: Y leaves the week's cohort.
    await log('a0', ann, 'Y', '2026-10-30T10:00:00.000Z', 0.1, 'Florist');
    expect((await table()).Y).toEqual(['a0', 'ann', 0.1, null, null]);
    expect(await categoryOf('Y')).toBe('Florist');
    expect(await winRates()).toEqual({ '30-39': [1, 1, 0] });
    expect(await categoryWins()).toEqual({ Dentist: [1, 1, 0] });
    // Same time: the smaller id is first.
    await log('a00', ann, 'Y', '2026-10-30T10:00:00.000Z', 0.2);
    expect((await table()).Y).toEqual(['a0', 'ann', 0.1, null, null]);

    // Deleting the first entry makes the next one first; deleting the last leaves no row.
    await t.db.kysely.deleteFrom('call_logs').where('id', 'in', ['a0', 'a00']).execute();
    expect((await table()).Y).toEqual(['b1', 'bob', 0.62, null, null]);
    expect(await categoryOf('Y')).toBe('Plumber');
    await t.db.kysely.deleteFrom('call_logs').where('id', '=', 'a2').execute(); // not first: no change
    expect((await table()).X).toEqual(['a1', 'ann', 0.35, '2026-11-01T10:00:00.000Z', null]);

    // Stage changes move the milestones earlier, never later; other stages do not count.
    await stage('Y', 'Contacted', '2026-11-05T11:00:00.000Z');
    await stage('Y', 'Won', '2026-11-07T10:00:00.000Z');
    await stage('Y', 'Proposal', '2026-11-06T10:00:00.000Z');
    await stage('Y', 'Won', '2026-11-09T10:00:00.000Z');
    expect((await table()).Y).toEqual([
      'b1',
      'bob',
      0.62,
      '2026-11-06T10:00:00.000Z',
      '2026-11-07T10:00:00.000Z',
    ]);
    expect(await winRates()).toEqual({ '30-39': [1, 1, 0], '60-69': [1, 1, 1] });
    // Won on the 7th is after the end of a period that ends on the 6th.
    expect(await winRates('period=custom&from=2026-11-02&to=2026-11-06&tz=UTC')).toEqual({
      '30-39': [1, 1, 0],
      '60-69': [1, 1, 0],
    });

    // An edited entry: moved later, the business's first is computed again (and the milestones kept).
    await log('b2', bob, 'Y', '2026-11-06T09:00:00.000Z', 0.71);
    await t.db.kysely
      .updateTable('call_logs')
      .set({ created_at: '2026-11-06T12:00:00.000Z' })
      .where('id', '=', 'b1')
      .execute();
    expect((await table()).Y).toEqual([
      'b2',
      'bob',
      0.71,
      '2026-11-06T10:00:00.000Z',
      '2026-11-07T10:00:00.000Z',
    ]);

    // A hard delete of Bob (what a SuperAdmin's "Delete completely" runs) takes his entries: Y has none left.
    await deleteUserCompletely(t.db.kysely, bob.id);
    expect(await table()).toEqual({ X: ['a1', 'ann', 0.35, '2026-11-01T10:00:00.000Z', null] });
    expect(await winRates()).toEqual({ '30-39': [1, 1, 0] });
  });
  it('fills the table from the entries already logged when the migration runs on an existing database', async () => {
    await log('c1', ann, 'Z', '2026-11-04T08:00:00.000Z', 0.5);
    await log('c2', admin, 'Z', '2026-11-03T08:00:00.000Z', null);
    await stage('Z', 'Won', '2026-11-08T08:00:00.000Z');
    const kept = await table();
    const migrator = new Migrator({
      db: t.db.kysely,
      provider: { getMigrations: () => Promise.resolve(migrations) },
    });
    // Back to the migration before this one (and whatever came after it), then up again.
    const names = Object.keys(migrations).sort();
    const before = names[names.indexOf('2026-11-26T0700-first-contacts') - 1]!;
    const down = await migrator.migrateTo(before);
    expect(down.error).toBeUndefined();
    expect(down.results?.map((r) => r.migrationName)).toContain('2026-11-26T0700-first-contacts');
    await log('c3', ann, 'Z', '2026-11-02T08:00:00.000Z', 0.9); // logged while the table was not there
    const up = await migrator.migrateToLatest();
    expect(up.error).toBeUndefined();
    expect(await table()).toEqual({
      ...kept,
      Z: ['c3', 'ann', 0.9, '2026-11-08T08:00:00.000Z', '2026-11-08T08:00:00.000Z'],
    });
  });
});
