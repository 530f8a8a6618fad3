// Builds what `npm start` runs, each part only when its sources changed since the last build:
//   dist/web                 the web app (vite), swapped in whole so a running server never sees it half-written
//   dist/server/main.js      the server bundled to JavaScript by esbuild (dependencies stay in node_modules)
// "Changed" is a SHA-256 of the sources' paths and contents (not their mtimes: a checkout or a copy keeps the
// build), kept in dist/.build/. `node scripts/build.mjs [web|server] [--force]`; `npm start` calls ensureBuilt().
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const WEB_OUT = join(ROOT, 'dist', 'web');
export const SERVER_OUT = join(ROOT, 'dist', 'server', 'main.js');
const STAMPS = join(ROOT, 'dist', '.build');

const SOURCES = {
  web: ['src/web', 'src/core', 'vite.config.ts', 'package-lock.json', 'scripts/build.mjs'],
  server: ['src/server', 'src/core', 'package-lock.json', 'scripts/build.mjs'],
};

function listFiles(path, out) {
  if (!existsSync(path)) return;
  if (!statSync(path).isDirectory()) {
    out.push(path);
    return;
  }
  const entries = readdirSync(path, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const e of entries) {
    const full = join(path, e.name);
    if (e.isDirectory()) listFiles(full, out);
    else if (e.isFile() && !/\.test\.tsx?$/.test(e.name)) out.push(full);
  }
}

/** The hash of one part's sources: their paths and contents. */
export function sourceHash(part) {
  const hash = createHash('sha256');
  const files = [];
  for (const entry of SOURCES[part]) listFiles(join(ROOT, entry), files);
  for (const f of files) {
    hash.update(relative(ROOT, f));
    hash.update('\0');
    hash.update(readFileSync(f));
    hash.update('\0');
  }
  return hash.digest('hex');
}

const stampFile = (part) => join(STAMPS, `${part}.sha256`);
const output = (part) => (part === 'web' ? join(WEB_OUT, 'index.html') : SERVER_OUT);

/** Whether `part` was built from the sources as they are now. */
export function upToDate(part, hash = sourceHash(part)) {
  if (!existsSync(output(part))) return false;
  try {
    return readFileSync(stampFile(part), 'utf8').trim() === hash;
  } catch {
    return false;
  }
}

function writeStamp(part, hash) {
  mkdirSync(STAMPS, { recursive: true });
  writeFileSync(stampFile(part), `${hash}\n`);
}

function buildWeb() {
  // Built beside dist/web and swapped in with renames; the previous hashed assets are kept, so a page that
  // loaded the previous index.html a moment ago still finds its scripts.
  const stamp = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const fresh = join(ROOT, 'dist', `.web-build-${stamp}`);
  const old = join(ROOT, 'dist', `.web-old-${stamp}`);
  const vite = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const r = spawnSync(process.execPath, [vite, 'build', '--outDir', fresh, '--emptyOutDir'], {
    cwd: ROOT,
    // React's production bundle whatever NODE_ENV the caller runs with (vitest sets "test").
    env: { ...process.env, NODE_ENV: 'production' },
    // The build's own report goes to stderr: stdout carries the server's JSON log lines.
    stdio: ['ignore', 2, 2],
  });
  if (r.status !== 0) {
    rmSync(fresh, { recursive: true, force: true });
    throw new Error(`web build failed (vite exited with ${r.status ?? r.signal})`);
  }
  const previousAssets = join(WEB_OUT, 'assets');
  if (existsSync(previousAssets)) {
    cpSync(previousAssets, join(fresh, 'assets'), { recursive: true, force: false, errorOnExist: false });
  }
  try {
    renameSync(WEB_OUT, old);
  } catch {
    // Not there yet (first build), or another build is swapping at this moment.
  }
  try {
    renameSync(fresh, WEB_OUT);
  } catch {
    rmSync(fresh, { recursive: true, force: true }); // another build swapped its own in first: it serves too
  }
  rmSync(old, { recursive: true, force: true });
}

async function buildServer() {
  const { build } = await import('esbuild');
  const tmp = `${SERVER_OUT}.${process.pid}.tmp.js`;
  await build({
    entryPoints: [join(ROOT, 'src', 'server', 'main.ts')],
    outfile: tmp,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    // Dependencies are loaded from node_modules at run time, as under tsx.
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  renameSync(`${tmp}.map`, `${SERVER_OUT}.map`);
  // The map names the final file.
  const code = readFileSync(tmp, 'utf8').replace(
    /\/\/# sourceMappingURL=.*$/m,
    '//# sourceMappingURL=main.js.map',
  );
  writeFileSync(tmp, code);
  renameSync(tmp, SERVER_OUT);
}

/**
 * Build each part whose sources changed (or every part with force); `log` gets one line per part saying
 * whether it was up to date or built.
 */
export async function ensureBuilt({ parts = ['web', 'server'], force = false, log = console.error } = {}) {
  for (const part of parts) {
    const hash = sourceHash(part);
    if (!force && upToDate(part, hash)) {
      log(`${part} build up to date (${relative(ROOT, output(part))})`);
      continue;
    }
    const started = Date.now();
    log(`building the ${part === 'web' ? 'web app' : 'server'}: ${force ? 'forced' : 'sources changed'}`);
    if (part === 'web') buildWeb();
    else await buildServer();
    writeStamp(part, hash);
    log(`${part} built in ${((Date.now() - started) / 1000).toFixed(1)} s (${relative(ROOT, output(part))})`);
  }
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const args = process.argv.slice(2);
  const parts = args.filter((a) => a === 'web' || a === 'server');
  ensureBuilt({ parts: parts.length > 0 ? parts : ['web', 'server'], force: args.includes('--force') }).catch(
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
