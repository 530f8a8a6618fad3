import type { Kysely } from 'kysely';

// The market an import makes (docs/SCORING.md, "One scale for every market: the reference market"): how many places each business has in the
// imported data (places.locations, for a local multi-location business's scale), and the reference population
// of each data source that display scores are calibrated against (score_references). Both are rebuilt by
// places/market.ts after every import; until then locations are 1 and scans use the absolute scale.

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type */
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['places', 'places_staging']) {
    await db.schema
      .alterTable(table)
      .addColumn('locations', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
  }
  await db.schema
    .createTable('score_references')
    .addColumn('source', 'text', (c) => c.primaryKey())
    .addColumn('model_version', 'text', (c) => c.notNull())
    .addColumn('built_at', 'text', (c) => c.notNull())
    .addColumn('population', 'integer', (c) => c.notNull())
    .addColumn('reference', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('score_references').execute();
  for (const table of ['places', 'places_staging']) {
    await db.schema.alterTable(table).dropColumn('locations').execute();
  }
}
