// `npm run backup -- FILE` copies the live SQLite database while writes go on; the copy holds
// every write answered before the backup started, restores as described in the README ("Backups") and the app
// runs on it. PostgreSQL is backed up with pg_dump, outside the app.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import { backupSqlite } from '../../src/server/cli/backup.js';
import { buildApp } from '../../src/server/app.js';
import { parseConfig } from '../../src/server/config.js';
import { openDatabase } from '../../src/server/db/database.js';
import { createTestContext, ORIGIN, sessionCookie, type TestContext, type TestUser } from '../helpers/app.js';
import { createTestDatabase, testDatabaseKind } from '../helpers/db.js';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const exec = promisify(execFile);

let t: TestContext;
let rep: TestUser;
let scratch: string;
beforeAll(async () => {
  t = await createTestContext();
  rep = await t.newUser('user');
  scratch = mkdtempSync(join(tmpdir(), 'pf-backup-'));
});
afterAll(async () => {
  await t.close();
  rmSync(scratch, { recursive: true, force: true });
});

const logCall = async (note: string) => {
  const res = await t.request({
    method: 'POST',
    url: '/api/call-logs',
    as: rep,
    payload: { prospectId: `osm:node/${note.length}`, name: `Biz ${note}`, outcome: 'Called', note },
  });
  expect(res.statusCode).toBe(201);
  return res.json<{ callLog: { id: string } }>().callLog.id;
};

const sqliteFile = () => (t.testDb.database as { file: string }).file;

describe.skipIf(testDatabaseKind !== 'sqlite')('SQLite online backup', () => {
  it('copies a large database under concurrent writes, with every write answered before the backup began', async () => {
    // Bulk beyond a few hundred pages, so a copy taken in small steps would be restarted by every write.
    const raw = new SQLite(sqliteFile());
    raw.exec('create table backup_filler (data blob)');
    const fill = raw.prepare('insert into backup_filler values (randomblob(4000))');
    raw.transaction(() => {
      for (let i = 0; i < 3000; i++) fill.run();
    })();
    raw.close();

    const acknowledged: string[] = [];
    let writing = true;
    const writers = Array.from({ length: 4 }, (_, w) =>
      (async () => {
        for (let n = 0; writing; n++) acknowledged.push(await logCall(`w${w}-${n}`));
      })(),
    );
    while (acknowledged.length < 40) await new Promise((r) => setTimeout(r, 10));
    const before = [...acknowledged]; // every write answered 2xx before the backup starts
    const target = join(scratch, 'under-load.db');
    const { pages } = await backupSqlite(sqliteFile(), target);
    // Keep writing a little after the copy so the writers are still running when it finishes.
    const atEnd = acknowledged.length;
    while (acknowledged.length < atEnd + 20) await new Promise((r) => setTimeout(r, 10));
    writing = false;
    await Promise.all(writers);

    expect(pages).toBeGreaterThan(3000);
    const copy = new SQLite(target, { readonly: true });
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      const ids = new Set(
        (copy.prepare('select id from call_logs').all() as { id: string }[]).map((r) => r.id),
      );
      expect(before.filter((id) => !ids.has(id))).toEqual([]);
      expect(ids.size).toBeLessThanOrEqual(acknowledged.length);
      expect((copy.prepare('select count(*) as n from backup_filler').get() as { n: number }).n).toBe(3000);
    } finally {
      copy.close();
    }
  }, 60_000);

  it('restores as the README says: the app starts on the copy and serves its data', async () => {
    const note = `restore-me-${randomBytes(4).toString('hex')}`;
    const id = await logCall(note);
    const backup = join(scratch, 'restore.db');
    await backupSqlite(sqliteFile(), backup);

    // README, "Backups": with the app stopped, the copy becomes $DATA_DIR/app.db with no -wal or -shm beside it.
    const dataDir = join(scratch, 'restored');
    mkdirSync(dataDir);
    copyFileSync(backup, join(dataDir, 'app.db'));
    expect(existsSync(join(dataDir, 'app.db-wal'))).toBe(false);
    const config = parseConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      PUBLIC_URL: ORIGIN,
      LOG_LEVEL: 'silent',
      AUTH_SECRET: randomBytes(32).toString('hex'),
    });
    const db = openDatabase(config);
    const app = await buildApp({ config, db, mailer: { send: () => Promise.resolve() }, serveWeb: false });
    try {
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      const signIn = await app.inject({
        method: 'POST',
        url: '/api/session',
        headers: { origin: ORIGIN },
        payload: { email: rep.email, password: rep.password },
      });
      expect(signIn.statusCode).toBe(200);
      const cookie = sessionCookie(signIn.headers['set-cookie']);
      const list = await app.inject({
        method: 'GET',
        url: '/api/call-logs',
        headers: { origin: ORIGIN, cookie },
      });
      expect(list.statusCode).toBe(200);
      const logs = list.json<{ callLogs: { id: string; note: string }[] }>().callLogs;
      expect(logs.find((c) => c.id === id)).toMatchObject({ note });
      // And it takes new writes.
      const res = await app.inject({
        method: 'POST',
        url: '/api/call-logs',
        headers: { origin: ORIGIN, cookie },
        payload: { prospectId: 'osm:node/7', name: 'After Restore', outcome: 'Called' },
      });
      expect(res.statusCode).toBe(201);
    } finally {
      await app.close();
      await db.destroy();
    }
  });
});

describe.skipIf(testDatabaseKind !== 'sqlite')('npm run backup -- FILE', () => {
  const cli = async (args: string[], env: Record<string, string>) => {
    try {
      const { stdout, stderr } = await exec(
        process.execPath,
        ['--import', 'tsx', 'src/server/cli/backup.ts', ...args],
        {
          cwd: REPO_ROOT,
          env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: '', ...env },
        },
      );
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };

  it('copies the live database of DATA_DIR to FILE through the npm script and exits 0', async () => {
    const note = `cli-${randomBytes(4).toString('hex')}`;
    const id = await logCall(note);
    const target = join(scratch, 'cli.db');
    const { stdout } = await exec('npm', ['run', '--silent', 'backup', '--', target], {
      cwd: REPO_ROOT,
      env: { ...process.env, NODE_ENV: 'test', DATA_DIR: t.testDb.dataDir, DATABASE_URL: '' },
    });
    expect(stdout).toContain(`to ${target}`);
    const copy = new SQLite(target, { readonly: true });
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(copy.prepare('select note from call_logs where id = ?').get(id)).toEqual({ note });
    } finally {
      copy.close();
    }
  });

  it('explains what is wrong and exits non-zero', async () => {
    const empty = join(scratch, 'no-data-here');
    mkdirSync(empty);
    const existing = join(scratch, 'taken.db');
    writeFileSync(existing, 'keep me');
    const live = { DATA_DIR: t.testDb.dataDir };
    const cases: [string, string[], Record<string, string>, number, RegExp][] = [
      ['no FILE', [], live, 2, /^Usage: npm run backup -- FILE/],
      ['two files', ['a.db', 'b.db'], live, 2, /^Usage: npm run backup -- FILE/],
      [
        'no database under DATA_DIR',
        [join(scratch, 'x.db')],
        { DATA_DIR: empty },
        1,
        /^No database at .*app\.db/,
      ],
      ['FILE already there', [existing], live, 1, /already exists; choose a new file name/],
      [
        'a folder that does not exist',
        [join(scratch, 'nope', 'x.db')],
        live,
        1,
        /folder .*nope does not exist/,
      ],
      [
        'PostgreSQL',
        [join(scratch, 'y.db')],
        { DATABASE_URL: 'postgres://u@127.0.0.1:1/db' },
        2,
        /use pg_dump/,
      ],
      [
        'a bad setting',
        [join(scratch, 'z.db')],
        { ...live, PORT: 'abc' },
        1,
        /Invalid configuration:[\s\S]*PORT/,
      ],
    ];
    for (const [what, args, env, code, message] of cases) {
      const r = await cli(args, env);
      expect({ what, code: r.code, stderr: r.stderr.trim() }).toEqual({
        what,
        code,
        stderr: expect.stringMatching(message),
      });
    }
    expect(existsSync(join(scratch, 'x.db'))).toBe(false);
    expect(existsSync(join(scratch, 'y.db'))).toBe(false);
  }, 60_000);
});

describe.skipIf(testDatabaseKind !== 'postgres')(
  'PostgreSQL: pg_dump -Fc and pg_restore (README, "Backups")',
  () => {
    it('dumps while writes go on and the app runs on the restored database', async () => {
      const url = t.testDb.database.kind === 'postgres' ? t.testDb.database.url : '';
      const acknowledged: string[] = [];
      let writing = true;
      const writers = Array.from({ length: 4 }, (_, w) =>
        (async () => {
          for (let n = 0; writing; n++) acknowledged.push(await logCall(`pg${w}-${n}`));
        })(),
      );
      while (acknowledged.length < 40) await new Promise((r) => setTimeout(r, 10));
      const before = [...acknowledged];
      const dump = join(scratch, 'prospect-finder.dump');
      await exec('pg_dump', ['-Fc', '-f', dump, url]);
      writing = false;
      await Promise.all(writers);

      const restored = await createTestDatabase('postgres'); // an empty database to restore into
      try {
        const target = restored.database.kind === 'postgres' ? restored.database.url : '';
        await exec('pg_restore', ['--no-owner', '--exit-on-error', '-d', target, dump]);
        const config = parseConfig({
          NODE_ENV: 'test',
          DATA_DIR: restored.dataDir,
          DATABASE_URL: target,
          PUBLIC_URL: ORIGIN,
          LOG_LEVEL: 'silent',
          AUTH_SECRET: randomBytes(32).toString('hex'),
        });
        const db = openDatabase(config);
        const app = await buildApp({
          config,
          db,
          mailer: { send: () => Promise.resolve() },
          serveWeb: false,
        });
        try {
          const signIn = await app.inject({
            method: 'POST',
            url: '/api/session',
            headers: { origin: ORIGIN },
            payload: { email: rep.email, password: rep.password },
          });
          expect(signIn.statusCode).toBe(200);
          const cookie = sessionCookie(signIn.headers['set-cookie']);
          const list = await app.inject({
            method: 'GET',
            url: '/api/call-logs',
            headers: { origin: ORIGIN, cookie },
          });
          expect(list.statusCode).toBe(200);
          const ids = new Set(list.json<{ callLogs: { id: string }[] }>().callLogs.map((c) => c.id));
          expect(before.filter((id) => !ids.has(id))).toEqual([]);
        } finally {
          await app.close();
          await db.destroy();
        }
      } finally {
        await restored.drop();
      }
    }, 60_000);
  },
);
