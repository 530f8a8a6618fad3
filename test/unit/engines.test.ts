// `npm ci` on Node 20 must not warn EBADENGINE. Every package in the lock file declares
// (if at all) a Node range that holds the project's own minimum (package.json engines) and Node 22 and 24;
// where a dependency's newest release dropped Node 20, package.json pins an older one with `overrides`.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const semver = require('semver') as {
  satisfies(version: string, range: string, options?: { includePrerelease?: boolean }): boolean;
  minVersion(range: string): { version: string } | null;
};

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (file: string) => JSON.parse(readFileSync(`${ROOT}/${file}`, 'utf8'));

describe('Node versions', () => {
  it('every locked package supports the Node versions the project supports', () => {
    const pkg = read('package.json');
    const minimum = semver.minVersion(pkg.engines.node)!.version;
    const lock = read('package-lock.json') as {
      packages: Record<string, { version?: string; engines?: unknown; optional?: boolean }>;
    };
    const unsupported: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      const range = (entry.engines as { node?: unknown } | undefined)?.node;
      // npm skips an optional package (a platform binary) whose engines do not fit, without a warning.
      if (!path || entry.optional || typeof range !== 'string') continue;
      for (const node of [minimum, '22.13.0', '24.0.0']) {
        if (!semver.satisfies(node, range))
          unsupported.push(`${path}@${entry.version} needs node ${range}, not ${node}`);
      }
    }
    expect(unsupported).toEqual([]);
  });

  it('pins cookie and content-disposition to releases that support Node 20', () => {
    const lock = read('package-lock.json');
    const cookie = lock.packages['node_modules/light-my-request/node_modules/cookie'];
    const disposition = lock.packages['node_modules/@fastify/static/node_modules/content-disposition'];
    expect([cookie.version, cookie.engines.node]).toEqual(['1.1.1', '>=18']);
    expect([disposition.version, disposition.engines.node]).toEqual(['2.0.1', '>=18']);
  });
});
