import type { Kysely } from 'kysely';

// Each imported place keeps its profile (core/scoring/profile.ts), what scoring and de-duplication derive
// from its own fields, so a scan does not derive it again for each of its 500. Rows imported before have
// none: the server makes them in the background at its next start (places/market.ts).

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('places').addColumn('profile', 'text').execute();
  await db.schema.alterTable('places_staging').addColumn('profile', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('places_staging').dropColumn('profile').execute();
  await db.schema.alterTable('places').dropColumn('profile').execute();
}
