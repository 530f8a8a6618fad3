// How the built web app is sent: hashed files under /assets compressed ahead of time and
// cached for a year, everything that keeps its name across releases revalidated on each load.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/app.js';
import { ensureWebBuilt } from '../browser/harness.js';

const WEB = resolve(import.meta.dirname, '../../dist/web');
const YEAR_IMMUTABLE = 'public, max-age=31536000, immutable';

let t: TestContext;
let mainScript: string;
let mainCss: string;
beforeAll(async () => {
  ensureWebBuilt();
  t = await createTestContext({}, { serveWeb: true });
  const index = (await t.request({ method: 'GET', url: '/' })).body;
  mainScript = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"/.exec(index)?.[1] ?? '';
  mainCss = /<link rel="stylesheet" crossorigin href="(\/assets\/[^"]+\.css)"/.exec(index)?.[1] ?? '';
}, 120_000);
afterAll(() => t.close());

const get = (url: string, acceptEncoding?: string) =>
  t.request({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

describe('the built web app', () => {
  it('sends the main script brotli-compressed, cached for a year, when the browser accepts br', async () => {
    expect(mainScript).toMatch(/^\/assets\/index-[\w-]+\.js$/);
    const plain = await get(mainScript);
    const res = await get(mainScript, 'gzip, deflate, br, zstd');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(res.headers['cache-control']).toBe(YEAR_IMMUTABLE);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    const body = brotliDecompressSync(res.rawPayload).toString('utf8');
    expect(body).toBe(plain.body);
    expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
  });

  it('sends gzip to a browser that accepts only gzip, and the plain file to one that accepts neither', async () => {
    const gz = await get(mainScript, 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['cache-control']).toBe(YEAR_IMMUTABLE);
    const plain = await get(mainScript, 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe(YEAR_IMMUTABLE);
    expect(gunzipSync(gz.rawPayload).toString('utf8')).toBe(plain.body);
  });

  /** The js and css files the current build's main script reaches, following the chunk names each one names. */
  function currentBuildAssets(): string[] {
    const seen = new Set<string>();
    const queue = [mainScript.replace('/assets/', '')];
    while (queue.length > 0) {
      const file = queue.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      if (!file.endsWith('.js')) continue;
      const text = readFileSync(join(WEB, 'assets', file), 'utf8');
      for (const m of text.matchAll(/([\w.-]+-[\w-]{8}\.(?:js|css))/g)) {
        if (existsSync(join(WEB, 'assets', m[1]!))) queue.push(m[1]!);
      }
    }
    expect(readdirSync(join(WEB, 'assets')).length).toBeGreaterThanOrEqual(seen.size);
    return [...seen];
  }

  it('compresses the stylesheet and every lazy script the same way', async () => {
    expect(mainCss).toMatch(/^\/assets\/.+\.css$/);
    // The files of the current build: everything the main script reaches. dist/web/assets also keeps the
    // previous builds' hashed files for pages loaded before a rebuild; those are not this build's to check.
    const files = currentBuildAssets();
    expect(files.length).toBeGreaterThan(3);
    for (const file of [mainCss.replace('/assets/', ''), ...files]) {
      const res = await get(`/assets/${file}`, 'br, gzip');
      if (res.rawPayload.length < 1024 && res.headers['content-encoding'] === undefined) continue;
      expect(res.headers['content-encoding'], file).toBe('br');
      expect(res.headers['cache-control'], file).toBe(YEAR_IMMUTABLE);
    }
  });

  it('has index.html, the service worker and the manifest revalidated on every load', async () => {
    for (const url of ['/', '/index.html', '/sw.js', '/registerSW.js', '/manifest.webmanifest']) {
      const res = await get(url, 'br, gzip');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
    const workbox = readdirSync(WEB).find((f) => /^workbox-.+\.js$/.test(f));
    expect(workbox).toBeDefined();
    expect((await get(`/${workbox}`)).headers['cache-control']).toBe('no-cache');
    // The SPA fallback (a reload on a client-side path) is index.html too.
    const fallback = await get('/reset-password?token=x');
    expect(fallback.statusCode).toBe(200);
    expect(fallback.headers['cache-control']).toBe('no-cache');
    expect(fallback.body).toContain('<div id="root">');
  });

  it('leaves API answers alone', async () => {
    const res = await get('/api/config', 'br, gzip');
    expect(res.headers['cache-control']).not.toBe(YEAR_IMMUTABLE);
  });
});
