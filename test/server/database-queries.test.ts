// The query helpers of src/server/db/database.ts on a real database (SQLite, or PostgreSQL with
// TEST_DATABASE=postgres): a list of texts matched exactly whatever it holds, and answers read in full.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTexts, type Db } from '../../src/server/db/database.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';

let testDb: TestDatabase;
let db: Db;
beforeAll(async () => {
  testDb = await createTestDatabase();
  db = testDb.open();
  await sql`CREATE TABLE words (id text PRIMARY KEY, n integer NOT NULL)`.execute(db.kysely);
});
afterAll(async () => {
  await db.destroy();
  await testDb.drop();
});

// What an array literal or a parameter list could get wrong: quotes, commas, braces, backslashes, NULL spelled
// out, spaces, an empty text, non-ASCII letters.
const AWKWARD = [
  'a"b',
  "o'neil",
  'x,y',
  '{z}',
  'back\\slash',
  'NULL',
  ' padded ',
  '',
  'Café 東京',
  'osm:node/1',
];

describe('inTexts', () => {
  beforeAll(async () => {
    await db.kysely
      .insertInto('words' as never)
      .values([...AWKWARD, 'not asked'].map((id, n) => ({ id, n })))
      .execute();
  });

  it('matches exactly the texts of the list, each once', async () => {
    const rows = await sql<{
      id: string;
    }>`SELECT id FROM words WHERE ${inTexts(db.kind, 'id', AWKWARD)}`.execute(db.kysely);
    expect(rows.rows.map((r) => r.id).sort()).toEqual([...AWKWARD].sort());
  });

  it('matches 500 at once, and a text only when it is all there', async () => {
    const many = [...Array.from({ length: 498 }, (_, i) => `absent ${i}`), 'a"b', 'x,'];
    const rows = await sql<{
      id: string;
    }>`SELECT id FROM words WHERE ${inTexts(db.kind, 'id', many)}`.execute(db.kysely);
    expect(rows.rows.map((r) => r.id)).toEqual(['a"b']);
  });
});

describe('queries through the pool', () => {
  it('answer every row of a large result, query after query on the same connections', async () => {
    for (let round = 0; round < 3; round++) {
      const { rows } = await sql<{ n: number }>`SELECT n FROM words ORDER BY n`.execute(db.kysely);
      expect(rows.map((r) => Number(r.n))).toEqual(Array.from({ length: AWKWARD.length + 1 }, (_, i) => i));
    }
  });
});
