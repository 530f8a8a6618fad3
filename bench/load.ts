// `npm run load -- [--reps 100] [--seconds 60] [--ramp-seconds 15] [--db sqlite|postgres] [--think-ms 2000] [--keep]`
// `npm run load -- --find-capacity [--db sqlite|postgres] [--step 25] [--stage-seconds 20] [--max-reps 400]`
//
// Drives N simulated reps against a real server this script starts itself (tsx src/server/main.ts in its own
// process, on a fresh SQLite file or a fresh PostgreSQL database, with the SF extract imported). Each rep signs
// in, then until the time is up works the list: scan, next page, log a call, save (and, past 20 saved, unsave the
// oldest so the 30 limit is never hit), pausing a think time between steps (uniform 50-150 % of --think-ms).
// Prints throughput, p50/p95/p99/max and errors per step. Exits 1 when any request failed.
//
// --find-capacity adds reps in stages (--step more every --stage-seconds, each new rep signing in over the first
// quarter of its stage) until the p99 of the requests started in a stage crosses 500 ms (or --max-reps), and prints
// each stage and the highest sustained scans/s and requests/s: those of the last stage under the line. With
// `taskset` on a machine of 2 CPUs or more, the load generator runs pinned to CPU 0 and the server to CPU 1, so
// the figure is one core's and the generator does not take the server's CPU.
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
  /** The reps' sign-ins spread over this many seconds at the start (at most a quarter of the run). */
  rampSeconds: number;
  findCapacity: boolean;
  step: number;
  stageSeconds: number;
  maxReps: number;
}

/** The p99 a stage must stay under to count as sustained: 500 ms. */
const CAPACITY_P99_MS = 500;

function parseArgs(argv: string[]): Options {
  const o: Options = {
    reps: 100,
    seconds: 60,
    db: 'sqlite',
    thinkMs: 2000,
    keep: false,
    rampSeconds: 15,
    findCapacity: false,
    step: 25,
    stageSeconds: 20,
    maxReps: 400,
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = (argv[i] ?? '').split('=', 2) as [string, string | undefined];
    const value = () => inline ?? argv[++i] ?? '';
    if (flag === '--') continue;
    else if (flag === '--reps') o.reps = Number(value());
    else if (flag === '--seconds') o.seconds = Number(value());
    else if (flag === '--think-ms') o.thinkMs = Number(value());
    else if (flag === '--keep') o.keep = true;
    else if (flag === '--find-capacity') o.findCapacity = true;
    else if (flag === '--ramp-seconds') o.rampSeconds = Number(value());
    else if (flag === '--step') o.step = Number(value());
    else if (flag === '--stage-seconds') o.stageSeconds = Number(value());
    else if (flag === '--max-reps') o.maxReps = Number(value());
    else if (flag === '--db') {
      const v = value();
      if (v !== 'sqlite' && v !== 'postgres') throw new Error('--db must be sqlite or postgres');
      o.db = v;
    } else throw new Error(`unknown option ${flag}`);
  }
  if (!(o.reps >= 1 && o.seconds >= 1 && o.thinkMs >= 0 && o.rampSeconds >= 0)) {
    throw new Error('bad --reps/--seconds/--think-ms/--ramp-seconds');
  }
  if (!(o.step >= 1 && o.stageSeconds >= 5 && o.maxReps >= o.step)) {
    throw new Error('bad --step/--stage-seconds/--max-reps');
  }
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
  /** When each failed request started. */
  readonly failedAt: number[] = [];
  readonly samples = new Map<string, number>();
  constructor(readonly name: string) {}

  async time<T>(run: () => Promise<Answer>, ok: (a: Answer) => T | undefined): Promise<T | undefined> {
    const started = performance.now();
    const at = Date.now();
    let answer: Answer | undefined;
    let failure = '';
    try {
      answer = await run();
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    }
    // Pushed together once the answer is in: requests of one step overlap, so pushing the start before the await
    // would pair each latency with another request's start.
    this.latencies.push(performance.now() - started);
    this.startedAt.push(at);
    const result = answer && answer.status < 400 ? ok(answer) : undefined;
    if (result === undefined) {
      this.errors += 1;
      this.failedAt.push(at);
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

/** When the reps stop: a fixed time, or moved to now when a capacity search ends. */
const run = { until: 0 };

async function rep(
  index: number,
  startDelayMs: number,
  account: { email: string; password: string },
  thinkMs: number,
) {
  const { email, password } = account;
  // A rep whose pause would end after the run stops there. (Cutting the pause short at the end instead made
  // every rep still thinking fire at the same instant: a burst of ~50 requests in 15 ms that no team sends,
  // which alone made the p99 of a 40 s run.)
  const think = async (): Promise<boolean> => {
    const pause = thinkMs * (0.5 + Math.random());
    if (Date.now() + pause >= run.until) return false;
    await sleep(pause);
    return true;
  };
  // Reps start over a ramp-up (a quarter of the run, at most 15 s), as a team signs in over the morning:
  // sign-in hashes the password with scrypt (about 100 ms of CPU by design), so 100 at the same instant
  // would measure only the hash queue.
  await sleep(startDelayMs);
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

function runTsx(cmd: string[], env: NodeJS.ProcessEnv): void {
  const r = spawnSync(process.execPath, ['--import', 'tsx', ...cmd], { cwd: ROOT, env, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${cmd.join(' ')} failed (${r.status})`);
}

async function startServer(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  // LOAD_SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the server during the run.
  const extra = (process.env.LOAD_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  // --expose-gc as `npm start` runs it: the young generation is collected after scans' answers (src/server/young-gc.ts).
  const command = [process.execPath, '--expose-gc', ...extra, '--import', 'tsx', 'src/server/main.ts'];
  const pinned = serverCpu === null ? command : ['taskset', '-c', String(serverCpu), ...command];
  const child = spawn(pinned[0]!, pinned.slice(1), {
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

/** The CPU the server is pinned to (capacity search with taskset), else null. */
let serverCpu: number | null = null;

/**
 * For a capacity search: run this script again pinned to CPU 0 (the server goes to CPU 1), when taskset exists
 * and there are two CPUs. Answers true when the pinned copy ran (its exit code is this one's).
 */
function pinnedRerun(o: Options): boolean {
  if (!o.findCapacity || cpus().length < 2) return false;
  if (process.env.LOAD_PINNED === '1') {
    serverCpu = 1;
    return false;
  }
  const r = spawnSync(
    'taskset',
    [
      '-c',
      '0',
      process.execPath,
      '--import',
      'tsx',
      fileURLToPath(import.meta.url),
      ...process.argv.slice(2),
    ],
    { cwd: ROOT, env: { ...process.env, LOAD_PINNED: '1' }, stdio: 'inherit' },
  );
  if (r.error) {
    console.log(`taskset is not available (${r.error.message}); running unpinned`);
    return false;
  }
  process.exitCode = r.status ?? 1;
  return true;
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  if (pinnedRerun(o)) return;
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
    // The shortest cooldown the server allows: every scan checks and takes its slot, as in production. A rep's
    // scans are four think times apart, at least twice --think-ms; closer than the cooldown, it is off.
    SCAN_COOLDOWN_MS: 2 * o.thinkMs >= 500 ? '500' : '0',
  };
  let server: ChildProcess | undefined;
  try {
    console.log(`Importing ${EXTRACT} (${o.db})`);
    runTsx(['src/server/cli/import-osm.ts', EXTRACT], { ...env, LOG_LEVEL: 'warn' });
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
    for (let i = 0; i < (o.findCapacity ? o.maxReps : o.reps); i++) {
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

    if (o.findCapacity) {
      await findCapacity(o, accounts);
    } else {
      console.log(
        `Load: ${o.reps} reps for ${o.seconds} s on ${o.db}, think time ${o.thinkMs} ms (±50 %), server ${base}`,
      );
      const started = Date.now();
      run.until = started + o.seconds * 1000;
      const rampMs = Math.min(o.rampSeconds * 1000, (o.seconds * 1000) / 4);
      await Promise.all(accounts.map((a, i) => rep(i, (i / accounts.length) * rampMs, a, o.thinkMs)));
      const elapsedS = (Date.now() - started) / 1000;
      report(o, elapsedS, started + rampMs);
    }
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

interface Stage {
  reps: number;
  requests: number;
  scans: number;
  seconds: number;
  p50: number;
  p99: number;
  errors: number;
}

/** The requests started in [from, to): how many, scans among them, p50 and p99, failures. */
function stageFigures(reps: number, from: number, to: number): Stage {
  const latencies: number[] = [];
  let scans = 0;
  let errors = 0;
  for (const step of Object.values(steps)) {
    step.startedAt.forEach((at, i) => {
      if (at < from || at >= to) return;
      latencies.push(step.latencies[i] ?? 0);
      if (step === steps.scan) scans += 1;
    });
    errors += step.failedAt.filter((at) => at >= from && at < to).length;
  }
  latencies.sort((a, b) => a - b);
  return {
    reps,
    requests: latencies.length,
    scans,
    seconds: (to - from) / 1000,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    errors,
  };
}

/**
 * Adds o.step reps every o.stageSeconds (their sign-ins spread over the first quarter of the stage) until a
 * stage's p99 crosses CAPACITY_P99_MS, a request fails, or every account works; then stops the reps and prints
 * each stage and the last one under the line.
 */
async function findCapacity(o: Options, accounts: { email: string; password: string }[]) {
  console.log(
    `Capacity search on ${o.db}: +${o.step} reps every ${o.stageSeconds} s up to ${o.maxReps}, think time ` +
      `${o.thinkMs} ms (±50 %), until p99 > ${CAPACITY_P99_MS} ms; ` +
      (serverCpu === null ? 'unpinned' : `load generator on CPU 0, server on CPU ${serverCpu}`),
  );
  run.until = Number.POSITIVE_INFINITY;
  const working: Promise<void>[] = [];
  const stages: Stage[] = [];
  let started = 0;
  for (;;) {
    const from = Date.now();
    const adding = accounts.slice(started, started + o.step);
    const spread = (o.stageSeconds * 1000) / 4;
    adding.forEach((a, i) => working.push(rep(started + i, (i / adding.length) * spread, a, o.thinkMs)));
    started += adding.length;
    await sleep(o.stageSeconds * 1000);
    const stage = stageFigures(started, from, Date.now());
    stages.push(stage);
    console.log(
      `  ${stage.reps} reps: ${(stage.scans / stage.seconds).toFixed(1)} scans/s, ` +
        `${(stage.requests / stage.seconds).toFixed(1)} requests/s, p50 ${stage.p50.toFixed(1)} ms, ` +
        `p99 ${stage.p99.toFixed(1)} ms, ${stage.errors} errors`,
    );
    if (stage.p99 > CAPACITY_P99_MS || stage.errors > 0 || started >= accounts.length) break;
  }
  run.until = Date.now();
  await Promise.all(working);
  const held = stages.filter((st) => st.p99 <= CAPACITY_P99_MS && st.errors === 0).at(-1);
  console.log('\n| reps | scans/s | requests/s | p50 | p99 | errors |');
  console.log('| ---- | ------- | ---------- | --- | --- | ------ |');
  for (const st of stages) {
    console.log(
      `| ${st.reps} | ${(st.scans / st.seconds).toFixed(1)} | ${(st.requests / st.seconds).toFixed(1)} | ` +
        `${st.p50.toFixed(1)} ms | ${st.p99.toFixed(1)} ms | ${st.errors} |`,
    );
  }
  console.log(
    held
      ? `Capacity (${o.db}): ${(held.scans / held.seconds).toFixed(1)} scans/s and ` +
          `${(held.requests / held.seconds).toFixed(1)} requests/s sustained with ${held.reps} reps ` +
          `(p99 ${held.p99.toFixed(1)} ms)` +
          (held === stages.at(-1) ? `; every account was working, so the capacity is higher` : '')
      : `Capacity (${o.db}): not even the first stage held a p99 under ${CAPACITY_P99_MS} ms`,
  );
  console.log(
    `Node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
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
