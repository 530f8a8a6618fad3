import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { constants as zlibConstants, gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build as esbuild } from 'esbuild';

/** The initial-JavaScript budget: what the browser must download before the first screen. */
const INITIAL_JS_BUDGET_GZIP = 300 * 1024;

/**
 * Prints the gzip size of the JavaScript the entry page loads before anything lazy (the entry chunk and
 * its static imports, transitively) and fails the build when it exceeds the budget.
 */
function initialJsBudget(): Plugin {
  return {
    name: 'initial-js-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      const entries = Object.values(bundle).filter((c) => c.type === 'chunk' && c.isEntry);
      const seen = new Set<string>();
      const queue = entries.map((c) => c.fileName);
      let total = 0;
      const parts: string[] = [];
      while (queue.length > 0) {
        const name = queue.shift();
        if (name === undefined || seen.has(name)) continue;
        seen.add(name);
        const chunk = bundle[name];
        if (!chunk || chunk.type !== 'chunk') continue;
        const size = gzipSync(chunk.code, { level: 9 }).length;
        total += size;
        parts.push(`${name} ${(size / 1024).toFixed(1)} KB`);
        queue.push(...chunk.imports);
      }
      const line = `initial JS (gzip): ${(total / 1024).toFixed(1)} KB of ${INITIAL_JS_BUDGET_GZIP / 1024} KB budget [${parts.join(', ')}]`;
      console.log(`\n${line}`);
      if (total > INITIAL_JS_BUDGET_GZIP) this.error(`Initial JavaScript over budget: ${line}`);
    },
  };
}

/** Mantine's `useId` module replaced by src/web/mantine-use-id.ts (see there why). */
function mantineUseId(): Plugin {
  const replacement = fileURLToPath(new URL('src/web/mantine-use-id.ts', import.meta.url));
  return {
    name: 'mantine-use-id',
    enforce: 'pre',
    resolveId(source, importer) {
      const fromMantineHooks = importer?.replace(/\\/g, '/').includes('/@mantine/hooks/esm/') ?? false;
      return fromMantineHooks && source === './use-id/use-id.mjs' ? replacement : null;
    },
  };
}

/**
 * The service worker's Background Sync handler (src/web/offline/sw-outbox.ts, sharing the page's send
 * code) bundled on its own as one classic script, sw-outbox.js, for the generated worker's importScripts.
 */
function serviceWorkerOutbox(): Plugin {
  return {
    name: 'sw-outbox',
    apply: 'build',
    async generateBundle() {
      const result = await esbuild({
        entryPoints: [fileURLToPath(new URL('src/web/offline/sw-outbox.ts', import.meta.url))],
        bundle: true,
        format: 'iife',
        minify: true,
        target: 'es2022',
        write: false,
        legalComments: 'none',
      });
      const code = result.outputFiles[0]?.text;
      if (!code) this.error('sw-outbox.js: esbuild produced nothing');
      this.emitFile({ type: 'asset', fileName: 'sw-outbox.js', source: code });
    },
  };
}

export default defineConfig({
  root: 'src/web',
  publicDir: 'public',
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    sourcemap: false,
    // The initial-JS budget below (gzip, entry plus its static imports) is the size check that matters;
    // rolldown's per-chunk warning on minified bytes only repeats it less precisely.
    chunkSizeWarningLimit: 1024,
  },
  server: {
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } },
  },
  plugins: [
    react(),
    mantineUseId(),
    serviceWorkerOutbox(),
    VitePWA({
      registerType: 'autoUpdate',
      // A separate registerSW.js file (the server's Content-Security-Policy allows no inline script), deferred so
      // it never holds up the first paint.
      injectRegister: 'script-defer',
      includeAssets: ['favicon.svg', 'apple-touch-icon.png'],
      manifest: {
        name: 'Prospect Finder',
        short_name: 'Prospects',
        description: 'AI-Powered Prospect Discovery for local advertising sales.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'any',
        background_color: '#ffffff',
        theme_color: '#1c7ed6',
        icons: [
          { src: 'icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: 'icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: 'icon-512-maskable.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          { src: 'favicon.svg', sizes: 'any', type: 'image/svg+xml' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        navigateFallback: 'index.html',
        // The API is never answered from the service worker's cache.
        navigateFallbackDenylist: [/^\/api\//, /^\/healthz/],
        cleanupOutdatedCaches: true,
        // The Background Sync handler of the offline outbox (serviceWorkerOutbox above).
        importScripts: ['sw-outbox.js'],
        // Map tiles the rep viewed are kept for offline use, within a size budget (about 2,000
        // tiles of ~20 kB: ~40 MB, 30 days); the oldest go first, and all of them if storage runs short.
        runtimeCaching: [
          {
            urlPattern: ({ request, url }) =>
              request.destination === 'image' &&
              /\/\d+\/\d+\/\d+(@2x)?(\.(png|jpe?g|webp))?$/.test(url.pathname),
            handler: 'CacheFirst',
            options: {
              cacheName: 'map-tiles',
              expiration: { maxEntries: 2000, maxAgeSeconds: 30 * 24 * 60 * 60, purgeOnQuotaError: true },
              // Tile servers elsewhere answer opaque responses (status 0) without CORS.
              cacheableResponse: { statuses: [0, 200] },
            },
          },
        ],
      },
    }),
    initialJsBudget(),
    // Brotli and gzip copies of every text asset beside it (x.js.br, x.js.gz), made once here at the highest
    // levels; the server sends the one the browser accepts (@fastify/static `preCompressed`) and never
    // compresses per request.
    compression({
      algorithms: [
        defineAlgorithm('brotliCompress', { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }),
        defineAlgorithm('gzip', { level: 9 }),
      ],
      include: /\.(html|css|js|mjs|json|svg|webmanifest)$/,
      threshold: 1024,
      logLevel: 'silent',
    }),
  ],
});
