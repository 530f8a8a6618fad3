// The Mantine stylesheets are imported one by one (src/web/mantine.css) rather than all of @mantine/core's
// styles.css: a component used in src/web whose stylesheet is missing there would show unstyled.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const WEB = join(import.meta.dirname);
const STYLES = join(import.meta.dirname, '../../node_modules/@mantine/core/styles');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('Mantine styles', () => {
  const listed = [
    ...readFileSync(join(WEB, 'mantine.css'), 'utf8').matchAll(
      /@import '@mantine\/core\/styles\/([\w-]+)\.css'/g,
    ),
  ].map((m) => m[1]);

  it('lists the stylesheet of every Mantine component the web app imports', () => {
    const available = new Set(readdirSync(STYLES).map((f) => f.replace(/\.css$/, '')));
    const used = new Set<string>();
    for (const file of sources(WEB)) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'@mantine\/core'/g)) {
        for (const name of (m[1] ?? '').split(',')) {
          const id = name.trim().replace(/^type\s+/, '');
          if (available.has(id)) used.add(id);
        }
      }
    }
    expect(used.size).toBeGreaterThan(10);
    const missing = [...used].filter((name) => !listed.includes(name));
    expect(missing).toEqual([]);
  });

  it('starts with the global styles and lists files that exist, each once', () => {
    expect(listed.slice(0, 3)).toEqual(['baseline', 'default-css-variables', 'global']);
    for (const name of listed) expect(readdirSync(STYLES)).toContain(`${name}.css`);
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('is what the app loads instead of the full styles.css', () => {
    const main = readFileSync(join(WEB, 'main.tsx'), 'utf8');
    expect(main).toContain("import './mantine.css';");
    expect(main).not.toContain('@mantine/core/styles.css');
  });
});
