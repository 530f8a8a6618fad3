// The Log and Today lists are answered a page at a time: `limit` entries (200 unless asked, 500 at most) and a
// `nextCursor` naming the last one, null after the last page. Paging by the sort key (not by offset) keeps
// every entry exactly once, in order, however entries with the same time fall and whatever is logged
// between two pages. The Log's CSV export still holds everything.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../helpers/app.js';
import { insertCallLog } from '../../src/server/call-logs/repository.js';
import { parseCsv } from '../../src/core/csv.js';
import type { CallLog } from '../../src/core/api/lists.js';
import type { FollowUp } from '../../src/core/api/follow-ups.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

const callLogPage = async (as: TestUser, query: string): Promise<Page<CallLog>> => {
  const res = await t.request({ method: 'GET', url: `/api/call-logs${query}`, as });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json<{ callLogs: CallLog[]; nextCursor: string | null }>();
  return { items: body.callLogs, nextCursor: body.nextCursor };
};

const followUpPage = async (as: TestUser, query: string): Promise<Page<FollowUp>> => {
  const res = await t.request({ method: 'GET', url: `/api/follow-ups${query}`, as });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json<{ followUps: FollowUp[]; nextCursor: string | null }>();
  return { items: body.followUps, nextCursor: body.nextCursor };
};

/** Every page of a list, `limit` at a time, as the web app's "Load more" walks it. */
async function walk<T>(read: (query: string) => Promise<Page<T>>, limit: number): Promise<T[][]> {
  const pages: T[][] = [];
  let cursor: string | null = null;
  do {
    const page: Page<T> = await read(
      `?limit=${limit}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
    );
    pages.push(page.items);
    cursor = page.nextCursor;
  } while (cursor !== null && pages.length < 100);
  return pages;
}

/** Entries written straight into the table: `count` of them, `perSecond` sharing each created_at. */
async function seedCallLogs(user: TestUser, count: number, perSecond = 1, prefix = 'Biz') {
  for (let i = 0; i < count; i++) {
    const second = Math.floor(i / perSecond);
    await insertCallLog(t.db.kysely, {
      id: `log-${user.id}-${String(i).padStart(4, '0')}`,
      user_id: user.id,
      prospect_id: `osm:node/${i}`,
      name: `${prefix} ${i}`,
      category: 'Dental',
      phone: '',
      website: '',
      address: '',
      outcome: 'Called',
      note: '',
      created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString(),
    });
  }
}

describe('GET /api/call-logs, a page at a time', () => {
  it('walks every entry once, newest first, with entries of the same time split across pages', async () => {
    const ann = await t.newUser();
    await seedCallLogs(ann, 11, 3);
    const entries = (await callLogPage(ann, '?limit=500')).items;
    const all = entries.map((e) => e.id);
    expect(all).toHaveLength(11);
    const pages = await walk((q) => callLogPage(ann, q), 4);
    expect(pages.map((p) => p.length)).toEqual([4, 4, 3]);
    expect(pages.flat().map((e) => e.id)).toEqual(all);
    // Newest first; within one time, the larger id first.
    expect(entries.slice(0, 4).map((e) => e.name)).toEqual(['Biz 10', 'Biz 9', 'Biz 8', 'Biz 7']);
  });

  it('keeps the next page where it was when a call is logged between two pages', async () => {
    const bo = await t.newUser();
    await seedCallLogs(bo, 6);
    const first = await callLogPage(bo, '?limit=3');
    const logged = await t.request({
      method: 'POST',
      url: '/api/call-logs',
      as: bo,
      payload: { prospectId: 'osm:node/99', name: 'New One', outcome: 'Called' },
    });
    expect(logged.statusCode).toBe(201);
    const second = await callLogPage(bo, `?limit=3&cursor=${encodeURIComponent(first.nextCursor!)}`);
    expect([...first.items, ...second.items].map((e) => e.name)).toEqual([
      'Biz 5',
      'Biz 4',
      'Biz 3',
      'Biz 2',
      'Biz 1',
      'Biz 0',
    ]);
    expect(second.nextCursor).toBeNull();
  });

  it('answers 200 entries unless asked, 500 at most, and the CSV export still holds all of them', async () => {
    const cy = await t.newUser();
    await seedCallLogs(cy, 205);
    const first = await callLogPage(cy, '');
    expect(first.items).toHaveLength(200);
    expect(first.nextCursor).not.toBeNull();
    const rest = await callLogPage(cy, `?cursor=${encodeURIComponent(first.nextCursor!)}`);
    expect(rest.items).toHaveLength(5);
    expect(rest.nextCursor).toBeNull();
    expect((await callLogPage(cy, '?limit=500')).items).toHaveLength(205);

    const csv = await t.request({ method: 'GET', url: '/api/call-logs/export.csv?tz=UTC', as: cy });
    expect(csv.statusCode).toBe(200);
    expect(parseCsv(csv.body).records.filter((r) => r.some((v) => v !== ''))).toHaveLength(206);
  });

  it('refuses a limit out of bounds and a cursor it never gave, with a 400 naming the field', async () => {
    const di = await t.newUser();
    for (const [query, where] of [
      ['?limit=501', 'limit'],
      ['?limit=0', 'limit'],
      ['?limit=ten', 'limit'],
      ['?cursor=garbage', 'cursor'],
      ['?cursor=', 'cursor'],
      // A follow-up cursor (three parts) is not a call-log cursor (two).
      [`?cursor=${btoa(encodeURIComponent(JSON.stringify(['2026-01-01', '', 'x'])))}`, 'cursor'],
    ] as const) {
      const res = await t.request({ method: 'GET', url: `/api/call-logs${query}`, as: di });
      expect({ query, status: res.statusCode }).toEqual({ query, status: 400 });
      expect(res.json<{ error: string }>().error).toMatch(new RegExp(`^Invalid querystring: ${where}: `));
    }
  });

  it("pages only the caller's own entries, whatever cursor it sends", async () => {
    const ed = await t.newUser();
    const flo = await t.newUser();
    await seedCallLogs(ed, 4, 1, 'Ed');
    await seedCallLogs(flo, 4, 1, 'Flo');
    const edFirst = await callLogPage(ed, '?limit=2');
    const floWithEdsCursor = await callLogPage(
      flo,
      `?limit=10&cursor=${encodeURIComponent(edFirst.nextCursor!)}`,
    );
    // Only Flo's older entries (which of her entries of the cursor's second follow depends on the ids).
    const names = floWithEdsCursor.items.map((e) => e.name);
    expect(names.length).toBeGreaterThanOrEqual(2);
    expect(names.every((n) => /^Flo [0-2]$/.test(n))).toBe(true);
  });
});

describe('GET /api/follow-ups, a page at a time', () => {
  it("walks every open follow-up once, soonest first, a day's any-time ones before its timed ones", async () => {
    const gus = await t.newUser();
    const due: [string, string | null][] = [
      ['2026-03-02', '09:00'],
      ['2026-03-01', null],
      ['2026-03-02', null],
      ['2026-03-01', '14:30'],
      ['2026-03-02', '08:15'],
      ['2026-03-01', null],
      ['2026-03-03', null],
    ];
    for (const [i, [dueDate, dueTime]] of due.entries()) {
      const res = await t.request({
        method: 'POST',
        url: '/api/call-logs',
        as: gus,
        payload: {
          prospectId: `osm:node/${i}`,
          name: `Due ${i}`,
          outcome: 'Called',
          followUp: { dueDate, dueTime, timeZone: 'America/Chicago' },
        },
      });
      expect(res.statusCode).toBe(201);
    }
    const all = (await followUpPage(gus, '?limit=500')).items;
    expect(all.map((f) => `${f.dueDate} ${f.dueTime ?? 'any'}`)).toEqual([
      '2026-03-01 any',
      '2026-03-01 any',
      '2026-03-01 14:30',
      '2026-03-02 any',
      '2026-03-02 08:15',
      '2026-03-02 09:00',
      '2026-03-03 any',
    ]);
    const pages = await walk((q) => followUpPage(gus, q), 2);
    expect(pages.map((p) => p.length)).toEqual([2, 2, 2, 1]);
    expect(pages.flat().map((f) => f.id)).toEqual(all.map((f) => f.id));

    const bad = await t.request({ method: 'GET', url: '/api/follow-ups?cursor=nope', as: gus });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: string }>().error).toMatch(/^Invalid querystring: cursor: /);
  });
});
