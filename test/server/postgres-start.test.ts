// Starting on PostgreSQL, with the real server process against the machine's PostgreSQL
// (TEST_POSTGRES_URL, default 127.0.0.1:5432; run by TEST_DATABASE=postgres npm run test:db): a database that
// does not exist is created; a closed port, after a short DATABASE_WAIT_MS, ends in one clear line and exit
// code 1; a server that comes up during the wait (a proxy in front of PostgreSQL that starts refusing and is
// opened later) is connected to.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { POSTGRES_ADMIN_URL, testDatabaseKind } from '../helpers/db.js';
import { freePort } from '../helpers/process.js';
import { startTcpProxy } from '../helpers/proxy.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const admin = new URL(POSTGRES_ADMIN_URL);

interface Spawned {
  child: ChildProcess;
  port: number;
  output(): string;
  exited: Promise<number | string | null>;
}

let dataDir: string;
const children: ChildProcess[] = [];
const created: string[] = [];

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'pf-pg-start-'));
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  if (created.length > 0) {
    const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await client.connect();
    for (const name of created) await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  }
  rmSync(dataDir, { recursive: true, force: true });
});

function urlFor(database: string, port = Number(admin.port || 5432)): string {
  const u = new URL(POSTGRES_ADMIN_URL);
  u.port = String(port);
  u.pathname = `/${database}`;
  return u.toString();
}

async function spawnServer(env: Record<string, string>): Promise<Spawned> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  return { child, port, output: () => out, exited };
}

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const healthy = (s: Spawned) => async () => {
  if (s.child.exitCode !== null) throw new Error(`server exited:\n${s.output()}`);
  try {
    return (await fetch(`http://127.0.0.1:${s.port}/healthz`)).ok;
  } catch {
    return false;
  }
};

async function stop(s: Spawned): Promise<void> {
  s.child.kill('SIGTERM');
  await s.exited;
}

describe.skipIf(testDatabaseKind !== 'postgres')('starting on PostgreSQL', () => {
  it('creates the database DATABASE_URL names when it does not exist', { timeout: 120_000 }, async () => {
    const name = `pf_start_${randomBytes(5).toString('hex')}`;
    created.push(name);
    const s = await spawnServer({ DATABASE_URL: urlFor(name) });
    await until('/healthz', healthy(s));
    expect(s.output()).toContain(`Created the database "${name}" on PostgreSQL at ${admin.hostname}:`);
    const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await client.connect();
    try {
      const r = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      expect(r.rowCount).toBe(1);
    } finally {
      await client.end();
    }
    await stop(s);
  });

  it('says in one line how to create the database when the role may not', { timeout: 60_000 }, async () => {
    const role = `pf_limited_${randomBytes(4).toString('hex')}`;
    const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await client.connect();
    await client.query(`CREATE ROLE ${role} LOGIN NOCREATEDB`);
    try {
      const u = new URL(urlFor('pf_not_there'));
      u.username = role;
      u.password = '';
      const s = await spawnServer({ DATABASE_URL: u.toString(), DATABASE_WAIT_MS: '0' });
      expect(await s.exited).toBe(1);
      const lines = s
        .output()
        .split('\n')
        .filter((l) => l.trim() !== '');
      const at = `${admin.hostname}:${admin.port || 5432}`;
      expect(lines).toEqual([
        `PostgreSQL at ${at}: the database "pf_not_there" does not exist and the role "${role}" could not ` +
          `create it (permission denied to create database). Create it with: ` +
          `createdb -h ${admin.hostname} -p ${admin.port || 5432} -U ${role} pf_not_there`,
      ]);
    } finally {
      await client.query(`DROP ROLE ${role}`);
      await client.end();
    }
  });

  it(
    'gives up on a closed port after DATABASE_WAIT_MS with one clear line and exit code 1',
    { timeout: 60_000 },
    async () => {
      const closed = await freePort();
      const s = await spawnServer({ DATABASE_URL: urlFor('pf_nowhere', closed), DATABASE_WAIT_MS: '1500' });
      expect(await s.exited).toBe(1);
      const lines = s
        .output()
        .split('\n')
        .filter((l) => l.trim() !== '' && !l.startsWith('npm warn'));
      const attempts = lines.filter((l) => l.includes('is not up yet'));
      expect(attempts.length).toBeGreaterThanOrEqual(2);
      for (const [i, l] of attempts.entries()) {
        expect(l).toContain(`PostgreSQL at 127.0.0.1:${closed}, database "pf_nowhere" is not up yet`);
        expect(l).toContain(`attempt ${i + 1},`);
      }
      expect(lines.at(-1)).toMatch(
        new RegExp(
          `^Cannot connect to PostgreSQL at 127\\.0\\.0\\.1:${closed}, database "pf_nowhere": connect ECONNREFUSED .*DATABASE_WAIT_MS=1500\\)$`,
        ),
      );
      // Those lines and nothing else: no stack trace.
      expect(lines).toHaveLength(attempts.length + 1);
    },
  );

  it(
    'waits for a server that is not up yet and connects when it comes up',
    { timeout: 120_000 },
    async () => {
      const name = `pf_start_${randomBytes(5).toString('hex')}`;
      created.push(name);
      const proxy = await startTcpProxy({ host: admin.hostname, port: Number(admin.port || 5432) });
      try {
        await proxy.cut(); // refusing, as a PostgreSQL that has not started yet
        const s = await spawnServer({ DATABASE_URL: urlFor(name, proxy.port), DATABASE_WAIT_MS: '60000' });
        await until('a first failed attempt', () => s.output().includes('attempt 1,'));
        expect(s.child.exitCode).toBeNull();
        await proxy.restore();
        await until('/healthz', healthy(s));
        expect(s.output()).toContain(
          `PostgreSQL at 127.0.0.1:${proxy.port}, database "${name}" is not up yet`,
        );
        expect(s.output()).toContain(`Created the database "${name}"`);
        await stop(s);
      } finally {
        await proxy.close();
      }
    },
  );
});
