// The SQLite connection's prepared-statement cache (src/server/db/database.ts): reuse by SQL text, a bound size
// with the least recently used statement dropped, and statements that still run after the schema changes.
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withStatementCache } from '../../src/server/db/database.js';

const handles: SQLite.Database[] = [];
afterEach(() => {
  for (const h of handles.splice(0)) if (h.open) h.close();
});

function open() {
  const handle = new SQLite(':memory:');
  handles.push(handle);
  const prepare = vi.spyOn(handle, 'prepare');
  return { handle, prepare, cached: withStatementCache(handle) };
}

describe('withStatementCache', () => {
  it('prepares each SQL text once and hands back the same statement', () => {
    const { prepare, cached } = open();
    const a = cached.prepare('SELECT 1 AS one');
    const b = cached.prepare('SELECT 1 AS one');
    expect(b).toBe(a);
    expect(prepare).toHaveBeenCalledTimes(1);
    expect(b.all([])).toEqual([{ one: 1 }]);
  });

  it('keeps at most 256 statements, dropping the least recently used', () => {
    const { prepare, cached } = open();
    const first = cached.prepare('SELECT 0');
    for (let i = 1; i < 256; i++) cached.prepare(`SELECT ${i}`);
    expect(cached.prepare('SELECT 0')).toBe(first); // used again: now the most recent
    cached.prepare('SELECT 256'); // the 257th drops 'SELECT 1', the least recently used
    expect(prepare).toHaveBeenCalledTimes(257);
    expect(cached.prepare('SELECT 0')).toBe(first);
    cached.prepare('SELECT 1');
    expect(prepare).toHaveBeenCalledTimes(258);
  });

  it('runs a kept statement after the table it reads was altered, through Kysely', async () => {
    const { cached } = open();
    const db = new Kysely<{ t: { a: number; b?: number } }>({
      dialect: new SqliteDialect({ database: cached }),
    });
    await sql`CREATE TABLE t (a integer)`.execute(db);
    await db.insertInto('t').values({ a: 1 }).execute();
    expect(await db.selectFrom('t').selectAll().execute()).toEqual([{ a: 1 }]);
    await sql`ALTER TABLE t ADD COLUMN b integer`.execute(db);
    await db.insertInto('t').values({ a: 2 }).execute();
    expect(await db.selectFrom('t').selectAll().orderBy('a').execute()).toEqual([
      { a: 1, b: null },
      { a: 2, b: null },
    ]);
    await db.destroy();
  });
});
