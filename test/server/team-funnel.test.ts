import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';
import type {
  RepPipeline,
  RepRoute,
  TeamActivity,
  TeamDaily,
  TeamFunnel,
  TeamWinRates,
} from '../../src/core/api/dashboard.js';

// The rest of the team dashboard against hand-counted fixtures: the pipeline funnel, win rate by
// score band, follow-ups per rep, and a rep's pipeline and route history. The week of Monday 2 to Sunday 8
// November 2026 counted in Chicago (UTC-6) and in UTC: an entry at 23:30 on Sunday the 8th in Chicago
// (05:30 UTC on Monday the 9th) is in the Chicago week and after the UTC one; one at 23:30 on Sunday the 1st in
// Chicago is before the Chicago week and in the UTC one. Every expected number was counted by hand.

let t: TestContext;
let admin: TestUser;
let ann: TestUser;
let bob: TestUser;
let cat: TestUser;

const CHICAGO = 'period=custom&from=2026-11-02&to=2026-11-08&tz=America%2FChicago';
const UTC = 'period=custom&from=2026-11-02&to=2026-11-08&tz=UTC';
/** 23:30 on Sunday the 8th in Chicago; Monday the 9th in UTC. */
const SUNDAY_2330_CHICAGO = '2026-11-09T05:30:00.000Z';
/** 23:30 on Sunday the 1st in Chicago; Monday the 2nd in UTC. */
const BEFORE_2330_CHICAGO = '2026-11-02T05:30:00.000Z';

let historySerial = 0;
async function history(
  business: string,
  to: string,
  owner: TestUser | null,
  at: string,
  options: { from?: string; fromOwner?: TestUser; by?: TestUser } = {},
) {
  const by = options.by ?? owner ?? admin;
  await t.db.kysely
    .insertInto('pipeline_history')
    .values({
      id: `h${String(historySerial++).padStart(3, '0')}`,
      business_id: business,
      from_stage: options.from ?? null,
      to_stage: to,
      from_owner_id: options.fromOwner?.id ?? null,
      from_owner_name: options.fromOwner?.name ?? null,
      to_owner_id: owner?.id ?? null,
      to_owner_name: owner?.name ?? null,
      by_id: by.id,
      by_name: by.name,
      at,
      reason: 'Stage changed',
    })
    .execute();
}

async function entry(business: string, owner: TestUser | null, stage: string, since: string) {
  await t.db.kysely
    .insertInto('pipeline')
    .values({
      business_id: business,
      label: `Business ${business}`,
      owner_id: owner?.id ?? null,
      owner_name: owner?.name ?? null,
      stage,
      since,
      updated_at: since,
    })
    .execute();
}

async function log(
  id: string,
  user: TestUser,
  business: string,
  outcome: string,
  at: string,
  score: number | null,
  visit: { lat: number; lng: number; accuracy: number; verified: boolean } | null = null,
) {
  await t.db.kysely
    .insertInto('call_logs')
    .values({
      id,
      user_id: user.id,
      prospect_id: business,
      name: `Business ${business}`,
      category: 'Dentist',
      phone: '',
      website: '',
      address: `${business} Main St`,
      outcome,
      note: '',
      created_at: at,
      score,
      lat: 41.88,
      lng: -87.63,
      visit_lat: visit?.lat ?? null,
      visit_lng: visit?.lng ?? null,
      visit_accuracy_m: visit?.accuracy ?? null,
      verified: visit?.verified ? 1 : 0,
    })
    .execute();
}

async function followUp(id: string, user: TestUser, at: string) {
  await t.db.kysely
    .insertInto('follow_ups')
    .values({
      id,
      user_id: user.id,
      prospect_id: `p-${id}`,
      name: `Follow ${id}`,
      category: '',
      address: '',
      phone: '',
      website: '',
      score: null,
      lat: null,
      lng: null,
      due_date: '2026-11-20',
      due_time: null,
      time_zone: 'America/Chicago',
      next_step: 'Call back',
      is_meeting: 0,
      done_at: null,
      created_at: at,
      updated_at: at,
      call_log_id: null,
    })
    .execute();
}

beforeAll(async () => {
  t = await createTestContext();
  admin = await t.newUser('admin', { name: 'Admin Alice' });
  ann = await t.newUser('user', { name: 'Ann Rep' });
  bob = await t.newUser('user', { name: 'Bob Rep' });
  cat = await t.newUser('user', { name: 'Cat Rep' });

  // B1 (Ann): all the way to Won in the week.
  await history('B1', 'Contacted', ann, '2026-11-02T15:00:00.000Z', { from: 'New' });
  await history('B1', 'Meeting set', ann, '2026-11-03T15:00:00.000Z', { from: 'Contacted', fromOwner: ann });
  await history('B1', 'Proposal', ann, '2026-11-04T15:00:00.000Z', { from: 'Meeting set', fromOwner: ann });
  await history('B1', 'Won', ann, '2026-11-05T15:00:00.000Z', { from: 'Proposal', fromOwner: ann });
  // B2 (Ann): Contacted, then Meeting set at 23:30 on Sunday in Chicago (after the week in UTC).
  await history('B2', 'Contacted', ann, '2026-11-02T16:00:00.000Z', { from: 'New' });
  await history('B2', 'Meeting set', ann, SUNDAY_2330_CHICAGO, { from: 'Contacted', fromOwner: ann });
  // B3 (Bob): Contacted at 23:30 on Sunday the 1st in Chicago (before the Chicago week), then Lost.
  await history('B3', 'Contacted', bob, BEFORE_2330_CHICAGO, { from: 'New' });
  await history('B3', 'Lost', bob, '2026-11-06T15:00:00.000Z', { from: 'Contacted', fromOwner: bob });
  // B4 (Bob): a meeting that fell through.
  await history('B4', 'Contacted', bob, '2026-11-04T15:00:00.000Z', { from: 'New' });
  await history('B4', 'Meeting set', bob, '2026-11-05T15:00:00.000Z', { from: 'Contacted', fromOwner: bob });
  await history('B4', 'Contacted', bob, '2026-11-06T15:00:00.000Z', { from: 'Meeting set', fromOwner: bob });
  // B5 (Cat): won long before the week.
  await history('B5', 'Won', cat, '2026-10-20T15:00:00.000Z', { from: 'New' });
  // B6: Ann lets it go in the week (nobody owns it after).
  await history('B6', 'New', null, '2026-11-07T15:00:00.000Z', {
    from: 'Contacted',
    fromOwner: ann,
    by: ann,
  });
  // B8 (Ann): won after the week.
  await history('B8', 'Won', ann, '2026-11-10T15:00:00.000Z', { from: 'New' });

  await entry('B1', ann, 'Won', '2026-11-05T15:00:00.000Z');
  await entry('B2', ann, 'Meeting set', SUNDAY_2330_CHICAGO);
  await entry('B3', bob, 'Lost', '2026-11-06T15:00:00.000Z');
  await entry('B4', bob, 'Contacted', '2026-11-06T15:00:00.000Z');
  await entry('B5', cat, 'Won', '2026-10-20T15:00:00.000Z');
  await entry('B6', null, 'New', '2026-11-07T15:00:00.000Z');
  await entry('B8', ann, 'Won', '2026-11-10T15:00:00.000Z');

  await log('l1', ann, 'B1', 'Called', '2026-11-02T15:00:00.000Z', 0.85);
  await log('l2', ann, 'B1', 'Called', '2026-11-03T15:00:00.000Z', 0.91); // B1's highest: 90-100
  await log('l3', ann, 'B2', 'Called', SUNDAY_2330_CHICAGO, 0.85);
  await log('l4', bob, 'B3', 'Called', '2026-11-04T15:00:00.000Z', 0.42);
  await log('l5', bob, 'B4', 'Called', '2026-11-05T15:00:00.000Z', 0.45);
  await log('l6', cat, 'B5', 'Called', '2026-11-06T15:00:00.000Z', null);
  await log('l7', cat, 'B7', 'Called', BEFORE_2330_CHICAGO, 0.85);
  await log('l8', ann, 'B8', 'Visited', '2026-11-05T15:00:00.000Z', 0.12, {
    lat: 41.8801,
    lng: -87.6301,
    accuracy: 12,
    verified: true,
  });
  // 23:20 on Sunday the 8th in Chicago: a visit without a position.
  await log('l9', ann, 'B9', 'Visited', '2026-11-09T05:20:00.000Z', 0.05);
  // After the week in both zones.
  await log('l10', ann, 'B10', 'Visited', '2026-11-09T06:00:00.000Z', 0.5);

  await followUp('f1', ann, '2026-11-03T15:00:00.000Z');
  await followUp('f2', ann, SUNDAY_2330_CHICAGO);
  await followUp('f3', bob, BEFORE_2330_CHICAGO);
  await followUp('f4', bob, '2026-11-04T15:00:00.000Z');
});

afterAll(async () => {
  await t.close();
});

const get = async <T>(url: string, as: TestUser = admin): Promise<T> => {
  const res = await t.request({ method: 'GET', url, as });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<T>();
};

const funnel = (body: TeamFunnel) => body.stages.map((s) => [s.stage, s.reached, s.conversion]);

describe('team funnel, win rates, follow-ups, rep pipeline and route', () => {
  it('counts the funnel: each business at every stage up to the furthest it reached in the period', async () => {
    // Chicago: B1 Won, B2 Meeting set (23:30 Sunday), B3 only Lost (New), B4 Meeting set, B6 released (New).
    expect(funnel(await get<TeamFunnel>(`/api/team/funnel?${CHICAGO}`))).toEqual([
      ['New', 5, 0.6],
      ['Contacted', 3, 1],
      ['Meeting set', 3, 0.333],
      ['Proposal', 1, 1],
      ['Won', 1, null],
    ]);
    // UTC: B2 only Contacted (its meeting is on Monday), B3 Contacted at 05:30 on Monday.
    expect(funnel(await get<TeamFunnel>(`/api/team/funnel?${UTC}`))).toEqual([
      ['New', 5, 0.8],
      ['Contacted', 4, 0.5],
      ['Meeting set', 2, 0.5],
      ['Proposal', 1, 1],
      ['Won', 1, null],
    ]);
    // One rep: the changes that left the business with them (Ann's release of B6 leaves it with nobody).
    expect(funnel(await get<TeamFunnel>(`/api/team/funnel?${CHICAGO}&userId=${ann.id}`))).toEqual([
      ['New', 2, 1],
      ['Contacted', 2, 1],
      ['Meeting set', 2, 0.5],
      ['Proposal', 1, 1],
      ['Won', 1, null],
    ]);
    expect(funnel(await get<TeamFunnel>(`/api/team/funnel?${CHICAGO}&userId=${bob.id}`))).toEqual([
      ['New', 2, 0.5],
      ['Contacted', 1, 1],
      ['Meeting set', 1, 0],
      ['Proposal', 0, null],
      ['Won', 0, null],
    ]);
  });

  it('counts meetings and wins of the businesses first called in the period, by score band', async () => {
    const rows = (body: TeamWinRates) =>
      Object.fromEntries(
        body.bands
          .filter((b) => b.businesses > 0)
          .map((b) => [b.key, [b.businesses, b.meetings, b.won, b.meetingRate, b.winRate]]),
      );
    const chicago = await get<TeamWinRates>(`/api/team/win-rates?${CHICAGO}`);
    expect(chicago.bands.map((b) => b.key)).toEqual([
      '0-9',
      '10-19',
      '20-29',
      '30-39',
      '40-49',
      '50-59',
      '60-69',
      '70-79',
      '80-89',
      '90-100',
      'Unscored',
    ]);
    expect(chicago.bands[2]).toEqual({
      key: '20-29',
      businesses: 0,
      meetings: 0,
      won: 0,
      meetingRate: null,
      winRate: null,
    });
    // Each business once, in the period of its first entry, by the score of that entry (B1's is 0.85, not 0.91).
    expect(rows(chicago)).toEqual({
      '0-9': [1, 0, 0, 0, 0], // B9, visited at 23:20 on Sunday
      '10-19': [1, 0, 0, 0, 0], // B8: won, but after the week
      '40-49': [2, 1, 0, 0.5, 0], // B3 lost, B4's meeting
      '80-89': [2, 2, 1, 1, 0.5], // B1 won; B2 called and set at 23:30 on Sunday
      Unscored: [1, 1, 1, 1, 1], // B5, won before the week
    });
    expect(rows(await get<TeamWinRates>(`/api/team/win-rates?${UTC}`))).toEqual({
      '10-19': [1, 0, 0, 0, 0],
      '40-49': [2, 1, 0, 0.5, 0],
      '80-89': [2, 1, 1, 0.5, 0.5], // B1; B7 at 05:30 on Monday; B2 is after the UTC week
      Unscored: [1, 1, 1, 1, 1],
    });
    const annOnly = await get<TeamWinRates>(`/api/team/win-rates?${CHICAGO}&userId=${ann.id}`);
    expect(rows(annOnly)).toEqual({
      '0-9': [1, 0, 0, 0, 0],
      '10-19': [1, 0, 0, 0, 0],
      '80-89': [2, 2, 1, 1, 0.5],
    });
    expect(annOnly.bands.map((b) => b.key)).not.toContain('Unscored');
    // By category: every business here is a dentist (7 first called in the Chicago week, 4 meetings, 2 won).
    expect(chicago.categories).toEqual([
      { key: 'Dentist', businesses: 7, meetings: 4, won: 2, meetingRate: 0.571, winRate: 0.286 },
    ]);
    expect(annOnly.categories.map((c) => [c.key, c.businesses, c.meetings, c.won])).toEqual([
      ['Dentist', 4, 2, 1],
    ]);
  });

  it('counts the follow-ups set per rep and per day, on the local calendar', async () => {
    const followUps = (body: TeamActivity) => Object.fromEntries(body.reps.map((r) => [r.name, r.followUps]));
    const chicago = await get<TeamActivity>(`/api/team/activity?${CHICAGO}`);
    expect(followUps(chicago)).toEqual({ 'Admin Alice': 0, 'Ann Rep': 2, 'Bob Rep': 1, 'Cat Rep': 0 });
    expect(chicago.totals.followUps).toBe(3);
    const utc = await get<TeamActivity>(`/api/team/activity?${UTC}`);
    expect(followUps(utc)).toEqual({ 'Admin Alice': 0, 'Ann Rep': 1, 'Bob Rep': 2, 'Cat Rep': 0 });
    const chicagoDays = await get<TeamDaily>(`/api/team/daily?${CHICAGO}`);
    expect(chicagoDays.days.map((d) => d.followUps)).toEqual([0, 1, 1, 0, 0, 0, 1]);
    const utcDays = await get<TeamDaily>(`/api/team/daily?${UTC}`);
    expect(utcDays.days.map((d) => d.followUps)).toEqual([1, 1, 1, 0, 0, 0, 0]);
    const annDays = await get<TeamDaily>(`/api/team/daily?${CHICAGO}&userId=${ann.id}`);
    expect(annDays.days.map((d) => d.followUps)).toEqual([0, 1, 0, 0, 0, 0, 1]);
    const page = await get<{ rep: { followUps: number } }>(`/api/team/reps/${bob.id}?${CHICAGO}`);
    expect(page.rep.followUps).toBe(1);
  });

  it("shows a rep's pipeline: what they own now and the period's changes that involve them", async () => {
    const chicago = await get<RepPipeline>(`/api/team/reps/${ann.id}/pipeline?${CHICAGO}`);
    expect(chicago.owned.map((o) => [o.businessId, o.stage, o.since])).toEqual([
      ['B8', 'Won', '2026-11-10T15:00:00.000Z'],
      ['B2', 'Meeting set', SUNDAY_2330_CHICAGO],
      ['B1', 'Won', '2026-11-05T15:00:00.000Z'],
    ]);
    expect(chicago.owned[0]!.label).toBe('Business B8');
    expect(chicago.ownedByStage).toEqual([
      { stage: 'Meeting set', count: 1 },
      { stage: 'Won', count: 2 },
    ]);
    expect(chicago.changes.map((c) => [c.businessId, c.fromStage, c.toStage, c.at])).toEqual([
      ['B2', 'Contacted', 'Meeting set', SUNDAY_2330_CHICAGO],
      ['B6', 'Contacted', 'New', '2026-11-07T15:00:00.000Z'],
      ['B1', 'Proposal', 'Won', '2026-11-05T15:00:00.000Z'],
      ['B1', 'Meeting set', 'Proposal', '2026-11-04T15:00:00.000Z'],
      ['B1', 'Contacted', 'Meeting set', '2026-11-03T15:00:00.000Z'],
      ['B2', 'New', 'Contacted', '2026-11-02T16:00:00.000Z'],
      ['B1', 'New', 'Contacted', '2026-11-02T15:00:00.000Z'],
    ]);
    expect(chicago.changes[1]).toMatchObject({ fromOwner: 'Ann Rep', toOwner: null, by: 'Ann Rep' });
    expect(chicago.truncated).toBe(false);
    const utc = await get<RepPipeline>(`/api/team/reps/${ann.id}/pipeline?${UTC}`);
    expect(utc.changes).toHaveLength(6);
    const bobs = await get<RepPipeline>(`/api/team/reps/${bob.id}/pipeline?${UTC}`);
    expect(bobs.changes.map((c) => c.toStage)).toEqual([
      'Contacted',
      'Lost',
      'Meeting set',
      'Contacted',
      'Contacted',
    ]);
  });

  it("shows a rep's route history: their visits of the period in order, verified or not", async () => {
    const chicago = await get<RepRoute>(`/api/team/reps/${ann.id}/route?${CHICAGO}`);
    expect(chicago.visits).toEqual([
      {
        at: '2026-11-05T15:00:00.000Z',
        prospectId: 'B8',
        name: 'Business B8',
        address: 'B8 Main St',
        lat: 41.88,
        lng: -87.63,
        visitLat: 41.8801,
        visitLng: -87.6301,
        accuracyM: 12,
        verified: true,
      },
      {
        at: '2026-11-09T05:20:00.000Z',
        prospectId: 'B9',
        name: 'Business B9',
        address: 'B9 Main St',
        lat: 41.88,
        lng: -87.63,
        visitLat: null,
        visitLng: null,
        accuracyM: null,
        verified: false,
      },
    ]);
    expect([chicago.total, chicago.verified, chicago.truncated]).toEqual([2, 1, false]);
    const utc = await get<RepRoute>(`/api/team/reps/${ann.id}/route?${UTC}`);
    expect(utc.visits.map((v) => v.prospectId)).toEqual(['B8']);
    expect([utc.total, utc.verified]).toEqual([1, 1]);
    const bobs = await get<RepRoute>(`/api/team/reps/${bob.id}/route?${CHICAGO}`);
    expect(bobs.visits).toEqual([]);
    expect(bobs.total).toBe(0);
  });

  it('refuses reps (403) and unknown reps (404)', async () => {
    for (const url of [
      `/api/team/funnel?${CHICAGO}`,
      `/api/team/win-rates?${CHICAGO}`,
      `/api/team/reps/${ann.id}/pipeline?${CHICAGO}`,
      `/api/team/reps/${ann.id}/route?${CHICAGO}`,
    ]) {
      const res = await t.request({ method: 'GET', url, as: ann });
      expect(res.statusCode, url).toBe(403);
    }
    for (const url of [
      `/api/team/funnel?${CHICAGO}&userId=nobody`,
      `/api/team/win-rates?${CHICAGO}&userId=nobody`,
      `/api/team/reps/nobody/pipeline?${CHICAGO}`,
      `/api/team/reps/nobody/route?${CHICAGO}`,
    ]) {
      const res = await t.request({ method: 'GET', url, as: admin });
      expect(res.statusCode, url).toBe(404);
      expect(res.json<{ error: string }>().error).toBe('Rep not found');
    }
    const bad = await t.request({
      method: 'GET',
      url: '/api/team/funnel?period=custom&from=2026-11-02',
      as: admin,
    });
    expect(bad.statusCode).toBe(400);
  });
});
