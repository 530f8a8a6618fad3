import { createTestContext, type TestContext } from './app.js';
import type { Db } from '../../src/server/db/database.js';

/**
 * A fresh, fully migrated database for one places test file (SQLite by default, PostgreSQL when
 * TEST_DATABASE=postgres; a uniquely named database dropped by close()). Built through the app so the
 * migrations run exactly as at start-up.
 */
export async function openPlacesDb(): Promise<{ db: Db; ctx: TestContext; close(): Promise<void> }> {
  const ctx = await createTestContext();
  return { db: ctx.db, ctx, close: () => ctx.close() };
}
