// `npm run user:create` (src/server/cli/user-create.ts) as a real process on a test database (SQLite or
// PostgreSQL per TEST_DATABASE), then the accounts it made used through the app.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createTestContext, type TestContext } from '../helpers/app.js';
import { EMAIL_IN_USE, INVALID_EMAIL, weakPassword } from '../../src/core/messages.js';
import { FIRST_ACCOUNT_SUPERADMIN } from '../../src/server/users/accounts.js';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

function userCreate(...args: string[]): Promise<Run> {
  const { database, dataDir } = t.testDb;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/cli/user-create.ts', ...args], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: database.kind === 'postgres' ? database.url : '',
      PASSWORD_MIN_LENGTH: '8',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

const counts = async () => ({
  users: (await t.db.kysely.selectFrom('user').select('id').execute()).length,
  profiles: (await t.db.kysely.selectFrom('user_profiles').select('user_id').execute()).length,
  invitations: (await t.db.kysely.selectFrom('invitations').select('id').execute()).length,
});

const me = async (email: string, password: string) => {
  const cookie = await t.signIn(email, password);
  return (await t.request({ method: 'GET', url: '/api/me', headers: { cookie } })).json().user as Record<
    string,
    unknown
  >;
};

// Each run is a fresh Node process loading the app (seconds each on a busy machine).
describe('npm run user:create', { timeout: 120_000 }, () => {
  it('explains bad arguments and exits 2 without touching the database', async () => {
    const cases: [string[], RegExp][] = [
      [['--name', 'Ann'], /--email is required/],
      [['--email', 'ann@example.com'], /--name is required/],
      [
        ['--email', 'ann@example.com', '--name', 'Ann', '--role', 'boss'],
        /--role must be user, admin or SuperAdmin/,
      ],
      [['--email', 'ann@example.com', '--name', 'Ann', '--colour', 'red'], /Unknown option '--colour'/],
      [['--email'], /argument missing/],
    ];
    for (const [args, message] of cases) {
      const run = await userCreate(...args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stderr).toContain('Usage: npm run user:create -- --email EMAIL --name NAME');
    }
    expect(await counts()).toEqual({ users: 0, profiles: 0, invitations: 0 });
  });

  it('on an empty database: refuses a first account that is not a SuperAdmin, then creates the SuperAdmin', async () => {
    const refused = await userCreate('--email', 'rex@example.com', '--name', 'Rex', '--role', 'admin');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(FIRST_ACCOUNT_SUPERADMIN);
    expect(await counts()).toEqual({ users: 0, profiles: 0, invitations: 0 });

    const run = await userCreate(
      '--email',
      ' Ann@Example.com ',
      '--name',
      'Ann Admin',
      '--role',
      'SuperAdmin',
      '--password',
      'first-pass-1',
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Created SuperAdmin ann@example\.com \(id \S+\)\n$/);
    expect(await me('ann@example.com', 'first-pass-1')).toMatchObject({
      name: 'Ann Admin',
      role: 'SuperAdmin',
      isSuperAdmin: true,
    });
    expect(await counts()).toEqual({ users: 1, profiles: 1, invitations: 0 });
  });

  it('with users already there: creates the role asked for, with a generated password, and no invitation', async () => {
    const run = await userCreate('--email', 'bob@example.com', '--name', 'Bob', '--role', 'admin');
    expect(run.code).toBe(0);
    const password = /^Password: (\S+)$/m.exec(run.stdout)?.[1];
    expect(password?.length).toBeGreaterThanOrEqual(16);
    expect(await me('bob@example.com', password!)).toMatchObject({ role: 'admin', isSuperAdmin: false });
    // Without --role a later account is a plain user.
    expect(
      (await userCreate('--email', 'cy@example.com', '--name', 'Cy', '--password', 'cy-pass-12')).code,
    ).toBe(0);
    expect(await me('cy@example.com', 'cy-pass-12')).toMatchObject({ role: 'user' });
    expect(await counts()).toEqual({ users: 3, profiles: 3, invitations: 0 });
  });

  it('refuses bad input with the exact messages and exit 1, leaving nothing behind', async () => {
    const before = await counts();
    const cases: [string[], string][] = [
      [['--email', 'not-an-email', '--name', 'X'], INVALID_EMAIL],
      [['--email', 'x@example.com', '--name', 'X', '--password', 'short'], weakPassword(8)],
      [['--email', 'BOB@example.com', '--name', 'X', '--role', 'SuperAdmin'], EMAIL_IN_USE],
    ];
    for (const [args, message] of cases) {
      const run = await userCreate(...args);
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stderr.trim()).toBe(message);
    }
    expect(await counts()).toEqual(before);
  });
});
