import type { CreateTableBuilder, Kysely } from 'kysely';

// Businesses imported from an OpenStreetMap extract (`npm run import:osm`), answered by the `local` place
// provider. A radius query never scans the table: it walks the `places_grid` index band by band (cell_lat is
// floor(lat * 100), a 0.01° latitude band) with a longitude range in each band, and the index carries lat and the
// place-type bit mask so the candidate pass reads the index alone.

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type */
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['places', 'places_staging']) {
    let builder: CreateTableBuilder<string, any> = db.schema.createTable(table);
    if (table === 'places_staging') builder = builder.addColumn('import_id', 'text', (c) => c.notNull());
    await builder
      /** 'osm:node/123' or 'osm:way/456'. */
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('lat', 'double precision', (c) => c.notNull())
      .addColumn('lng', 'double precision', (c) => c.notNull())
      .addColumn('cell_lat', 'integer', (c) => c.notNull())
      /** One bit per category group place type (see src/server/places/type-mask.ts). */
      .addColumn('type_mask', 'bigint', (c) => c.notNull())
      /** JSON array of place types. */
      .addColumn('types', 'text', (c) => c.notNull())
      .addColumn('category', 'text', (c) => c.notNull())
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('city', 'text')
      .addColumn('state', 'text')
      .addColumn('zip', 'text')
      .addColumn('phone', 'text')
      .addColumn('website', 'text')
      .addColumn('opening_hours', 'text')
      .addColumn('brand', 'text')
      .addColumn('brand_wikidata', 'text')
      /** JSON object of the element's OSM tags. */
      .addColumn('tags', 'text', (c) => c.notNull())
      .addColumn('imported_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint(`${table}_pk`, table === 'places' ? ['id'] : ['import_id', 'id'])
      .execute();
  }
  await db.schema
    .createIndex('places_grid')
    .on('places')
    .columns(['cell_lat', 'lng', 'lat', 'type_mask', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('places_staging').ifExists().execute();
  await db.schema.dropTable('places').ifExists().execute();
}
