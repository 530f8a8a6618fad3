import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';
import { parseCsv } from '../../src/core/csv.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const entry = (over: Record<string, unknown> = {}) => ({
  prospectId: 'osm:node/1',
  name: 'Joe’s Plumbing',
  category: 'Plumbing',
  phone: '(205) 555-0100',
  website: 'https://joes.example',
  address: '1 Main St, Birmingham, AL 35203',
  outcome: 'Called',
  note: 'Ask for Joe',
  ...over,
});

const add = (as: TestUser, payload: Record<string, unknown>) =>
  t.request({ method: 'POST', url: '/api/call-logs', payload, as });
const list = async (as: TestUser) =>
  (await t.request({ method: 'GET', url: '/api/call-logs', as })).json<{
    callLogs: { id: string; name: string; createdAt: string; outcome: string; note: string }[];
  }>().callLogs;

describe('call logs', () => {
  it('adds entries and lists only the caller’s own, newest first', async () => {
    const ann = await t.newUser();
    const bob = await t.newUser();
    const first = await add(ann, entry({ name: 'First', timestamp: '2026-01-01T10:00:00Z' }));
    expect(first.statusCode).toBe(201);
    expect(first.json<{ callLog: unknown }>().callLog).toMatchObject({
      name: 'First',
      outcome: 'Called',
      prospectId: 'osm:node/1',
      createdAt: '2026-01-01T10:00:00.000Z',
    });
    expect(
      (await add(ann, entry({ name: 'Second', outcome: 'Visited', timestamp: Date.UTC(2026, 0, 2) })))
        .statusCode,
    ).toBe(201);
    const before = Date.now();
    expect((await add(ann, entry({ name: 'Now' }))).statusCode).toBe(201);
    expect((await add(bob, entry({ name: 'Bob’s' }))).statusCode).toBe(201);

    const mine = await list(ann);
    expect(mine.map((e) => e.name)).toEqual(['Now', 'Second', 'First']);
    expect(Date.parse(mine[0]!.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(mine[1]!.outcome).toBe('Visited');
    expect((await list(bob)).map((e) => e.name)).toEqual(['Bob’s']);
  });

  it('refuses a missing or unknown outcome, points Saved for Later to saving, validates the timestamp', async () => {
    const u = await t.newUser();
    const saved = await add(u, entry({ outcome: 'Saved for Later' }));
    expect(saved.statusCode).toBe(400);
    expect(saved.json<{ error: string }>().error).toContain('/api/saved');
    const empty = await add(u, entry({ outcome: '' }));
    expect(empty.statusCode).toBe(400);
    expect(empty.json<{ error: string }>().error).toBe('Logging requires an outcome: Called or Visited.');
    expect((await add(u, entry({ outcome: 'Emailed' }))).statusCode).toBe(400);
    const badDate = await add(u, entry({ timestamp: 'yesterday-ish' }));
    expect(badDate.statusCode).toBe(400);
    expect(badDate.json<{ error: string }>().error).toMatch(/timestamp/);
    expect((await add(u, entry({ timestamp: Date.now() + 7 * 86_400_000 }))).statusCode).toBe(400);
    const noName = await add(u, entry({ name: '   ' }));
    expect(noName.statusCode).toBe(400);
    expect(noName.json<{ error: string }>().error).toMatch(/name/);
    expect(await list(u)).toEqual([]);
  });

  it('deletes one own entry, never someone else’s', async () => {
    const ann = await t.newUser();
    const eve = await t.newUser('admin');
    const id = (await add(ann, entry())).json<{ callLog: { id: string } }>().callLog.id;
    const foreign = await t.request({ method: 'DELETE', url: `/api/call-logs/${id}`, as: eve });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ error: 'Call log entry not found' });
    expect(await list(ann)).toHaveLength(1);
    const own = await t.request({ method: 'DELETE', url: `/api/call-logs/${id}`, as: ann });
    expect(own.statusCode).toBe(204);
    expect(await list(ann)).toEqual([]);
  });

  it('clears all own entries and answers the count; nothing to clear is reported', async () => {
    const ann = await t.newUser();
    const bob = await t.newUser();
    for (let i = 0; i < 3; i++) await add(ann, entry({ name: `N${i}` }));
    await add(bob, entry());
    const cleared = await t.request({ method: 'DELETE', url: '/api/call-logs', as: ann });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toEqual({ deleted: 3, message: 'Call history cleared successfully' });
    expect(await list(ann)).toEqual([]);
    expect(await list(bob)).toHaveLength(1);
    const again = await t.request({ method: 'DELETE', url: '/api/call-logs', as: ann });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ error: 'No call history to clear' });
  });

  it('exports call_log_{user}_{date}.csv with every field, hostile text neutralised', async () => {
    const ann = await t.newUser('user', { name: 'Ann Smith' });
    const empty = await t.request({ method: 'GET', url: '/api/call-logs/export.csv', as: ann });
    expect(empty.statusCode).toBe(404);
    expect(empty.json()).toEqual({ error: 'No call history to export' });

    await add(ann, entry({ name: '=HYPERLINK("http://x","y")', timestamp: '2026-03-01T09:00:00Z' }));
    await add(
      ann,
      entry({ name: 'Smith, Jones', note: 'line 1\nline "2"', timestamp: '2026-03-02T09:00:00Z' }),
    );
    const res = await t.request({ method: 'GET', url: '/api/call-logs/export.csv', as: ann });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const today = new Date().toISOString().slice(0, 10);
    expect(res.headers['content-disposition']).toContain(`filename="call_log_Ann_Smith_${today}.csv"`);
    expect(
      res.body.startsWith(
        '\uFEFFDate,Name,Outcome,Category,Address,Phone,Website,Note,Follow-up,Time Zone\r\n',
      ),
    ).toBe(true);
    const rows = parseCsv(res.body).records;
    expect(rows).toHaveLength(3);
    expect(rows[1]).toEqual([
      '2026-03-02 09:00',
      'Smith, Jones',
      'Called',
      'Plumbing',
      '1 Main St, Birmingham, AL 35203',
      '(205) 555-0100',
      'https://joes.example',
      'line 1\nline "2"',
      '',
      'UTC',
    ]);
    expect(rows[2]![1]).toBe(`'=HYPERLINK("http://x","y")`);

    // The browser sends its time zone: dates (and the file's date) are the rep's local time.
    const local = await t.request({
      method: 'GET',
      url: `/api/call-logs/export.csv?tz=${encodeURIComponent('America/Los_Angeles')}`,
      as: ann,
    });
    const localRows = parseCsv(local.body).records;
    expect(localRows[1]![0]).toBe('2026-03-02 01:00');
    expect(localRows[2]![0]).toBe('2026-03-01 01:00');
    expect(localRows[1]![9]).toBe('America/Los_Angeles');
    const localToday = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' }).format(
      new Date(),
    );
    expect(local.headers['content-disposition']).toContain(`filename="call_log_Ann_Smith_${localToday}.csv"`);
  });
});

describe('hostile text', () => {
  it('refuses NUL characters (PostgreSQL text cannot hold them) with a 400, never a 500', async () => {
    const u = await t.newUser();
    const res = await add(u, entry({ name: 'A\u0000B' }));
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: string }>().error).toMatch(/name: must not contain NUL/);
    expect((await add(u, entry({ note: '\u0000' }))).statusCode).toBe(400);
    const del = await t.request({ method: 'DELETE', url: '/api/call-logs/a%00b', as: u });
    expect(del.statusCode).toBe(400);
    const save = await t.request({
      method: 'POST',
      url: '/api/saved',
      payload: {
        prospect: { id: 'x\u0000', name: 'n', category: '', address: '', lat: 0, lng: 0, score: 0 },
      },
      as: u,
    });
    expect(save.statusCode).toBe(400);
    expect((await t.request({ method: 'DELETE', url: '/api/saved/%00', as: u })).statusCode).toBe(400);
  });
});

describe('ordering', () => {
  it('lists entries logged in quick succession newest first', async () => {
    const u = await t.newUser();
    for (let i = 0; i < 8; i++) expect((await add(u, entry({ name: `Quick ${i}` }))).statusCode).toBe(201);
    expect((await list(u)).map((e) => e.name)).toEqual(Array.from({ length: 8 }, (_, i) => `Quick ${7 - i}`));
  });

  it('makes RFC 9562 version-7 ids that sort in creation order', async () => {
    const { timeOrderedId } = await import('../../src/server/call-logs/service.js');
    const ids = Array.from({ length: 50 }, () => timeOrderedId(1_763_800_000_000));
    expect([...ids].sort()).toEqual(ids);
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
