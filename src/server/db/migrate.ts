import { Migrator } from 'kysely';
import { withoutTimeouts, type Db } from './database.js';
import { migrations } from './migrations/index.js';

/**
 * Apply every pending application migration; throws with the failing migration's error. Runs without the
 * request timeouts: an index built on a large table, or a second instance waiting for the first one's
 * migration lock, may rightly take longer than DATABASE_STATEMENT_TIMEOUT_MS.
 */
export async function migrateToLatest(db: Db): Promise<void> {
  const unbounded = withoutTimeouts(db);
  try {
    await migrate(unbounded.kysely);
  } finally {
    await unbounded.close();
  }
}

async function migrate(kysely: Db['kysely']): Promise<void> {
  const migrator = new Migrator({
    db: kysely,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    // Slices developed side by side may land a migration named before one a database already ran; each
    // migration only adds its own tables, so applying the missing one out of order is safe.
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    throw new Error(
      `Migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : JSON.stringify(error)}`,
      { cause: error },
    );
  }
}
