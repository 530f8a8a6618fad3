// Helpers shared by the benchmarks (kept apart from places.bench.ts, whose module needs the SF extract).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { join, resolve } from 'node:path';
import pg from 'pg';
import * as prettier from 'prettier';

const PG_ADMIN = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A benchmark's own place: a temporary DATA_DIR and, for PostgreSQL, a new database on the test server. */
export interface ScratchDatabase {
  dataDir: string;
  /** DATABASE_URL: '' for SQLite (the file in dataDir). */
  url: string;
  /** Drops the PostgreSQL database and removes the folder; close the app and the Db first. */
  remove(): Promise<void>;
}

export async function scratchDatabase(kind: 'sqlite' | 'postgres', prefix: string): Promise<ScratchDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const name = `pf_bench_${randomBytes(5).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: PG_ADMIN });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  let url = '';
  if (kind === 'postgres') {
    await admin(`CREATE DATABASE ${name}`);
    const u = new URL(PG_ADMIN);
    u.pathname = `/${name}`;
    url = u.toString();
  }
  return {
    dataDir,
    url,
    remove: async () => {
      if (kind === 'postgres') await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Waits, up to `maxMinutes`, until the 1-minute load average is below `below` while this process is idle, and
 * returns the load average it measured at: a latency measured beside another process's work says more about that
 * work than about the code. A long benchmark can then share its filling phase with other work and still measure on
 * a quiet machine.
 */
export async function untilQuiet(below = 0.8, maxMinutes = 90): Promise<number> {
  const until = Date.now() + maxMinutes * 60_000;
  let said = false;
  while ((loadavg()[0] ?? 0) >= below && Date.now() < until) {
    if (!said) console.log(`waiting for a quiet machine (load average ${loadavg()[0]?.toFixed(2)})…`);
    said = true;
    await sleep(5_000);
  }
  return loadavg()[0] ?? 0;
}

export function arg(args: string[], name: string, fallback: number): number {
  const hit = args.find((a) => a.startsWith(`--${name}=`));
  return hit ? Number(hit.split('=')[1]) : fallback;
}

/** Deterministic PRNG (mulberry32) so every run measures the same points and the same synthetic city. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Replace (or add) one section of docs/PERFORMANCE.md, the file formatted as `npm run check` wants it. */
export async function writeSection(
  section: string,
  heading = '## Places: import and radius query',
): Promise<void> {
  const file = resolve('docs/PERFORMANCE.md');
  const text = existsSync(file)
    ? readFileSync(file, 'utf8')
    : '# Performance\n\nFigures measured on the development machine with `npm run bench`.\n';
  // The whole heading line: another section's heading may begin with this one's text.
  const start = text.indexOf(`${heading}\n`);
  let out: string;
  if (start < 0) {
    out = `${text.trimEnd()}\n\n${section}`;
  } else {
    const next = text.indexOf('\n## ', start + heading.length);
    out = `${text.slice(0, start)}${section}${next < 0 ? '' : `\n${text.slice(next + 1)}`}`;
  }
  const options = (await prettier.resolveConfig(file)) ?? {};
  writeFileSync(file, await prettier.format(out, { ...options, filepath: file }));
  console.log(`Wrote the "${heading.slice(3)}" section of ${file}`);
}
