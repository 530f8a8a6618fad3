import { parseCsv } from '../../src/core/csv.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';
import { JobQueue } from '../../src/server/jobs/queue.js';
import {
  DIGEST_JOB,
  digestRouteLink,
  registerDigestWorker,
  scheduleDigests,
  sendDigest,
  type DigestDeps,
} from '../../src/server/follow-ups/digest.js';
import type { FollowUp } from '../../src/core/api/follow-ups.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const ZONE = 'America/Chicago';

const entry = (over: Record<string, unknown> = {}) => ({
  prospectId: 'osm:node/1',
  name: 'Joe’s Plumbing',
  category: 'Plumbing',
  phone: '(205) 555-0100',
  website: 'https://joes.example',
  address: '1 Main St, Birmingham, AL 35203',
  outcome: 'Called',
  ...over,
});

const logWithFollowUp = (
  as: TestUser,
  followUp: Record<string, unknown>,
  over: Record<string, unknown> = {},
) =>
  t.request({
    method: 'POST',
    url: '/api/call-logs',
    payload: entry({ ...over, followUp: { timeZone: ZONE, ...followUp } }),
    as,
  });

const listFollowUps = async (as: TestUser) =>
  (await t.request({ method: 'GET', url: `/api/follow-ups?tz=${encodeURIComponent(ZONE)}`, as })).json<{
    followUps: FollowUp[];
  }>().followUps;

const callLogCount = async (userId: string) =>
  Number(
    (
      await t.db.kysely
        .selectFrom('call_logs')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow()
    ).n,
  );

/** The UTC date `days` from today, YYYY-MM-DD. */
const dayFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

const feedPath = async (ctx: TestContext, as: TestUser) =>
  new URL(
    (await ctx.request({ method: 'POST', url: '/api/calendar/feed', as })).json<{ feedUrl: string }>()
      .feedUrl,
  ).pathname;

function parseIcs(text: string) {
  const component = new ICAL.Component(ICAL.parse(text) as unknown[]);
  return component.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
}

describe('follow-ups', () => {
  it('stores a follow-up with its call-log entry and lists it with the card facts', async () => {
    const rep = await t.newUser();
    const res = await logWithFollowUp(rep, {
      dueDate: '2026-11-26',
      dueTime: '09:30',
      nextStep: 'Send the media kit',
      isMeeting: true,
    });
    expect(res.statusCode).toBe(201);
    const body = res.json<{ callLog: { id: string }; followUp: FollowUp }>();
    expect(body.followUp).toMatchObject({
      dueDate: '2026-11-26',
      dueTime: '09:30',
      timeZone: ZONE,
      nextStep: 'Send the media kit',
      isMeeting: true,
      doneAt: null,
      callLogId: body.callLog.id,
      name: 'Joe’s Plumbing',
      address: '1 Main St, Birmingham, AL 35203',
      phone: '(205) 555-0100',
      category: 'Plumbing',
    });
    const list = await listFollowUps(rep);
    expect(list.map((f) => f.id)).toEqual([body.followUp.id]);
    // A plain log still works and answers no follow-up.
    const plain = await t.request({ method: 'POST', url: '/api/call-logs', payload: entry(), as: rep });
    expect(plain.statusCode).toBe(201);
    expect(plain.json<{ followUp?: unknown }>().followUp).toBeUndefined();
    expect(await listFollowUps(rep)).toHaveLength(1);
  });

  it('lists each follow-up with the vertical of the team’s copy of its business, null when never scanned', async () => {
    const rep = await t.newUser();
    await t.db.kysely
      .insertInto('team_prospects')
      .values({
        business_id: 'osm:node/4040',
        prospect: JSON.stringify({ id: 'osm:node/4040', name: 'Bay Heating & Air', aiAnalysis: { breakdown: { vertical: 'hvac' } } }),
        name: 'Bay Heating & Air',
        score: 0.7,
        analysis_hash: '',
        business_hash: 'season-test',
        scanned_by: rep.id,
        scanned_at: new Date().toISOString(),
      })
      .execute();
    const scanned = await logWithFollowUp(rep, { dueDate: '2026-11-26' }, { prospectId: 'osm:node/4040', name: 'Bay Heating & Air' });
    const unknown = await logWithFollowUp(rep, { dueDate: '2026-11-27' }, { prospectId: 'osm:node/4041' });
    expect([scanned.statusCode, unknown.statusCode]).toEqual([201, 201]);
    const list = await listFollowUps(rep);
    expect(list.map((f) => [f.prospectId, f.vertical])).toEqual([
      ['osm:node/4040', 'hvac'],
      ['osm:node/4041', null],
    ]);
  }); // prettier-ignore

  it('refuses a bad date, time, zone or an over-long next step with a 400 and stores nothing', async () => {
    const rep = await t.newUser();
    for (const bad of [
      { dueDate: '2026-02-30' },
      { dueDate: '2026-11-26', dueTime: '25:00' },
      { dueDate: '2026-11-26', timeZone: 'Mars/Olympus' },
      { dueDate: '2026-11-26', nextStep: 'x'.repeat(201) },
    ]) {
      const res = await logWithFollowUp(rep, bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json<{ error: string }>().error).toMatch(/followUp/);
    }
    expect(await callLogCount(rep.id)).toBe(0);
  });

  it('marks done, reschedules, and answers 404 for another rep’s follow-up', async () => {
    const ann = await t.newUser();
    const bob = await t.newUser();
    const made = (await logWithFollowUp(ann, { dueDate: '2026-11-26' })).json<{ followUp: FollowUp }>()
      .followUp;
    for (const [method, url, payload] of [
      ['POST', `/api/follow-ups/${made.id}/done`, undefined],
      ['PATCH', `/api/follow-ups/${made.id}`, { dueDate: '2026-12-01' }],
      ['GET', `/api/follow-ups/${made.id}.ics`, undefined],
    ] as const) {
      const res = await t.request({ method, url, ...(payload ? { payload } : {}), as: bob });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json<{ error: string }>().error).toBe('Follow-up not found');
    }
    expect(await listFollowUps(bob)).toEqual([]);

    const moved = await t.request({
      method: 'PATCH',
      url: `/api/follow-ups/${made.id}`,
      payload: { dueDate: '2026-12-01', dueTime: '14:15' },
      as: ann,
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json<{ followUp: FollowUp }>().followUp).toMatchObject({
      dueDate: '2026-12-01',
      dueTime: '14:15',
    });
    const bad = await t.request({
      method: 'PATCH',
      url: `/api/follow-ups/${made.id}`,
      payload: { dueDate: 'tomorrow' },
      as: ann,
    });
    expect(bad.statusCode).toBe(400);

    const ics = await t.request({ method: 'GET', url: `/api/follow-ups/${made.id}.ics`, as: ann });
    expect(ics.statusCode).toBe(200);
    expect(ics.headers['content-type']).toMatch(/^text\/calendar/);
    const [event] = parseIcs(ics.body);
    expect(event!.summary).toBe('Follow up: Joe’s Plumbing');
    expect(event!.startDate.toJSDate().toISOString()).toBe('2026-12-01T20:15:00.000Z');

    const doneRes = await t.request({ method: 'POST', url: `/api/follow-ups/${made.id}/done`, as: ann });
    expect(doneRes.statusCode).toBe(200);
    expect(doneRes.json<{ followUp: FollowUp }>().followUp.doneAt).not.toBeNull();
    expect(await listFollowUps(ann)).toEqual([]);
  });

  it('shows the follow-up set with an entry in the Log and its CSV, as it was rescheduled since', async () => {
    const rep = await t.newUser();
    const made = (
      await logWithFollowUp(rep, { dueDate: '2026-12-01', dueTime: '14:15', isMeeting: true })
    ).json<{ callLog: { id: string }; followUp: FollowUp }>();
    await logWithFollowUp(rep, { dueDate: '2026-12-05' }, { name: 'Other Co' });
    const moved = await t.request({
      method: 'PATCH',
      url: `/api/follow-ups/${made.followUp.id}`,
      payload: { dueDate: '2026-12-02', dueTime: '09:30' },
      as: rep,
    });
    expect(moved.statusCode).toBe(200);
    const logs = (await t.request({ method: 'GET', url: '/api/call-logs', as: rep })).json<{
      callLogs: { id: string; followUp?: unknown }[];
    }>().callLogs;
    expect(logs.find((l) => l.id === made.callLog.id)!.followUp).toEqual({
      dueDate: '2026-12-02',
      dueTime: '09:30',
      isMeeting: true,
    });
    const csv = await t.request({ method: 'GET', url: '/api/call-logs/export.csv', as: rep });
    const rows = parseCsv(csv.body).records;
    const column = rows[0]!.indexOf('Follow-up');
    expect(
      rows
        .slice(1)
        .map((r) => r[column])
        .sort(),
    ).toEqual(['2026-12-02 09:30 meeting', '2026-12-05']);
  });

  it('changes nothing on a GET: a cross-site read cannot move the zone the digest is timed in', async () => {
    const rep = await t.newUser();
    expect((await logWithFollowUp(rep, { dueDate: '2026-12-03' })).statusCode).toBe(201);
    const zone = async () =>
      (await t.request({ method: 'GET', url: '/api/calendar/settings', as: rep })).json().timeZone;
    expect(await zone()).toBe(ZONE);
    const read = await t.request({
      method: 'GET',
      url: '/api/follow-ups?tz=Asia%2FTokyo',
      as: rep,
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(read.statusCode).toBe(200);
    expect(await zone()).toBe(ZONE);
  });

  it('writes a business name with line breaks as one line: one event, no properties of its own', async () => {
    const rep = await t.newUser();
    const name = 'Evil Inc\r\nBEGIN:VEVENT\r\nSUMMARY:Injected\r\nEND:VEVENT\r\nX-INJECTED:yes';
    const made = (await logWithFollowUp(rep, { dueDate: '2026-12-02' })).json<{ followUp: FollowUp }>()
      .followUp;
    // The API refuses such a name now; a row stored before that still reaches the calendar as one line.
    await t.db.kysely
      .updateTable('follow_ups')
      .set({ name, address: '1 Main St\r\nX-WHERE:here' })
      .where('id', '=', made.id)
      .execute();
    const ics = await t.request({ method: 'GET', url: `/api/follow-ups/${made.id}.ics`, as: rep });
    expect(ics.statusCode).toBe(200);
    expect(ics.body.match(/^BEGIN:VEVENT/gm)).toHaveLength(1);
    expect(ics.body).not.toMatch(/^(X-INJECTED|X-WHERE|SUMMARY:Injected)/m);
    const [event, ...more] = parseIcs(ics.body);
    expect(more).toEqual([]);
    expect(event!.summary).toBe(
      'Follow up: Evil Inc BEGIN:VEVENT SUMMARY:Injected END:VEVENT X-INJECTED:yes',
    );
  });

  it('feeds follow-ups and meetings to calendar apps, refusing a wrong and a regenerated token', async () => {
    const rep = await t.newUser();
    // Near today: the feed holds a window around it. The meeting is set in Phoenix (no summer time).
    const [yesterday, tomorrow] = [dayFromToday(-1), dayFromToday(1)];
    await logWithFollowUp(rep, { dueDate: yesterday, nextStep: 'Call back after lunch' });
    await logWithFollowUp(
      rep,
      { dueDate: tomorrow, dueTime: '10:00', isMeeting: true, timeZone: 'America/Phoenix' },
      { name: 'Ann’s Bakery', prospectId: 'osm:node/2', address: '5 Oak Ave, Birmingham, AL' },
    );
    const settings = await t.request({ method: 'GET', url: '/api/calendar/settings', as: rep });
    expect(settings.json()).toMatchObject({
      hasFeed: false,
      digestEnabled: true,
      timeZone: 'America/Phoenix',
    });

    const first = (await t.request({ method: 'POST', url: '/api/calendar/feed', as: rep })).json<{
      feedUrl: string;
    }>().feedUrl;
    expect(first).toMatch(/^http:\/\/localhost:3000\/api\/calendar\/[\w-]{43}\.ics$/);
    const path = new URL(first).pathname;
    const feed = await t.request({ method: 'GET', url: path });
    expect(feed.statusCode).toBe(200);
    const events = parseIcs(feed.body);
    expect(events.map((e) => e.summary)).toEqual([
      'Follow up: Joe’s Plumbing — Call back after lunch',
      'Meeting: Ann’s Bakery',
    ]);
    expect(events[0]!.startDate.isDate).toBe(true);
    expect(events[0]!.startDate.toString()).toBe(yesterday);
    expect(events[0]!.location).toBe('1 Main St, Birmingham, AL 35203');
    expect(events[0]!.description).toContain('Phone: (205) 555-0100');
    expect(events[0]!.description).toContain('http://localhost:3000/?tab=today');
    expect(events[1]!.startDate.toJSDate().toISOString()).toBe(`${tomorrow}T17:00:00.000Z`);
    expect(events[1]!.endDate.toJSDate().toISOString()).toBe(`${tomorrow}T18:00:00.000Z`);

    // Only the hash is stored.
    const row = await t.db.kysely
      .selectFrom('follow_up_settings')
      .selectAll()
      .where('user_id', '=', rep.id)
      .executeTakeFirstOrThrow();
    const token = path.slice('/api/calendar/'.length, -'.ics'.length);
    expect(row.feed_token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(token);

    const wrong = await t.request({ method: 'GET', url: `/api/calendar/${'A'.repeat(43)}.ics` });
    expect(wrong.statusCode).toBe(404);
    const second = (await t.request({ method: 'POST', url: '/api/calendar/feed', as: rep })).json<{
      feedUrl: string;
    }>().feedUrl;
    expect(second).not.toBe(first);
    expect((await t.request({ method: 'GET', url: path })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: new URL(second).pathname })).statusCode).toBe(200);
  });
});

describe('the calendar feed’s bounds, cache and limits; the caps per rep and day', () => {
  const own: TestContext[] = [];
  afterAll(async () => {
    for (const c of own.splice(0)) await c.close();
  });
  const context = async (env: Record<string, string>) => {
    const c = await createTestContext(env);
    own.push(c);
    return c;
  };
  const log = (c: TestContext, as: TestUser, followUp?: Record<string, unknown>, name = 'Joe’s Plumbing') =>
    c.request({
      method: 'POST',
      url: '/api/call-logs',
      payload: entry({ name, ...(followUp && { followUp: { timeZone: ZONE, ...followUp } }) }),
      as,
    });

  it('holds only open follow-ups of the window, at most CALENDAR_FEED_MAX_EVENTS, the nearest to today', async () => {
    const c = await context({
      CALENDAR_FEED_DAYS_BACK: '10',
      CALENDAR_FEED_DAYS_AHEAD: '30',
      CALENDAR_FEED_MAX_EVENTS: '5',
    });
    const rep = await c.newUser();
    for (const days of [-11, -3, -1, 0, 2, 4, 6, 31]) {
      expect((await log(c, rep, { dueDate: dayFromToday(days) }, `Day ${days}`)).statusCode).toBe(201);
    }
    const done = (await log(c, rep, { dueDate: dayFromToday(1) }, 'Done already')).json<{
      followUp: FollowUp;
    }>().followUp;
    await c.request({ method: 'POST', url: `/api/follow-ups/${done.id}/done`, as: rep });
    const feed = await c.request({ method: 'GET', url: await feedPath(c, rep) });
    expect(feed.statusCode).toBe(200);
    // Outside the window: -11 and 31 days; past the five nearest: 6 days; done: left out.
    expect(parseIcs(feed.body).map((e) => e.startDate.toString())).toEqual(
      [-3, -1, 0, 2, 4].map(dayFromToday),
    );
  });

  it('serves a second read from its cache until one of the rep’s follow-ups changes', async () => {
    const c = await context({});
    const rep = await c.newUser();
    const made = (await log(c, rep, { dueDate: dayFromToday(2) }, 'Old Name')).json<{ followUp: FollowUp }>()
      .followUp;
    const path = await feedPath(c, rep);
    const summaries = async () =>
      parseIcs((await c.request({ method: 'GET', url: path })).body).map((e) => e.summary);
    expect(await summaries()).toEqual(['Follow up: Old Name']);
    // Changed behind the app's back (no write of its own sets updated_at so): the feed is not built again.
    await c.db.kysely.updateTable('follow_ups').set({ name: 'New Name' }).where('id', '=', made.id).execute();
    expect(await summaries()).toEqual(['Follow up: Old Name']);
    // A reschedule through the app changes the follow-up: the next read is built afresh.
    const moved = await c.request({
      method: 'PATCH',
      url: `/api/follow-ups/${made.id}`,
      payload: { dueDate: dayFromToday(3) },
      as: rep,
    });
    expect(moved.statusCode).toBe(200);
    expect(await summaries()).toEqual(['Follow up: New Name']);
    // So does a new follow-up.
    await log(c, rep, { dueDate: dayFromToday(4) }, 'Another');
    expect(await summaries()).toEqual(['Follow up: New Name', 'Follow up: Another']);
  });

  it('limits reads per feed link and per IP, with a clear 429', async () => {
    const c = await context({ CALENDAR_FEED_RATE_LIMIT: '3', CALENDAR_FEED_IP_RATE_LIMIT: '5' });
    const [a, b] = [await c.newUser(), await c.newUser()];
    const [pathA, pathB] = [await feedPath(c, a), await feedPath(c, b)];
    const read = async (path: string, remoteAddress = '203.0.113.5') =>
      c.request({ method: 'GET', url: path, remoteAddress });
    for (let n = 0; n < 3; n++) expect((await read(pathA)).statusCode).toBe(200);
    const perLink = await read(pathA, '203.0.113.99');
    expect(perLink.statusCode).toBe(429);
    expect(perLink.json()).toEqual({
      error: 'Too many calendar feed requests. Please wait a minute and try again.',
      retryAfterMs: expect.any(Number),
    });
    // Another link from the first IP: two more reads make its five, the next is refused.
    for (let n = 0; n < 2; n++) expect((await read(pathB)).statusCode).toBe(200);
    const perIp = await read(pathB);
    expect(perIp.statusCode).toBe(429);
    expect(perIp.json().error).toBe('Too many calendar feed requests. Please wait a minute and try again.');
    expect(Number(perIp.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('refuses the follow-up and the entry past the day’s caps with 429 and says why, storing nothing', async () => {
    const c = await context({ FOLLOW_UPS_PER_DAY: '2', CALL_LOGS_PER_DAY: '4' });
    const rep = await c.newUser();
    const count = async (table: 'call_logs' | 'follow_ups') =>
      Number(
        (
          await c.db.kysely
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<string | number>().as('n'))
            .where('user_id', '=', rep.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    for (let n = 0; n < 2; n++)
      expect((await log(c, rep, { dueDate: dayFromToday(1) })).statusCode).toBe(201);
    const third = await log(c, rep, { dueDate: dayFromToday(1) });
    expect(third.statusCode).toBe(429);
    expect(third.json()).toEqual({
      error: 'You have set 2 follow-ups today, the most for one day. Please set more tomorrow.',
      retryAfterMs: expect.any(Number),
    });
    expect([await count('call_logs'), await count('follow_ups')]).toEqual([2, 2]);
    // Entries without a follow-up go on to the entries' cap; sent at once, no more than it pass.
    const burst = await Promise.all([1, 2, 3, 4, 5].map(() => log(c, rep)));
    expect(burst.map((r) => r.statusCode).sort()).toEqual([201, 201, 429, 429, 429]);
    const refused = burst.find((r) => r.statusCode === 429)!;
    expect(refused.json().error).toBe(
      'You have logged 4 calls and visits today, the most for one day. Please log more tomorrow.',
    );
    expect(await count('call_logs')).toBe(4);
    // Another rep has caps of their own.
    expect((await log(c, await c.newUser(), { dueDate: dayFromToday(1) })).statusCode).toBe(201);
  });
});

describe('call log and follow-up in one transaction', () => {
  it('leaves no call-log entry when the follow-up cannot be stored', async () => {
    const own = await createTestContext();
    try {
      const rep = await own.newUser();
      // The follow-up insert fails (its table is gone); the entry must go with it.
      await own.db.kysely.schema.dropTable('follow_ups').execute();
      const res = await own.request({
        method: 'POST',
        url: '/api/call-logs',
        payload: entry({ followUp: { dueDate: '2026-11-26', timeZone: ZONE } }),
        as: rep,
      });
      expect(res.statusCode).toBe(500);
      const n = await own.db.kysely
        .selectFrom('call_logs')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('user_id', '=', rep.id)
        .executeTakeFirstOrThrow();
      expect(Number(n.n)).toBe(0);
      // Without a follow-up the entry is stored as before.
      const plain = await own.request({ method: 'POST', url: '/api/call-logs', payload: entry(), as: rep });
      expect(plain.statusCode).toBe(201);
    } finally {
      await own.close();
    }
  });
});

describe('morning digest', () => {
  const deps = (): DigestDeps => ({
    db: t.db,
    mailer: { send: (m) => (t.mail.push(m), Promise.resolve()) },
    log: t.app.log,
    publicUrl: 'http://localhost:3000',
    digestHour: 7,
  });
  // 2026-11-26 06:59 and 07:10 in Chicago (UTC-6).
  const beforeHour = Date.parse('2026-11-26T12:59:00Z');
  const atHour = Date.parse('2026-11-26T13:10:00Z');

  const mailsTo = (email: string) => t.mail.filter((m) => m.to === email);
  // A second worker on the same jobs table, as another instance would be (the app's own works them too).
  let queue: JobQueue;
  beforeAll(() => {
    queue = new JobQueue(t.db, t.app.log, { pollMs: 20 });
    registerDigestWorker(queue, deps());
    queue.start();
  });
  afterAll(() => queue.stop());

  it('sends once per local day at DIGEST_HOUR, only when something is due, never twice', async () => {
    const rep = await t.newUser();
    const idle = await t.newUser();
    await logWithFollowUp(rep, { dueDate: '2026-11-25', nextStep: 'Overdue one' });
    await logWithFollowUp(
      rep,
      { dueDate: '2026-11-26', dueTime: '11:00', isMeeting: true },
      { name: 'Ann’s Bakery', prospectId: 'osm:node/2' },
    );
    await logWithFollowUp(rep, { dueDate: '2026-12-20' }, { name: 'Later Inc' });
    await logWithFollowUp(idle, { dueDate: '2026-12-20' }, { name: 'Not today' });

    expect(await scheduleDigests(deps(), queue, beforeHour)).toEqual([]);
    const keys = await scheduleDigests(deps(), queue, atHour);
    expect(keys).toContain(`${rep.id}:2026-11-26`);
    expect(keys.some((k) => k.startsWith(idle.id))).toBe(false);
    await expect.poll(() => mailsTo(rep.email).length, { timeout: 10_000 }).toBe(1);
    const [mail] = mailsTo(rep.email);
    expect(mail!.subject).toBe('Your follow-ups for Thu, Nov 26: 2 due');
    expect(mail!.text).toContain('Overdue\n- Joe’s Plumbing — Overdue one');
    expect(mail!.text).toContain('Today\n- 11:00 Meeting: Ann’s Bakery');
    expect(mail!.text).not.toContain('Later Inc');
    expect(mail!.text).toContain('https://www.google.com/maps/dir/?api=1');

    // Later ticks that day, a second instance's job or a retry send nothing more.
    expect(await scheduleDigests(deps(), queue, atHour + 20 * 60_000)).toEqual([]);
    expect(await sendDigest(deps(), rep.id, '2026-11-26')).toEqual({ sent: false, reason: 'already sent' });
    const both = await Promise.all([
      sendDigest(deps(), rep.id, '2026-11-27'),
      sendDigest(deps(), rep.id, '2026-11-27'),
    ]);
    expect(both.filter((r) => r.sent)).toHaveLength(1);
    expect(mailsTo(rep.email)).toHaveLength(2);
    expect(mailsTo(idle.email)).toHaveLength(0);
    const jobs = await t.db.kysely
      .selectFrom('jobs')
      .select('key')
      .where('kind', '=', DIGEST_JOB)
      .where('user_id', '=', rep.id)
      .execute();
    expect(jobs.map((j) => j.key)).toEqual([`${rep.id}:2026-11-26`]);
  });

  it('is not sent when switched off, and a failed mail is sent by the retry', async () => {
    const rep = await t.newUser();
    await logWithFollowUp(rep, { dueDate: '2026-11-26' });
    const off = await t.request({
      method: 'PATCH',
      url: '/api/calendar/settings',
      payload: { digestEnabled: false },
      as: rep,
    });
    expect(off.json()).toMatchObject({ digestEnabled: false });
    expect(await scheduleDigests(deps(), queue, atHour)).not.toContain(`${rep.id}:2026-11-26`);
    expect(await sendDigest(deps(), rep.id, '2026-11-26')).toEqual({ sent: false, reason: 'off' });
    await t.request({
      method: 'PATCH',
      url: '/api/calendar/settings',
      payload: { digestEnabled: true },
      as: rep,
    });

    const failing: DigestDeps = { ...deps(), mailer: { send: () => Promise.reject(new Error('SMTP down')) } };
    await expect(sendDigest(failing, rep.id, '2026-11-26')).rejects.toThrow('SMTP down');
    expect(await sendDigest(deps(), rep.id, '2026-11-26')).toEqual({ sent: true });
  });

  it("stops with the account: a suspended rep's feed answers 404 and no digest goes to them", async () => {
    const root = await t.newUser('SuperAdmin');
    const rep = await t.newUser();
    await logWithFollowUp(rep, { dueDate: '2026-11-26' });
    const made = await t.request({ method: 'POST', url: '/api/calendar/feed', as: rep });
    const path = new URL(made.json<{ feedUrl: string }>().feedUrl).pathname;
    expect((await t.request({ method: 'GET', url: path })).statusCode).toBe(200);

    const suspended = await t.request({ method: 'POST', url: `/api/users/${rep.id}/suspend`, as: root });
    expect(suspended.statusCode).toBe(200);
    const feed = await t.request({ method: 'GET', url: path });
    expect(feed.statusCode).toBe(404);
    expect(feed.json()).toEqual({ error: 'Calendar feed not found' });
    expect(await scheduleDigests(deps(), queue, atHour + 5 * 60_000)).not.toContain(`${rep.id}:2026-11-26`);
    // A job queued before the suspension sends nothing either.
    expect(await sendDigest(deps(), rep.id, '2026-11-26')).toEqual({ sent: false, reason: 'suspended' });
    expect(mailsTo(rep.email)).toEqual([]);
  });
});

describe('digestRouteLink', () => {
  it('visits the stops nearest first from the start, at most 9 waypoints', () => {
    const start = { lat: 33.5, lng: -86.8 };
    const stop = (lat: number, address = '') => ({ lat, lng: -86.8, address });
    const link = digestRouteLink(start, [stop(33.53), stop(33.51), stop(33.52)])!;
    const url = new URL(link);
    expect(url.origin + url.pathname).toBe('https://www.google.com/maps/dir/');
    expect(url.searchParams.get('origin')).toBe('33.5,-86.8');
    expect(url.searchParams.get('waypoints')).toBe('33.51,-86.8|33.52,-86.8');
    expect(url.searchParams.get('destination')).toBe('33.53,-86.8');

    const many = Array.from({ length: 14 }, (_, i) => stop(33.5 + (i + 1) / 100));
    const long = new URL(digestRouteLink(start, many)!);
    expect(long.searchParams.get('waypoints')!.split('|')).toHaveLength(9);
    expect(long.searchParams.get('destination')).toBe('33.6,-86.8');

    const noStart = new URL(
      digestRouteLink(null, [stop(33.6), { lat: null, lng: null, address: '1 Main St' }, stop(33.7)])!,
    );
    expect(noStart.searchParams.get('origin')).toBe('33.6,-86.8');
    expect(noStart.searchParams.get('waypoints')).toBe('33.7,-86.8');
    expect(noStart.searchParams.get('destination')).toBe('1 Main St');
    expect(digestRouteLink(start, [])).toBeNull();
  });
});
