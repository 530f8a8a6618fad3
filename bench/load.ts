// `npm run load -- [--reps 100] [--seconds 60] [--db sqlite|postgres] [--think-ms 2000] [--keep]`
//
// Drives N simulated reps against a real server this script starts itself (tsx src/server/main.ts in its own
// process, on a fresh SQLite file or a fresh PostgreSQL database, with the SF extract imported). Each rep signs
// in, then until the time is up works the list: scan, next page, log a call, save (and, past 20 saved, unsave the
// oldest so the 30 limit is never hit), pausing a think time between steps (uniform 50-150 % of --think-ms).
// Prints throughput, p50/p95/p99/max and errors per step. Exits 1 when any request failed.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { osmExtract } from '../test/helpers/osm-data.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const EXTRACT = osmExtract('sf-downtown.osm.pbf');
const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

interface Options {
  reps: number;
  seconds: number;
  db: 'sqlite' | 'postgres';
  thinkMs: number;
  keep: boolean;
}

function parseArgs(argv: string[]): Options {
  const o: Options = { reps: 100, seconds: 60, db: 'sqlite', thinkMs: 2000, keep: false };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = (argv[i] ?? '').split('=', 2) as [string, string | undefined];
    const value = () => inline ?? argv[++i] ?? '';
    if (flag === '--') continue;
    else if (flag === '--reps') o.reps = Number(value());
    else if (flag === '--seconds') o.seconds = Number(value());
    else if (flag === '--think-ms') o.thinkMs = Number(value());
    else if (flag === '--keep') o.keep = true;
    else if (flag === '--db') {
      const v = value();
      if (v !== 'sqlite' && v !== 'postgres') throw new Error('--db must be sqlite or postgres');
      o.db = v;
    } else throw new Error(`unknown option ${flag}`);
  }
  if (!(o.reps >= 1 && o.seconds >= 1 && o.thinkMs >= 0)) throw new Error('bad --reps/--seconds/--think-ms');
  return o;
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

// ---- HTTP with a keep-alive agent (one connection per rep at most) ----

interface Answer {
  status: number;
  body: string;
  cookies: string[];
}

let agent: Agent;
let base = '';

function send(method: string, path: string, body?: unknown, cookie = ''): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}${path}`,
      {
        method,
        agent,
        headers: {
          origin: base,
          ...(cookie ? { cookie } : {}),
          ...(payload
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
            : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const set = res.headers['set-cookie'] ?? [];
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            cookies: set,
          });
        });
        res.on('error', reject);
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error('timeout after 30 s')));
    req.on('error', reject);
    req.end(payload);
  });
}

// ---- Figures per step ----

class Step {
  readonly latencies: number[] = [];
  /** When each request started (ms since the epoch), beside its latency. */
  readonly startedAt: number[] = [];
  errors = 0;
  readonly samples = new Map<string, number>();
  constructor(readonly name: string) {}

  async time<T>(run: () => Promise<Answer>, ok: (a: Answer) => T | undefined): Promise<T | undefined> {
    const started = performance.now();
    this.startedAt.push(Date.now());
    let answer: Answer | undefined;
    let failure = '';
    try {
      answer = await run();
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    }
    this.latencies.push(performance.now() - started);
    const result = answer && answer.status < 400 ? ok(answer) : undefined;
    if (result === undefined) {
      this.errors += 1;
      const why = failure || `${answer?.status} ${answer?.body.slice(0, 120)}`;
      this.samples.set(why, (this.samples.get(why) ?? 0) + 1);
    }
    return result;
  }
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
}

// ---- The simulated rep ----

interface Prospect {
  id: string;
  name: string;
  category: string;
  phone?: string;
  address: string;
}

// A grid of scan centres over downtown San Francisco (the extract covers it).
const CENTRES: { lat: number; lng: number }[] = [];
for (let i = 0; i < 6; i++)
  for (let j = 0; j < 6; j++) CENTRES.push({ lat: 37.776 + i * 0.005, lng: -122.425 + j * 0.006 });

/** The routes the steps call, as the server's metrics name them. */
const STEP_ROUTES = new Set([
  'POST /api/session',
  'POST /api/scans',
  'GET /api/scans/latest',
  'POST /api/call-logs',
  'POST /api/saved',
  'DELETE /api/saved/:prospectId',
]);

const steps = {
  signIn: new Step('sign in'),
  scan: new Step('scan'),
  nextPage: new Step('next page'),
  callLog: new Step('log a call'),
  save: new Step('save'),
  unsave: new Step('unsave'),
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function rep(
  index: number,
  count: number,
  rampMs: number,
  account: { email: string; password: string },
  until: number,
  thinkMs: number,
) {
  const { email, password } = account;
  // A rep whose pause would end after the run stops there. (Cutting the pause short at the end instead made
  // every rep still thinking fire at the same instant: a burst of ~50 requests in 15 ms that no team sends,
  // which alone made the p99 of a 40 s run.)
  const think = async (): Promise<boolean> => {
    const pause = thinkMs * (0.5 + Math.random());
    if (Date.now() + pause >= until) return false;
    await sleep(pause);
    return true;
  };
  // Reps start over a ramp-up (a quarter of the run, at most 15 s), as a team signs in over the morning:
  // sign-in hashes the password with scrypt (about 100 ms of CPU by design), so 100 at the same instant
  // would measure only the hash queue.
  await sleep((index / Math.max(1, count)) * rampMs);
  const cookie = await steps.signIn.time(
    () => send('POST', '/api/session', { email, password }),
    (a) => a.cookies.map((c) => c.split(';')[0]).join('; ') || undefined,
  );
  if (!cookie) return;
  const saved: string[] = [];
  let round = 0;
  while (await think()) {
    const centre = CENTRES[(index * 7 + round++) % CENTRES.length]!;
    const first = await steps.scan.time(
      () => send('POST', '/api/scans', { ...centre, radiusMiles: 1, count: 20 }, cookie),
      (a) => JSON.parse(a.body) as { prospects: Prospect[] },
    );
    if (!(await think())) break;
    const next = await steps.nextPage.time(
      () => send('GET', '/api/scans/latest?offset=20&limit=20', undefined, cookie),
      (a) => JSON.parse(a.body) as { prospects: Prospect[] },
    );
    const pool = [...(first?.prospects ?? []), ...(next?.prospects ?? [])];
    const prospect = pool[Math.floor(Math.random() * pool.length)];
    if (!prospect) continue;
    if (!(await think())) break;
    await steps.callLog.time(
      () =>
        send(
          'POST',
          '/api/call-logs',
          {
            prospectId: prospect.id,
            name: prospect.name,
            category: prospect.category,
            phone: prospect.phone ?? '',
            address: prospect.address,
            outcome: Math.random() < 0.7 ? 'Called' : 'Visited',
            note: `load test note ${randomBytes(4).toString('hex')}`,
          },
          cookie,
        ),
      (a) => (a.status === 201 ? true : undefined),
    );
    if (!(await think())) break;
    const ok = await steps.save.time(
      () => send('POST', '/api/saved', { prospect }, cookie),
      (a) => (a.status === 201 || a.status === 200 ? true : undefined),
    );
    if (ok && !saved.includes(prospect.id)) saved.push(prospect.id);
    if (saved.length > 20) {
      const oldest = saved.shift()!;
      await steps.unsave.time(
        () => send('DELETE', `/api/saved/${encodeURIComponent(oldest)}`, undefined, cookie),
        (a) => (a.status === 204 ? true : undefined),
      );
    }
  }
}

// ---- Server set-up ----

function run(cmd: string[], env: NodeJS.ProcessEnv): void {
  const r = spawnSync(process.execPath, ['--import', 'tsx', ...cmd], { cwd: ROOT, env, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${cmd.join(' ')} failed (${r.status})`);
}

async function startServer(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  // LOAD_SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the server during the run.
  const extra = (process.env.LOAD_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...extra, '--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error('server exited during start-up');
    if (Date.now() > deadline) throw new Error('server did not start in 60 s');
    try {
      if ((await send('GET', '/healthz')).status === 200) return child;
    } catch {
      // not up yet
    }
    await sleep(200);
  }
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  agent = new Agent({ keepAlive: true, maxSockets: o.reps + 10 });
  const dataDir = mkdtempSync(join(tmpdir(), 'pf-load-'));
  let pgName = '';
  let databaseUrl = '';
  if (o.db === 'postgres') {
    pgName = `pf_load_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${pgName}`);
    await admin.end();
    const url = new URL(POSTGRES_ADMIN_URL);
    url.pathname = `/${pgName}`;
    databaseUrl = url.toString();
  }
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: base,
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
    PLACE_PROVIDERS: 'local',
    // Raised for the load: every rep signs in from 127.0.0.1 and scans back to back.
    SIGN_IN_RATE_LIMIT: '1000000',
    SIGN_IN_IP_RATE_LIMIT: '1000000',
    INVITATION_CHECK_RATE_LIMIT: '1000000',
    SCAN_COOLDOWN_MS: '0',
  };
  let server: ChildProcess | undefined;
  try {
    console.log(`Importing ${EXTRACT} (${o.db})`);
    run(['src/server/cli/import-osm.ts', EXTRACT], { ...env, LOG_LEVEL: 'warn' });
    server = await startServer(env);

    // Accounts: the first becomes SuperAdmin; the reps register with invitations it generates.
    const ownerPassword = `owner-${randomBytes(6).toString('hex')}`;
    const reg = await send('POST', '/api/register', {
      name: 'Load Owner',
      email: 'owner@load.test',
      password: ownerPassword,
    });
    if (reg.status !== 201) throw new Error(`register owner: ${reg.status} ${reg.body}`);
    const ownerCookie = reg.cookies.map((c) => c.split(';')[0]).join('; ');
    const accounts: { email: string; password: string }[] = [];
    for (let i = 0; i < o.reps; i++) {
      const inv = await send('POST', '/api/invitations', {}, ownerCookie);
      if (inv.status !== 201) throw new Error(`invitation: ${inv.status} ${inv.body}`);
      const { invitation } = JSON.parse(inv.body) as { invitation: { code: string } };
      const account = { email: `rep${i}@load.test`, password: `pw-${randomBytes(6).toString('hex')}` };
      const r = await send('POST', '/api/register', {
        name: `Rep ${i}`,
        ...account,
        invitationCode: invitation.code,
      });
      if (r.status !== 201) throw new Error(`register rep: ${r.status} ${r.body}`);
      accounts.push(account);
    }

    console.log(
      `Load: ${o.reps} reps for ${o.seconds} s on ${o.db}, think time ${o.thinkMs} ms (±50 %), server ${base}`,
    );
    const started = Date.now();
    const until = started + o.seconds * 1000;
    const rampMs = Math.min(15_000, (o.seconds * 1000) / 4);
    await Promise.all(accounts.map((a, i) => rep(i, accounts.length, rampMs, a, until, o.thinkMs)));
    const elapsedS = (Date.now() - started) / 1000;
    report(o, elapsedS, started + rampMs);
    reportServerSide((await send('GET', '/metrics', undefined, ownerCookie)).body);
  } finally {
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server!.once('exit', r));
    }
    agent.destroy();
    if (!o.keep) rmSync(dataDir, { recursive: true, force: true });
    else console.log(`Kept ${dataDir}${pgName ? ` and database ${pgName}` : ''}`);
    if (pgName && !o.keep) {
      const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
      await admin.end();
    }
  }
  const errors = Object.values(steps).reduce((n, s) => n + s.errors, 0);
  process.exitCode = errors > 0 ? 1 : 0;
}

function report(o: Options, elapsedS: number, steadyFrom: number): void {
  const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
  const rows: string[][] = [];
  const all: number[] = [];
  let errors = 0;
  for (const step of Object.values(steps)) {
    if (step.latencies.length === 0) continue;
    const sorted = [...step.latencies].sort((a, b) => a - b);
    all.push(...sorted);
    errors += step.errors;
    rows.push([
      step.name,
      String(sorted.length),
      `${(sorted.length / elapsedS).toFixed(1)}/s`,
      fmt(quantile(sorted, 0.5)),
      fmt(quantile(sorted, 0.95)),
      fmt(quantile(sorted, 0.99)),
      fmt(sorted[sorted.length - 1] ?? 0),
      String(step.errors),
    ]);
  }
  all.sort((a, b) => a - b);
  rows.push([
    'all',
    String(all.length),
    `${(all.length / elapsedS).toFixed(1)}/s`,
    fmt(quantile(all, 0.5)),
    fmt(quantile(all, 0.95)),
    fmt(quantile(all, 0.99)),
    fmt(all[all.length - 1] ?? 0),
    String(errors),
  ]);
  // The same after the ramp-up: every rep signed in, the caches of the scan centres warm.
  const steady = Object.values(steps)
    .flatMap((st) => st.latencies.filter((_, i) => (st.startedAt[i] ?? 0) >= steadyFrom))
    .sort((a, b) => a - b);
  const steadyS = Math.max(1, elapsedS - (steadyFrom - (Date.now() - elapsedS * 1000)) / 1000);
  rows.push([
    'all after ramp-up',
    String(steady.length),
    `${(steady.length / steadyS).toFixed(1)}/s`,
    fmt(quantile(steady, 0.5)),
    fmt(quantile(steady, 0.95)),
    fmt(quantile(steady, 0.99)),
    fmt(steady[steady.length - 1] ?? 0),
    '',
  ]);
  const head = ['step', 'requests', 'throughput', 'p50', 'p95', 'p99', 'max', 'errors'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(`\n${o.reps} reps, ${elapsedS.toFixed(1)} s, ${o.db}`);
  console.log(line(head));
  console.log(`| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`);
  for (const r of rows) console.log(line(r));
  console.log(
    `Node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  for (const step of Object.values(steps))
    for (const [why, n] of step.samples) console.log(`  ${step.name}: ${n} x ${why}`);
}

/**
 * The server's own timing of the same requests (its `http_request_duration_seconds` histogram, from the router
 * to the last byte written). A client p99 far above it means the requests waited outside the handlers: behind
 * a burst, in the kernel, or for a CPU the load generator was using.
 */
function reportServerSide(metrics: string): void {
  const routes = new Map<string, Map<string, number>>();
  for (const line of metrics.split('\n')) {
    const m = /^http_request_duration_seconds_bucket\{(.*)\} (\d+)$/.exec(line);
    if (!m) continue;
    const labels: Record<string, string | undefined> = Object.fromEntries(
      [...m[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1]!, l[2]!]),
    );
    const route = `${labels.method} ${labels.route}`;
    if (!STEP_ROUTES.has(route) || labels.le === undefined) continue;
    const buckets = routes.get(route) ?? new Map<string, number>();
    buckets.set(labels.le, (buckets.get(labels.le) ?? 0) + Number(m[2]));
    routes.set(route, buckets);
  }
  console.log('\nAs the server timed them (its /metrics histogram, every status):');
  console.log('| route | requests | over 100 ms | over 250 ms | over 500 ms |');
  console.log('| ----- | -------- | ----------- | ----------- | ----------- |');
  for (const [route, b] of routes) {
    const total = b.get('+Inf') ?? 0;
    const over = (le: string) => total - (b.get(le) ?? 0);
    console.log(`| ${route} | ${total} | ${over('0.1')} | ${over('0.25')} | ${over('0.5')} |`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
