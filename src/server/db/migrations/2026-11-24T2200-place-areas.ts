import type { Kysely } from 'kysely';

// The areas that have business data: one row per imported area -- a named region of the download mirror, or a
// file given to `import:osm` -- with the box it covers, how many businesses its last import wrote, the date
// of its data (the extract's header timestamp when it has one) and when it was imported. The Admin Panel
// draws them on a map and refreshes a region from there, as a job whose progress is jobs.progress.
//
// An install that imported data before this migration gets one area derived from what is stored (the box and the
// count of the places table, the newest import time), so its panel does not say "no data".

/** The key of the area derived for data imported before areas were recorded. */
export const EARLIER_IMPORTS_KEY = 'earlier-imports';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('place_areas')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('region', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('min_lat', 'double precision')
    .addColumn('min_lng', 'double precision')
    .addColumn('max_lat', 'double precision')
    .addColumn('max_lng', 'double precision')
    .addColumn('businesses', 'integer', (c) => c.notNull())
    .addColumn('data_date', 'text')
    .addColumn('imported_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('jobs').addColumn('progress', 'text').execute();

  const stored = (await db
    .selectFrom('places')
    .select((eb) => [
      eb.fn.countAll().as('n'),
      eb.fn.min('lat').as('min_lat'),
      eb.fn.min('lng').as('min_lng'),
      eb.fn.max('lat').as('max_lat'),
      eb.fn.max('lng').as('max_lng'),
      eb.fn.max('imported_at').as('imported_at'),
    ])
    .executeTakeFirst()) as
    | {
        n: number | string;
        min_lat: number | null;
        min_lng: number | null;
        max_lat: number | null;
        max_lng: number | null;
        imported_at: string | null;
      }
    | undefined;
  if (stored && Number(stored.n) > 0) {
    await db
      .insertInto('place_areas')
      .values({
        key: EARLIER_IMPORTS_KEY,
        name: 'Imported before areas were recorded',
        region: null,
        source: 'places table',
        min_lat: stored.min_lat === null ? null : Number(stored.min_lat),
        min_lng: stored.min_lng === null ? null : Number(stored.min_lng),
        max_lat: stored.max_lat === null ? null : Number(stored.max_lat),
        max_lng: stored.max_lng === null ? null : Number(stored.max_lng),
        businesses: Number(stored.n),
        data_date: null,
        imported_at: stored.imported_at ?? new Date().toISOString(),
      })
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('jobs').dropColumn('progress').execute();
  await db.schema.dropTable('place_areas').execute();
}
