import type { Kysely } from 'kysely';

// An admin may revoke an open invitation (sent to the wrong person, no longer wanted): when, and by whom.

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('invitations').addColumn('revoked_at', 'text').execute();
  await db.schema.alterTable('invitations').addColumn('revoked_by_name', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('invitations').dropColumn('revoked_by_name').execute();
  await db.schema.alterTable('invitations').dropColumn('revoked_at').execute();
}
