import { sql, type Kysely } from 'kysely';
import { cleanName, isOneLine } from '../../../core/api/common.js';

// Names are now made one line where they enter (imports, a card's save or call log) or refused (a typed name), but
// names stored before that may hold a line break or a control character, which breaks them out of their line in a
// CSV cell, a calendar file, an e-mail or a log line. This cleans them in place, once.

/** Each stored name: its table, its column and the column that finds its row. */
const NAME_COLUMNS = [
  { table: 'user', column: 'name', key: 'id' },
  { table: 'user_profiles', column: 'name', key: 'user_id' },
  { table: 'places', column: 'name', key: 'id' },
  { table: 'team_prospects', column: 'name', key: 'business_id' },
  { table: 'call_logs', column: 'name', key: 'id' },
  { table: 'follow_ups', column: 'name', key: 'id' },
  { table: 'strategy_requests', column: 'name', key: 'id' },
  { table: 'blocklist', column: 'label', key: 'business_id' },
  { table: 'current_advertisers', column: 'label', key: 'business_id' },
  { table: 'pipeline', column: 'label', key: 'business_id' },
] as const;

/** The prospects kept whole as JSON, whose `name` is shown on cards and in exports. */
const PROSPECT_JSON = [
  { table: 'team_prospects', column: 'prospect', key: 'business_id' },
  { table: 'saved_prospects', column: 'prospect', key: 'id' },
] as const;

/**
 * The characters cleanName replaces (but NUL, which neither database stores in text), each a LIKE pattern. JSON
 * writes most of them escaped, so a backslash finds those rows.
 */
const BREAKS = [
  ...Array.from({ length: 31 }, (_, i) => String.fromCharCode(i + 1)),
  ...Array.from({ length: 33 }, (_, i) => String.fromCharCode(0x7f + i)),
  '\u2028',
  '\u2029',
].map((c) => `%${c}%`);

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type */
export async function up(db: Kysely<any>): Promise<void> {
  // The accounts' own tables are better-auth's: a database of the app's tables alone (a tool's, a test's) has none.
  const tables = new Set((await db.introspection.getTables()).map((t) => t.name));
  for (const { table, column, key } of NAME_COLUMNS) {
    if (!tables.has(table)) continue;
    const rows = (await db
      .selectFrom(table)
      .select([`${key} as key`, `${column} as value`])
      .where((eb) => eb.or(BREAKS.map((pattern) => eb(column, 'like', pattern))))
      .execute()) as { key: string; value: string }[];
    for (const row of rows) {
      if (isOneLine(row.value)) continue;
      await db
        .updateTable(table)
        .set({ [column]: cleanName(row.value) || '(no name)' })
        .where(key, '=', row.key)
        .execute();
    }
  }
  for (const { table, column, key } of PROSPECT_JSON) {
    const rows = (await db
      .selectFrom(table)
      .select([`${key} as key`, `${column} as value`])
      .where(sql<boolean>`${sql.ref(column)} like '%!\\%' escape '!'`)
      .execute()) as { key: string; value: string }[];
    for (const row of rows) {
      const prospect = JSON.parse(row.value) as { name?: unknown };
      if (typeof prospect.name !== 'string' || isOneLine(prospect.name)) continue;
      prospect.name = cleanName(prospect.name) || '(no name)';
      await db
        .updateTable(table)
        .set({ [column]: JSON.stringify(prospect) })
        .where(key, '=', row.key)
        .execute();
    }
  }
}

/** Nothing to undo: a cleaned name is a name the app would store today. */
export async function down(): Promise<void> {}
