// npm 12 skips a dependency's install script unless package.json's allowScripts approves it. The app cannot start
// without better-sqlite3's native module and esbuild's binary, so every locked package with an install script
// must be approved at exactly its locked version, and its lockfile entry must keep the registry URL that lets npm
// match a pinned approval.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { allowScripts?: Record<string, boolean> };
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
  packages: Record<string, { version?: string; resolved?: string; hasInstallScript?: boolean }>;
};

describe('install scripts', () => {
  const withScripts = Object.entries(lock.packages)
    .filter(([path, p]) => path !== '' && p.hasInstallScript)
    .map(([path, p]) => ({ name: path.slice(path.lastIndexOf('node_modules/') + 13), ...p }));

  it('approves exactly the locked packages that have one, each at its locked version', () => {
    expect(withScripts.map((p) => p.name).sort()).toEqual(['better-sqlite3', 'esbuild']);
    const approved = Object.entries(pkg.allowScripts ?? {})
      .filter(([, allowed]) => allowed)
      .map(([key]) => key)
      .sort();
    expect(approved).toEqual(withScripts.map((p) => `${p.name}@${p.version}`).sort());
  });

  it('keeps their registry URL in the lockfile, which a pinned approval needs', () => {
    for (const p of withScripts) {
      expect(p.resolved).toBe(`https://registry.npmjs.org/${p.name}/-/${p.name}-${p.version}.tgz`);
    }
  });
});
