// The built web app (dist/web) served beside the API, and the answer to every other path: the app's
// index.html for a page address (the app routes it in the browser), a JSON 404 for anything else.
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

// This module runs from src/server (tsx, tests) or bundled into dist/server/main.js (npm start): dist/web either way.
const WEB_ROOT = fileURLToPath(
  new URL(import.meta.url.includes('/dist/server/') ? '../web' : '../../../dist/web', import.meta.url),
);

/**
 * Cache-Control of a file of the built web app (path relative to dist/web). Everything under assets/ has a
 * content hash in its name, so a changed file is a new URL: a year, `immutable`. The rest keeps its name from
 * build to build (index.html, the service worker sw.js and its workbox-*.js, registerSW.js, the manifest,
 * icons): browsers keep a copy but ask again each time (`no-cache`, answered 304 while unchanged), so a new
 * release reaches everyone on the next load.
 */
export function webCacheControl(relativePath: string): string {
  const path = relativePath.split(sep).join('/');
  return path.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/** `serve`: whether to serve dist/web (default: when it exists). */
async function webApp(app: FastifyInstance, { serve }: { serve?: boolean | undefined }) {
  const webAvailable = serve ?? existsSync(WEB_ROOT);
  if (webAvailable) {
    await app.register(fastifyStatic, {
      root: WEB_ROOT,
      wildcard: false,
      index: ['index.html'],
      // The build writes x.br and x.gz beside each text asset (vite.config.ts): send the one the browser
      // accepts, with `Vary: Accept-Encoding`.
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, filePath) => {
        reply.header('cache-control', webCacheControl(relative(WEB_ROOT, filePath)));
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (webAvailable && request.method === 'GET' && !path.startsWith('/api/') && !path.includes('.')) {
      return reply.sendFile('index.html');
    }
    return reply.status(404).send({ error: 'Not found' });
  });
}

export const webAppPlugin = fp(webApp, { name: 'web-app' });
