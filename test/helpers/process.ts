// The real server as a child process (tsx src/server/main.ts), for tests that kill, stop or restart it.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { sessionCookie } from './app.js';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  base: string;
  port: number;
  /** The Origin better-auth accepts (PUBLIC_URL). */
  origin: string;
  /** Everything the server wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (or signal) once the process has exited. */
  exited: Promise<number | string | null>;
  kill(signal: NodeJS.Signals): Promise<number | string | null>;
}

/** A free TCP port on 127.0.0.1 (so a restarted server can come back on the same address). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Start `tsx src/server/main.ts` with the given environment on a free port (or `env.PORT`) and wait until it
 * answers /healthz. PUBLIC_URL defaults to http://127.0.0.1:PORT so the Origin of the requests is trusted.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: origin,
      WEBSITE_CHECKS: 'off', // tests never touch the internet
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  let gone = false;
  void exited.then(() => (gone = true));
  for (;;) {
    if (gone) throw new Error(`server exited before it was ready:\n${out}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not become ready in 60 s:\n${out}`);
    }
    try {
      const res = await fetch(`${base}/healthz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    child,
    base,
    port,
    origin,
    output: () => out,
    exited,
    kill: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** JSON request with the Origin header better-auth needs and an optional cookie. */
export async function call(
  server: { base: string; origin: string },
  method: string,
  path: string,
  body?: unknown,
  cookie = '',
): Promise<Response> {
  return fetch(server.base + path, {
    method,
    headers: {
      origin: server.origin,
      ...(cookie ? { cookie } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** Register the first account (SuperAdmin, no invitation needed) and return its session cookie. */
export async function registerFirstUser(
  server: { base: string; origin: string },
  email = 'owner@example.com',
  password = 'password1',
): Promise<string> {
  const res = await call(server, 'POST', '/api/register', { name: 'Owner', email, password });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  return sessionCookie(res.headers.getSetCookie());
}

/** Sign in and return the session cookie. */
export async function signInOver(
  server: { base: string; origin: string },
  email: string,
  password: string,
): Promise<string> {
  const res = await call(server, 'POST', '/api/session', { email, password });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return sessionCookie(res.headers.getSetCookie());
}
