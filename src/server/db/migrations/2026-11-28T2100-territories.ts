import type { Kysely } from 'kysely';

// Territories: areas of the map an admin draws or builds from ZIP codes, and the reps assigned to each (a rep may
// hold several, a territory may have several reps). The area is GeoJSON text; its bounding box has columns of its
// own so the businesses of a territory are read from the places table by box before the outline test. The name
// is unique whatever its case: `name_key` holds it lower-cased.

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('territories')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull().unique())
    .addColumn('area', 'text', (c) => c.notNull())
    .addColumn('zips', 'text', (c) => c.notNull())
    .addColumn('min_lat', 'double precision', (c) => c.notNull())
    .addColumn('max_lat', 'double precision', (c) => c.notNull())
    .addColumn('min_lng', 'double precision', (c) => c.notNull())
    .addColumn('max_lng', 'double precision', (c) => c.notNull())
    .addColumn('square_miles', 'double precision', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('territory_reps')
    .addColumn('territory_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('territory_reps_pk', ['territory_id', 'user_id'])
    .execute();
  // A rep's own territories (GET /api/territories as a rep, the scan's assignment check).
  await db.schema.createIndex('territory_reps_user').on('territory_reps').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('territory_reps').execute();
  await db.schema.dropTable('territories').execute();
}
