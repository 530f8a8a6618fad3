// `npm start`: a second start with nothing changed rebuilds nothing (the web app and the
// compiled server are reused, as their "up to date" lines and unchanged files show), answers /healthz, and
// SIGTERM to the very process `npm start` made stops the server gracefully: port closed, exit code 0.
// The start-up time is measured and logged, never asserted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../helpers/process.js';
import { testDatabaseKind } from '../helpers/db.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// What a build writes: the compiled server and each part's source-hash stamp (dist/web itself may be swapped by
// the browser tests' own build running at the same time, so its files are not compared).
const OUTPUTS = [
  join(ROOT, 'dist/server/main.js'),
  join(ROOT, 'dist/.build/server.sha256'),
  join(ROOT, 'dist/.build/web.sha256'),
];
const SHUTDOWN_TIMEOUT_MS = 10_000;

interface Started {
  npm: ChildProcess;
  output: () => string;
  exited: Promise<number | string | null>;
  /** Milliseconds from spawning `npm start` to the first good /healthz. */
  readyMs: number;
}

let dataDir: string;
let port: number;
const running: ChildProcess[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'pf-start-'));
  port = await freePort();
});
afterAll(() => {
  for (const p of running) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

async function npmStart(): Promise<Started> {
  const started = Date.now();
  const npm = spawn('npm', ['start'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'info',
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(npm);
  let out = '';
  npm.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  npm.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | string | null>((resolve) =>
    npm.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  let gone = false;
  void exited.then(() => (gone = true));
  // Generous: a first start on a cold machine builds the web app.
  const deadline = Date.now() + 240_000;
  while (Date.now() < deadline && !gone) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (res.ok) return { npm, output: () => out, exited, readyMs: Date.now() - started };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  npm.kill('SIGKILL');
  throw new Error(`npm start did not answer /healthz:\n${out}`);
}

/** Whether something accepts connections on the port. */
function listening(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function stop(s: Started): Promise<number | string | null> {
  s.npm.kill('SIGTERM');
  const timeout = new Promise<'still running'>((r) =>
    setTimeout(() => r('still running'), SHUTDOWN_TIMEOUT_MS + 5000).unref(),
  );
  return Promise.race([s.exited, timeout]);
}

describe.skipIf(testDatabaseKind === 'postgres')('npm start', () => {
  it(
    'starts again without rebuilding, and SIGTERM to npm start stops the server',
    { timeout: 600_000 },
    async () => {
      // The first start builds whatever is missing or stale.
      const first = await npmStart();
      expect(await stop(first)).toBe(0);
      const before = OUTPUTS.map((f) => statSync(f).mtimeMs);

      const second = await npmStart();
      console.log(`second npm start answered /healthz after ${second.readyMs} ms`);
      expect(second.output()).toContain('web build up to date');
      expect(second.output()).toContain('server build up to date');
      expect(second.output()).not.toContain('building the');
      expect(OUTPUTS.map((f) => statSync(f).mtimeMs)).toEqual(before);
      // The compiled server serves the built web app.
      const page = await fetch(`http://127.0.0.1:${port}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');

      // SIGTERM to the process npm start left (npm itself) reaches the server's graceful shutdown.
      expect(await stop(second)).toBe(0);
      expect(second.output()).toContain('"signal":"SIGTERM"');
      expect(await listening()).toBe(false);
      // No server process is left behind: the one that logged is gone too.
      const pids = new Set([...second.output().matchAll(/"pid":(\d+)/g)].map((m) => Number(m[1])));
      expect(pids.size).toBeGreaterThan(0);
      for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
    },
  );
});
