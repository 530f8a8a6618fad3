import type { Kysely } from 'kysely';

// One business, once: when OpenStreetMap and Overture Maps hold the same business, the import merges them into one
// place (server/places/conflate.ts). place_sources keeps each merged source record under the id its source knows it
// by, so re-importing either source finds the place it belongs to and merges it again from the records; a place of
// one source has no rows here. field_sources says which source each field of a merged place came from, for the card.

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('place_sources')
    .addColumn('source_id', 'text', (c) => c.primaryKey())
    .addColumn('place_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('record', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('place_sources_place')
    .on('place_sources')
    .columns(['place_id', 'kind'])
    .execute();
  for (const table of ['places', 'places_staging']) {
    await db.schema.alterTable(table).addColumn('field_sources', 'text').execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['places', 'places_staging']) {
    await db.schema.alterTable(table).dropColumn('field_sources').execute();
  }
  await db.schema.dropTable('place_sources').execute();
}
