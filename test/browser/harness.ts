// Browser-test harness: the real server in-process on a free port with a fresh SQLite database, the web app
// built from the current sources, and Debian's Chromium driven by playwright-core. Every request that does not
// go to the test server is aborted, so map tiles and links never leave the machine.
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { chromium, type BrowserContext, type Page, type Request } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { parseConfig } from '../../src/server/config.js';
import { buildApp } from '../../src/server/app.js';
import type { Db } from '../../src/server/db/database.js';
import type { Mail } from '../../src/server/mail/mailer.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { CHROMIUM_HINT, findChromium } from '../helpers/chromium.js';

const ROOT = resolve(import.meta.dirname, '../..');
const WEB_SRC = join(ROOT, 'src/web');
const WEB_OUT = join(ROOT, 'dist/web/index.html');
export const ARTIFACTS = join(ROOT, 'test-results/browser');

function newestMtime(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

/** Builds the web app when dist/web is missing or older than its sources (src/web, src/core, vite.config.ts). */
export function ensureWebBuilt(): void {
  const sources = Math.max(
    newestMtime(WEB_SRC),
    newestMtime(join(ROOT, 'src/core')),
    statSync(join(ROOT, 'vite.config.ts')).mtimeMs,
  );
  if (existsSync(WEB_OUT) && statSync(WEB_OUT).mtimeMs >= sources) return;
  // Built beside dist/web and swapped in with renames: another test run serving dist/web at this moment (the
  // working tree is shared) never sees it half-written or emptied.
  const stamp = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const fresh = join(ROOT, `dist/.web-build-${stamp}`);
  const old = join(ROOT, `dist/.web-old-${stamp}`);
  execFileSync(
    join(ROOT, 'node_modules/.bin/vite'),
    ['build', '--logLevel', 'warn', '--outDir', fresh, '--emptyOutDir'],
    {
      cwd: ROOT,
      // vitest sets NODE_ENV=test, which would build React's development bundle.
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: 'inherit',
    },
  );
  const current = dirname(WEB_OUT);
  // Keep the previous build's hashed assets too: a page that loaded the previous index.html a moment ago
  // still finds its scripts.
  const previousAssets = join(current, 'assets');
  if (existsSync(previousAssets)) {
    cpSync(previousAssets, join(fresh, 'assets'), { recursive: true, force: false, errorOnExist: false });
  }
  try {
    renameSync(current, old);
  } catch {
    // Not there (first build), or another run is swapping at this very moment.
  }
  try {
    renameSync(fresh, current);
  } catch {
    // Another run swapped its own fresh build in first: that one serves as well.
    rmSync(fresh, { recursive: true, force: true });
  }
  rmSync(old, { recursive: true, force: true });
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

export interface TestServer {
  baseUrl: string;
  app: FastifyInstance;
  db: Db;
  mail: Mail[];
  close(): Promise<void>;
}

/** The real application on 127.0.0.1 with a temporary data directory. */
export async function startServer(env: Record<string, string> = {}): Promise<TestServer> {
  ensureWebBuilt();
  const testDb: TestDatabase = await createTestDatabase('sqlite');
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const config = parseConfig({
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: testDb.dataDir,
    PUBLIC_URL: baseUrl,
    LOG_LEVEL: 'silent',
    AUTH_SECRET: randomBytes(32).toString('hex'),
    SIGN_IN_RATE_LIMIT: '1000',
    SIGN_IN_IP_RATE_LIMIT: '1000',
    INVITATION_CHECK_RATE_LIMIT: '1000',
    SCAN_COOLDOWN_MS: '0',
    WEBSITE_CHECKS: 'off', // tests never touch the internet
    ...env,
  });
  const db = testDb.open();
  const mail: Mail[] = [];
  const app = await buildApp({
    config,
    db,
    serveWeb: true,
    mailer: {
      send: (m) => {
        mail.push(m);
        return Promise.resolve();
      },
    },
  });
  await app.listen({ port, host: '127.0.0.1' });
  return {
    baseUrl,
    app,
    db,
    mail,
    close: async () => {
      await app.close();
      await db.destroy();
      await testDb.drop();
    },
  };
}

export interface TestBrowser {
  context: BrowserContext;
  page: Page;
  /** Messages the page logged as errors and uncaught exceptions (checked at the end of a test). */
  pageErrors: string[];
  close(): Promise<void>;
}

/**
 * A fresh Chromium profile (its own cookies and storage, so a second one is a separate person) with every
 * request outside the test server aborted.
 */
export async function openBrowser(
  baseUrl: string,
  viewport: { width: number; height: number } = { width: 1440, height: 900 },
  options: {
    touch?: boolean;
    serviceWorkers?: 'allow' | 'block';
    /**
     * Under 600 px the app shows compact cards by default. Tests written for the full card at phone size get
     * it the way a rep chooses it on the device ("Full cards"); test/browser/phone-list.test.ts and the tests
     * that pass 'compact' check the compact default.
     */
    cards?: 'compact' | 'full';
  } = {},
): Promise<TestBrowser> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error(`Chromium is missing (${CHROMIUM_HINT})`);
  const profile = mkdtempSync(join(tmpdir(), 'pf-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    viewport,
    hasTouch: options.touch ?? false,
    isMobile: false,
    acceptDownloads: true,
    // Blocked unless a test is about the service worker: its fetches would bypass the request filter below.
    serviceWorkers: options.serviceWorkers ?? 'block',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const origin = new URL(baseUrl).origin;
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(origin) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    return route.abort('blockedbyclient');
  });
  if ((options.cards ?? 'full') === 'full') {
    await context.addInitScript(() => {
      if (window.localStorage.getItem('prospect-finder.cards') === null) {
        window.localStorage.setItem('prospect-finder.cards', JSON.stringify('full'));
      }
    });
  }
  const page = context.pages()[0] ?? (await context.newPage());
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return {
    context,
    page,
    pageErrors,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** A screenshot kept as a test artifact under test-results/browser/. */
export async function keepScreenshot(
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  // Two frames first: cards just scrolled into view (content-visibility: auto) are painted in the next one.
  await page.evaluate(
    () => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
  );
  await page.screenshot({ path, fullPage: options.fullPage ?? false });
  return path;
}

export interface Person {
  name: string;
  email: string;
  password: string;
}

/**
 * Registers a person through the API inside their browser profile (so the session cookie lands there) and,
 * unless told otherwise, turns off the welcome dialog and the install prompt so a test starts on the bare
 * main screen. The first person needs no invitation; later ones get one from `inviter`.
 */
export async function registerViaApi(
  server: TestServer,
  browser: TestBrowser,
  person: Person,
  options: { inviter?: TestBrowser | ApiSession; quiet?: boolean } = {},
): Promise<{ id: string }> {
  let invitationCode: string | undefined;
  if (options.inviter) {
    invitationCode =
      'cookie' in options.inviter
        ? await options.inviter.invite()
        : await (async (inviter: TestBrowser) => {
            const inv = await inviter.page.request.post(`${server.baseUrl}/api/invitations`, { data: {} });
            if (inv.status() !== 201)
              throw new Error(`invitation failed: ${inv.status()} ${await inv.text()}`);
            return ((await inv.json()) as { invitation: { code: string } }).invitation.code;
          })(options.inviter);
  }
  const res = await browser.page.request.post(`${server.baseUrl}/api/register`, {
    data: { ...person, confirmPassword: person.password, ...(invitationCode ? { invitationCode } : {}) },
  });
  if (res.status() !== 201) throw new Error(`registration failed: ${res.status()} ${await res.text()}`);
  if (options.quiet ?? true) {
    const patch = await browser.page.request.patch(`${server.baseUrl}/api/me`, {
      data: { hideInstructions: true, installPromptDismissed: true },
    });
    if (!patch.ok()) throw new Error(`profile update failed: ${patch.status()}`);
  }
  const me = await browser.page.request.get(`${server.baseUrl}/api/me`);
  return { id: ((await me.json()) as { user: { id: string } }).user.id };
}

/** A signed-in account used from Node (no browser): for set-up steps such as inviting or promoting. */
export interface ApiSession {
  cookie: string;
  call(method: string, path: string, body?: unknown): Promise<Response>;
  invite(): Promise<string>;
}

/** Registers the installation's first account (SuperAdmin) from Node and returns its session. */
export async function firstAccount(server: TestServer, person: Person): Promise<ApiSession> {
  const res = await fetch(`${server.baseUrl}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.baseUrl },
    body: JSON.stringify({ ...person, confirmPassword: person.password }),
  });
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${server.baseUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', origin: server.baseUrl, cookie },
      body: body === undefined ? null : JSON.stringify(body),
    });
  return {
    cookie,
    call,
    invite: async () => {
      const inv = await call('POST', '/api/invitations', {});
      if (inv.status !== 201) throw new Error(`invitation failed: ${inv.status} ${await inv.text()}`);
      return ((await inv.json()) as { invitation: { code: string } }).invitation.code;
    },
  };
}

/** expect.poll options for UI waits: vitest's 1 s default is tight on a busy two-core machine. */
export const POLL = { timeout: 10_000, interval: 100 } as const;

/**
 * Counts the page's API requests still waiting for an answer (the live event stream aside, which never ends).
 * Attach before the page loads; `settled()` waits until none has been pending for a moment, so a test can change
 * the server's state behind the page without racing the page's own first loads.
 */
export function trackApiRequests(page: Page): { settled(): Promise<void> } {
  const pending = new Set<Request>();
  const isApi = (r: Request) => {
    const path = new URL(r.url()).pathname;
    return path.startsWith('/api/') && path !== '/api/events';
  };
  page.on('request', (r) => {
    if (isApi(r)) pending.add(r);
  });
  page.on('requestfinished', (r) => pending.delete(r));
  page.on('requestfailed', (r) => pending.delete(r));
  return {
    settled: async () => {
      // Quiet twice, a beat apart: an answer often starts the next request (the results after the user, say).
      const deadline = Date.now() + POLL.timeout;
      for (let quiet = 0; quiet < 2;) {
        if (Date.now() > deadline) {
          throw new Error(`API requests still pending: ${[...pending].map((r) => r.url()).join(', ')}`);
        }
        await page.waitForTimeout(200);
        quiet = pending.size === 0 ? quiet + 1 : 0;
      }
    },
  };
}
