import type { Kysely } from 'kysely';

// Every addressed object of the imported map data (a house, a shop, a building with a house number and a street),
// so a typed street address is found with no geocoding service: by its street key and house number, or the nearest
// number on the street, and a dropped pin is named by the nearest address.

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('addresses')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('number', 'text', (c) => c.notNull())
    .addColumn('number_key', 'text', (c) => c.notNull())
    .addColumn('number_value', 'integer')
    .addColumn('street', 'text', (c) => c.notNull())
    .addColumn('street_key', 'text', (c) => c.notNull())
    .addColumn('city', 'text')
    .addColumn('city_key', 'text')
    .addColumn('state', 'text')
    .addColumn('postcode', 'text')
    .addColumn('lat', 'double precision', (c) => c.notNull())
    .addColumn('lng', 'double precision', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('addresses_street')
    .on('addresses')
    .columns(['street_key', 'number_value'])
    .execute();
  await db.schema.createIndex('addresses_position').on('addresses').columns(['lat', 'lng']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('addresses').execute();
}
