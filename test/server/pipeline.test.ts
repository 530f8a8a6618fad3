import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';
import { scannedBusiness } from '../helpers/businesses.js';
import { openStream } from '../helpers/sse.js';
import { parseConfig } from '../../src/server/config.js';
import { createMemoryBus, type AppEvent } from '../../src/server/events/bus.js';
import { createReleaseSweeper } from '../../src/server/pipeline/service.js';
import type { PipelineEntry, PipelineHistoryEntry } from '../../src/core/api/pipeline.js';

let t: TestContext;
let baseUrl: string;
beforeAll(async () => {
  t = await createTestContext();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

let counter = 0;
/** A business the team scanned, under the given name (the name the pipeline stores). */
const newBusiness = (name = 'Acme Autos') =>
  scannedBusiness(t.db, `osm:node/pipeline-${++counter}-${Date.now()}`, name);
const url = (id: string) => `/api/pipeline/${encodeURIComponent(id)}`;

const setStage = (as: TestUser, id: string, stage: string, name = 'Acme Autos') =>
  t.request({ method: 'PUT', url: url(id), payload: { stage, name }, as });
const entryOf = async (as: TestUser, id: string): Promise<PipelineEntry | undefined> =>
  (await t.request({ method: 'GET', url: `/api/pipeline?businessIds=${encodeURIComponent(id)}`, as })).json<{
    entries: PipelineEntry[];
  }>().entries[0];
const historyOf = async (as: TestUser, id: string) =>
  (await t.request({ method: 'GET', url: `${url(id)}/history`, as })).json<{
    history: PipelineHistoryEntry[];
  }>().history;
const auditOf = async (id: string) => {
  const superAdmin = await t.newUser('SuperAdmin');
  const res = await t.request({ method: 'GET', url: '/api/audit?pageSize=100', as: superAdmin });
  return res
    .json<{
      entries: {
        action: string;
        actor: { name: string };
        target: { id: string };
        details: Record<string, unknown>;
      }[];
    }>()
    .entries.filter((e) => e.target.id === id);
};

describe('pipeline', () => {
  it('a rep claims a business by setting a stage; every rep sees owner, stage and since', async () => {
    const ann = await t.newUser('user', { name: 'Ann Rep' });
    const bob = await t.newUser('user', { name: 'Bob Rep' });
    const id = await newBusiness();
    expect(await entryOf(bob, id)).toBeUndefined();
    const before = new Date().toISOString();
    const res = await setStage(ann, id, 'Meeting set');
    expect(res.statusCode).toBe(200);
    const { entry } = res.json<{ entry: PipelineEntry }>();
    expect(entry).toMatchObject({
      businessId: id,
      label: 'Acme Autos',
      ownerId: ann.id,
      ownerName: 'Ann Rep',
      stage: 'Meeting set',
    });
    expect(entry.since >= before).toBe(true);
    expect(await entryOf(bob, id)).toEqual(entry);
    // Without businessIds: every business someone works.
    const all = (await t.request({ method: 'GET', url: '/api/pipeline', as: bob })).json<{
      entries: PipelineEntry[];
    }>();
    expect(all.entries.map((e) => e.businessId)).toContain(id);
  });

  it("refuses another rep's business with a 409 naming the owner, and New on an unclaimed one", async () => {
    const ann = await t.newUser('user', { name: 'Ann Owner' });
    const bob = await t.newUser('user', { name: 'Bob Other' });
    const id = await newBusiness();
    expect((await setStage(ann, id, 'Contacted')).statusCode).toBe(200);
    const denied = await setStage(bob, id, 'Proposal');
    expect(denied.statusCode).toBe(409);
    expect(denied.json()).toEqual({
      error: 'Ann Owner is working this business. Ask Ann Owner or an admin to reassign it.',
    });
    // An admin is refused too: admins hand a business over with reassign.
    const admin = await t.newUser('admin');
    expect((await setStage(admin, id, 'Proposal')).statusCode).toBe(409);
    expect((await entryOf(bob, id))?.stage).toBe('Contacted');

    const fresh = await setStage(bob, await newBusiness(), 'New');
    expect(fresh.statusCode).toBe(400);
    expect(fresh.json()).toEqual({ error: 'Choose a stage other than New to claim this business.' });
    const bad = await setStage(bob, id, 'Maybe');
    expect(bad.statusCode).toBe(400);
  });

  it('the owner moves along the allowed moves and releases with New', async () => {
    const ann = await t.newUser('user', { name: 'Ann Mover' });
    const id = await newBusiness();
    await setStage(ann, id, 'Contacted');
    expect((await setStage(ann, id, 'Proposal')).statusCode).toBe(200);
    const same = await setStage(ann, id, 'Proposal');
    expect(same.statusCode).toBe(400);
    expect(same.json()).toEqual({ error: 'This business is already at Proposal.' });
    const released = await setStage(ann, id, 'New');
    expect(released.json<{ entry: PipelineEntry }>().entry).toMatchObject({
      ownerId: null,
      ownerName: null,
      stage: 'New',
    });
    // Released: anyone may claim it now.
    const bob = await t.newUser('user', { name: 'Bob Next' });
    expect((await setStage(bob, id, 'Contacted')).json<{ entry: PipelineEntry }>().entry.ownerName).toBe(
      'Bob Next',
    );
  });

  it('logging a call on an unclaimed business claims it at Contacted; on another rep’s it changes nothing', async () => {
    const ann = await t.newUser('user', { name: 'Ann Caller' });
    const bob = await t.newUser('user', { name: 'Bob Caller' });
    const id = await newBusiness('Joe’s Plumbing');
    const log = (as: TestUser) =>
      t.request({
        method: 'POST',
        url: '/api/call-logs',
        payload: { prospectId: id, name: 'Joe’s Plumbing', outcome: 'Called' },
        as,
      });
    expect((await log(ann)).statusCode).toBe(201);
    const claimed = await entryOf(bob, id);
    expect(claimed).toMatchObject({
      ownerId: ann.id,
      ownerName: 'Ann Caller',
      stage: 'Contacted',
      label: 'Joe’s Plumbing',
    });
    expect((await log(bob)).statusCode).toBe(201);
    expect(await entryOf(bob, id)).toEqual(claimed);
    // The owner's own call keeps the claim fresh without a history entry.
    await setStage(ann, id, 'Meeting set');
    const moved = await entryOf(ann, id);
    await new Promise((r) => setTimeout(r, 5));
    expect((await log(ann)).statusCode).toBe(201);
    const touched = await entryOf(ann, id);
    expect(touched).toMatchObject({ stage: 'Meeting set', since: moved!.since });
    expect(touched!.updatedAt > moved!.updatedAt).toBe(true);
    const history = await historyOf(bob, id);
    expect(history.map((h) => [h.reason, h.toStage])).toEqual([
      ['Stage changed', 'Meeting set'],
      ['Call logged', 'Contacted'],
    ]);
  });

  it('Won marks the business a current advertiser and tells every screen', async () => {
    const ann = await t.newUser('user', { name: 'Ann Winner' });
    const id = await newBusiness('Big Diner');
    const stream = await openStream(baseUrl, ann);
    try {
      await setStage(ann, id, 'Proposal', 'Big Diner');
      expect((await setStage(ann, id, 'Won', 'Big Diner')).statusCode).toBe(200);
      const ads = (await t.request({ method: 'GET', url: '/api/current-advertisers', as: ann })).json<{
        advertisers: { businessId: string; label: string; markedByName: string }[];
      }>().advertisers;
      expect(ads.find((a) => a.businessId === id)).toMatchObject({
        label: 'Big Diner',
        markedByName: 'Ann Winner',
      });
      const notice = await stream.next(
        (e) => e.event === 'pipeline' && e.data.businessId === id && e.data.item?.stage === 'Won',
        5000,
      );
      expect(notice.data.item).toMatchObject({ ownerName: 'Ann Winner', stage: 'Won' });
      await stream.next((e) => e.event === 'advertisers' && e.data.businessId === id, 5000);
    } finally {
      await stream.close();
    }
  });

  it('Won leaves the business unmarked when the rep says so', async () => {
    const ann = await t.newUser('user', { name: 'Ann Asked' });
    const id = await newBusiness('Small Cafe');
    await setStage(ann, id, 'Proposal', 'Small Cafe');
    const won = await t.request({
      method: 'PUT',
      url: url(id),
      payload: { stage: 'Won', name: 'Small Cafe', markAdvertiser: false },
      as: ann,
    });
    expect(won.statusCode).toBe(200);
    expect(won.json().entry).toMatchObject({ stage: 'Won' });
    const ads = (await t.request({ method: 'GET', url: '/api/current-advertisers', as: ann })).json<{
      advertisers: { businessId: string }[];
    }>().advertisers;
    expect(ads.some((a) => a.businessId === id)).toBe(false);
  });

  it('admins reassign and release; reps may not; every change is in the history and the audit log', async () => {
    const ann = await t.newUser('user', { name: 'Ann Before' });
    const bob = await t.newUser('user', { name: 'Bob After' });
    const admin = await t.newUser('admin', { name: 'Ada Admin' });
    const id = await newBusiness();
    await setStage(ann, id, 'Meeting set', 'Corner Shop');
    const reassign = (as: TestUser, userId: string) =>
      t.request({
        method: 'POST',
        url: `/api/admin/pipeline/${encodeURIComponent(id)}/reassign`,
        payload: { userId },
        as,
      });
    const release = (as: TestUser, businessId = id) =>
      t.request({ method: 'POST', url: `/api/admin/pipeline/${encodeURIComponent(businessId)}/release`, as });

    expect((await reassign(ann, bob.id)).statusCode).toBe(403);
    expect((await release(ann)).statusCode).toBe(403);
    const unknown = await reassign(admin, 'no-such-user');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ error: 'No such user to assign the business to.' });

    const moved = await reassign(admin, bob.id);
    expect(moved.statusCode).toBe(200);
    expect(moved.json<{ entry: PipelineEntry }>().entry).toMatchObject({
      ownerId: bob.id,
      ownerName: 'Bob After',
      stage: 'Meeting set',
    });
    expect((await setStage(ann, id, 'Proposal')).statusCode).toBe(409);
    expect((await setStage(bob, id, 'Proposal')).statusCode).toBe(200);
    expect((await reassign(admin, bob.id)).json()).toEqual({
      error: 'Bob After is already working this business.',
    });

    const freed = await release(admin);
    expect(freed.json<{ entry: PipelineEntry }>().entry).toMatchObject({ ownerId: null, stage: 'New' });
    const again = await release(admin);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ error: 'Nobody is working this business.' });

    const history = await historyOf(ann, id);
    expect(
      history.map((h) => [h.reason, h.fromOwnerName, h.toOwnerName, h.fromStage, h.toStage, h.byName]),
    ).toEqual([
      ['Released by an admin', 'Bob After', null, 'Proposal', 'New', 'Ada Admin'],
      ['Stage changed', 'Bob After', 'Bob After', 'Meeting set', 'Proposal', 'Bob After'],
      ['Reassigned by an admin', 'Ann Before', 'Bob After', 'Meeting set', 'Meeting set', 'Ada Admin'],
      ['Claimed', null, 'Ann Before', null, 'Meeting set', 'Ann Before'],
    ]);
    const audit = await auditOf(id);
    expect(audit.map((e) => [e.action, e.actor.name])).toEqual([
      ['pipeline.admin_release', 'Ada Admin'],
      ['pipeline.stage', 'Bob After'],
      ['pipeline.reassign', 'Ada Admin'],
      ['pipeline.claim', 'Ann Before'],
    ]);
    expect(audit[2]!.details).toMatchObject({
      fromOwner: 'Ann Before',
      toOwner: 'Bob After',
      toStage: 'Meeting set',
    });
  });

  it('stores the name of the server’s record, not the one sent; refuses a made-up id; an admin assigns an unclaimed business', async () => {
    const ann = await t.newUser('user', { name: 'Ann Nameless' });
    const admin = await t.newUser('admin');
    const id = await newBusiness('Real Name Bakery');
    const res = await setStage(ann, id, 'Contacted', 'Anything The Rep Typed');
    expect(res.statusCode).toBe(200);
    expect(res.json<{ entry: PipelineEntry }>().entry.label).toBe('Real Name Bakery');
    expect((await auditOf(id))[0]).toMatchObject({ action: 'pipeline.claim' });

    const madeUp = `osm:node/made-up-${Date.now()}`;
    const refused = await setStage(ann, madeUp, 'Contacted', 'Fake Business');
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({
      error: 'This business is not in any scan or imported list, so it cannot be marked or claimed.',
    });
    expect(await entryOf(ann, madeUp)).toBeUndefined();

    const other = await newBusiness('Assigned Diner');
    const assigned = await t.request({
      method: 'POST',
      url: `/api/admin/pipeline/${encodeURIComponent(other)}/reassign`,
      payload: { userId: ann.id },
      as: admin,
    });
    expect(assigned.json<{ entry: PipelineEntry }>().entry).toMatchObject({
      label: 'Assigned Diner',
      ownerId: ann.id,
      stage: 'New',
    });
    // Assigned at New: the owner moves it on.
    expect((await setStage(ann, other, 'Contacted')).statusCode).toBe(200);
  });

  it('a rep reaches Won only from Proposal; an admin may jump', async () => {
    const ann = await t.newUser('user', { name: 'Ann Jumper' });
    const id = await newBusiness('Jump Motors');
    const claim = await setStage(ann, id, 'Won');
    expect(claim.statusCode).toBe(400);
    expect(claim.json()).toEqual({ error: 'A business is won from Proposal: set Proposal first.' });
    expect(await entryOf(ann, id)).toBeUndefined();
    expect((await setStage(ann, id, 'Contacted')).statusCode).toBe(200);
    const jump = await setStage(ann, id, 'Won');
    expect(jump.statusCode).toBe(400);
    expect(jump.json()).toEqual({ error: 'A business is won from Proposal: set Proposal first.' });
    const ads = async () =>
      (await t.request({ method: 'GET', url: '/api/current-advertisers', as: ann })).json<{
        advertisers: { businessId: string }[];
      }>().advertisers;
    expect((await ads()).some((a) => a.businessId === id)).toBe(false);
    // Stages before Won may be skipped (a proposal made on the first visit).
    expect((await setStage(ann, id, 'Proposal')).statusCode).toBe(200);
    expect((await setStage(ann, id, 'Won')).statusCode).toBe(200);

    const admin = await t.newUser('admin', { name: 'Ada Jumper' });
    const other = await newBusiness('Admin Motors');
    expect((await setStage(admin, other, 'Won')).statusCode).toBe(200);
    expect((await ads()).some((a) => a.businessId === other)).toBe(true);
  });

  it('one id in another case is the same business: one claim, one audit entry, however many calls', async () => {
    const ann = await t.newUser('user', { name: 'Ann Case' });
    const bob = await t.newUser('user', { name: 'Bob Case' });
    const n = Date.now() % 1_000_000_000;
    const id = await scannedBusiness(t.db, `osm:node/${n}`, 'Case Diner');
    const log = (as: TestUser, prospectId: string) =>
      t.request({
        method: 'POST',
        url: '/api/call-logs',
        payload: { prospectId, name: 'Whatever', outcome: 'Called' },
        as,
      });
    for (const spelling of [id, `OSM:Node/${n}`, `osm:NODE/${n}`]) {
      expect((await log(ann, spelling)).statusCode).toBe(201);
    }
    const audit = await auditOf(id);
    expect(audit.map((e) => e.action)).toEqual(['pipeline.claim']);
    expect(await entryOf(bob, `Osm:Node/${n}`)).toMatchObject({
      businessId: id,
      label: 'Case Diner',
      ownerId: ann.id,
    });
    const second = await setStage(bob, `OSM:NODE/${n}`, 'Contacted');
    expect(second.statusCode).toBe(409);
    const history = await historyOf(bob, `osm:Node/${n}`);
    expect(history).toHaveLength(1);
    // A call on an id no record knows is logged but claims nothing.
    const madeUp = `osm:node/${n + 1}`;
    expect((await log(ann, madeUp)).statusCode).toBe(201);
    expect(await entryOf(ann, madeUp)).toBeUndefined();
    expect(await auditOf(madeUp)).toEqual([]);
  });

  it('an admin may not reassign or release a SuperAdmin’s claim, nor hand one to a SuperAdmin', async () => {
    const superAdmin = await t.newUser('SuperAdmin', { name: 'Sue Super' });
    const admin = await t.newUser('admin', { name: 'Ada Limits' });
    const rep = await t.newUser('user', { name: 'Ray Rep' });
    const id = await newBusiness('Super Claim');
    expect((await setStage(superAdmin, id, 'Contacted')).statusCode).toBe(200);
    const reassign = (as: TestUser, businessId: string, userId: string) =>
      t.request({
        method: 'POST',
        url: `/api/admin/pipeline/${encodeURIComponent(businessId)}/reassign`,
        payload: { userId },
        as,
      });
    const release = (as: TestUser, businessId: string) =>
      t.request({ method: 'POST', url: `/api/admin/pipeline/${encodeURIComponent(businessId)}/release`, as });
    const denied = { error: 'Only SuperAdmins can manage SuperAdmins' };
    const r1 = await reassign(admin, id, rep.id);
    expect(r1.statusCode).toBe(403);
    expect(r1.json()).toEqual(denied);
    const r2 = await release(admin, id);
    expect(r2.statusCode).toBe(403);
    expect(r2.json()).toEqual(denied);
    expect((await entryOf(rep, id))?.ownerId).toBe(superAdmin.id);
    const repsOwn = await newBusiness('Rep Claim');
    expect((await setStage(rep, repsOwn, 'Contacted')).statusCode).toBe(200);
    const r3 = await reassign(admin, repsOwn, superAdmin.id);
    expect(r3.statusCode).toBe(403);
    expect(r3.json()).toEqual(denied);
    // A SuperAdmin may; an admin still acts on reps' claims.
    const other = await t.newUser('SuperAdmin');
    expect((await reassign(other, id, rep.id)).statusCode).toBe(200);
    expect((await release(admin, id)).statusCode).toBe(200);
  });

  it('two claims at once: exactly one rep wins, the other gets the 409', async () => {
    const ann = await t.newUser('user', { name: 'Ann Racer' });
    const bob = await t.newUser('user', { name: 'Bob Racer' });
    const id = await newBusiness();
    const answers = await Promise.all([setStage(ann, id, 'Contacted'), setStage(bob, id, 'Meeting set')]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(await historyOf(ann, id)).toHaveLength(1);
  });

  it('releases claims nobody touched for PIPELINE_RELEASE_DAYS, on a fake clock, once across instances', async () => {
    expect(parseConfig({ NODE_ENV: 'test' }).pipeline.releaseDays).toBe(30);
    expect(parseConfig({ NODE_ENV: 'test', PIPELINE_RELEASE_DAYS: '7' }).pipeline.releaseDays).toBe(7);
    const ann = await t.newUser('user', { name: 'Ann Stale' });
    const stale = await newBusiness();
    const won = await newBusiness();
    const later = await newBusiness();
    await setStage(ann, stale, 'Proposal');
    await setStage(ann, won, 'Proposal');
    await setStage(ann, won, 'Won');

    const log = t.app.log;
    const bus = createMemoryBus(log);
    const notices: AppEvent[] = [];
    bus.subscribe((e) => notices.push(e));
    let now = new Date(Date.now() + 29 * 86_400_000);
    const sweeper = (days: number) =>
      createReleaseSweeper({ db: t.db, events: bus, log, days, intervalMs: 3_600_000, now: () => now });
    expect(await sweeper(30).runOnce()).toBe(0);
    expect((await entryOf(ann, stale))?.ownerId).toBe(ann.id);

    await setStage(ann, later, 'Contacted');
    now = new Date(Date.now() + 31 * 86_400_000);
    // Two instances sweep at once: each stale claim is released once.
    await Promise.all([sweeper(30).runOnce(), sweeper(30).runOnce()]);
    const mine = [stale, later];
    for (const id of mine) {
      expect(await entryOf(ann, id)).toMatchObject({
        ownerId: null,
        ownerName: null,
        stage: 'New',
        since: now.toISOString(),
      });
      const history = await historyOf(ann, id);
      expect(history.filter((h) => h.reason.startsWith('Released automatically'))).toHaveLength(1);
      expect(history[0]).toMatchObject({
        reason: 'Released automatically after 30 days without activity',
        byId: null,
        fromOwnerName: 'Ann Stale',
        toOwnerId: null,
      });
      expect(notices.filter((n) => n.type === 'pipeline' && n.businessId === id)).toHaveLength(1);
      expect((await auditOf(id)).map((e) => e.action)[0]).toBe('pipeline.auto_release');
    }
    // Won stays with its rep.
    expect((await entryOf(ann, won))?.ownerId).toBe(ann.id);
    expect(await sweeper(30).runOnce()).toBe(0);
  });
});
