// Offline writes replayed with an Idempotency-Key are applied once, on SQLite and PostgreSQL
// (TEST_DATABASE=postgres).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';
import { scannedBusiness } from '../helpers/businesses.js';
import {
  BAD_IDEMPOTENCY_KEY,
  IDEMPOTENCY_KEY_REUSED,
  sweepIdempotencyKeys,
} from '../../src/server/http/idempotency.js';
import { SAVED_LIMIT_REACHED } from '../../src/server/saved/service.js';

let t: TestContext;
let ann: TestUser;
let bob: TestUser;
beforeAll(async () => {
  t = await createTestContext();
  ann = await t.newUser();
  bob = await t.newUser();
  // Businesses the team scanned: a call on one claims it in the pipeline.
  for (const id of ['idem-concurrent', 'idem-more']) await scannedBusiness(t.db, id, `Business ${id}`);
});
afterAll(() => t.close());

const ZONE = 'America/Chicago';
const entry = (prospectId: string, over: Record<string, unknown> = {}) => ({
  prospectId,
  name: `Business ${prospectId}`,
  outcome: 'Called',
  note: 'offline call',
  ...over,
});
const prospect = (id: string) => ({
  id,
  name: `Business ${id}`,
  category: 'Dental',
  address: '10 Elm St',
  city: 'Birmingham',
  state: 'AL',
  zip: '35203',
  phone: '205-555-0101',
  website: 'https://example.com',
  lat: 33.52,
  lng: -86.8,
  openNow: true,
  reviews: 12,
  rating: 4.5,
  source: 'local',
  distance: 0.4,
  score: 0.82,
  types: ['dentist'],
});

const logCall = (as: TestUser, key: string | undefined, payload: Record<string, unknown>) =>
  t.request({
    method: 'POST',
    url: '/api/call-logs',
    payload,
    as,
    headers: key === undefined ? {} : { 'idempotency-key': key },
  });
const save = (as: TestUser, key: string, id: string) =>
  t.request({
    method: 'POST',
    url: '/api/saved',
    payload: { prospect: prospect(id) },
    as,
    headers: { 'idempotency-key': key },
  });

const callLogsOf = async (userId: string, prospectId: string) =>
  t.db.kysely
    .selectFrom('call_logs')
    .selectAll()
    .where('user_id', '=', userId)
    .where('prospect_id', '=', prospectId)
    .execute();

describe('Idempotency-Key on writes', () => {
  it('applies a call log sent twice at once exactly once; both answers are the same', async () => {
    const key = randomUUID();
    const payload = entry('idem-concurrent', { followUp: { dueDate: '2026-12-01', timeZone: ZONE } });
    const answers = await Promise.all([logCall(ann, key, payload), logCall(ann, key, payload)]);
    expect(answers.map((r) => r.statusCode)).toEqual([201, 201]);
    expect(answers[0].json()).toEqual(answers[1].json());
    expect(await callLogsOf(ann.id, 'idem-concurrent')).toHaveLength(1);
    const followUps = await t.db.kysely
      .selectFrom('follow_ups')
      .selectAll()
      .where('prospect_id', '=', 'idem-concurrent')
      .execute();
    expect(followUps).toHaveLength(1);
    // The pipeline claim the call made happened once too.
    const history = await t.db.kysely
      .selectFrom('pipeline_history')
      .selectAll()
      .where('business_id', '=', 'idem-concurrent')
      .execute();
    expect(history).toHaveLength(1);
  });

  it('answers a replay with the stored answer (same status and body) and writes nothing more', async () => {
    const key = randomUUID();
    const first = await logCall(ann, key, entry('idem-replay'));
    expect(first.statusCode).toBe(201);
    const replay = await logCall(ann, key.toUpperCase(), entry('idem-replay'));
    expect(replay.statusCode).toBe(201);
    expect(replay.json()).toEqual(first.json());
    expect(await callLogsOf(ann.id, 'idem-replay')).toHaveLength(1);
    // Without a key the same body is a new write.
    expect((await logCall(ann, undefined, entry('idem-replay'))).statusCode).toBe(201);
    expect(await callLogsOf(ann.id, 'idem-replay')).toHaveLength(2);
  });

  it('refuses the same key with a different body or on another route (422) and keeps the first write', async () => {
    const key = randomUUID();
    expect((await logCall(ann, key, entry('idem-body'))).statusCode).toBe(201);
    const other = await logCall(ann, key, entry('idem-body', { note: 'something else' }));
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({ error: IDEMPOTENCY_KEY_REUSED });
    const elsewhere = await save(ann, key, 'idem-body');
    expect(elsewhere.statusCode).toBe(422);
    expect(await callLogsOf(ann.id, 'idem-body')).toHaveLength(1);
    const saved = await t.db.kysely
      .selectFrom('saved_prospects')
      .selectAll()
      .where('user_id', '=', ann.id)
      .where('prospect_id', '=', 'idem-body')
      .execute();
    expect(saved).toHaveLength(0);
  });

  it("keeps each user's keys apart: another rep's same key is a write of their own", async () => {
    const key = randomUUID();
    expect((await logCall(ann, key, entry('idem-users'))).statusCode).toBe(201);
    expect((await logCall(bob, key, entry('idem-users'))).statusCode).toBe(201);
    expect(await callLogsOf(ann.id, 'idem-users')).toHaveLength(1);
    expect(await callLogsOf(bob.id, 'idem-users')).toHaveLength(1);
  });

  it('refuses a malformed key with a clear 400 and writes nothing', async () => {
    for (const bad of ['not-a-uuid', '', `${randomUUID()}x`]) {
      const res = await logCall(ann, bad, entry('idem-bad'));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: BAD_IDEMPOTENCY_KEY });
    }
    expect(await callLogsOf(ann.id, 'idem-bad')).toHaveLength(0);
  });

  it('stores a refusal (the save limit of 30) so the replay answers the same refusal, even after room is made', async () => {
    const carol = await t.newUser();
    for (let i = 0; i < 30; i++) expect((await save(carol, randomUUID(), `limit-${i}`)).statusCode).toBe(201);
    const key = randomUUID();
    const refused = await save(carol, key, 'limit-over');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ error: SAVED_LIMIT_REACHED });
    // Room is made; the replay of the refused write still answers its refusal and saves nothing.
    const removed = await t.request({
      method: 'DELETE',
      url: '/api/saved/limit-0',
      as: carol,
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(removed.statusCode).toBe(204);
    const replay = await save(carol, key, 'limit-over');
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toEqual({ error: SAVED_LIMIT_REACHED });
    const rows = await t.db.kysely
      .selectFrom('saved_prospects')
      .select('prospect_id')
      .where('user_id', '=', carol.id)
      .execute();
    expect(rows.map((r) => r.prospect_id)).not.toContain('limit-over');
    expect(rows).toHaveLength(29);
  });

  it('replays a removal, a follow-up done / reschedule and a pipeline stage with the stored answer', async () => {
    const dave = await t.newUser();
    const made = await logCall(
      dave,
      randomUUID(),
      entry('idem-more', { followUp: { dueDate: '2026-12-01', timeZone: ZONE } }),
    );
    const followUpId = made.json<{ followUp: { id: string } }>().followUp.id;

    expect((await save(dave, randomUUID(), 'idem-more')).statusCode).toBe(201);
    const removeKey = randomUUID();
    const remove = () =>
      t.request({
        method: 'DELETE',
        url: '/api/saved/idem-more',
        as: dave,
        headers: { 'idempotency-key': removeKey },
      });
    expect((await remove()).statusCode).toBe(204);
    // Without the key a second removal is a 404; with it, the stored 204.
    expect((await remove()).statusCode).toBe(204);

    const moveKey = randomUUID();
    const move = () =>
      t.request({
        method: 'PATCH',
        url: `/api/follow-ups/${followUpId}`,
        payload: { dueDate: '2026-12-03' },
        as: dave,
        headers: { 'idempotency-key': moveKey },
      });
    const moved = await move();
    expect(moved.statusCode).toBe(200);
    const doneKey = randomUUID();
    const done = () =>
      t.request({
        method: 'POST',
        url: `/api/follow-ups/${followUpId}/done`,
        as: dave,
        headers: { 'idempotency-key': doneKey },
      });
    const first = await done();
    expect(first.statusCode).toBe(200);
    // The reschedule replayed after "done" does not open it again: its stored answer comes back.
    const movedAgain = await move();
    expect(movedAgain.json()).toEqual(moved.json());
    const row = await t.db.kysely
      .selectFrom('follow_ups')
      .selectAll()
      .where('id', '=', followUpId)
      .executeTakeFirstOrThrow();
    expect(row.done_at).not.toBeNull();
    expect((await done()).json()).toEqual(first.json());

    const stageKey = randomUUID();
    const stage = () =>
      t.request({
        method: 'PUT',
        url: '/api/pipeline/idem-more',
        payload: { stage: 'Meeting set', name: 'Business idem-more' },
        as: dave,
        headers: { 'idempotency-key': stageKey },
      });
    const [a, b] = await Promise.all([stage(), stage()]);
    expect(a.statusCode).toBe(200);
    expect(b.json()).toEqual(a.json());
    const moves = await t.db.kysely
      .selectFrom('pipeline_history')
      .selectAll()
      .where('business_id', '=', 'idem-more')
      .execute();
    // The call's claim at Contacted, then one move to Meeting set.
    expect(moves).toHaveLength(2);
  });

  it("resolves a queued follow-up's id (queued:<the call's key>) for done and reschedule, only for its rep", async () => {
    // Offline the phone shows the follow-up as `queued:<key>` and queues "done" or a new date behind the call.
    const callKey = randomUUID();
    const queuedId = encodeURIComponent(`queued:${callKey}`);
    const followUpRequest = (as: TestUser, method: 'POST' | 'PATCH', key: string) =>
      t.request({
        method,
        url: method === 'POST' ? `/api/follow-ups/${queuedId}/done` : `/api/follow-ups/${queuedId}`,
        ...(method === 'PATCH' ? { payload: { dueDate: '2026-12-09' } } : {}),
        as,
        headers: { 'idempotency-key': key },
      });
    // Before the call reached the server there is nothing to resolve: 404, nothing written.
    const early = await followUpRequest(ann, 'PATCH', randomUUID());
    expect(early.statusCode).toBe(404);
    const made = await logCall(
      ann,
      callKey,
      entry('idem-queued-follow-up', { followUp: { dueDate: '2026-12-01', timeZone: ZONE } }),
    );
    expect(made.statusCode).toBe(201);
    const followUpId = made.json<{ followUp: { id: string } }>().followUp.id;

    const moveKey = randomUUID();
    const moved = await followUpRequest(ann, 'PATCH', moveKey);
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ followUp: { id: followUpId, dueDate: '2026-12-09', doneAt: null } });
    expect((await followUpRequest(ann, 'PATCH', moveKey)).json()).toEqual(moved.json());

    // Another rep cannot reach it through the key (their keys are their own).
    expect((await followUpRequest(bob, 'POST', randomUUID())).statusCode).toBe(404);
    // Nor does a key of another route name a follow-up.
    const saveKey = randomUUID();
    expect((await save(ann, saveKey, 'idem-queued-save')).statusCode).toBe(201);
    const viaSave = await t.request({
      method: 'POST',
      url: `/api/follow-ups/${encodeURIComponent(`queued:${saveKey}`)}/done`,
      as: ann,
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(viaSave.statusCode).toBe(404);

    const doneKey = randomUUID();
    const [a, b] = await Promise.all([
      followUpRequest(ann, 'POST', doneKey),
      followUpRequest(ann, 'POST', doneKey),
    ]);
    expect(a.statusCode).toBe(200);
    expect(b.json()).toEqual(a.json());
    const row = await t.db.kysely
      .selectFrom('follow_ups')
      .selectAll()
      .where('id', '=', followUpId)
      .executeTakeFirstOrThrow();
    expect(row.done_at).not.toBeNull();
    expect(row.due_date).toBe('2026-12-09');
    const all = await t.db.kysely
      .selectFrom('follow_ups')
      .select('id')
      .where('prospect_id', '=', 'idem-queued-follow-up')
      .execute();
    expect(all).toHaveLength(1);
  });

  it('sweeps keys older than their lifetime', async () => {
    const key = randomUUID();
    expect((await logCall(ann, key, entry('idem-sweep'))).statusCode).toBe(201);
    const later = new Date(Date.now() + 8 * 24 * 60 * 60 * 1000);
    expect(await sweepIdempotencyKeys(t.db, later)).toBeGreaterThan(0);
    // Forgotten: the same key is a new write now.
    expect((await logCall(ann, key, entry('idem-sweep'))).statusCode).toBe(201);
    expect(await callLogsOf(ann.id, 'idem-sweep')).toHaveLength(2);
  });
});
