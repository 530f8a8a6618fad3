import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const parts = { fit: 0.8, presence: 0.6, scale: 0.4, keywords: 0.2, distance: 0.9, qualitySpread: 0.5 };
const breakdown = {
  vertical: 'dental',
  rule: null,
  ...parts,
  contributions: parts,
  raw: 0.7,
  propensity: { ctv: 0.5, olv: 0.5, display: 0.5, sem: 0.5 },
  dealerGroup: false,
  brand: null,
  keywordMatches: [],
};

const prospect = (id: string, over: Record<string, unknown> = {}) => ({
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
  aiAnalysis: {
    score: 82,
    reasoning: 'Strong fit',
    confidence: 70,
    recommendations: ['CTV'],
    breakdown,
    analyzedAt: '2026-01-05T10:00:00.000Z',
    businessHash: 'place_p',
    modelVersion: 'v4',
  },
  ...over,
});

const save = (as: TestUser, p: Record<string, unknown>) =>
  t.request({ method: 'POST', url: '/api/saved', payload: { prospect: p }, as });
const list = async (as: TestUser) =>
  (await t.request({ method: 'GET', url: '/api/saved', as })).json<{
    saved: { prospectId: string; prospect: Record<string, unknown>; savedAt: string }[];
  }>().saved;

describe('saved prospects', () => {
  it('saves the full prospect, lists own saves newest first, removes one', async () => {
    const ann = await t.newUser();
    const bob = await t.newUser();
    const first = await save(ann, prospect('p1'));
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ created: true, saved: { prospectId: 'p1' } });
    await new Promise((r) => setTimeout(r, 5));
    expect((await save(ann, prospect('p2'))).statusCode).toBe(201);
    const mine = await list(ann);
    expect(mine.map((s) => s.prospectId)).toEqual(['p2', 'p1']);
    expect(mine[1]!.prospect).toEqual(prospect('p1'));
    expect(await list(bob)).toEqual([]);

    const foreign = await t.request({ method: 'DELETE', url: '/api/saved/p1', as: bob });
    expect(foreign.statusCode).toBe(404);
    const removed = await t.request({ method: 'DELETE', url: '/api/saved/p1', as: ann });
    expect(removed.statusCode).toBe(204);
    expect((await list(ann)).map((s) => s.prospectId)).toEqual(['p2']);
  });

  it('accepts ids with slashes and colons in the path (URL-encoded)', async () => {
    const u = await t.newUser();
    await save(u, prospect('osm:node/42'));
    const res = await t.request({
      method: 'DELETE',
      url: `/api/saved/${encodeURIComponent('osm:node/42')}`,
      as: u,
    });
    expect(res.statusCode).toBe(204);
    expect(await list(u)).toEqual([]);
  });

  it('is idempotent: saving the same prospect twice keeps one save', async () => {
    const u = await t.newUser();
    expect((await save(u, prospect('same'))).statusCode).toBe(201);
    const again = await save(u, prospect('same', { name: 'Renamed' }));
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ created: false, saved: { prospect: { name: 'Business same' } } });
    expect(await list(u)).toHaveLength(1);
  });

  it('validates the prospect', async () => {
    const u = await t.newUser();
    const noId = await save(u, { ...prospect('x'), id: '' });
    expect(noId.statusCode).toBe(400);
    expect(noId.json<{ error: string }>().error).toMatch(/prospect\.id/);
    const badScore = await save(u, prospect('x', { score: 3 }));
    expect(badScore.statusCode).toBe(400);
    expect(badScore.json<{ error: string }>().error).toMatch(/prospect\.score/);
    const noLat = await save(u, { ...prospect('x'), lat: 'north' });
    expect(noLat.statusCode).toBe(400);
    expect(await list(u)).toEqual([]);
  });

  it('stops at 30 with the exact message; an existing save still answers at the limit', async () => {
    const u = await t.newUser();
    for (let i = 0; i < 30; i++) expect((await save(u, prospect(`s${i}`))).statusCode).toBe(201);
    const over = await save(u, prospect('s30'));
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({ error: 'You can only save up to 30 prospects' });
    expect((await save(u, prospect('s7'))).statusCode).toBe(200);
    expect(await list(u)).toHaveLength(30);
    // Someone else is not limited by this user's saves.
    expect((await save(await t.newUser(), prospect('s30'))).statusCode).toBe(201);
  });

  it('never exceeds 30 under 20 concurrent saves', async () => {
    const u = await t.newUser();
    for (let i = 0; i < 25; i++) await save(u, prospect(`c${i}`));
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => save(u, prospect(`race${i}`))));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(5);
    expect(codes.filter((c) => c === 400)).toHaveLength(15);
    for (const r of results.filter((x) => x.statusCode === 400)) {
      expect(r.json()).toEqual({ error: 'You can only save up to 30 prospects' });
    }
    expect(await list(u)).toHaveLength(30);
  });
});

describe('stored prospect data is bounded', () => {
  // Written as text: JSON.stringify itself overflows the stack on such a value.
  const NESTED = '"__nested__"';
  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const deepBody = (field: string, depth: number) =>
    JSON.stringify({
      prospect: withBreakdown({ ...breakdown, [field]: '__nested__' }),
    }).replace(NESTED, nested(depth));
  const raw = (as: TestUser, body: string) =>
    t.request({
      method: 'POST',
      url: '/api/saved',
      payload: body,
      headers: { 'content-type': 'application/json' },
      as,
    });
  const withBreakdown = (value: unknown) =>
    prospect('deep', { aiAnalysis: { ...prospect('deep').aiAnalysis, breakdown: value } });

  it('refuses a breakdown nested 5,000 or 4,000 arrays deep with a 400, and stores nothing', async () => {
    const u = await t.newUser();
    for (const depth of [5000, 4000]) {
      const res = await raw(u, deepBody('fit', depth));
      expect(res.statusCode).toBe(400);
      expect(res.json<{ error: string }>().error).toMatch(/prospect\.aiAnalysis\.breakdown/);
      // Deep nesting where no field is known: dropped, never stored.
      const unknown = await raw(u, deepBody('extra', depth));
      expect(unknown.statusCode).toBe(201);
      const stored = await t.db.kysely
        .selectFrom('saved_prospects')
        .select('prospect')
        .where('user_id', '=', u.id)
        .executeTakeFirstOrThrow();
      expect(stored.prospect).not.toContain('extra');
      expect(stored.prospect.length).toBeLessThan(5000);
      await t.request({ method: 'DELETE', url: '/api/saved/deep', as: u });
    }
    expect(await list(u)).toEqual([]);
  });

  it('refuses oversized text and lists, and a body of about 1 MB', async () => {
    const u = await t.newUser();
    const longReason = await save(u, withBreakdown({ ...breakdown, keywordMatches: ['x'.repeat(5000)] }));
    expect(longReason.statusCode).toBe(400);
    const manyTypes = await save(u, prospect('many', { types: Array.from({ length: 500 }, () => 'bar') }));
    expect(manyTypes.statusCode).toBe(400);
    const big = JSON.stringify({ prospect: prospect('big', { name: 'n'.repeat(1_000_000) }) });
    const res = await raw(u, big);
    expect([400, 413]).toContain(res.statusCode);
    expect(res.json<{ error: string }>().error).toBeTruthy();
    expect(await list(u)).toEqual([]);
  });

  it('still saves and lists a normal prospect with its whole analysis', async () => {
    const u = await t.newUser();
    expect((await save(u, prospect('normal'))).statusCode).toBe(201);
    expect((await list(u))[0]!.prospect).toEqual(prospect('normal'));
  });
});

describe('the note of Save for Later', () => {
  it('keeps the note typed with the save, trimmed; a later save with a new note replaces it', async () => {
    const u = await t.newUser('user');
    const first = await t.request({
      method: 'POST',
      url: '/api/saved',
      payload: { prospect: prospect('note-1'), note: '  Call back Tuesday  ' },
      as: u,
    });
    expect(first.statusCode).toBe(201);
    expect(first.json<{ saved: { note?: string } }>().saved.note).toBe('Call back Tuesday');
    expect((await list(u))[0]).toMatchObject({ prospectId: 'note-1', note: 'Call back Tuesday' });

    // Saved again without a note: the stored note stays; with another note: it is replaced.
    await save(u, prospect('note-1'));
    expect((await list(u))[0]).toMatchObject({ note: 'Call back Tuesday' });
    const again = await t.request({
      method: 'POST',
      url: '/api/saved',
      payload: { prospect: prospect('note-1'), note: 'Owner is back in May' },
      as: u,
    });
    expect(again.statusCode).toBe(200);
    expect((await list(u))[0]).toMatchObject({ note: 'Owner is back in May' });

    // A save without a note has none.
    await save(u, prospect('note-2'));
    expect((await list(u)).find((s) => s.prospectId === 'note-2')).not.toHaveProperty('note');
  });
});

describe('Set category on a saved prospect', () => {
  it('stores the category with the save; blank is refused; another user cannot touch it', async () => {
    const u = await t.newUser('user');
    const other = await t.newUser('user');
    await save(u, prospect('cat-1', { category: 'Business' }));
    const url = '/api/saved/cat-1/category';
    const blank = await t.request({ method: 'PATCH', url, payload: { category: '  ' }, as: u });
    expect(blank.statusCode).toBe(400);
    const set = await t.request({ method: 'PATCH', url, payload: { category: ' Hardware Store ' }, as: u });
    expect(set.statusCode).toBe(200);
    expect(set.json<{ prospect: { category: string } }>().prospect.category).toBe('Hardware Store');
    expect((await list(u)).find((s) => s.prospectId === 'cat-1')!.prospect.category).toBe('Hardware Store');
    const theirs = await t.request({ method: 'PATCH', url, payload: { category: 'Bakery' }, as: other });
    expect(theirs.statusCode).toBe(404);
  });
});
