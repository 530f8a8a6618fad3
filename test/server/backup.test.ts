import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { backupSqlite } from '../../src/server/cli/backup.js';
import { createTestContext, type TestContext } from '../helpers/app.js';
import { testDatabaseKind } from '../helpers/db.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

describe.skipIf(testDatabaseKind !== 'sqlite')('SQLite online backup', () => {
  it('copies a consistent database while writes go on, and the copy opens and holds the data', async () => {
    const u = await t.newUser('user');
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) {
        const res = await t.request({
          method: 'POST',
          url: '/api/call-logs',
          as: u,
          payload: {
            prospectId: `p${written}`,
            name: `Biz ${written}`,
            category: 'Dental',
            phone: '',
            website: '',
            address: '',
            outcome: 'Called',
            note: 'x'.repeat(200),
          },
        });
        expect(res.statusCode).toBe(201);
        written += 1;
      }
    })();
    await new Promise((r) => setTimeout(r, 150));
    const target = join(t.testDb.dataDir, 'backup.db');
    const { file } = t.testDb.database as { file: string };
    await backupSqlite(file, target);
    const atBackup = written;
    writing = false;
    await writer;

    const copy = new SQLite(target, { readonly: true });
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    const rows = (copy.prepare('select count(*) as n from call_logs').get() as { n: number }).n;
    copy.close();
    expect(rows).toBeGreaterThan(0);
    expect(rows).toBeLessThanOrEqual(written);
    expect(atBackup).toBeGreaterThan(0);

    // Restore = put the file back as DATA_DIR/app.db; here: it opens as a working app database.
    const restored = new SQLite(target);
    expect((restored.prepare('select count(*) as n from "user"').get() as { n: number }).n).toBeGreaterThan(
      0,
    );
    restored.close();
  });
});
