import { sql, type Kysely } from 'kysely';

// Every business in a scan's circle is ranked, not only the nearest few hundred. Each imported place keeps what it
// carries wherever it is scanned from: its intrinsic score (rank_score) when the model scores it, or the code of the
// rule that decides it (rank_rule, server/places/ranks.ts), and whether the same business has places in several
// cities of the imported data (many_cities). An index of the places of the scanned kinds carries them beside their
// position (places_scan), so a scan ranks its whole circle from the index alone and reads the records of the best.
//
// Scores are calibrated against a reference market shipped with the model now, not against the imported data:
// score_references goes; market_state keeps the profile version the last rebuild of the market made every place's
// profile and rank under, so a start tells with one row whether they must be made again.
//
// The market is counted in the database, so a national import needs no map of every business in memory: each place
// keeps the keys its business is known by (name_key: its normalised name; site_domain: its website's domain), the
// rebuild groups by them into market_keys (the businesses with places in several spots or cities), and lists the
// places whose rank it must remake in market_work.

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type */
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['places', 'places_staging']) {
    await db.schema.alterTable(table).addColumn('rank_score', 'double precision').execute();
    await db.schema.alterTable(table).addColumn('rank_rule', 'integer').execute();
    await db.schema
      .alterTable(table)
      .addColumn('many_cities', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable(table).addColumn('name_key', 'text').execute();
    await db.schema.alterTable(table).addColumn('site_domain', 'text').execute();
  }
  // A scan asks for the places of its kinds only (the place types of the category groups): most places of a city
  // (restaurants, shops) are of none, and this index leaves them out.
  await db.schema
    .createIndex('places_scan')
    .on('places')
    .columns(['cell_lat', 'lng', 'lat', 'type_mask', 'rank_score', 'rank_rule', 'id'])
    // The category groups' place types are the low 39 bits of the mask (places/type-mask.ts: a frozen order,
    // never reordered).
    .where(sql<boolean>`(type_mask & 549755813887) <> 0`)
    .execute();
  await db.schema.dropTable('score_references').execute();
  await db.schema
    .createTable('market_state')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('profile_version', 'text', (c) => c.notNull())
    .addColumn('built_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('market_keys')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('locations', 'integer', (c) => c.notNull())
    .addColumn('many_cities', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('market_keys_pk', ['kind', 'key'])
    .execute();
  await db.schema
    .createTable('market_work')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .execute();
  // Places imported before carry no rank: the server rebuilds the market at its next start (market_state is empty).
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('market_work').execute();
  await db.schema.dropTable('market_keys').execute();
  await db.schema.dropTable('market_state').execute();
  await db.schema
    .createTable('score_references')
    .addColumn('source', 'text', (c) => c.primaryKey())
    .addColumn('model_version', 'text', (c) => c.notNull())
    .addColumn('built_at', 'text', (c) => c.notNull())
    .addColumn('population', 'integer', (c) => c.notNull())
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('profile_version', 'text')
    .execute();
  await db.schema.dropIndex('places_scan').execute();
  for (const table of ['places', 'places_staging']) {
    for (const column of ['site_domain', 'name_key', 'many_cities', 'rank_rule', 'rank_score']) {
      await db.schema.alterTable(table).dropColumn(column).execute();
    }
  }
}
