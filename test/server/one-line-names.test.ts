import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Migrator } from 'kysely';
import { createTestContext, type TestContext } from '../helpers/app.js';
import { scannedBusiness } from '../helpers/businesses.js';
import { migrations } from '../../src/server/db/migrations/index.js';

// Names stored before names were made one line where they enter are cleaned in place by a migration.
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const MIGRATION = '2026-11-28T1950-one-line-names';

describe('names stored with line breaks', () => {
  it('are made one line by the migration, in columns and in the prospects kept as JSON', async () => {
    const rep = await t.newUser('user');
    await scannedBusiness(t.db, 'osm:node/1', 'Acme Dental');
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/current-advertisers',
          payload: { businessId: 'osm:node/1' },
          as: rep,
        })
      ).statusCode,
    ).toBeLessThan(300);
    // What an older release could store.
    const broken = 'Acme\r\nDental\u2028Group\u0007';
    const db = t.db.kysely;
    await db
      .updateTable('team_prospects')
      .set({ name: broken, prospect: JSON.stringify({ id: 'osm:node/1', name: broken }) })
      .execute();
    await db.updateTable('current_advertisers').set({ label: broken }).execute();
    await db.updateTable('user').set({ name: 'Rep\nName' }).where('id', '=', rep.id).execute();
    await db.updateTable('user_profiles').set({ name: 'Rep\nName' }).where('user_id', '=', rep.id).execute();

    const migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } });
    const names = Object.keys(migrations).sort();
    expect((await migrator.migrateTo(names[names.indexOf(MIGRATION) - 1]!)).error).toBeUndefined();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();

    const team = await db.selectFrom('team_prospects').select(['name', 'prospect']).executeTakeFirstOrThrow();
    expect(team.name).toBe('Acme Dental Group');
    expect((JSON.parse(team.prospect) as { name: string }).name).toBe('Acme Dental Group');
    expect((await db.selectFrom('current_advertisers').select('label').executeTakeFirstOrThrow()).label).toBe(
      'Acme Dental Group',
    );
    const user = await db
      .selectFrom('user')
      .select('name')
      .where('id', '=', rep.id)
      .executeTakeFirstOrThrow();
    expect(user.name).toBe('Rep Name');
    // A name with a quote (escaped in JSON) is left as it was.
    await db
      .updateTable('team_prospects')
      .set({ prospect: JSON.stringify({ id: 'osm:node/1', name: 'Joe\'s "Diner"' }) })
      .execute();
    expect((await migrator.migrateTo(names[names.indexOf(MIGRATION) - 1]!)).error).toBeUndefined();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const kept = await db.selectFrom('team_prospects').select('prospect').executeTakeFirstOrThrow();
    expect((JSON.parse(kept.prospect) as { name: string }).name).toBe('Joe\'s "Diner"');
  });
});
