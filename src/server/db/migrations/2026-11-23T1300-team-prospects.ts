import type { Kysely } from 'kysely';
import { blockKeys } from '../../../core/blocklist.js';

// team_prospects: every prospect any rep has scanned, one row per business (its stable id), the newest scan's
// copy winning: the admins' All Prospects tab and its exports (docs/PRODUCT.md, "The Admin Panel"). Built
// from each user's latest scan alone, a prospect would leave it as soon as its rep scanned elsewhere or
// pressed New Search. A scan upserts the prospects it keeps (scans/service.ts keepAndPage), in the
// transaction that saves the latest scan. Blocked businesses stay in the table and are left out when read:
// analysis_hash and business_hash are the other ids a block may be stored under (core/blocklist.ts
// blockKeys), '' when absent. scanned_by goes NULL when the rep's account is hard-deleted; the prospect
// stays. Existing latest scans seed the table.

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('team_prospects')
    .addColumn('business_id', 'text', (c) => c.primaryKey())
    .addColumn('prospect', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('score', 'double precision', (c) => c.notNull())
    .addColumn('analysis_hash', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('business_hash', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('scanned_by', 'text', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('scanned_at', 'text', (c) => c.notNull())
    .execute();
  // The All Prospects order (score desc, then name and id for a stable page boundary).
  await db.schema
    .createIndex('team_prospects_score')
    .on('team_prospects')
    .columns(['score desc', 'name', 'business_id'])
    .execute();
  // The reasoning job finds the team's copies of a business by its analysis hash.
  await db.schema
    .createIndex('team_prospects_analysis_hash')
    .on('team_prospects')
    .column('analysis_hash')
    .execute();
  await db.schema
    .createIndex('team_prospects_scanned_by')
    .on('team_prospects')
    .column('scanned_by')
    .execute();

  // Seed from the latest scans, newest first so the newest copy of a business wins.
  const scans = (await db
    .selectFrom('latest_scans')
    .select(['user_id', 'prospects', 'created_at'])
    .where('search_id', 'is not', null)
    .orderBy('created_at', 'desc')
    .execute()) as { user_id: string; prospects: string; created_at: string }[];
  const rows = new Map<string, Record<string, unknown>>();
  for (const scan of scans) {
    let list: unknown;
    try {
      list = JSON.parse(scan.prospects);
    } catch {
      continue;
    }
    if (!Array.isArray(list)) continue;
    for (const p of list as Record<string, unknown>[]) {
      if (!p || typeof p !== 'object' || typeof p.id !== 'string' || typeof p.name !== 'string') continue;
      const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
      const analysis = p.aiAnalysis as Record<string, unknown> | null | undefined;
      const keys = blockKeys({
        id: p.id,
        name: p.name,
        address: text(p.address) ?? null,
        category: text(p.category) ?? null,
        placeId: text(p.placeId) ?? null,
        aiAnalysis: { businessHash: text(analysis?.businessHash) ?? null },
      });
      if (!keys.id || rows.has(keys.id)) continue;
      rows.set(keys.id, {
        business_id: keys.id,
        prospect: JSON.stringify(p),
        name: p.name,
        score: typeof p.score === 'number' && Number.isFinite(p.score) ? p.score : 0,
        analysis_hash: keys.analysisHash,
        business_hash: keys.businessHash,
        scanned_by: scan.user_id,
        scanned_at: scan.created_at,
      });
    }
  }
  const all = [...rows.values()];
  for (let i = 0; i < all.length; i += 100) {
    await db
      .insertInto('team_prospects')
      .values(all.slice(i, i + 100))
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('team_prospects').ifExists().execute();
}
